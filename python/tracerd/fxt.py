"""Typed Fuchsia trace format (FXT) records: tracerd.fxt.open(path) yields Metadata, Init,
String, Thread, Event, Blob, UserspaceObject, KernelObject, Scheduling, Log, LargeBlob,
Unknown and tracerd.Fragment named tuples, as the FXT reader gives them (strings and
threads resolved, arguments as a dict, ns from the provider's ticks per second)."""
from . import _open, _tracerd, _typed_reader

Metadata = _tracerd.FxtMetadata
Init = _tracerd.FxtInit
String = _tracerd.FxtString
Thread = _tracerd.FxtThread
Event = _tracerd.FxtEvent
Blob = _tracerd.FxtBlob
UserspaceObject = _tracerd.FxtUserspaceObject
KernelObject = _tracerd.FxtKernelObject
Scheduling = _tracerd.FxtScheduling
Log = _tracerd.FxtLog
LargeBlob = _tracerd.FxtLargeBlob
Unknown = _tracerd.FxtUnknown
Fragment = _tracerd.Fragment

__all__ = ["open", "Reader", "Metadata", "Init", "String", "Thread", "Event", "Blob",
           "UserspaceObject", "KernelObject", "Scheduling", "Log", "LargeBlob", "Unknown",
           "Fragment"]


Reader = _typed_reader(
    "fxt",
    "A typed FXT reader fed with feed(); options: lenient, byte_order, max_pending, "
    "on_warning.")


def open(source, **options):
    """Opens an FXT trace (path, socket, binary file object or bytes) for its typed records."""
    return _open(source, None, "fxt", options, Reader)
