"""Every call that differs between POSIX and Windows, in one place.

The rest of workmem never calls ``fcntl``, ``msvcrt``, signals, ``os.kill`` or
``O_NOFOLLOW`` itself: it calls these functions, each with a POSIX branch (the tested one)
and a Windows branch. Where Windows lacks the primitive, the branch says what it does
instead:

* locks: ``flock`` / ``msvcrt.locking`` on the first byte; both die with their holder;
* not following links: ``O_NOFOLLOW`` / a link check just before opening (racy, see README);
* is a process alive: ``kill(pid, 0)`` / ``OpenProcess`` + ``GetExitCodeProcess``
  (``os.kill`` on Windows *terminates* the process, whatever the signal);
* deadlines: ``SIGALRM`` / a timer thread that interrupts the main thread;
* folder fsync: POSIX only (Windows cannot open a folder for fsync; NTFS journals renames);
* detached children: a new session / a new process group without a console.

Paths that reach workmem from outside (a hook payload's ``cwd`` and ``transcript_path``,
``WORKMEM_ROOT``, ``--root``) are parsed here too (``outside_path``), so drive letters,
backslashes and URI forms are handled the same way everywhere.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

WINDOWS = sys.platform == "win32"
#: 0 where the platform has no such flag (Windows): ``open_no_follow`` checks by hand then.
NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)


class UnsafeFileError(OSError):
    """A file that must be ours (a lock, a log) is a link, a hard link or not a file."""


def open_no_follow(path: Path, flags: int, mode: int = 0o644) -> int:
    """``os.open`` that refuses a symbolic link at ``path`` and anything but a lone file.

    Never truncates (``O_TRUNC`` is refused): the callers are lock and log files, and
    the point is that a planted link or hard link cannot make us empty someone's file.
    Raises ``UnsafeFileError`` (an ``OSError``) with a reason a person can act on.
    """
    if flags & os.O_TRUNC:
        raise ValueError("open_no_follow never truncates")
    if not NO_FOLLOW and path.is_symlink():  # Windows: check, then open (racy)
        raise UnsafeFileError(errno.ELOOP, "is a symbolic link", str(path))
    try:
        fd = os.open(path, flags | NO_FOLLOW | _BINARY, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP or (exc.errno == errno.EMLINK and path.is_symlink()):
            raise UnsafeFileError(errno.ELOOP, "is a symbolic link", str(path)) from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFileError(errno.EINVAL, "is not a regular file", str(path))
        if info.st_nlink > 1:
            raise UnsafeFileError(
                errno.EMLINK, f"has {info.st_nlink} hard links (another name shares it)", str(path)
            )
    except BaseException:
        os.close(fd)
        raise
    return fd


def append_line(path: Path, line: str) -> None:
    """Append one line to a log file of ours, never through a link (see ``open_no_follow``)."""
    fd = open_no_follow(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        os.write(fd, line.encode("utf-8", "replace"))
    finally:
        os.close(fd)


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable. POSIX only: Windows cannot open folders so."""
    if WINDOWS:
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems refuse fsync on folders; the rename is still atomic
    finally:
        os.close(fd)


def read_at(fd: int, size: int, offset: int) -> bytes:
    """``os.pread``, which Windows lacks (there: seek, then read)."""
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)  # pragma: no cover - Windows
    return os.read(fd, size)  # pragma: no cover - Windows


def write_at(fd: int, data: bytes, offset: int) -> None:
    """``os.pwrite``, which Windows lacks (there: seek, then write)."""
    if hasattr(os, "pwrite"):
        os.pwrite(fd, data, offset)
        return
    os.lseek(fd, offset, os.SEEK_SET)  # pragma: no cover - Windows
    os.write(fd, data)  # pragma: no cover - Windows


# -- process liveness -----------------------------------------------------------------------


def pid_alive(pid: int) -> bool:
    """Whether a process with this ID exists (another user's counts as alive).

    A number no system uses as a PID (one read from a garbled lock file) is no process;
    asking the OS about it would raise instead of answering.
    """
    if not 0 < pid < 2**31:
        return False
    return _pid_alive_windows(pid) if WINDOWS else _pid_alive_posix(pid)


