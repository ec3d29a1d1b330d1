"""Typed xtrace records. tracerd.xtrace.open(path) reads an instruction stream
(*.xinsndata.bin): Insn, Mem, Val, AllGpr, MiscFlags, SyscallVec, Iov, SyscallVecEnd, Time,
Opaque and tracerd.Fragment (large memory values, iovec data) named tuples, as the reader
gives them; or a register snapshot file (*.xsnapshot.bin, or snapshot=True): Layout,
Header, then per snapshot Snapshot, Register (Z0..Z31, P0..P15, FFR, ZA, each whole) and
SnapshotEnd."""
import os

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
Layout = _tracerd.XtraceLayout
Header = _tracerd.XtraceHeader
Snapshot = _tracerd.XtraceSnapshot
Register = _tracerd.XtraceRegister
SnapshotEnd = _tracerd.XtraceSnapshotEnd

__all__ = ["open", "Reader", "SnapshotReader", "Insn", "Mem", "Val", "AllGpr", "MiscFlags",
           "SyscallVec", "SyscallVecEnd", "Iov", "Time", "Opaque", "Fragment", "Layout",
           "Header", "Snapshot", "Register", "SnapshotEnd"]


Reader = _typed_reader(
    "xtrace",
    "A typed xtrace instruction-stream reader fed with feed(); options: lenient "
    "(trailing zero padding and a truncated tail become warnings), max_pending, "
    "on_warning.")

SnapshotReader = _typed_reader(
    "xtrace",
    "A typed xtrace snapshot-file reader fed with feed(); the record layout is detected "
    "from the data; options: byte_order (else detected), lenient (a truncated tail becomes "
    "a warning), max_pending, on_warning.",
    typed="xtrace-snap", name="SnapshotReader")


def open(source, snapshot=None, **options):
    """Opens an xtrace instruction stream or, for a path ending in .xsnapshot.bin or with
    snapshot=True, a register snapshot file (path, socket, binary file object or bytes)."""
    if snapshot is None:
        snapshot = isinstance(source, (str, os.PathLike)) and \
            os.fspath(source).endswith(".xsnapshot.bin")
    return _open(source, None, "xtrace", options, SnapshotReader if snapshot else Reader)
