"""git end to end: sync init, the drivers under a plain ``git merge``, and ``workmem sync``."""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path

import pytest

from tests.sync.util import Machine, git, make_machines, memory_snapshot
from workmem.board import Board
from workmem.cli import main
from workmem.doctor import run
from workmem.files.tables import TableDocument
from workmem.journal.writer import MemoryWriter
from workmem.sync import git_sync
from workmem.sync.git_sync import sync
from workmem.sync.setup import init_sync

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
T0 = datetime(2026, 5, 25, 13, 18)


def board_ids(root: Path) -> set[str]:
    text = (root / "memory" / "index.md").read_text()
    return {r["Session ID"] for r in TableDocument.parse(text).records()}


def repo(tmp_path: Path) -> Machine:
    root = tmp_path / "project"
    root.mkdir()
    git(root, "init", "--quiet")
    (root / ".gitattributes").write_text("*.png binary\n")
    (root / "workmem.toml").write_text('agent_name = "tester-agent"\n')
    return Machine("solo", root)


def test_init_is_idempotent_and_dry_run_writes_nothing(tmp_path: Path) -> None:
    machine = repo(tmp_path)
    before = {p.name: p.read_bytes() for p in machine.root.iterdir() if p.is_file()}
    with machine.env(T0):
        dry = init_sync(machine.workspace, dry_run=True)
        assert (
            dry.changes
            and {p.name: p.read_bytes() for p in machine.root.iterdir() if p.is_file()} == before
        )
        assert "merge.workmem-board" not in git(machine.root, "config", "--list", "--local")
        first = init_sync(machine.workspace)
        second = init_sync(machine.workspace)
    assert first.changes == dry.changes
    assert second.changes == []
    attributes = (machine.root / ".gitattributes").read_text()
    assert attributes.startswith("*.png binary\n")  # the project's own lines are kept
    assert attributes.count("merge=workmem-board") == 1
    assert "memory/.workmem/" in (machine.root / ".gitignore").read_text()
    settings = (machine.root / "workmem.toml").read_text()
    assert settings.startswith('agent_name = "tester-agent"\n') and "machine_ids = true" in settings
    driver = git(machine.root, "config", "merge.workmem-board.driver").strip()
    assert driver.endswith("merge-driver board %O %A %B %P")


def test_init_outside_git_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    machine = Machine("none", tmp_path / "plain")
    machine.root.mkdir()
    with machine.env(T0):
        assert main(["sync", "init"]) == 2
    assert "--merge-copies" in capsys.readouterr().err


def test_plain_git_merge_uses_the_drivers(tmp_path: Path) -> None:
    """Memory committed on ordinary branches: git's own merge calls workmem per file."""
    machine = repo(tmp_path)
    root = machine.root
    with machine.env(T0):
        init_sync(machine.workspace)
        Board(root).register(topic="Base", sections={"Decisions": "D0"})
    git(root, "config", "user.email", "t@example.invalid")
    git(root, "config", "user.name", "t")
    git(root, "add", "-f", "memory", ":(exclude)memory/.workmem", ".gitattributes", ".gitignore")
    git(root, "commit", "--quiet", "-m", "base")
    git(root, "checkout", "--quiet", "-b", "other")
    with machine.env(T0.replace(hour=15)):
        theirs = Board(root).register(topic="Theirs").session_id
        MemoryWriter(root).end_session(session_summary="theirs", resumption_note="t")
    git(root, "add", "-f", "memory", ":(exclude)memory/.workmem")
    git(root, "commit", "--quiet", "-m", "theirs")
    git(root, "checkout", "--quiet", "-")
    with machine.env(T0.replace(hour=14)):
        ours = Board(root).register(topic="Ours").session_id
        MemoryWriter(root).end_session(session_summary="ours", resumption_note="o")
    git(root, "add", "-f", "memory", ":(exclude)memory/.workmem")
    git(root, "commit", "--quiet", "-m", "ours")
    git(root, "merge", "--quiet", "--no-edit", "other")
    assert {ours, theirs} <= board_ids(root)
    for path in (root / "memory").rglob("*"):
        if path.is_file() and ".workmem" not in path.parts:
            assert "<<<<<<<" not in path.read_text(), path
    log = (root / "memory" / "2026-05-25.md").read_text()
    assert log.index("ours") < log.index("theirs")


