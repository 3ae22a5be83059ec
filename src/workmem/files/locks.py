"""Inter-process file locks that die with their holder.

We use ``flock`` (``msvcrt.locking`` on Windows, both in ``oscompat``) directly instead of
the ``filelock`` package: it gives the same guarantee (the kernel frees the lock the
instant its holder exits, even by SIGKILL, so a dead process never blocks anyone) at a
fraction of the import cost, which matters because hooks take locks on every prompt.

A lock file is opened without following links and without truncating it
(``oscompat.open_no_follow``): a link planted at a lock file's name, by a cloned
repository or anyone else, is refused instead of emptying the file it points at. The
folder it lives in is the store's to check (``confine``).

The holder writes its PID into the lock file and clears it when it lets go. A PID still
there when the lock is next taken means its holder died holding it: the new holder is
told (``on_takeover``), so it can clear what a killed writer left half-done, and a
timeout message can say who holds the lock.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from ..errors import LockTimeoutError, OutsideRootError, WriteError
from .oscompat import (
    UnsafeFileError,
    open_no_follow,
    pid_alive,
    read_at,
    try_lock,
    unlock,
    write_at,
)

__all__ = ["FileLock", "NoLock", "lock_file_name", "pid_alive"]

_POLL_START = 0.001
_POLL_MAX = 0.05


def _recorded_pid(fd: int) -> int:
    try:
        return int(read_at(fd, 32, 0).decode().strip() or 0)
    except (OSError, ValueError):
        return 0


#: Characters a lock file name cannot hold on some system (Windows forbids the last eight).
_ENCODE = {"%": "%25", "/": "%2F", "\\": "%5C", ":": "%3A", "*": "%2A", "?": "%3F"}
_ENCODE.update({'"': "%22", "<": "%3C", ">": "%3E", "|": "%7C"})
_WINDOWS_DEVICES = frozenset(
    ["CON", "PRN", "AUX", "NUL"] + [f"{d}{n}" for d in ("COM", "LPT") for n in range(1, 10)]
)
_MAX_NAME = 200


def lock_file_name(rel: str) -> str:
    """The lock file name for a file at ``rel`` (a ``/``-separated path from the root).

    One flat folder holds every lock, so the path is encoded into one name that is valid
    on POSIX and Windows alike (``memory/index.md`` -> ``memory%2Findex.md.lock``), never
    a Windows device name, and short enough for any filesystem (long ones end in a hash).
    """
    name = "".join(_ENCODE.get(c, f"%{ord(c):02X}" if ord(c) < 32 else c) for c in rel)
    if name.split(".")[0].upper() in _WINDOWS_DEVICES:
        name = "%" + name
    if len(name.encode("utf-8")) > _MAX_NAME:
        import hashlib

        digest = hashlib.sha1(name.encode("utf-8"), usedforsecurity=False).hexdigest()[:16]
        name = name.encode("utf-8")[: _MAX_NAME - 20].decode("utf-8", "ignore") + "~" + digest
    return name + ".lock"


class FileLock:
    """An exclusive lock on ``path`` (a dedicated lock file, never the data file itself).

    Re-entrant within one object, so a workflow that holds the board lock can call helpers
    that take it again.
    """

    def __init__(
        self,
        path: Path,
        timeout: float = 10.0,
        label: str | None = None,
        on_takeover: Callable[[int], None] | None = None,
        make_folder: Callable[[Path], object] | None = None,
    ):
        self.path = path
        self.timeout = timeout
        self.label = label or path.name
        #: Called with the PID of a holder that died holding the lock, once it is ours.
        self.on_takeover = on_takeover
        #: Creates the lock's folder; the store passes its checked folder maker.
        self.make_folder = make_folder
        self._fd: int | None = None
        self._depth = 0

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        if self._fd is not None:
            self._depth += 1
            return
        fd = self._open()
        deadline = time.monotonic() + self.timeout
        delay = _POLL_START
        try:
            while not try_lock(fd):
                if time.monotonic() >= deadline:
                    raise LockTimeoutError(self._timeout_message(fd))
                time.sleep(delay)
                delay = min(delay * 2, _POLL_MAX)
        except BaseException:
            os.close(fd)
            raise
        died = _recorded_pid(fd)
        try:
            os.ftruncate(fd, 0)
            write_at(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass  # the PID is diagnostic only
        self._fd = fd
        self._depth = 1
        if died and died != os.getpid() and not pid_alive(died) and self.on_takeover:
            self.on_takeover(died)

    def release(self) -> None:
        if self._fd is None:
            return
        self._depth -= 1
        if self._depth > 0:
            return
        fd, self._fd = self._fd, None
        try:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)  # let go cleanly: no PID left to look like a crash
            unlock(fd)
        finally:
            os.close(fd)

    def _open(self) -> int:
        """The lock file, created if missing; refused when it is a link or shares its inode."""
        if self.make_folder is not None:
            self.make_folder(self.path.parent)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return open_no_follow(self.path, os.O_RDWR | os.O_CREAT)
        except UnsafeFileError as exc:
            raise OutsideRootError(
                f"lock file {self.path} {exc.strerror}: lock files are never followed or "
                "shared; remove it (it holds nothing) and try again. Nothing was written"
            ) from None
        except OSError as exc:
            raise WriteError(
                f"could not open the lock file {self.path}: {exc.strerror or exc}; "
                "nothing was written"
            ) from exc

    def _timeout_message(self, fd: int) -> str:
        holder = ""
        pid = _recorded_pid(fd)
        if pid:
            state = "running" if pid_alive(pid) else "exited (a child may hold it)"
            holder = f" by process {pid} ({state})"
        return (
            f"could not lock {self.label} within {self.timeout:g}s: it is held{holder}; "
            "nothing was written"
        )

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


class NoLock(FileLock):
    """What a read-only store hands out: taking it creates and locks nothing, and it is
    never ``held``, so a write under it is refused."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, timeout=0)

    def acquire(self) -> None:
        pass

    def release(self) -> None:
        pass
