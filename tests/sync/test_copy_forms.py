"""Cloud copies: every service's form on every file kind, nothing else, and no row lost."""

from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from tests.sync.util import Machine
from workmem.board import Board
from workmem.cli import main
from workmem.doctor import run
from workmem.journal.writer import MemoryWriter
from workmem.sync.copies import copies_notice, find_copies, merge_copies

T0 = datetime(2026, 5, 25, 13, 18)


def shared_folder(tmp_path: Path) -> tuple[Machine, Machine]:
    """One folder as two machines see it before the service syncs: the same start, then
    each works alone. Tags are off (an unrecognised service), as in the issue."""
    here = Machine("here", tmp_path / "vault")
    here.root.mkdir()
    (here.root / "workmem.toml").write_text("[sync]\nmachine_ids = false\n")
    with here.env(T0):
        Board(here.root).register(topic="Shared start", sections={"Decisions": "D0"})
        MemoryWriter(here.root).end_session(session_summary="first", resumption_note="r")
        assert main(["memory", "add", "--type", "user", "--topic", "me", "--content", "Me."]) == 0
    there = Machine("there", tmp_path / "other")
    shutil.copytree(here.root, there.root)
    return here, there


def as_copy(there: Machine, here: Machine, rel: str, copy_rel: str) -> None:
    """The service keeps ``there``'s version of ``rel`` as a copy beside ``here``'s."""
    (here.root / copy_rel).write_bytes((there.root / rel).read_bytes())


def test_a_google_drive_copy_with_the_same_session_id_keeps_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    here, there = shared_folder(tmp_path)
    same = T0.replace(hour=14)
    with here.env(same):
        mine = Board(here.root).register(topic="Here's work", sections={"Decisions": "H1"})
    with there.env(same):
        theirs = Board(there.root).register(topic="There's work", sections={"Decisions": "T1"})
    assert mine.session_id == theirs.session_id  # one ID, two sessions
    sid = mine.session_id
    as_copy(there, here, "memory/index.md", "memory/index (1).md")
    as_copy(there, here, f"memory/sessions/{sid}.md", f"memory/sessions/{sid} (1).md")
    with here.env(same):
        assert main(["sync", "--merge-copies"]) == 0
    out = capsys.readouterr().out
    assert f"session {sid} was issued on both sides" in out and f"{sid}-2" in out
    rows = {row.session_id: row for row in Board(here.root).list()}
    assert rows[sid].topic == "Here's work"
    assert rows[f"{sid}-2"].topic == "There's work"  # the copy's session, under a new ID
    sessions = here.root / "memory" / "sessions"
    assert "H1" in (sessions / f"{sid}.md").read_text()
    assert "H1" not in (sessions / f"{sid}-2.md").read_text()
    assert "T1" in (sessions / f"{sid}-2.md").read_text()
    assert f"{sid}-2" in (sessions / f"{sid}-2.md").read_text()  # its own ID followed
    assert not find_copies(here.workspace)


def test_the_same_session_edited_on_both_machines_stays_one(tmp_path: Path) -> None:
    """Without an ancestor, one session at two times (an older view of it, marked stale by
    an organize on the other machine) is merged field by field, not split."""
    here, there = shared_folder(tmp_path)
    sid = Board(here.root).list()[0].session_id
    with here.env(T0.replace(hour=14)):
        Board(here.root).update(sid, summary="more work", sections={"Decisions": "D1"})
    with there.env(T0.replace(day=28)):
        Board(there.root).update(sid, status="stale")
    as_copy(there, here, "memory/index.md", "memory/index (1).md")
    with here.env(T0.replace(day=28)):
        report = merge_copies(here.workspace)
    assert report.renamed == {}
    assert [row.session_id for row in Board(here.root).list()] == [sid]


@pytest.mark.parametrize(
    ("original", "copy", "kind"),
    [
        ("MEMORY.md", "MEMORY-DESKTOP-AB12CD3.md", "memory"),
        ("memory/2026-05-25.md", "memory/2026-05-25-DESKTOP-AB12CD3.md", "log"),
        ("memory/index.md", "memory/index-LAPTOP7.md", "board"),
        ("memory/state.json", "memory/state-DESKTOP-AB12CD3.json", "state"),
        ("MEMORY.md", "MEMORY (1).md", "memory"),
        ("MEMORY.md", "MEMORY 2.md", "memory"),
        ("memory/2026-05-25.md", "memory/2026-05-25 (Bob's conflicted copy 2026-05-25).md", "log"),
        (
            "memory/2026-05-25.md",
            "memory/2026-05-25.sync-conflict-20260525-131800-ABCDEFG.md",
            "log",
        ),
        ("memory/2026-05-25.md", "memory/2026-05-25 (Conflicted copy Mac 202605251318).md", "log"),
    ],
)
def test_every_service_form_on_every_kind_is_found_and_merged(
    tmp_path: Path, original: str, copy: str, kind: str
) -> None:
    here, there = shared_folder(tmp_path)
    with there.env(T0.replace(hour=15)):
        main_ok = main(
            ["memory", "add", "--type", "project", "--topic", "theirs", "--content", "X marks"]
        )
        assert main_ok == 0
        MemoryWriter(there.root).end_session(session_summary="there's end", resumption_note="q")
        Board(there.root).register(topic="There's row")
    as_copy(there, here, original, copy)
    found = find_copies(here.workspace)
    assert [(c.rel, c.canonical_rel, c.kind) for c in found] == [(copy, original, kind)]
    notice = copies_notice(here.workspace)
    assert notice is not None and copy in notice
    assert any(f.kind == "conflict-copy" for f in run(here.workspace).findings)
    theirs_text = (there.root / original).read_text()
    with here.env(T0.replace(hour=16)):
        report = merge_copies(here.workspace)
    assert not report.problems, report.problems
    assert not (here.root / copy).exists()
    merged = (here.root / original).read_text()
    marker = {"memory": "theirs", "log": "there's end", "board": "There's row", "state": "there"}
    assert marker[kind] in theirs_text and marker[kind] in merged


