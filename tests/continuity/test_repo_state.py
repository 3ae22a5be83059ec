"""The repository's state travels with the work: recorded at a save, compared at a handoff."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from workmem.continuity.repo_state import RepoState, capture, drift_since

pytestmark = pytest.mark.skipif(
    subprocess.run(["git", "--version"], capture_output=True).returncode != 0,
    reason="git is not installed",
)


def git(repo: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@e",
        "GIT_COMMITTER_NAME": "t",
    }
    env["GIT_COMMITTER_EMAIL"] = "t@e"
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    folder.mkdir()
    git(folder, "init", "-q", "-b", "main")
    (folder / "a.py").write_text("a = 1\n")
    git(folder, "add", "a.py")
    git(folder, "commit", "-qm", "first")
    return folder


def test_a_save_records_branch_head_and_uncommitted_files(repo: Path) -> None:
    (repo / "a.py").write_text("a = 2\n")
    (repo / "new file.py").write_text("b = 1\n")
    state = capture(repo)
    assert state is not None
    assert state.branch == "main" and state.head is not None and len(state.head) == 40
    assert sorted(state.dirty) == ["a.py", "new file.py"]
    assert RepoState.from_dict(state.to_dict()) == state


def test_the_handoff_says_what_moved_since(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 13:00")
    saved = capture(repo)
    assert saved is not None
    assert not drift_since(saved).moved
    (repo / "a.py").write_text("a = 3\n")
    later = saved.at_epoch + 600
    os.utime(repo / "a.py", (later, later))
    (repo / "b.py").write_text("b = 1\n")
    git(repo, "add", "b.py")
    git(repo, "commit", "-qm", "add b")
    git(repo, "checkout", "-qb", "feature")
    drift = drift_since(saved)
    assert drift.new_commits and drift.new_commits[0].endswith("add b")
    assert drift.changed_since == ["a.py"] and drift.switched and drift.branch_now == "feature"


def test_no_repository_or_a_broken_record_is_no_state(tmp_path: Path) -> None:
    assert capture(tmp_path) is None
    assert RepoState.from_dict({"worktree": 3}) is None and RepoState.from_dict("x") is None
    gone = RepoState(worktree=str(tmp_path / "gone"), head="0" * 40)
    assert not drift_since(gone).moved
