"""One memory root for every git worktree of a repository, with and without ``workmem sync``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from tests.sync.util import Machine, git
from workmem.board import Board
from workmem.gitcheckout import find_checkout, main_worktree
from workmem.root import CONFIG, GIT, SHARED_SUFFIX, open_workspace

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
T0 = datetime(2026, 5, 25, 13, 18)


@pytest.fixture(autouse=True)
def _no_root_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WORKMEM_ROOT", raising=False)
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 13:18")
    monkeypatch.setenv("WORKMEM_PLATFORM", "cursor")


def repository(tmp_path: Path) -> Path:
    main = tmp_path / "project"
    main.mkdir()
    git(main, "init", "--quiet", "-b", "main")
    git(main, "config", "user.email", "t@example.invalid")
    git(main, "config", "user.name", "tester")
    (main / "README.md").write_text("project\n")
    git(main, "add", "README.md")
    git(main, "commit", "--quiet", "-m", "start")
    return main


def workmem(cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "WORKMEM_ROOT"}
    return subprocess.run(
        [sys.executable, "-m", "workmem", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_linked_worktree_uses_the_main_worktrees_root(tmp_path: Path) -> None:
    main = repository(tmp_path)
    git(main, "worktree", "add", "--quiet", str(tmp_path / "feature"), "-b", "feature")
    feature = tmp_path / "feature"
    (feature / "src").mkdir()
    found = open_workspace(cwd=feature / "src")
    assert found.root == main.resolve()
    assert found.found_by == GIT + SHARED_SUFFIX and found.worktree == feature.resolve()
    assert not found.may_create  # still a guess: a write asks for `workmem init`
    assert open_workspace(cwd=main).root == main.resolve()
    assert open_workspace(cwd=main).worktree is None


def test_sessions_started_in_two_worktrees_share_one_board(tmp_path: Path) -> None:
    main = repository(tmp_path)
    (main / "workmem.toml").write_text('agent_name = "tester-agent"\n')
    git(main, "add", "workmem.toml")
    git(main, "commit", "--quiet", "-m", "settings")
    for name in ("one", "two"):
        git(main, "worktree", "add", "--quiet", str(tmp_path / name), "-b", name)
    assert workmem(main, "init").returncode == 0
    ids = []
    for name in ("one", "two"):
        done = workmem(tmp_path / name, "session", "start", "--json")
        assert done.returncode == 0, done.stderr
        ids.append(json.loads(done.stdout)["session_id"])
        assert not (tmp_path / name / "memory").exists()  # no second memory root
    listed = {row.session_id for row in Board(main).list()}
    assert set(ids) <= listed and len(set(ids)) == 2
    # the committed workmem.toml of a worktree names the same folder in the main one
    found = open_workspace(cwd=tmp_path / "one")
    assert found.root == main.resolve() and found.found_by == CONFIG + SHARED_SUFFIX


def test_a_worktree_nested_in_the_main_one(tmp_path: Path) -> None:
    """Some agents put their worktrees inside the project (``.claude/worktrees/NAME``)."""
    main = repository(tmp_path)
    nested = main / ".claude" / "worktrees" / "agent-a"
    git(main, "worktree", "add", "--quiet", str(nested), "-b", "agent-a")
    assert open_workspace(cwd=nested).root == main.resolve()


def test_finding_the_root_spawns_no_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    main = repository(tmp_path)
    git(main, "worktree", "add", "--quiet", str(tmp_path / "feature"), "-b", "feature")

    def no_process(*args: object, **kwargs: object) -> None:
        raise AssertionError("root discovery started a process")

    monkeypatch.setattr(subprocess, "Popen", no_process)
    assert open_workspace(cwd=tmp_path / "feature").root == main.resolve()


def test_what_git_says_is_what_the_files_say(tmp_path: Path) -> None:
    main = repository(tmp_path)
    git(main, "worktree", "add", "--quiet", str(tmp_path / "feature"), "-b", "feature")
    feature = tmp_path / "feature"
    found = find_checkout(feature / ".")
    assert found is not None and found.linked
    common = git(feature, "rev-parse", "--path-format=absolute", "--git-common-dir").strip()
    own = git(feature, "rev-parse", "--path-format=absolute", "--git-dir").strip()
    assert (found.common_dir, found.git_dir) == (Path(common), Path(own))
    listed = git(main, "worktree", "list", "--porcelain").split("\n")[0].removeprefix("worktree ")
    assert found.main_top == Path(listed)
    assert main_worktree(main) is None  # the main worktree maps to nothing else


def test_a_bare_repositorys_worktrees_keep_their_own_roots(tmp_path: Path) -> None:
    """No main worktree to share: each worktree is its own root (README says so)."""
    main = repository(tmp_path)
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "--quiet", "--bare", str(main), str(bare))
    git(bare, "worktree", "add", "--quiet", str(tmp_path / "wt"), "main")
    found = open_workspace(cwd=tmp_path / "wt")
    assert found.root == (tmp_path / "wt").resolve() and found.worktree is None


def test_a_damaged_git_file_is_no_worktree(tmp_path: Path) -> None:
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / ".git").write_text("gitdir: /nowhere/at/all\n")
    assert open_workspace(cwd=folder).root == folder.resolve()
    (folder / ".git").write_bytes(b"\xff" * 10_000)
    assert open_workspace(cwd=folder).root == folder.resolve()


def test_with_sync_a_new_worktree_finds_the_memory(tmp_path: Path) -> None:
    """With ``workmem sync`` the memory is on its own branch, not on the project's: a new
    worktree has no memory files of its own and must not start a separate root."""
    from workmem.sync.git_sync import sync
    from workmem.sync.setup import init_sync

    main = repository(tmp_path)
    machine = Machine("solo", main)
    with machine.env(T0):
        init_sync(machine.workspace)
        Board(main).register(topic="Before the worktree", sections={"Decisions": "D1"})
        sync(machine.workspace)
    git(main, "worktree", "add", "--quiet", str(tmp_path / "feature"), "-b", "feature")
    feature = tmp_path / "feature"
    assert not (feature / "memory").exists()  # memory is not on the project's branch
    payload = json.dumps({"session_id": "p-1", "cwd": str(feature), "source": "startup"})
    done = workmem(feature, "hook", "SessionStart", "--platform", "claude-code", stdin=payload)
    assert done.returncode == 0, done.stderr
    assert not (feature / "memory").exists()
    topics = {row.topic for row in Board(main).list()}
    assert "Before the worktree" in topics and len(Board(main).list()) == 2
    new_id = next(r.session_id for r in Board(main).list() if r.topic != "Before the worktree")
    assert new_id in done.stdout  # the ID the agent is told is a row of the shared board
    done = workmem(feature, "sync")
    assert done.returncode == 0, done.stderr
