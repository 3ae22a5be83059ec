"""Every read of a file workmem did not write itself: bounded in size and in time.

Transcripts, settings, cloud conflict copies, memory files and the files a command is
handed (``--transcript F``, ``@file``) are all named by someone else: an agent's hook
payload, a tool call, a cloned repository. Such a name can point at ``/dev/zero`` (an
endless read that grows the process until the kernel kills it), at a named pipe (a read
that waits forever for a writer), at a socket or a device, or at a sparse file of many
gigabytes. So every reader goes through here:

* the path's type is judged from ``stat`` *before* it is opened: only a regular file is
  read (links are followed, their target judged); a folder, a pipe, a device or a socket
  is refused with its name;
* it is then opened without blocking (a pipe swapped in between the two steps cannot hang
  the open) and judged again on the open handle, so what is read is what was judged;
* a read takes at most ``limit`` bytes and ``seconds`` of wall time, read in chunks, and
  says which limit stopped it, in a ``ReadLimitError`` that names the file.

``read_file`` is the whole-file read; ``open_regular`` and ``read_range`` are for readers
that seek (a transcript's head and tail, an incremental reader's offset).
"""

from __future__ import annotations

import errno
import os
import stat
import time
from pathlib import Path

from ..errors import FormatError, NotFoundError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import BinaryIO

#: How long one read may take before it is given up: far more than a local disk needs
#: for the largest file workmem reads whole, short enough that a hung network mount or
#: a file that trickles in does not hold a command (or a hook's deadline) forever.
READ_SECONDS = 30.0
#: Bytes per read call: the time limit is checked between two calls.
CHUNK = 8 * 1024 * 1024
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_BINARY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class NotAFileError(FormatError):
    """The path names something other than a regular file; it was not opened or read."""

    def __init__(self, message: str, *, path: str | None, kind: str) -> None:
        super().__init__(message, path=path)
        self.kind = kind

    @property
    def is_folder(self) -> bool:
        return self.kind == "a folder"


class ReadLimitError(FormatError):
    """A read stopped at its size or time limit; nothing of the file was used."""


def reason(exc: OSError) -> str:
    """An ``OSError`` as a person reads it: the reason, and its code for a search."""
    code = errno.errorcode.get(exc.errno or 0, "") if exc.errno else ""
    text = {errno.ENOSPC: "the disk is full", errno.EROFS: "the filesystem is read-only"}.get(
        exc.errno or 0, f"{exc.strerror or exc}"
    )
    return text + (f" [{code}]" if code else "")


