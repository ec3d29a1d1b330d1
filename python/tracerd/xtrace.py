"""Typed xtrace instruction-stream records (*.xinsndata.bin): tracerd.xtrace.open(path)
yields Insn, Mem, Val, AllGpr, MiscFlags, SyscallVec, Iov, SyscallVecEnd, Time, Opaque and
tracerd.Fragment (large memory values, iovec data) named tuples, as the reader gives them.
Snapshot files (*.xsnapshot.bin) are not bound."""
from . import _open, _tracerd, _typed_reader

Insn = _tracerd.XtraceInsn
Mem = _tracerd.XtraceMem
Val = _tracerd.XtraceVal
AllGpr = _tracerd.XtraceAllGpr
MiscFlags = _tracerd.XtraceMiscFlags
SyscallVec = _tracerd.XtraceSyscallVec
SyscallVecEnd = _tracerd.XtraceSyscallVecEnd
Iov = _tracerd.XtraceIov
Time = _tracerd.XtraceTime
Opaque = _tracerd.XtraceOpaque
Fragment = _tracerd.Fragment

__all__ = ["open", "Reader", "Insn", "Mem", "Val", "AllGpr", "MiscFlags", "SyscallVec",
           "SyscallVecEnd", "Iov", "Time", "Opaque", "Fragment"]


Reader = _typed_reader(
    "xtrace",
    "A typed xtrace instruction-stream reader fed with feed(); options: lenient "
    "(trailing zero padding and a truncated tail become warnings), max_pending, "
    "on_warning.")


def open(source, **options):
    """Opens an xtrace instruction stream (path, socket, binary file object or bytes)."""
    return _open(source, None, "xtrace", options, Reader)
