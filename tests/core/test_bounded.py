"""The one bounded read: refused by type before opening, cut by size and by time, said so.

The dangerous targets (a FIFO, ``/dev/zero``) are read in a child process with a timeout
and an address-space limit: a regression fails the test instead of hanging the suite or
filling the machine's memory.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from workmem.errors import FormatError, NotFoundError
from workmem.files import bounded
from workmem.files.bounded import (
    NotAFileError,
    ReadLimitError,
    kind_of,
    open_regular,
    read_file,
    read_head,
    read_range,
    regular_stat,
)

#: A child that should answer at once; a hang or an endless read is killed well before.
CHILD_SECONDS = 30
CHILD_MEMORY = 1024 * 1024 * 1024


def _limited() -> None:  # pragma: no cover - runs in the child
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))


def run_child(code: str, *args: str) -> str:
    """Run ``code`` in a fresh interpreter (timeout, memory cap); its stdout."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, *args],
            capture_output=True,
            text=True,
            timeout=CHILD_SECONDS,
            preexec_fn=_limited if sys.platform != "win32" else None,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the read did not return within {CHILD_SECONDS} s: {args}")
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


_READ_IN_CHILD = """
import sys
from pathlib import Path
from workmem.files.bounded import read_file
try:
    read_file(Path(sys.argv[1]), limit=1 << 20, what="transcript")
except Exception as exc:
    print(type(exc).__name__ + ": " + str(exc))
else:
    print("read")
"""


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.jsonl"
    os.mkfifo(path)
    return path


@pytest.fixture
def unix_socket() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="wm-", dir="/tmp"))  # short: socket paths are
    path = folder / "s.jsonl"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    try:
        yield path
    finally:
        server.close()
        path.unlink()
        folder.rmdir()


def _block_device() -> Path | None:
    for entry in sorted(os.scandir("/dev"), key=lambda e: e.name):
        try:
            if stat.S_ISBLK(entry.stat(follow_symlinks=False).st_mode):
                return Path(entry.path)
        except OSError:
            continue
    return None


# -- refused by type, before opening ------------------------------------------------------


def test_a_fifo_is_refused_without_waiting_for_a_writer(fifo: Path) -> None:
    out = run_child(_READ_IN_CHILD, str(fifo))
    assert out == f"NotAFileError: {fifo}: is a named pipe (FIFO), not a regular file; not read"


def test_dev_zero_is_refused_without_reading_a_byte() -> None:
    out = run_child(_READ_IN_CHILD, "/dev/zero")
    assert out == "NotAFileError: /dev/zero: is a character device, not a regular file; not read"


def test_a_link_to_a_device_is_judged_by_its_target(tmp_path: Path) -> None:
    link = tmp_path / "session.jsonl"
    link.symlink_to("/dev/zero")
    out = run_child(_READ_IN_CHILD, str(link))
    assert out.endswith("is a character device, not a regular file; not read")


def test_a_socket_and_a_block_device_are_refused_by_name(unix_socket: Path) -> None:
    with pytest.raises(NotAFileError) as info:
        read_file(unix_socket, limit=10)
    assert str(info.value) == f"{unix_socket}: is a socket, not a regular file; not read"
    device = _block_device()
    if device is None:
        pytest.skip("no block device visible in /dev on this machine")
    with pytest.raises(NotAFileError, match="is a block device, not a regular file"):
        read_file(device, limit=10)


