"""tracerd: streaming readers for LLVM XRay, Fuchsia (FXT), CTF and xtrace traces.

    import tracerd
    for ev in tracerd.open("trace.xray"):          # a file, a CTF directory, a socket, a file object
        print(ev.time, ev.kind, ev.name, ev.tid, ev.args)

    with tracerd.open("trace.fxt") as r:            # the batch path: columns, no per-event objects
        while (b := r.read_batch(1 << 16)) is not None:
            ...                                     # numpy.asarray(b.times), b.name_table[b.names[i]]

    r = tracerd.Reader()                            # bytes you receive yourself
    n = r.feed(data)                                # bytes taken; fewer when events are waiting
    for ev in r: ...                                # take them, then feed data[n:]

Events are the library's format-neutral view; tracerd.xray.open() and
tracerd.fxt.open() give those formats' typed records. Errors are tracerd.Error (status, offset, reason, path).
"""
import builtins
import io
import os
import socket

from . import _tracerd
from ._tracerd import KINDS, Batch, Event, Fragment, detect, library_version, status_codes

__all__ = ["open", "xray", "fxt", "xtrace", "ctf", "Reader", "Event", "Batch", "Fragment", "Error", "KINDS", "detect", "dataframe",
           "library_version", "status_codes"]
__version__ = library_version

Error = _tracerd.Error
Error.__module__ = "tracerd"
Error.status = property(lambda self: self.args[0], doc="status name, e.g. 'E_TRUNCATED'")
Error.code = property(lambda self: self.args[1], doc="the C status value (negative)")
Error.offset = property(lambda self: self.args[2], doc="absolute byte offset of the record at fault")
Error.reason = property(lambda self: self.args[3], doc="what is wrong, naming record and field")
Error.path = property(lambda self: self.args[4], doc="file at fault (CTF directories) or None")


def _error_str(self):
    where = f"{self.path}: " if self.path else ""
    return f"{where}{self.status} at byte {self.offset}: {self.reason}"


Error.__str__ = _error_str


class Reader(_tracerd.Reader):
    """A tracerd reader. Reader(format=None, **options) reads bytes given with feed();
    tracerd.open() makes one that reads a file, directory, socket or file object.
    Options: lenient, byte_order ('little'/'big'), max_args, max_pending (events queued before
    feed() stops taking bytes, default 4096), chunk_size (pull mode read size, default 1 MiB),
    metadata (CTF metadata: bytes or a path), xray_names (the instrumented binary: bytes or a
    path), on_warning (callable(status, offset, skipped_bytes, reason), lenient readers)."""

    def __init__(self, format=None, **options):
        _load_paths(options)
        super().__init__(format, **options)

    def batches(self, n=65536):
        """Yields read_batch(n) until the end."""
        while True:
            b = self.read_batch(n)
            if b is None:
                return
            yield b


def _typed_reader(fmt, doc, typed=None, name="Reader"):
    """The Reader class of tracerd.<fmt>: a typed reader (the C reader `typed`, default fmt)
    fed with feed()."""

    def __init__(self, format=None, **options):
        if format not in (None, fmt):
            raise ValueError(f"tracerd.{fmt}.{name} reads {fmt} only")
        _load_paths(options)
        _tracerd.Reader.__init__(self, None, typed=typed or fmt, **options)

    return type(name, (_tracerd.Reader,), {"__init__": __init__, "__doc__": doc,
                                           "__module__": f"tracerd.{fmt}"})


def _read_file(v):
    """A path (str or os.PathLike) is read; bytes-like data is kept as it is."""
    if isinstance(v, (str, os.PathLike)):
        with builtins.open(v, "rb") as f:
            return f.read()
    return v


def _load_paths(options):
    for key in ("metadata", "xray_names"):
        if options.get(key) is not None:
            options[key] = _read_file(options[key])


def _readinto_of(source):
    if isinstance(source, socket.socket):
        return source.recv_into
    readinto = getattr(source, "readinto", None)
    if readinto is not None:
        return readinto
    read = getattr(source, "read", None)
    if read is None:
        raise TypeError("tracerd.open: source must be a path, a socket or a binary file object")

    def readinto_from_read(buf):
        data = read(len(buf))
        if isinstance(data, str):
            raise TypeError("tracerd.open: the file object gives str; open it in binary mode")
        buf[: len(data)] = data
        return len(data)

    return readinto_from_read


_CTF_PACKET_MAGIC = (b"\xc1\x1f\xfc\xc1", b"\xc1\xfc\x1f\xc1")


def _open(source, format, typed, options, cls):
    _load_paths(options)
    if isinstance(source, (bytes, bytearray, memoryview)):
        source = io.BytesIO(source)  # a trace in memory (bytes paths: use str or a Path)
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if os.path.isdir(path):
            if typed not in (None, "ctf"):
                raise ValueError(f"tracerd.{typed}.open: {path} is a directory")
            return cls(format, directory=path, **options)
        f = builtins.open(path, "rb", buffering=0)
        try:
            if typed is None and format is None and path.endswith(".xinsndata.bin"):
                format = "xtrace"  # xtrace has no magic number: known by its file name
            if typed in (None, "ctf") and format in (None, "ctf") and options.get("metadata") is None:
                # A CTF stream file alone: use the metadata file beside it.
                meta = os.path.join(os.path.dirname(path), "metadata")
                if f.read(4) in _CTF_PACKET_MAGIC and os.path.isfile(meta):
                    options["metadata"] = _read_file(meta)
                f.seek(0)
            return cls(format, source=f.readinto, owned=f, **options)
        except BaseException:
            f.close()
            raise
    return cls(format, source=_readinto_of(source), **options)


def open(source, format=None, **options):
    """Opens a trace for reading events: a path (file or CTF trace directory), a socket, a
    binary file object, or the trace's bytes. format: None (detect), 'xray', 'fxt', 'ctf' or 'xtrace'. Returns a
    Reader: iterate it for tracerd.Event objects, or call read_batch(n). Options as for Reader."""
    return _open(source, format, None, options, Reader)


def dataframe(batch):
    """A pandas DataFrame of a Batch (needs pandas and NumPy; the columns are not copied)."""
    import numpy as np
    import pandas as pd

    cols = {name: np.asarray(getattr(batch, name))
            for name in ("times", "end_times", "kinds", "pids", "tids", "cpus")}
    cols["name"] = pd.Categorical.from_codes(np.asarray(batch.names).astype("int64"),
                                             categories=pd.Index(batch.name_table))
    cols["kind"] = pd.Categorical.from_codes(np.asarray(batch.kinds).astype("int64"),
                                             categories=pd.Index(KINDS))
    return pd.DataFrame(cols, copy=False)


from . import ctf, fxt, xray, xtrace  # noqa: E402  (typed records: tracerd.<format>.open)