@pytest.mark.parametrize(
    ("name", "beside"),
    [
        ("design-API.md", "design.md"),
        ("plan-Q3.md", "plan.md"),
        ("todo 2.md", "todo.md"),
        ("Notes (1).md", "Notes.md"),
        ("README-FIRST.md", None),
    ],
)
def test_the_users_own_files_are_never_taken_for_copies(
    tmp_path: Path, name: str, beside: str | None
) -> None:
    """With or without a note of the stem's name beside them."""
    here, _ = shared_folder(tmp_path)
    if beside is not None:
        (here.root / "memory" / beside).write_text(f"# {beside}\n\nanother document\n")
    own = here.root / "memory" / name
    own.write_text("# My own notes\n\n- one\n- two\n")
    assert find_copies(here.workspace) == []
    with here.env(T0):
        assert merge_copies(here.workspace).merged == []
    assert own.read_text() == "# My own notes\n\n- one\n- two\n"


def test_a_free_notes_copy_is_still_found(tmp_path: Path) -> None:
    here, _ = shared_folder(tmp_path)
    note = here.root / "memory" / "plan.md"
    note.write_text("# Plan\n\n- ship the parser\n- write the docs\n")
    copy = here.root / "memory" / "plan-DESKTOP-AB12CD3.md"
    copy.write_text("# Plan\n\n- ship the parser\n- write the docs\n- fix the tests\n")
    assert [c.rel for c in find_copies(here.workspace)] == ["memory/plan-DESKTOP-AB12CD3.md"]
    with here.env(T0):
        merge_copies(here.workspace)
    assert "fix the tests" in note.read_text() and not copy.exists()


def test_a_copy_with_nul_bytes_is_left_and_named(tmp_path: Path) -> None:
    here, there = shared_folder(tmp_path)
    copy = here.root / "memory" / "2026-05-25 (1).md"
    copy.write_bytes((there.root / "memory" / "2026-05-25.md").read_bytes() + b"\0\0junk\n")
    with here.env(T0):
        report = merge_copies(here.workspace)
    assert report.problems and "NUL" in report.problems[0]
    assert copy.exists()
    assert b"\0" not in (here.root / "memory" / "log-index.md").read_bytes()
    assert b"\0" not in (here.root / "memory" / "2026-05-25.md").read_bytes()


def test_an_event_id_both_machines_used_keeps_both_and_the_copys_log_follows(
    tmp_path: Path,
) -> None:
    here, there = shared_folder(tmp_path)
    with here.env(T0.replace(hour=14)):
        writer = MemoryWriter(here.root)
        assert writer.note_event("purchase", "Here I bought a lamp on 3/15.").id == "evt-00001"
        writer.end_session(session_summary="here's end", resumption_note="r")
    with there.env(T0.replace(hour=14)):
        writer = MemoryWriter(there.root)
        assert writer.note_event("purchase", "There I bought a desk on 3/16.").id == "evt-00001"
        writer.end_session(session_summary="there's end", resumption_note="r")
    as_copy(there, here, "memory/events.json", "memory/events (1).json")
    as_copy(there, here, "memory/2026-05-25.md", "memory/2026-05-25 (1).md")
    with here.env(T0.replace(hour=15)):
        report = merge_copies(here.workspace)
    assert report.renamed == {"evt-00001": "evt-00002"}
    events = json.loads((here.root / "memory" / "events.json").read_text())["events"]
    assert {e["id"]: e["text"].split()[0] for e in events} == {
        "evt-00001": "Here",
        "evt-00002": "There",
    }
    log = (here.root / "memory" / "2026-05-25.md").read_text()
    there_line = next(line for line in log.split("\n") if "desk" in line)
    here_line = next(line for line in log.split("\n") if "lamp" in line)
    assert "evt-00002" in there_line and "evt-00001" in here_line