def kind_of(mode: int) -> str | None:
    """What a non-regular file is, in words; ``None`` for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _refuse(kind: str, shown: str) -> NotAFileError:
    if kind == "a folder":
        return NotAFileError("is a folder, expected a file", path=shown, kind=kind)
    return NotAFileError(f"is {kind}, not a regular file; not read", path=shown, kind=kind)


def regular_stat(path: Path, *, what: str = "file", shown: str | None = None) -> os.stat_result:
    """``stat`` of ``path`` when it is a regular file (links followed).

    ``NotFoundError`` when it does not exist, ``NotAFileError`` for anything else than a
    regular file, a ``FormatError`` naming the reason when it cannot be looked at.
    """
    shown = str(path) if shown is None else shown
    try:
        info = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        raise NotFoundError(f"{what} not found: {shown}") from None
    except OSError as exc:
        raise FormatError(f"cannot be read: {reason(exc)}", path=shown) from None
    except ValueError:  # a NUL byte in the name: no file has it
        raise NotFoundError(f"{what} not found: {shown!r}") from None
    kind = kind_of(info.st_mode)
    if kind is not None:
        raise _refuse(kind, shown)
    return info


def open_fd(path: Path, *, what: str = "file", shown: str | None = None) -> int:
    """A descriptor of the regular file ``path``, judged before and after it was opened."""
    shown = str(path) if shown is None else shown
    regular_stat(path, what=what, shown=shown)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except (FileNotFoundError, NotADirectoryError):
        raise NotFoundError(f"{what} not found: {shown}") from None
    except OSError as exc:
        raise FormatError(f"cannot be read: {reason(exc)}", path=shown) from None
    try:
        kind = kind_of(os.fstat(fd).st_mode)
        if kind is not None:  # replaced between the two looks
            raise _refuse(kind, shown)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_regular(path: Path, *, what: str = "file", shown: str | None = None) -> BinaryIO:
    """``path`` opened for reading as a buffered binary file, when it is a regular file."""
    return os.fdopen(open_fd(path, what=what, shown=shown), "rb")


def read_range(
    handle: BinaryIO,
    start: int,
    size: int,
    *,
    shown: str,
    seconds: float = READ_SECONDS,
) -> bytes:
    """Up to ``size`` bytes of ``handle`` from ``start`` (fewer at its end), in chunks, within
    ``seconds``; ``ReadLimitError`` once the time is over."""
    handle.seek(start)
    if size <= CHUNK:
        return handle.read(size)
    parts: list[bytes] = []
    got = 0
    began = time.monotonic()
    while got < size:
        piece = handle.read(min(CHUNK, size - got))
        if not piece:
            break
        parts.append(piece)
        got += len(piece)
        if got < size and time.monotonic() - began > seconds:
            raise ReadLimitError(
                f"reading stopped after {seconds:g} s with {got:,} of {size:,} bytes read "
                "(a slow disk or network folder); nothing of it was used",
                path=shown,
            )
    return b"".join(parts)


def read_file(
    path: Path,
    *,
    limit: int,
    what: str = "file",
    shown: str | None = None,
    seconds: float = READ_SECONDS,
    limit_note: str = "",
) -> bytes:
    """The whole regular file ``path``: at most ``limit`` bytes, within ``seconds``.

    A file larger than ``limit`` is refused before anything is read (its size is known
    from ``stat``); one that grows past it while being read, or whose size ``stat`` does
    not tell (some virtual files say 0), is stopped at ``limit`` + 1 bytes. Either way the
    error says the size, the limit and ``limit_note`` (what to do about it).
    """
    shown = str(path) if shown is None else shown
    fd = open_fd(path, what=what, shown=shown)
    with os.fdopen(fd, "rb") as handle:
        size = os.fstat(fd).st_size
        if size > limit:
            raise _over(size, limit, what, shown, limit_note)
        try:
            # What stat says, and one byte more to see whether it grew; a size of 0 may
            # be a virtual file that does not tell its size: up to the limit, then.
            data = read_range(
                handle, 0, size + 1 if size else limit + 1, shown=shown, seconds=seconds
            )
            if size and len(data) > size:  # it grew since it was looked at
                more = limit + 1 - len(data)
                data += read_range(handle, len(data), more, shown=shown, seconds=seconds)
        except OSError as exc:
            raise FormatError(f"cannot be read: {reason(exc)}", path=shown) from None
    if len(data) > limit:
        raise _over(len(data), limit, what, shown, limit_note, grew=True)
    return data


def _over(
    size: int, limit: int, what: str, shown: str, note: str, *, grew: bool = False
) -> ReadLimitError:
    told = f"over {size - 1:,} bytes" if grew else f"{size:,} bytes"
    return ReadLimitError(
        f"{what} is {told}, over the {limit:,}-byte limit; nothing was read"
        + (f" ({note})" if note else ""),
        path=shown,
    )


def read_head(path: Path, size: int, *, shown: str | None = None) -> bytes:
    """The first ``size`` bytes of ``path``; ``b""`` for anything that is not a readable
    regular file (a look at a file's start never fails a listing)."""
    try:
        with open_regular(path, shown=shown) as handle:
            return handle.read(size)
    except (FormatError, NotFoundError, OSError):
        return b""


__all__ = [
    "CHUNK",
    "READ_SECONDS",
    "NotAFileError",
    "ReadLimitError",
    "kind_of",
    "open_fd",
    "open_regular",
    "read_file",
    "read_head",
    "read_range",
    "reason",
    "regular_stat",
]
