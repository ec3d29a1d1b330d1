"""Typed CTF records: tracerd.ctf.open(path) yields Packet, Event, PacketEnd and Loss named
tuples from the CTF reader (a trace directory: every stream, events merged by time; or one
stream file with its metadata beside it or given as metadata=). Fields are nested values:
one dict per scope (packet header/context; event header, stream_context, context, fields),
structures as dicts, arrays and sequences as lists (byte arrays as bytes), variants as
{option: value}, enumerations as their label when one maps the value."""
from . import _open, _tracerd, _typed_reader

Packet = _tracerd.CtfPacket
PacketEnd = _tracerd.CtfPacketEnd
Event = _tracerd.CtfEvent
Loss = _tracerd.CtfLoss

__all__ = ["open", "Reader", "Packet", "PacketEnd", "Event", "Loss"]


Reader = _typed_reader(
    "ctf",
    "A typed CTF stream reader fed with feed(): give metadata= (bytes or a path); "
    "options: lenient, max_pending, on_warning.")


def open(source, **options):
    """Opens a CTF trace directory, or a stream (path, socket, binary file object or bytes;
    metadata beside a stream file, or metadata=) for its typed records."""
    return _open(source, None, "ctf", options, Reader)
