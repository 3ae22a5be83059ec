"""``workmem sync`` that nothing in the data can wedge, and reports that say what happened."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest

from tests.sync.util import Machine, git, make_machines
from workmem.board import Board
from workmem.cli import main
from workmem.journal.writer import MemoryWriter
from workmem.sync.branch import MemoryTree
from workmem.sync.git_sync import sync

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
T0 = datetime(2026, 5, 25, 13, 18)


def tree_of(machine: Machine) -> MemoryTree:
    return MemoryTree(machine.root, "workmem", "origin")


def fresh_tree(machine: Machine) -> Path:
    """The machine's memory work tree at the remote branch, to commit on by hand."""
    tree = tree_of(machine).path
    git(tree, "fetch", "--quiet", "origin", "+refs/heads/workmem:refs/remotes/origin/workmem")
    git(tree, "reset", "--quiet", "--hard", "origin/workmem")
    return tree


def push_raw(machine: Machine, files: dict[str, bytes], message: str = "raw") -> None:
    """What an older workmem (or a person) committed on the memory branch, pushed as is."""
    tree = fresh_tree(machine)
    for rel, data in files.items():
        target = tree / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    git(tree, "add", "--force", "--", *files)
    git(tree, "commit", "--quiet", "--no-verify", "-m", message)
    git(tree, "push", "--quiet", "origin", "workmem:refs/heads/workmem")


def topics(machine: Machine) -> set[str]:
    return {row.topic for row in Board(machine.root).list()}


def test_conflict_text_in_memory_never_wedges_any_clone(tmp_path: Path) -> None:
    """A conflict pasted through a command is stored escaped; one already in the data from
    before (raw markers) travels as content and stops nobody."""
    first, second = make_machines(tmp_path, 2)
    pasted = "look:\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> feature\n"
    with first.env(T0):
        sid = Board(first.root).register(topic="Pasted", context=pasted).session_id
        assert main(["end", "--summary", "s", "--resumption", pasted]) == 0
        sync(first.workspace)
    with second.env(T0.replace(minute=30)):
        sync(second.workspace)
    legacy = second.root / "memory" / "notes-from-before.md"
    push_raw(first, {"memory/notes-from-before.md": pasted.encode()})
    for number, machine in enumerate((second, first, second)):
        with machine.env(T0.replace(hour=14, minute=number)):
            Board(machine.root).register(topic=f"after {number}")
            report = sync(machine.workspace)
            assert report.pushed, report
    assert legacy.read_text() == pasted  # content as it was; doctor names it
    assert {"Pasted", "after 0", "after 1", "after 2"} <= topics(second)
    assert sid in {row.session_id for row in Board(second.root).list()}


@pytest.mark.parametrize(
    "attributes",
    [b"index.md merge=binary\n", "index.md merge=binary\n".encode("utf-16")],
)
def test_a_pushed_gitattributes_never_switches_the_drivers_off(
    tmp_path: Path, attributes: bytes
) -> None:
    first, second = make_machines(tmp_path, 2)
    with first.env(T0):
        Board(first.root).register(topic="Base")
        sync(first.workspace)
    with second.env(T0.replace(minute=10)):
        sync(second.workspace)
    push_raw(first, {"memory/.gitattributes": attributes}, "an older clone's attributes")
    with first.env(T0.replace(minute=20)):
        sync(first.workspace)  # first brings the branch back to workmem's own files
        Board(first.root).register(topic="From first")
        sync(first.workspace)
    with second.env(T0.replace(minute=30)):
        Board(second.root).register(topic="From second")
        report = sync(second.workspace)
    assert report.pushed and not report.conflicts, report
    with first.env(T0.replace(minute=40)):
        sync(first.workspace)
    for machine in (first, second):
        assert {"Base", "From first", "From second"} <= topics(machine)
        assert not (machine.root / "memory" / ".gitattributes").exists()
    committed = git(first.root, "ls-tree", "-r", "--name-only", "origin/workmem").split()
    assert "memory/.gitattributes" not in committed