def test_same_minute_sessions_on_two_machines_stay_distinct(tmp_path: Path) -> None:
    machines = make_machines(tmp_path, 2)
    ids = []
    for machine in machines:
        with machine.env(T0):
            ids.append(Board(machine.root).register(topic=f"on {machine.name}").session_id)
    assert ids == [
        "2026-05-25-1318-cursor-main-agent-m0",
        "2026-05-25-1318-cursor-main-agent-m1",
    ]
    for machine in machines:
        with machine.env(T0.replace(minute=20)):
            assert sync(machine.workspace).pushed
    with machines[1].env(T0.replace(minute=25)):
        Board(machines[1].root).continue_from(ids[0], as_id=ids[1])  # across machines
    for machine in (machines[1], machines[0]):
        with machine.env(T0.replace(minute=30)):
            assert sync(machine.workspace).pushed
    assert set(ids) <= board_ids(machines[0].root) == board_ids(machines[1].root)
    for machine in machines:
        rows = {r.session_id: r for r in Board(machine.root).list()}
        assert rows[ids[0]].references == [ids[1]]
        snapshot = (machine.root / "memory" / "sessions" / f"{ids[1]}.md").read_text()
        assert f"- {ids[0]}" in snapshot.split("## Continues From")[1]
        with machine.env(T0.replace(minute=40)):
            assert run(machine.workspace).healthy


def test_one_machine_without_sync_keeps_the_seed_id_form(tmp_path: Path) -> None:
    machine = repo(tmp_path)
    with machine.env(T0):
        assert Board(machine.root).start().session_id == "2026-05-25-1318-tester-agent"


def test_offline_commits_locally_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    machine = make_machines(tmp_path, 1)[0]
    # nothing listens on port 9 here: a connection refused, as when a network is down
    git(machine.root, "remote", "set-url", "origin", "http://127.0.0.1:9/remote.git")
    with machine.env(T0):
        Board(machine.root).register(topic="Offline work")
        assert main(["sync"]) == 0
    assert "Offline: memory committed locally" in capsys.readouterr().out
    tree = git_sync.MemoryTree(machine.root, "workmem", "origin")
    assert "Offline work" in git(tree.path, "show", "HEAD:memory/index.md")
    git(machine.root, "remote", "set-url", "origin", str(tmp_path / "remote.git"))
    with machine.env(T0.replace(hour=14)):
        report = sync(machine.workspace)
    assert report.pushed and not report.offline


def test_retries_when_another_machine_pushed_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = make_machines(tmp_path, 2)
    with first.env(T0):
        Board(first.root).register(topic="First")
        sync(first.workspace)
    with second.env(T0.replace(minute=30)):
        Board(second.root).register(topic="Second")
    original = git_sync.MemoryTree.merge_remote
    raced: list[bool] = []

    def merge_then_lose_the_race(self: git_sync.MemoryTree) -> tuple[bool, list[str], list[str]]:
        result = original(self)
        if not raced:
            raced.append(True)
            with first.env(T0.replace(minute=40)):
                Board(first.root).register(topic="Pushed meanwhile")
                assert sync(first.workspace).pushed
        return result

    monkeypatch.setattr(git_sync.MemoryTree, "merge_remote", merge_then_lose_the_race)
    with second.env(T0.replace(minute=50)):
        report = sync(second.workspace)
    assert report.pushed and report.attempts == 2
    topics = {
        r["Topic"]
        for r in TableDocument.parse((second.root / "memory" / "index.md").read_text()).records()
    }
    assert topics == {"First", "Second", "Pushed meanwhile"}


