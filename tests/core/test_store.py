"""The safe-write primitive under failure: disk errors, dead lock holders, SIGKILL mid-write."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from workmem.errors import LockTimeoutError, WriteError
from workmem.files import store as store_module
from workmem.files.locks import FileLock
from workmem.files.store import Store
from workmem.root import Workspace

REPO_SRC = Path(__file__).resolve().parents[2] / "src"


def _store(tmp_path: Path, timeout: float = 5.0) -> Store:
    return Store(Workspace(tmp_path), lock_timeout=timeout)


def test_update_writes_verifies_and_reports(tmp_path: Path) -> None:
    store = _store(tmp_path)
    target = tmp_path / "memory" / "a.md"
    result = store.update(target, lambda old: (old or "") + "one\n")
    assert result.created and result.changed
    result = store.update(target, lambda old: old or "")
    assert not result.changed
    assert target.read_text() == "one\n"


def test_write_without_lock_is_a_programming_error(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError):
        _store(tmp_path).write_text(tmp_path / "x.md", "x")


@pytest.mark.parametrize("failing", ["replace", "fsync", "write"])
def test_failed_write_leaves_previous_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    store = _store(tmp_path)
    target = tmp_path / "memory" / "index.md"
    store.update(target, lambda _old: "original\n")

    def boom(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, failing, boom)
    with pytest.raises(WriteError, match="previous file is unchanged"):
        store.update(target, lambda old: (old or "") + "more\n")
    monkeypatch.undo()
    assert target.read_text() == "original\n"
    assert [p.name for p in target.parent.iterdir() if p.name != ".workmem"] == ["index.md"]


def test_verification_catches_a_write_that_did_not_land(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store(tmp_path)
    target = tmp_path / "f.md"
    monkeypatch.setattr(store_module, "atomic_write_bytes", lambda _p, _d, **_kw: None)
    with pytest.raises(WriteError, match="does not match"):
        store.update(target, lambda _old: "new\n")


def test_file_mode_is_kept(tmp_path: Path) -> None:
    store = _store(tmp_path)
    target = tmp_path / "f.md"
    target.write_text("x")
    target.chmod(0o600)
    store.update(target, lambda _old: "y")
    assert target.stat().st_mode & 0o777 == 0o600


def _child(code: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_SRC)}
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


@pytest.mark.slow
def test_lock_of_a_killed_holder_is_taken_over(tmp_path: Path) -> None:
    lock_path = tmp_path / "locks" / "index.md.lock"
    child = _child(
        f"""
        import time
        from pathlib import Path
        from workmem.files.locks import FileLock
        FileLock(Path({str(lock_path)!r})).acquire()
        print("locked", flush=True)
        time.sleep(60)
        """
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "locked"
    waiting = FileLock(lock_path, timeout=0.3)
    with pytest.raises(LockTimeoutError, match=f"process {child.pid}"):
        waiting.acquire()
    child.send_signal(signal.SIGKILL)
    child.wait()
    started = time.monotonic()
    with FileLock(lock_path, timeout=5):
        assert time.monotonic() - started < 2
    child.stdout.close()


@pytest.mark.slow
def test_sigkill_during_writes_never_leaves_a_torn_file(tmp_path: Path) -> None:
    target = tmp_path / "memory" / "index.md"
    versions = [("A" * 400_000) + "\n", ("B" * 600_000) + "\n"]
    store = _store(tmp_path)
    store.update(target, lambda _old: versions[0])
    for round_number in range(6):
        child = _child(
            f"""
            from pathlib import Path
            from workmem.files.store import Store
            from workmem.root import Workspace
            store = Store(Workspace(Path({str(tmp_path)!r})))
            versions = ["A" * 400_000 + "\\n", "B" * 600_000 + "\\n"]
            print("go", flush=True)
            i = 0
            while True:
                i += 1
                store.update(Path({str(target)!r}), lambda _old, i=i: versions[i % 2])
            """
        )
        assert child.stdout is not None
        child.stdout.readline()
        time.sleep(0.05 + 0.03 * round_number)
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        assert target.read_text() in versions
        # The next writer gets the lock at once, writes normally, and clears any temp the
        # killed writer left behind.
        result = _store(tmp_path, timeout=2).update(target, lambda _old: versions[0])
        assert target.read_text() == versions[0]
        assert result.path == target
        assert list(target.parent.glob(".index.md.*.tmp")) == []


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_lock_let_go_keeps_no_pid_and_a_dead_holders_temps_are_cleared(
    tmp_path: Path,
) -> None:
    store = _store(tmp_path)
    target = tmp_path / "memory" / "index.md"
    store.update(target, lambda _old: "board\n")
    lock_file = store.lock(target).path
    assert lock_file.read_text() == ""  # released cleanly: nothing looks like a crash

    # A holder that died mid-write: its PID still in the lock file, its temp beside the file.
    dead = _dead_pid()
    lock_file.write_text(f"{dead}\n")
    orphan = target.with_name(f".index.md.{dead}.0.tmp")
    orphan.write_text("half a board")
    live = target.with_name(f".index.md.{os.getpid()}.99.tmp")
    live.write_text("someone else's")
    other = target.with_name(f".threads.md.{dead}.0.tmp")
    other.write_text("another file's temp")
    _store(tmp_path).update(target, lambda _old: "board 2\n")
    assert not orphan.exists()
    assert live.exists() and other.exists()  # only the dead writer's temps of this file
    assert target.read_text() == "board 2\n"


def test_takeover_is_not_reported_after_a_clean_release(tmp_path: Path) -> None:
    seen: list[int] = []
    path = tmp_path / "x.lock"
    with FileLock(path, on_takeover=seen.append):
        pass
    with FileLock(path, on_takeover=seen.append):
        pass
    path.write_text(f"{_dead_pid()}\n")
    with FileLock(path, on_takeover=seen.append):
        pass
    assert len(seen) == 1


def test_failed_verify_restores_the_previous_file(tmp_path: Path) -> None:
    store = _store(tmp_path)
    target = tmp_path / "memory" / "MEMORY.md"
    store.update(target, lambda _old: "old\n")

    def reject(_text: str) -> None:
        raise WriteError("the new text lost an entry")

    with pytest.raises(WriteError, match="lost an entry"):
        store.update(target, lambda _old: "new\n", verify=reject)
    assert target.read_text() == "old\n"
    with pytest.raises(WriteError):
        store.update(tmp_path / "fresh.md", lambda _old: "x", verify=reject)
    assert not (tmp_path / "fresh.md").exists()
