"""Typed LLVM XRay records: tracerd.xray.open(path) yields Header, Buffer, Function,
CustomEvent, Metadata, BufferEnd and Fragment named tuples, as the XRay reader gives them."""
from . import _open, _tracerd, _typed_reader

Header = _tracerd.XrayHeader
Buffer = _tracerd.XrayBuffer
BufferEnd = _tracerd.XrayBufferEnd
Function = _tracerd.XrayFunction
CustomEvent = _tracerd.XrayCustomEvent
Metadata = _tracerd.XrayMetadata
Fragment = _tracerd.Fragment

__all__ = ["open", "Reader", "Header", "Buffer", "BufferEnd", "Function", "CustomEvent",
           "Metadata", "Fragment"]


Reader = _typed_reader(
    "xray",
    "A typed XRay reader fed with feed(); options: lenient, byte_order, max_pending, "
    "on_warning.")


def open(source, **options):
    """Opens an XRay trace (path, socket, binary file object or bytes) for its typed records."""
    return _open(source, None, "xray", options, Reader)