def test_the_drivers_hold_while_a_pushed_gitattributes_is_merged_in(tmp_path: Path) -> None:
    """The same merge that brings the attributes in already uses workmem's drivers."""
    first, second = make_machines(tmp_path, 2)
    with first.env(T0):
        Board(first.root).register(topic="Base")
        sync(first.workspace)
    with second.env(T0.replace(minute=10)):
        sync(second.workspace)
        Board(second.root).register(topic="From second")
    with first.env(T0.replace(minute=20)):
        Board(first.root).register(topic="From first")
        sync(first.workspace)
    board = (tree_of(first).path / "memory" / "index.md").read_bytes()
    push_raw(first, {"memory/.gitattributes": b"index.md merge=binary\n", "memory/index.md": board})
    with second.env(T0.replace(minute=30)):
        report = sync(second.workspace)
    assert {"Base", "From first", "From second"} <= topics(second), report


def test_links_and_type_changes_on_the_branch_are_refused_not_fatal(tmp_path: Path) -> None:
    first, second = make_machines(tmp_path, 2)
    with first.env(T0):
        Board(first.root).register(topic="Base")
        MemoryWriter(first.root).end_session(session_summary="s", resumption_note="r")
        sync(first.workspace)
    with second.env(T0.replace(minute=10)):
        sync(second.workspace)
    tree = fresh_tree(first)
    (tree / "memory" / "secrets").symlink_to("/etc")
    (tree / "memory" / "link.md").symlink_to("/etc/passwd")
    log = tree / "memory" / "2026-05-25.md"
    log.unlink()
    log.mkdir()
    (log / "inside.md").write_text("a folder where a daily log was\n")
    git(tree, "add", "--force", "-A", "--", "memory")
    git(tree, "commit", "--quiet", "--no-verify", "-m", "links and a folder")
    git(tree, "push", "--quiet", "origin", "workmem:refs/heads/workmem")
    with second.env(T0.replace(minute=20)):
        Board(second.root).register(topic="Still syncing")
        report = sync(second.workspace)
    assert report.pushed
    said = " ".join(report.refused)
    assert "memory/link.md" in said and "2026-05-25.md" in said, report.refused
    assert not (second.root / "memory" / "link.md").exists()
    assert (second.root / "memory" / "2026-05-25.md").is_file()  # this machine's log kept
    with second.env(T0.replace(minute=30)):
        assert sync(second.workspace).pushed  # and the next run too
    with first.env(T0.replace(minute=40)):
        sync(first.workspace)
    assert "Still syncing" in topics(first)


def test_a_killed_sync_leaves_nothing_that_stops_the_next(tmp_path: Path) -> None:
    (first,) = make_machines(tmp_path, 1)
    with first.env(T0):
        Board(first.root).register(topic="Base")
        sync(first.workspace)
    tree = tree_of(first)
    (tree.git_dir / "index.lock").write_text("")
    (tree.common / "refs" / "heads" / "workmem.lock").write_text("")
    (tree.path / ".merge_file_abc123").write_text("git's temp file")
    with first.env(T0.replace(minute=10)):
        Board(first.root).register(topic="After the kill")
        report = sync(first.workspace)
    assert report.pushed
    assert any("interrupted sync" in note for note in report.notes)
    committed = git(first.root, "ls-tree", "-r", "--name-only", "origin/workmem").split()
    assert not [p for p in committed if ".merge_file_" in p or p.endswith(".tmp")]


