"""Inter-process file locks that die with their holder.

We use ``flock`` (``msvcrt.locking`` on Windows) directly instead of the ``filelock``
package: it gives the same guarantee (the kernel frees the lock the instant its holder
exits, even by SIGKILL, so a dead process never blocks anyone) at a fraction of the
import cost, which matters because hooks take locks on every prompt.

The holder writes its PID into the lock file and clears it when it lets go. A PID still
there when the lock is next taken means its holder died holding it: the new holder is
told (``on_takeover``), so it can clear what a killed writer left half-done, and a
timeout message can say who holds the lock.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from ..errors import LockTimeoutError

_POLL_START = 0.001
_POLL_MAX = 0.05


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def _recorded_pid(fd: int) -> int:
    try:
        return int(os.pread(fd, 32, 0).decode().strip() or 0)
    except (OSError, ValueError):
        return 0


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
    ):
        self.path = path
        self.timeout = timeout
        self.label = label or path.name
        #: Called with the PID of a holder that died holding the lock, once it is ours.
        self.on_takeover = on_takeover
        self._fd: int | None = None
        self._depth = 0

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        if self._fd is not None:
            self._depth += 1
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + self.timeout
        delay = _POLL_START
        try:
            while not _try_lock(fd):
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
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
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
            _unlock(fd)
        finally:
            os.close(fd)

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


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