def test_a_write_during_the_sync_is_merged_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = make_machines(tmp_path, 2)
    with first.env(T0):
        Board(first.root).register(topic="From first")
        sync(first.workspace)
    original = git_sync.MemoryTree.merge_remote
    written: list[str] = []

    def merge_while_an_agent_writes(self: git_sync.MemoryTree) -> tuple[bool, list[str], list[str]]:
        result = original(self)
        with second.env(T0.replace(minute=45)):
            written.append(Board(second.root).register(topic="Written mid-sync").session_id)
        return result

    monkeypatch.setattr(git_sync.MemoryTree, "merge_remote", merge_while_an_agent_writes)
    with second.env(T0.replace(minute=30)):
        Board(second.root).register(topic="Before sync")
        sync(second.workspace)
    topics = {
        r["Topic"]
        for r in TableDocument.parse((second.root / "memory" / "index.md").read_text()).records()
    }
    assert topics == {"From first", "Before sync", "Written mid-sync"}
    assert (second.root / "memory" / "sessions" / f"{written[0]}.md").is_file()


def test_sync_needs_init_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    machine = repo(tmp_path)
    with machine.env(T0):
        assert main(["sync"]) == 2
    assert "workmem sync init" in capsys.readouterr().err


def test_local_state_is_never_committed_and_project_history_is_untouched(tmp_path: Path) -> None:
    (machine,) = make_machines(tmp_path, 1)
    with machine.env(T0):
        Board(machine.root).register(topic="Work")
        assert (machine.root / "memory" / ".workmem").is_dir()
        sync(machine.workspace)
    committed = git(machine.root, "ls-tree", "-r", "--name-only", "origin/workmem").split()
    assert "memory/index.md" in committed
    assert not [p for p in committed if ".workmem" in p]
    assert git(machine.root, "log", "--oneline", "--all", "--", "memory").count("\n") >= 1
    assert git(machine.root, "status", "--porcelain", "--", "memory", "MEMORY.md") == ""
    assert memory_snapshot(machine.root)


def _shared_session(tmp_path: Path) -> tuple[Machine, Machine, str]:
    first, second = make_machines(tmp_path, 2)
    with first.env(T0):
        session = Board(first.root).register(topic="Shared", context="Work.").session_id
        sync(first.workspace)
    with second.env(T0.replace(minute=20)):
        sync(second.workspace)
    return first, second, session


def test_archived_here_updated_there_keeps_the_update(tmp_path: Path) -> None:
    first, second, session = _shared_session(tmp_path)
    with first.env(T0.replace(hour=14)):
        Board(first.root).archive(session)
        sync(first.workspace)
    with second.env(T0.replace(hour=15)):
        Board(second.root).update(session, sections={"Next Actions": "still going"})
        report = sync(second.workspace)
    assert report.pushed  # git follows the archive move (a rename) with the update
    snapshot = (second.root / "memory" / "sessions" / f"{session}.md").read_text()
    assert "still going" in snapshot
    assert session in board_ids(second.root)
    with second.env(T0.replace(hour=16)):
        assert run(second.workspace).healthy


def test_archived_here_continued_there_brings_the_snapshot_back(tmp_path: Path) -> None:
    first, second, session = _shared_session(tmp_path)
    with first.env(T0.replace(hour=14)):
        Board(first.root).archive(session)
        sync(first.workspace)
    with second.env(T0.replace(hour=15)):
        follower = Board(second.root).register(topic="Follow-up").session_id
        Board(second.root).continue_from(session, as_id=follower)
        report = sync(second.workspace)
    assert any("its snapshot is back" in note for note in report.notes)
    for machine in (second, first):
        with machine.env(T0.replace(hour=16)):
            sync(machine.workspace)
            assert (machine.root / "memory" / "sessions" / f"{session}.md").is_file()
            assert run(machine.workspace).healthy