def _pid_alive_posix(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def _pid_alive_windows(pid: int) -> bool:  # pragma: no cover - exercised on Windows only
    import ctypes

    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    query_limited_information, still_active, access_denied = 0x1000, 259, 5
    handle = kernel32.OpenProcess(query_limited_information, False, pid)
    if not handle:
        return bool(kernel32.GetLastError() == access_denied)
    try:
        code = ctypes.c_ulong()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return True
        return code.value == still_active
    finally:
        kernel32.CloseHandle(handle)


def detached() -> dict[str, Any]:
    """``Popen`` options for a child that outlives the hook that started it: its own
    session on POSIX, its own process group without a console on Windows."""
    if WINDOWS:  # pragma: no cover - exercised on Windows only
        import subprocess

        flags = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        return {"creationflags": flags | getattr(subprocess, "DETACHED_PROCESS", 0)}
    return {"start_new_session": True}


# -- inter-process locks --------------------------------------------------------------------

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def try_lock(fd: int) -> bool:
        """Take an exclusive lock on ``fd`` without waiting; False if someone holds it."""
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def try_lock(fd: int) -> bool:
        """Take an exclusive lock on ``fd`` without waiting; False if someone holds it."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


# -- deadlines ------------------------------------------------------------------------------


@contextlib.contextmanager
def deadline(seconds: float, expired: Callable[[], BaseException]) -> Iterator[None]:
    """Raise ``expired()`` in the main thread once ``seconds`` have passed.

    POSIX uses ``SIGALRM``, which also cuts a blocking call short; where there is no such
    signal (Windows) a timer thread interrupts the main thread, which stops at its next
    Python instruction. Outside the main thread there is no deadline (neither can reach it).
    """
    import signal
    import threading

    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
    elif hasattr(signal, "setitimer"):
        with _alarm_deadline(seconds, expired):
            yield
    else:  # pragma: no cover - Windows; the branch itself is tested on POSIX
        with _timer_deadline(seconds, expired):
            yield


@contextlib.contextmanager
def _alarm_deadline(seconds: float, expired: Callable[[], BaseException]) -> Iterator[None]:
    import signal

    def expire(_signum: int, _frame: object) -> None:
        raise expired()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _timer_deadline(seconds: float, expired: Callable[[], BaseException]) -> Iterator[None]:
    """The Windows branch: ``interrupt_main`` raises ``KeyboardInterrupt``, turned into
    ``expired()`` here. Also works on POSIX, which is where it is tested."""
    import _thread
    import threading

    fired = threading.Event()

    def interrupt() -> None:
        fired.set()
        _thread.interrupt_main()

    timer = threading.Timer(seconds, interrupt)
    timer.daemon = True
    timer.start()
    try:
        yield
    except KeyboardInterrupt:
        if fired.is_set():
            raise expired() from None
        raise
    finally:
        timer.cancel()


# -- where things go ------------------------------------------------------------------------


def user_cache_dir(environ: dict[str, str] | None = None, home: Path | None = None) -> Path:
    """Where per-user caches go: ``$XDG_CACHE_HOME`` (else ``~/.cache``), or
    ``%LOCALAPPDATA%`` on Windows; ``WORKMEM_CACHE_DIR`` overrides both."""
    env = os.environ if environ is None else environ
    explicit = env.get("WORKMEM_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    base = env.get("LOCALAPPDATA") if WINDOWS else env.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "workmem"
    return (home or Path.home()) / ".cache" / "workmem"


def windows_ui_locale() -> str | None:
    """The Windows display language as a locale name (``ja_JP``); ``None`` elsewhere.

    Windows sets no ``LANG``: the language a user reads is the one the desktop shows.
    """
    if not WINDOWS:
        return None
    try:  # pragma: no cover - exercised on Windows only
        import ctypes
        import locale

        lcid = ctypes.windll.kernel32.GetUserDefaultUILanguage()  # type: ignore[attr-defined]
        return locale.windows_locale.get(int(lcid))
    except Exception:  # pragma: no cover - a language we cannot read is no language
        return None


def outside_path(text: str, *, windows: bool = WINDOWS, home: str | None = None) -> PurePath:
    """A path handed to us by someone else (a hook payload, ``--root``, ``WORKMEM_ROOT``).

    Accepts what agents and shells actually send: surrounding quotes and blanks,
    ``file://`` URIs (percent-encoded, ``file:///C:/…``), VS Code's ``/c:/…`` form on
    Windows, either slash on Windows, and ``~``. Pure: returns a ``PureWindowsPath`` or
    ``PurePosixPath`` by ``windows``, so it is tested for both flavours on any system.
    """
    value = text.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1].strip()
    if value.lower().startswith("file://"):
        from urllib.parse import unquote, urlsplit

        parts = urlsplit(value)
        value = unquote(parts.path)
        if parts.netloc and parts.netloc.lower() != "localhost":
            value = f"//{parts.netloc}{value}"  # file://server/share/x: a UNC path
    flavour: type[PurePath] = PureWindowsPath if windows else PurePosixPath
    if windows and len(value) >= 3 and value[0] in "/\\" and value[2] == ":" and value[1].isalpha():
        value = value[1:]  # "/c:/Users/…" (VS Code URI path) -> "c:/Users/…"
    if home is not None and (value == "~" or value[:2] in ("~/", "~\\")):
        value = home + value[1:]
    return flavour(value)


# -- the agent a process was started by -------------------------------------------------------

#: Programs that start another on an agent's behalf: a hook runs under ``sh -c``, a plugin
#: under ``uvx`` or ``pipx run``. They are passed over when looking for the agent itself.
LAUNCHERS = frozenset(
    {"sh", "bash", "dash", "zsh", "ksh", "fish", "env", "nice", "timeout", "uv", "uvx", "pipx"}
)


def _proc_stat(pid: int) -> tuple[str, int, str] | None:
    """(command name, parent pid, start time) of ``pid`` from ``/proc``; None elsewhere."""
    found = _proc_stat_state(pid)
    return found[:3] if found is not None else None


#: states of a process that has ended: a zombie its parent has not reaped yet (a container
#: whose first process never reaps, a parent busy elsewhere), or one being removed
_ENDED = frozenset({"Z", "X", "x"})


def _proc_stat_state(pid: int) -> tuple[str, int, str, str] | None:
    """``_proc_stat`` and the process's state letter (``R``, ``S``, ``Z`` …)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return None
    name_start, name_end = text.find("("), text.rfind(")")
    fields = text[name_end + 1 :].split()
    if name_start < 0 or len(fields) < 20:
        return None
    return text[name_start + 1 : name_end], int(fields[1]), fields[19], fields[0]


def agent_process(pid: int | None = None, *, depth: int = 6) -> str | None:
    """The process that started this one (or ``pid``), shells and launchers passed over,
    as ``"<pid>:<start time>"``: the start time tells a reused pid from the first.

    A hook and an MCP server that one agent started find the same answer, which is how the
    server tells which of the hooks' sessions is its own. Read from ``/proc`` (Linux);
    ``None`` where there is none (macOS, Windows) or nothing was found within ``depth``.
    """
    current = _proc_stat(os.getpid() if pid is None else pid)
    for _ in range(depth):
        if current is None or current[1] <= 1:
            return None
        parent = current[1]
        current = _proc_stat(parent)
        if current is None:
            return None
        if current[0] not in LAUNCHERS:
            return f"{parent}:{current[2]}"
    return None


def still_running(identity: object) -> bool | None:
    """Whether the process ``agent_process`` named (``"<pid>:<start time>"``) still runs:
    True or False where ``/proc`` tells, None where it cannot (another system, another
    user's process, a record without an identity). A stopped agent (killed, crashed, its
    terminal closed) is told from one that is only idle this way, whatever the clock says."""
    if not isinstance(identity, str) or ":" not in identity:
        return None
    pid_text, _, started = identity.partition(":")
    if not pid_text.isdigit() or not Path("/proc/self").is_dir():
        return None
    pid = int(pid_text)
    if not pid_alive(pid):
        return False
    found = _proc_stat_state(pid)
    if found is None:
        return None
    return found[2] == started and found[3] not in _ENDED  # a zombie runs nothing


def exit_on_terminate() -> None:
    """Make a termination request (SIGTERM) end this process by ``SystemExit``, so its
    ``finally`` blocks run (a server removes its socket file); nothing where there is none."""
    import signal

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(0)

    if hasattr(signal, "SIGTERM") and not WINDOWS:
        signal.signal(signal.SIGTERM, stop)
