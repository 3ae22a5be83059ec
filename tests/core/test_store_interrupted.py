"""A write stopped by something other than a disk error (a hook's deadline, Ctrl-C) leaves
the previous file and no temp file behind, like a failed one."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from workmem.files.store import Store
from workmem.hooks.runner import HookDeadline, deadline, run_fail_open
from workmem.root import Workspace


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_real_deadline_firing_inside_an_atomic_write_leaves_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGALRM (the hook deadline) lands while the temp file is being synced."""
    store = Store(Workspace(tmp_path))
    target = tmp_path / "memory" / "index.md"
    store.update(target, lambda _old: "original\n")
    real_fsync = os.fsync

    def slow_fsync(fd: int) -> None:
        time.sleep(2)  # the deadline fires in here
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", slow_fsync)
    with pytest.raises(HookDeadline), deadline(0.1):
        store.update(target, lambda old: (old or "") + "more\n")
    monkeypatch.undo()
    assert target.read_text() == "original\n"
    assert _leftovers(target.parent) == []


@pytest.mark.parametrize("stop", [KeyboardInterrupt, SystemExit, RuntimeError])
def test_any_exception_mid_write_removes_the_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: type[BaseException]
) -> None:
    store = Store(Workspace(tmp_path))
    target = tmp_path / "memory" / "index.md"
    store.update(target, lambda _old: "original\n")
    seen: list[str] = []

    def interrupted(fd: int) -> None:
        seen.extend(_leftovers(target.parent))  # the temp exists at this moment
        raise stop()

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(stop):
        store.update(target, lambda old: (old or "") + "more\n")
    monkeypatch.undo()
    assert seen, "the interruption did not land inside the write"
    assert _leftovers(target.parent) == []
    assert target.read_text() == "original\n"


def test_a_hook_that_hits_its_deadline_mid_write_logs_it_and_leaves_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = Workspace(tmp_path)
    store = Store(workspace)
    target = workspace.board_file
    store.update(target, lambda _old: "original\n")
    monkeypatch.setattr(os, "fsync", lambda _fd: time.sleep(2))

    def work() -> str:
        store.update(target, lambda old: (old or "") + "more\n")
        return "done"

    assert run_fail_open(work, workspace=lambda: workspace, where="test", seconds=0.1) == ""
    monkeypatch.undo()
    assert target.read_text() == "original\n"
    assert _leftovers(target.parent) == []
    assert "deadline" in (workspace.state_dir / "hook.log").read_text()
