"""Locks and the OS layer rule by rule: timeouts and what they say, re-entry, the PID kept
while held, the Windows branches (driven with stand-ins for the Windows API), deadlines.

Written against mutation testing (docs/mutation.md): each test pins a rule of
``files/locks.py`` or ``files/oscompat.py`` that a small change used to break unnoticed.
"""

from __future__ import annotations

import ctypes
import errno
import hashlib
import os
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from workmem.errors import LockTimeoutError, WriteError
from workmem.files import locks, oscompat
from workmem.files.locks import FileLock, NoLock, lock_file_name


def test_a_held_lock_times_out_naming_the_file_and_the_running_holder(tmp_path: Path) -> None:
    path = tmp_path / "board.lock"
    with FileLock(path, label="memory/index.md"):
        other = FileLock(path, timeout=0.05)
        started = time.monotonic()
        with pytest.raises(LockTimeoutError) as info:
            other.acquire()
        assert time.monotonic() - started >= 0.05
        assert str(info.value) == (
            f"could not lock {path.name} within 0.05s: it is held by process {os.getpid()} "
            "(running); nothing was written"
        )
        assert not other.held


def test_a_timeout_says_when_the_recorded_holder_has_exited(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    child = subprocess.Popen(["true"])
    child.wait()
    with FileLock(path):
        path.write_text(f"{child.pid}\n")  # as if a child of the holder kept the lock
        with pytest.raises(LockTimeoutError) as info:
            FileLock(path, timeout=0, label="x.md").acquire()
    assert str(info.value) == (
        f"could not lock x.md within 0s: it is held by process {child.pid} "
        "(exited (a child may hold it)); nothing was written"
    )


def test_a_timeout_without_a_recorded_holder_says_only_that_it_is_held(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    with FileLock(path):
        path.write_text("")
        with pytest.raises(LockTimeoutError) as info:
            FileLock(path, timeout=0.01, label="x.md").acquire()
    assert str(info.value) == "could not lock x.md within 0.01s: it is held; nothing was written"


def _holding_child(path: Path, take: str, then_sleep: float = 60) -> subprocess.Popen[str]:
    """A real process that runs ``take`` (which locks ``path``), says so, then sleeps."""
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import os, sys, time; from pathlib import Path; path = sys.argv[1]; {take}; "
            f"print('held', flush=True); time.sleep({then_sleep})",
            str(path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdout.readline() == "held\n"
    return child


def test_waiting_polls_until_the_holder_lets_go(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    holder = _holding_child(
        path,
        "import fcntl; fd = os.open(path, os.O_RDWR | os.O_CREAT); fcntl.flock(fd, fcntl.LOCK_EX)",
        then_sleep=0.3,
    )
    started = time.monotonic()
    with FileLock(path, timeout=10) as lock:
        assert lock.held
    assert time.monotonic() - started < 5
    holder.wait()
    assert holder.stdout is not None
    holder.stdout.close()


def test_re_entry_counts_and_the_last_release_lets_go(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    lock = FileLock(path)
    lock.acquire()
    lock.acquire()
    assert path.read_text() == f"{os.getpid()}\n"
    lock.release()
    assert (lock.held, path.read_text()) == (True, f"{os.getpid()}\n")
    lock.release()
    assert (lock.held, path.read_text()) == (False, "")
    lock.release()  # releasing a lock not held does nothing
    with FileLock(path, timeout=0):
        pass


def test_a_takeover_is_reported_with_the_dead_holders_pid(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    dead = subprocess.Popen(["true"])
    dead.wait()
    path.write_text(f"{dead.pid}\n")
    seen: list[int] = []
    with FileLock(path, on_takeover=seen.append):
        assert path.read_text() == f"{os.getpid()}\n"
    assert seen == [dead.pid]
    path.write_text(f"{os.getpid()}\n")  # our own PID is not a dead holder
    with FileLock(path, on_takeover=seen.append):
        pass
    path.write_text("not a pid\n")
    with FileLock(path, on_takeover=seen.append):
        pass
    assert seen == [dead.pid]


def test_a_garbled_pid_in_a_lock_file_is_no_holder(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    path.write_text("99999999999999999999\n")
    seen: list[int] = []
    with FileLock(path, on_takeover=seen.append) as lock:
        assert lock.held
    assert seen == [99999999999999999999]
    assert not oscompat.pid_alive(2**31)
    assert oscompat.pid_alive(os.getpid())


def test_the_lock_folder_is_made_by_the_given_maker_or_by_itself(tmp_path: Path) -> None:
    made: list[Path] = []

    def maker(folder: Path) -> None:
        made.append(folder)
        folder.mkdir(parents=True, exist_ok=True)

    with FileLock(tmp_path / "a" / "b" / "x.lock", make_folder=maker):
        pass
    assert made == [tmp_path / "a" / "b"]
    with FileLock(tmp_path / "c" / "d" / "x.lock"):
        pass
    assert (tmp_path / "c" / "d" / "x.lock").is_file()


def test_a_lock_file_that_cannot_be_opened_is_a_write_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the lock folder should be\n")
    lock = FileLock(blocker / "x.lock", make_folder=lambda folder: None)
    with pytest.raises(WriteError) as info:
        lock.acquire()
    assert str(info.value) == (
        f"could not open the lock file {blocker / 'x.lock'}: Not a directory; nothing was written"
    )
    assert not lock.held


def test_the_label_defaults_to_the_file_name(tmp_path: Path) -> None:
    assert FileLock(tmp_path / "x.lock").label == "x.lock"
    assert FileLock(tmp_path / "x.lock", label="memory/x.md").label == "memory/x.md"
    assert FileLock(tmp_path / "x.lock").timeout == 10.0


def test_no_lock_takes_nothing_and_is_never_held(tmp_path: Path) -> None:
    lock = NoLock(tmp_path / "x.lock")
    with lock:
        assert not lock.held
    assert lock.timeout == 0
    assert not (tmp_path / "x.lock").exists()


def test_lock_file_names_encode_every_unsafe_character() -> None:
    assert lock_file_name("a%b/c\\d:e*f?g") == "a%25b%2Fc%5Cd%3Ae%2Af%3Fg.lock"
    assert lock_file_name('h"i<j>k|l') == "h%22i%3Cj%3Ek%7Cl.lock"
    assert lock_file_name("a\x01b\x1fc") == "a%01b%1Fc.lock"
    assert lock_file_name("nul.md") == "%nul.md.lock"
    assert lock_file_name("LPT9") == "%LPT9.lock"
    assert lock_file_name("COM0") == "COM0.lock"
    name = "é" * 150  # 300 bytes
    long = lock_file_name(name)
    assert len(long.encode("utf-8")) <= 200 + len(".lock")
    assert long.endswith(".lock") and "~" in long
    assert lock_file_name("x" * 200) == "x" * 200 + ".lock"
    assert lock_file_name("x" * 201) != "x" * 201 + ".lock"
    assert len(lock_file_name("x" * 201)) == 180 + 1 + 16 + len(".lock")


def test_recorded_pid_reads_the_first_line_or_nothing(tmp_path: Path) -> None:
    path = tmp_path / "x"
    for content, pid in (
        (b"123\n", 123),
        (b"", 0),
        (b"  \n", 0),
        (b"junk", 0),
        (b"9" * 40, int("9" * 32)),
    ):
        path.write_bytes(content)
        fd = os.open(path, os.O_RDONLY)
        try:
            assert locks._recorded_pid(fd) == pid, content
        finally:
            os.close(fd)


class _LateError(Exception):
    pass


# -- the OS layer ---------------------------------------------------------------------------


class FakeKernel32:
    """Stands in for ``ctypes.windll.kernel32`` with a process table."""

    def __init__(self, processes: dict[int, int], last_error: int = 87) -> None:
        self.processes = processes
        self.last_error = last_error
        self.closed: list[int] = []
        self.asked: list[tuple[int, bool, int]] = []

    def OpenProcess(self, access: int, inherit: bool, pid: int) -> int:  # noqa: N802
        self.asked.append((access, inherit, pid))
        return pid if pid in self.processes else 0

    def GetLastError(self) -> int:  # noqa: N802
        return self.last_error

    def GetExitCodeProcess(self, handle: int, code: Any) -> int:  # noqa: N802
        exit_code = self.processes[handle]
        if exit_code < 0:
            return 0
        code._obj.value = exit_code
        return 1

    def CloseHandle(self, handle: int) -> None:  # noqa: N802
        self.closed.append(handle)


def windows_kernel(monkeypatch: pytest.MonkeyPatch, kernel: FakeKernel32) -> None:
    class WinDLL:
        kernel32 = kernel

    monkeypatch.setattr(ctypes, "windll", WinDLL, raising=False)


def test_pid_alive_on_windows_reads_the_exit_code(monkeypatch: pytest.MonkeyPatch) -> None:
    kernel = FakeKernel32({10: 259, 11: 0, 12: -1})
    windows_kernel(monkeypatch, kernel)
    assert oscompat._pid_alive_windows(10) is True  # STILL_ACTIVE
    assert oscompat._pid_alive_windows(11) is False  # exited with 0
    assert oscompat._pid_alive_windows(12) is True  # cannot tell: assume alive
    assert kernel.closed == [10, 11, 12]
    assert kernel.asked[0] == (0x1000, False, 10)
    assert oscompat._pid_alive_windows(13) is False  # no such process
    denied = FakeKernel32({}, last_error=5)
    windows_kernel(monkeypatch, denied)
    assert oscompat._pid_alive_windows(14) is True  # another user's process


def test_pid_alive_dispatches_by_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    windows_kernel(monkeypatch, FakeKernel32({77: 259}))
    monkeypatch.setattr(oscompat, "WINDOWS", True)
    assert oscompat.pid_alive(77) is True
    assert oscompat.pid_alive(78) is False
    assert oscompat.pid_alive(0) is False


def test_pid_alive_on_posix_counts_another_users_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def kill(pid: int, sig: int) -> None:
        raise {1: PermissionError(), 2: ProcessLookupError(), 3: OSError()}[pid]

    monkeypatch.setattr(os, "kill", kill)
    assert oscompat._pid_alive_posix(1) is True
    assert oscompat._pid_alive_posix(2) is False
    assert oscompat._pid_alive_posix(3) is False


def test_detached_children_on_each_system(monkeypatch: pytest.MonkeyPatch) -> None:
    assert oscompat.detached() == {"start_new_session": True}
    monkeypatch.setattr(oscompat, "WINDOWS", True)
    monkeypatch.setattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0x200, raising=False)
    monkeypatch.setattr(subprocess, "DETACHED_PROCESS", 0x8, raising=False)
    assert oscompat.detached() == {"creationflags": 0x208}


def test_fsync_dir_is_skipped_on_windows_and_tolerates_a_missing_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    oscompat.fsync_dir(tmp_path / "missing")  # no error
    opened: list[Path] = []
    real_open = os.open

    def spy(path: Any, *args: Any) -> int:
        opened.append(Path(path))
        return real_open(path, *args)

    monkeypatch.setattr(os, "open", spy)
    oscompat.fsync_dir(tmp_path)
    assert opened == [tmp_path]
    monkeypatch.setattr(oscompat, "WINDOWS", True)
    oscompat.fsync_dir(tmp_path)
    assert opened == [tmp_path]


def test_read_and_write_at_an_offset(tmp_path: Path) -> None:
    path = tmp_path / "x"
    path.write_bytes(b"0123456789")
    fd = os.open(path, os.O_RDWR)
    try:
        assert oscompat.read_at(fd, 3, 4) == b"456"
        oscompat.write_at(fd, b"ab", 8)
    finally:
        os.close(fd)
    assert path.read_bytes() == b"01234567ab"


def test_append_line_creates_the_log_with_the_default_mode(tmp_path: Path) -> None:
    log = tmp_path / "hook.log"
    old = os.umask(0)
    try:
        oscompat.append_line(log, "é\n")
    finally:
        os.umask(old)
    assert log.read_bytes() == "é\n".encode()
    assert stat.S_IMODE(log.stat().st_mode) == 0o644


def test_open_no_follow_says_why_it_refuses(tmp_path: Path) -> None:
    target = tmp_path / "t"
    target.write_text("x")
    (tmp_path / "link").symlink_to(target)
    with pytest.raises(oscompat.UnsafeFileError) as link:
        oscompat.open_no_follow(tmp_path / "link", os.O_RDONLY)
    assert (link.value.strerror, link.value.filename) == (
        "is a symbolic link",
        str(tmp_path / "link"),
    )
    os.link(target, tmp_path / "hard")
    with pytest.raises(oscompat.UnsafeFileError) as hard:
        oscompat.open_no_follow(tmp_path / "hard", os.O_RDONLY)
    assert hard.value.strerror == "has 2 hard links (another name shares it)"
    with pytest.raises(oscompat.UnsafeFileError) as folder:
        oscompat.open_no_follow(tmp_path, os.O_RDONLY)
    assert folder.value.strerror == "is not a regular file"
    with pytest.raises(FileNotFoundError):
        oscompat.open_no_follow(tmp_path / "missing", os.O_RDONLY)


def test_open_no_follow_checks_links_by_hand_where_there_is_no_flag(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(oscompat, "NO_FOLLOW", 0)
    target = tmp_path / "t"
    target.write_text("x")
    (tmp_path / "link").symlink_to(target)
    with pytest.raises(oscompat.UnsafeFileError, match="symbolic link"):
        oscompat.open_no_follow(tmp_path / "link", os.O_RDONLY)
    fd = oscompat.open_no_follow(target, os.O_RDONLY)
    os.close(fd)


def test_a_deadline_of_zero_or_outside_the_main_thread_never_fires() -> None:
    import threading

    with oscompat.deadline(0, _LateError):
        time.sleep(0.02)
    with oscompat.deadline(-1, _LateError):
        pass
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            with oscompat.deadline(0.01, _LateError):
                time.sleep(0.05)
        except BaseException as exc:  # pragma: no cover - the failure being tested for
            errors.append(exc)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert errors == []


def test_the_alarm_deadline_restores_the_previous_handler() -> None:
    import signal

    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(_LateError), oscompat.deadline(0.05, _LateError):
        time.sleep(1)
    assert signal.getsignal(signal.SIGALRM) == before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_the_timer_branch_is_used_where_there_is_no_setitimer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import signal

    monkeypatch.delattr(signal, "setitimer")
    with pytest.raises(_LateError), oscompat.deadline(0.05, _LateError):
        for _ in range(200):
            time.sleep(0.01)


def test_user_cache_dir_on_windows_uses_local_app_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(oscompat, "WINDOWS", True)
    assert oscompat.user_cache_dir({"LOCALAPPDATA": "C:/L", "XDG_CACHE_HOME": "/x"}) == Path(
        "C:/L/workmem"
    )
    monkeypatch.setattr(oscompat, "WINDOWS", False)
    assert oscompat.user_cache_dir({"LOCALAPPDATA": "C:/L", "XDG_CACHE_HOME": "/x"}) == Path(
        "/x/workmem"
    )
    assert oscompat.user_cache_dir({"WORKMEM_CACHE_DIR": "~/c", "XDG_CACHE_HOME": "/x"}) == (
        Path("~/c").expanduser()
    )


def test_the_seek_and_read_fallback_where_there_is_no_pread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x"
    path.write_bytes(b"0123456789")
    monkeypatch.delattr(os, "pread")
    monkeypatch.delattr(os, "pwrite")
    fd = os.open(path, os.O_RDWR)
    try:
        os.lseek(fd, 9, os.SEEK_SET)
        assert oscompat.read_at(fd, 3, 2) == b"234"
        oscompat.write_at(fd, b"ab", 5)
        assert oscompat.read_at(fd, 10, 0) == b"01234ab789"
    finally:
        os.close(fd)


def test_a_log_line_that_cannot_be_encoded_is_written_with_replacements(tmp_path: Path) -> None:
    log = tmp_path / "hook.log"
    oscompat.append_line(log, "bad \udc80 surrogate\n")
    assert log.read_bytes() == b"bad ? surrogate\n"


def test_detached_on_windows_without_the_flags_defined(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(oscompat, "WINDOWS", True)
    monkeypatch.delattr(subprocess, "CREATE_NEW_PROCESS_GROUP", raising=False)
    monkeypatch.delattr(subprocess, "DETACHED_PROCESS", raising=False)
    assert oscompat.detached() == {"creationflags": 0}


def test_open_no_follow_errors_carry_their_number_and_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    with pytest.raises(ValueError) as truncate:
        oscompat.open_no_follow(tmp_path / "x", os.O_WRONLY | os.O_TRUNC)
    assert str(truncate.value) == "open_no_follow never truncates"
    monkeypatch.setattr(oscompat, "NO_FOLLOW", 0)
    (tmp_path / "link").symlink_to(tmp_path / "x")
    with pytest.raises(oscompat.UnsafeFileError) as link:
        oscompat.open_no_follow(tmp_path / "link", os.O_RDONLY)
    assert (link.value.errno, link.value.filename) == (errno.ELOOP, str(tmp_path / "link"))


def test_pid_one_is_a_process() -> None:
    assert oscompat.pid_alive(1) is True


@pytest.mark.parametrize(
    ("given", "windows", "home", "expected"),
    [
        ("abca", False, None, "abca"),  # same first and last character, not quotes
        ('""', False, None, "."),
        ("'/a b'", False, None, "/a b"),
        ("XfooX", False, None, "XfooX"),
        ("file://localhost/tmp/x", False, None, "/tmp/x"),
        ("file://LOCALHOST/tmp/x", False, None, "/tmp/x"),
        ("/c:", True, None, "c:"),
        ("Xc:/a", True, None, "Xc:/a"),
        ("~/x", False, None, "~/x"),
        ("abc", False, "/h", "abc"),
        ("~", False, "/h", "/h"),
        ("~x", False, "/h", "~x"),
    ],
)
def test_outside_path_forms(given: str, windows: bool, home: str | None, expected: str) -> None:
    from pathlib import PurePosixPath, PureWindowsPath

    flavour = PureWindowsPath if windows else PurePosixPath
    assert oscompat.outside_path(given, windows=windows, home=home) == flavour(expected)


# -- lock file names, the wait, a failed PID write, a failed release -------------------------


def test_a_space_is_kept_in_a_lock_file_name_and_only_control_characters_are_encoded() -> None:
    assert lock_file_name("my notes/a b.md") == "my notes%2Fa b.md.lock"
    assert lock_file_name("\x1f \x7f") == "%1F \x7f.lock"


def test_a_long_name_cut_inside_a_character_drops_the_partial_character() -> None:
    # 1 + 300 bytes: the cut at 180 bytes falls inside the 90th "é" (bytes 180 and 181).
    name = "a" + "é" * 150
    encoded = lock_file_name(name)
    digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:16]
    assert encoded == "a" + "é" * 89 + "~" + digest + ".lock"
    assert len(encoded.encode("utf-8")) == 179 + 1 + 16 + len(".lock")


def test_long_names_are_hashed_where_sha1_is_refused_for_security(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A restricted (FIPS) Python refuses SHA-1 unless the caller says it is not for security;
    the hash in a lock file name is not, so such a system still gets its lock files."""
    real_sha1 = hashlib.sha1

    def restricted_sha1(data: bytes = b"", *, usedforsecurity: bool = True) -> Any:
        if usedforsecurity:
            raise ValueError("[digital envelope routines] unsupported")
        return real_sha1(data, usedforsecurity=False)

    monkeypatch.setattr(hashlib, "sha1", restricted_sha1)
    name = "x" * 201
    assert lock_file_name(name) == "x" * 180 + "~" + real_sha1(name.encode()).hexdigest()[:16] + (
        ".lock"
    )


class _FakeClock:
    """``time`` for ``locks``: the clock moves only when the waiter sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def _sleeps_before_giving_up(
    path: Path, timeout: float, monkeypatch: pytest.MonkeyPatch
) -> list[float]:
    """The waits of a lock that cannot be had within ``timeout``, on a clock that moves
    only when the waiter sleeps."""
    clock = _FakeClock()
    with FileLock(path), monkeypatch.context() as patch:
        patch.setattr(locks, "time", clock)
        with pytest.raises(LockTimeoutError):
            FileLock(path, timeout=timeout).acquire()
    return clock.sleeps


def test_the_wait_doubles_from_a_millisecond_to_a_50ms_poll(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _sleeps_before_giving_up(tmp_path / "x.lock", 0.2, monkeypatch) == [
        *(0.001, 0.002, 0.004, 0.008, 0.016, 0.032),
        *(0.05, 0.05, 0.05),
    ]


def test_the_wait_gives_up_the_moment_the_deadline_is_reached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.lock"
    # the clock reaches the deadline exactly after two sleeps: no third poll
    assert _sleeps_before_giving_up(path, 0.0 + 0.001 + 0.002, monkeypatch) == [0.001, 0.002]
    assert _sleeps_before_giving_up(path, 0, monkeypatch) == []


def test_a_pid_that_cannot_be_written_leaves_the_lock_file_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk can refuse the PID; what a dead holder left must not stay behind, or a
    fragment of it ("4" of "4242") would be taken for the holder next time."""
    path = tmp_path / "x.lock"
    path.write_text("4242\n")

    def full_disk(fd: int, data: bytes, offset: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(locks, "write_at", full_disk)
    seen: list[int] = []
    with FileLock(path, on_takeover=seen.append) as lock:
        assert lock.held
        assert path.read_bytes() == b""
    assert path.read_bytes() == b""


def test_a_release_whose_pid_cannot_be_cleared_still_lets_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.lock"
    lock = FileLock(path)
    lock.acquire()

    def refuse(fd: int, length: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "ftruncate", refuse)
    lock.release()  # no error: the PID left behind is ours, and we let go
    assert not lock.held
    monkeypatch.undo()
    assert path.read_text() == f"{os.getpid()}\n"
    seen: list[int] = []
    with FileLock(path, timeout=0, on_takeover=seen.append):
        pass
    assert seen == []


def test_a_holder_killed_while_holding_is_reported_to_the_next_taker(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    child = _holding_child(
        path, "from workmem.files.locks import FileLock; FileLock(Path(path)).acquire()"
    )
    assert child.stdout is not None
    with pytest.raises(LockTimeoutError, match=f"by process {child.pid} \\(running\\)"):
        FileLock(path, timeout=0).acquire()
    child.kill()
    child.wait()
    child.stdout.close()
    assert path.read_text() == f"{child.pid}\n"
    seen: list[int] = []
    with FileLock(path, timeout=0, on_takeover=seen.append):
        assert path.read_text() == f"{os.getpid()}\n"
    assert seen == [child.pid]