def test_sigkill_during_syncs_never_wedges_the_next(tmp_path: Path) -> None:
    """Real processes killed at random points; every next sync still goes through."""
    first, second = make_machines(tmp_path, 2)
    with first.env(T0):
        for n in range(30):
            Board(first.root).register(topic=f"bulk {n}", sections={"Decisions": f"d{n}"})
    env = {
        **os.environ,
        "WORKMEM_ROOT": str(first.root),
        "WORKMEM_NOW": "2026-05-25 14:00",
        "WORKMEM_MACHINE": "m0",
    }
    for delay in (0.15, 0.3, 0.45, 0.6):
        proc = subprocess.Popen(
            [sys.executable, "-m", "workmem", "sync"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(delay)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        with first.env(T0.replace(hour=14, minute=int(delay * 10))):
            assert sync(first.workspace).pushed
    with second.env(T0.replace(hour=15)):
        sync(second.workspace)
    assert {f"bulk {n}" for n in range(30)} <= topics(second)


def test_a_wrong_remote_is_an_error_and_a_relative_one_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (machine,) = make_machines(tmp_path, 1)
    not_a_repository = tmp_path / "plain-folder"
    not_a_repository.mkdir()
    git(machine.root, "remote", "set-url", "origin", str(not_a_repository))
    with machine.env(T0):
        Board(machine.root).register(topic="Work")
        assert main(["sync"]) != 0
    err = capsys.readouterr().err
    assert "origin" in err and "git remote" in err and "offline" not in err.lower()
    git(
        machine.root,
        "remote",
        "set-url",
        "origin",
        os.path.relpath(tmp_path / "remote.git", machine.root),
    )
    with machine.env(T0.replace(minute=5)):
        report = sync(machine.workspace)
    assert report.pushed and not report.offline


def test_reports_say_deleted_changed_and_what_a_modify_delete_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = make_machines(tmp_path, 2)
    with first.env(T0):
        ids = [Board(first.root).register(topic=f"t{n}").session_id for n in range(4)]
        sync(first.workspace)
    with second.env(T0.replace(minute=10)):
        sync(second.workspace)
    with first.env(T0.replace(minute=20)):
        for sid in ids[:3]:
            Board(first.root).archive(sid)
        sync(first.workspace)
    with second.env(T0.replace(minute=30)):
        assert main(["sync"]) == 0
    out = capsys.readouterr().out
    assert "deleted on the other machines: 3 file(s)" in out, out
    assert "brought back" not in out
    # a snapshot deleted here and changed there: kept, and said so
    with first.env(T0.replace(minute=40)):
        Board(first.root).update(ids[3], sections={"Decisions": "changed on first"})
        sync(first.workspace)
    with second.env(T0.replace(minute=41)):
        (second.root / "memory" / "sessions" / f"{ids[3]}.md").unlink()
        assert main(["sync"]) == 0
    out = capsys.readouterr().out
    assert "changed version is kept" in out and "both versions kept" not in out, out
    assert "changed on first" in (second.root / "memory" / "sessions" / f"{ids[3]}.md").read_text()


def test_two_clones_without_tags_keep_both_sessions_and_their_events(tmp_path: Path) -> None:
    """Machine tags off (an older memory, or a copied tag): the same session ID and event
    numbers on both clones. Each sync keeps both, this clone's renamed everywhere."""
    first, second = make_machines(tmp_path, 2)
    for machine in (first, second):
        settings = machine.root / "workmem.toml"
        settings.write_text(
            settings.read_text().replace("machine_ids = true", "machine_ids = false")
        )
    same = T0.replace(hour=10)
    made = {}
    for machine in (first, second):
        with machine.env(same):
            sid = (
                Board(machine.root)
                .register(
                    topic=f"work on {machine.name}",
                    sections={"Decisions": f"{machine.name} decided"},
                )
                .session_id
            )
            writer = MemoryWriter(machine.root, session_key=sid)
            event = writer.note_event("purchase", f"{machine.name} bought a lamp on 3/15.")
            writer.end_session(session_summary=f"{machine.name} ended", resumption_note="r")
            made[machine.name] = (sid, event.id)
    assert made["m0"] == made["m1"]  # one ID and one event number, two writers
    sid, evt = made["m0"]
    with first.env(same.replace(minute=30)):
        sync(first.workspace)
    with second.env(same.replace(minute=31)):
        report = sync(second.workspace)
    assert report.renamed == {sid: f"{sid}-2", evt: "evt-00002"}
    assert len([n for n in report.notes if "issued on both sides" in n]) == 2
    with first.env(same.replace(minute=32)):
        sync(first.workspace)
    for machine in (first, second):
        rows = {row.session_id: row.topic for row in Board(machine.root).list()}
        assert rows == {sid: "work on m0", f"{sid}-2": "work on m1"}
        sessions = machine.root / "memory" / "sessions"
        assert "m1 decided" in (sessions / f"{sid}-2.md").read_text()
        assert "m1 decided" not in (sessions / f"{sid}.md").read_text()
        events = json.loads((machine.root / "memory" / "events.json").read_text())["events"]
        assert {e["id"]: e["text"].split()[0] for e in events} == {evt: "m0", "evt-00002": "m1"}
        log = (machine.root / "memory" / "2026-05-25.md").read_text()
        m1_line = next(line for line in log.split("\n") if "m1 bought" in line)
        assert "evt-00002" in m1_line