def test_project_git_settings_do_not_stop_memory_commits(tmp_path: Path) -> None:
    """Signing required, fast-forward-only merges, a failing pre-commit hook: the project's
    rules for its own commits, which the memory branch's commits are not."""
    first, second = make_machines(tmp_path, 2)
    for machine in (first, second):
        git(machine.root, "config", "commit.gpgsign", "true")
        git(machine.root, "config", "merge.ff", "only")
        hook = machine.root / ".git" / "hooks" / "pre-commit"
        hook.write_text("#!/bin/sh\nexit 1\n")
        hook.chmod(0o755)
    for number, machine in enumerate((first, second)):
        with machine.env(T0.replace(minute=number)):
            Board(machine.root).register(topic=f"topic {number}")
            assert sync(machine.workspace).pushed
    with first.env(T0.replace(minute=5)):
        assert sync(first.workspace).pushed
    assert {"topic 0", "topic 1"} <= {r.topic for r in Board(first.root).list()}


def test_memory_root_in_a_subfolder_of_the_repository(tmp_path: Path) -> None:
    top = tmp_path / "repo"
    (top / "service").mkdir(parents=True)
    git(top, "init", "--quiet")
    (top / "service" / "workmem.toml").write_text("")
    machine = Machine("sub", top / "service")
    with machine.env(T0):
        init_sync(machine.workspace)
        Board(machine.root).register(topic="Nested")
    assert "service/memory/index.md merge=workmem-board" in (top / ".gitattributes").read_text()
    assert "service/memory/.workmem/" in (top / ".gitignore").read_text()
    attr = git(top, "check-attr", "merge", "--", "service/memory/sessions/a.md").strip()
    assert attr.endswith("merge: workmem-sections")
    assert "machine_ids = true" in (top / "service" / "workmem.toml").read_text()


def test_a_plain_git_merge_keeps_two_sessions_issued_under_one_id(tmp_path: Path) -> None:
    """Memory on project branches, tags off: both branches register a session in the same
    minute. The drivers keep both: this branch's gets a new ID, its snapshot follows."""
    import subprocess

    machine = repo(tmp_path)
    root = machine.root
    with machine.env(T0):
        init_sync(machine.workspace)
    settings = root / "workmem.toml"
    settings.write_text(settings.read_text().replace("machine_ids = true", "machine_ids = false"))
    git(root, "config", "user.email", "t@example.invalid")
    git(root, "config", "user.name", "t")
    with machine.env(T0):
        Board(root).register(topic="Base")
    git(root, "add", "-f", "memory", ":(exclude)memory/.workmem", ".gitattributes", ".gitignore")
    git(root, "commit", "--quiet", "-m", "base")
    git(root, "checkout", "--quiet", "-b", "other")
    same = T0.replace(hour=15)
    with machine.env(same):
        theirs = Board(root).register(topic="Theirs", sections={"Decisions": "T1"}).session_id
    git(root, "add", "-f", "memory", ":(exclude)memory/.workmem")
    git(root, "commit", "--quiet", "-m", "theirs")
    git(root, "checkout", "--quiet", "-")
    (root / "memory" / ".workmem" / "issued-session-ids.txt").unlink()  # as on another clone
    with machine.env(same):
        ours = Board(root).register(topic="Ours", sections={"Decisions": "O1"}).session_id
    assert ours == theirs
    git(root, "add", "-f", "memory", ":(exclude)memory/.workmem")
    git(root, "commit", "--quiet", "-m", "ours")
    done = subprocess.run(
        ["git", "merge", "--no-edit", "other"], cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert f"{ours}-2" in done.stderr and "git add" in done.stderr
    rows = {r.session_id: r.topic for r in Board(root).list()}
    assert rows[ours] == "Theirs" and rows[f"{ours}-2"] == "Ours"
    sessions = root / "memory" / "sessions"
    assert "T1" in (sessions / f"{ours}.md").read_text()
    assert "O1" not in (sessions / f"{ours}.md").read_text()
    assert "O1" in (sessions / f"{ours}-2.md").read_text()