def test_a_fifo_is_never_opened(fifo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The type is judged from ``stat``: ``open`` is not even called on it."""
    opened: list[object] = []
    real_open = os.open

    def spy(path: object, *args: object, **kwargs: object) -> int:
        opened.append(path)
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", spy)
    with pytest.raises(NotAFileError):
        read_file(fifo, limit=10)
    with pytest.raises(NotAFileError):
        open_regular(fifo)
    assert opened == []


def test_a_file_swapped_for_a_fifo_after_the_look_is_caught_on_the_handle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between ``stat`` and ``open`` someone puts a FIFO in its place: the open does not
    block (non-blocking flag) and the handle's own ``fstat`` refuses it."""
    path = tmp_path / "t.jsonl"
    path.write_text("{}\n")
    real_open = os.open

    def swap(target: object, flags: int, *args: object) -> int:
        if Path(str(target)) == path:
            path.unlink()
            os.mkfifo(path)
        return real_open(target, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", swap)
    with pytest.raises(NotAFileError, match="named pipe"):
        read_file(path, limit=10)


def test_missing_folder_and_unlookable(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match="transcript not found"):
        read_file(tmp_path / "nope", limit=10, what="transcript")
    (tmp_path / "plain").write_text("x")
    with pytest.raises(NotFoundError):
        read_file(tmp_path / "plain" / "below", limit=10)  # a file where a folder should be
    with pytest.raises(NotAFileError) as folder:
        read_file(tmp_path, limit=10)
    assert folder.value.is_folder and str(folder.value).endswith("is a folder, expected a file")
    with pytest.raises(NotFoundError):
        regular_stat(Path("bad\0name"))


def test_kinds_in_words() -> None:
    assert kind_of(stat.S_IFREG) is None
    assert kind_of(stat.S_IFDIR) == "a folder"
    assert kind_of(stat.S_IFIFO) == "a named pipe (FIFO)"
    assert kind_of(stat.S_IFCHR) == "a character device"
    assert kind_of(stat.S_IFBLK) == "a block device"
    assert kind_of(stat.S_IFSOCK) == "a socket"


# -- cut by size ----------------------------------------------------------------------------


def test_a_huge_sparse_file_is_refused_by_its_size_before_reading(tmp_path: Path) -> None:
    sparse = tmp_path / "huge.jsonl"
    with sparse.open("wb") as handle:
        handle.truncate(24 * 1024**3)  # 24 GB that take no disk
    with pytest.raises(ReadLimitError) as info:
        read_file(sparse, limit=1024**3, what="transcript", limit_note="read its tail instead")
    assert str(info.value) == (
        f"{sparse}: transcript is 25,769,803,776 bytes, over the 1,073,741,824-byte limit; "
        "nothing was read (read its tail instead)"
    )


def test_a_file_at_the_limit_is_read_whole_and_one_byte_more_is_not(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert read_file(path, limit=100) == b"x" * 100
    with pytest.raises(ReadLimitError, match="file is 100 bytes, over the 99-byte limit"):
        read_file(path, limit=99)
    path.write_bytes(b"")
    assert read_file(path, limit=0) == b""


def test_a_file_whose_size_stat_does_not_tell_is_cut_at_the_limit() -> None:
    """Virtual files (``/proc``) say 0 bytes: read up to the limit, and no further."""
    status = Path("/proc/self/status")
    if not status.is_file():
        pytest.skip("no /proc on this system")
    assert b"Name:" in read_file(status, limit=1 << 20)
    with pytest.raises(ReadLimitError, match=r"file is over 10 bytes, over the 10-byte limit"):
        read_file(status, limit=10)


def test_a_file_that_grows_while_read_is_cut_at_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "growing.jsonl"
    path.write_bytes(b"a" * 10)
    real_fstat = os.fstat
    calls: list[int] = []

    def grows(fd: int) -> os.stat_result:
        info = real_fstat(fd)
        calls.append(fd)
        if len(calls) == 2:  # the size is taken: someone appends right after
            with path.open("ab") as handle:
                handle.write(b"b" * 50)
        return info

    monkeypatch.setattr(os, "fstat", grows)
    with pytest.raises(ReadLimitError, match="over 30 bytes, over the 30-byte limit"):
        read_file(path, limit=30)


# -- cut by time ----------------------------------------------------------------------------


def test_a_read_over_its_time_says_where_it_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock is looked at between chunks; a read past its time stops with a reason."""
    monkeypatch.setattr(bounded, "CHUNK", 1000)
    path = tmp_path / "slow.jsonl"
    path.write_bytes(b"z" * 5000)
    with pytest.raises(ReadLimitError) as info:
        read_file(path, limit=10_000, seconds=0)
    assert str(info.value) == (
        f"{path}: reading stopped after 0 s with 1,000 of 5,001 bytes read (a slow disk or "
        "network folder); nothing of it was used"
    )
    assert read_file(path, limit=10_000) == b"z" * 5000  # the same read with time to finish


def test_a_range_read_is_chunked_and_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bounded, "CHUNK", 7)
    path = tmp_path / "r"
    path.write_bytes(bytes(range(100)))
    with open_regular(path) as handle:
        assert read_range(handle, 10, 30, shown="r") == bytes(range(10, 40))
        assert read_range(handle, 90, 50, shown="r") == bytes(range(90, 100))


def test_a_head_is_empty_for_what_cannot_be_read(fifo: Path, tmp_path: Path) -> None:
    path = tmp_path / "h"
    path.write_bytes(b"0123456789")
    assert read_head(path, 4) == b"0123"
    assert read_head(fifo, 4) == b""
    assert read_head(tmp_path / "missing", 4) == b""


def test_errors_are_format_errors_that_name_the_file(tmp_path: Path) -> None:
    """Every refusal is a ``FormatError`` (a clear message and exit code, never a traceback)."""
    assert issubclass(NotAFileError, FormatError) and issubclass(ReadLimitError, FormatError)
    path = tmp_path / "locked"
    path.write_text("x")
    path.chmod(0)
    if os.access(path, os.R_OK):
        pytest.skip("running as a user who reads any file")
    with pytest.raises(FormatError, match=r"locked: cannot be read: Permission denied \[EACCES\]"):
        read_file(path, limit=10)
