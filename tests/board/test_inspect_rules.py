"""Reading the board rule by rule: list order, the default listing, show, and every doctor
finding with its exact wording.

Written against mutation testing (docs/mutation.md): each test pins a rule of
``board/inspect.py`` that a small change used to break with the whole suite passing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.context import BoardContext
from workmem.board.inspect import (
    board_findings,
    check_board,
    leftover_temp_files,
    list_sessions,
    session_listing,
    show_session,
)
from workmem.board.model import COLUMNS, default_topic
from workmem.doctor import DoctorReport
from workmem.errors import NotFoundError, UsageError
from workmem.files.tables import format_row, format_separator
from workmem.root import open_workspace

A = "2026-05-01-0900-cursor-main-agent"
B = "2026-05-02-0900-cursor-main-agent"
C = "2026-05-03-0900-cursor-main-agent"

TOPIC_NOT_SET = default_topic("en")


def row(
    sid: str,
    status: str = "active",
    *,
    topic: str = "T",
    summary: str = "S",
    refs: str = "-",
    started: str = "2026-05-01 09:00",
    updated: str = "2026-05-01 09:00",
) -> list[str]:
    return [sid, "cursor-main-agent", topic, summary, "k", status, refs, started, updated]


def write_board(root: Path, *rows: list[str]) -> None:
    memory = root / "memory"
    memory.mkdir(exist_ok=True)
    lines = ["# Memory Index", "", format_row(COLUMNS), format_separator(len(COLUMNS))]
    lines += [format_row(r) for r in rows]
    (memory / "index.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_snapshot(root: Path, sid: str, continues: list[str] | None = None) -> Path:
    folder = root / "memory" / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    body = "\n".join(f"- {s}" for s in continues) if continues else "None"
    path = folder / f"{sid}.md"
    path.write_text(
        f"# Session: {sid}\n\n## Metadata\n\n| Field | Value |\n|---|---|\n"
        f"| Session ID | {sid} |\n\n## Continues From\n\n{body}\n",
        encoding="utf-8",
    )
    return path


def findings(root: Path) -> list[tuple[str, str | None, str]]:
    return [(f.kind, f.session_id, f.message) for f in Board().doctor().findings]


# -- list and show --------------------------------------------------------------------------


def test_list_orders_by_status_then_newest_and_placeholders_last(root: Path) -> None:
    write_board(
        root,
        row(A, "idle", topic=TOPIC_NOT_SET, updated="2026-05-09 09:00"),
        row(B, "stale", updated="2026-05-08 09:00"),
        row(C, "active", updated="2026-05-01 09:00"),
        row("2026-05-04-0900-cursor-main-agent", "active", updated="2026-05-07 10:00"),
        row("2026-05-05-0900-cursor-main-agent", "idle", topic="Real", updated="2026-05-01 08:00"),
        row("2026-05-06-0900-cursor-main-agent", "weird", updated="2026-05-09 09:00"),
    )
    ids = [r.session_id for r in Board().list()]
    assert ids == [
        "2026-05-04-0900-cursor-main-agent",
        C,
        B,
        "2026-05-05-0900-cursor-main-agent",
        "2026-05-06-0900-cursor-main-agent",
        A,
    ]


def test_list_filters_by_status_and_refuses_an_unknown_one(root: Path) -> None:
    write_board(root, row(A, "idle"), row(B, "stale"), row(C))
    assert [r.session_id for r in Board().list(["idle", "stale"])] == [B, A]
    with pytest.raises(UsageError) as info:
        Board().list(["active", "done"])
    assert str(info.value) == "unknown status 'done': use one of idle, active, stale"


def test_the_default_listing_counts_what_it_leaves_out(root: Path) -> None:
    write_board(root, row(A, "stale"), row(B, "stale", updated="2026-05-02 09:00"), row(C, "idle"))
    ctx = BoardContext.open()
    listing = session_listing(ctx)
    assert [r.session_id for r in listing.rows] == [C]
    assert listing.hidden == {"stale": 2}
    everything = session_listing(ctx, show_all=True)
    assert len(everything.rows) == 3 and everything.hidden == {}
    asked = session_listing(ctx, ["stale"])
    assert [r.session_id for r in asked.rows] == [B, A] and asked.hidden == {}


def test_show_reads_a_row_with_its_snapshot_or_an_archived_session(root: Path) -> None:
    write_board(root, row(A))
    path = write_snapshot(root, A)
    ctx = BoardContext.open()
    view = show_session(ctx, A)
    assert view.session_id == A
    assert view.row is not None and view.row.session_id == A
    assert view.to_dict()["row"] == view.row.to_dict()
    assert view.snapshot == path.read_text()
    assert view.archived is False
    assert view.to_dict()["snapshot"] == path.read_text()

    folder = root / "memory" / "archive" / B
    folder.mkdir(parents=True)
    (folder / "index.md").write_text("INDEX\n")
    (folder / "session.md").write_text("SESSION\n")
    archived = show_session(ctx, B)
    assert (archived.row, archived.snapshot, archived.archived) == (
        None,
        "INDEX\n\nSESSION\n",
        True,
    )
    assert archived.to_dict() == {
        "session_id": B,
        "row": None,
        "snapshot": "INDEX\n\nSESSION\n",
        "archived": True,
    }
    (folder / "session.md").unlink()
    assert show_session(ctx, B).snapshot == "INDEX\n"
    (folder / "index.md").unlink()
    assert show_session(ctx, B).snapshot is None

    with pytest.raises(NotFoundError) as info:
        show_session(ctx, C)
    assert str(info.value) == f"session {C} is neither on the board nor archived"
    with pytest.raises(UsageError):
        show_session(ctx, "../x")


# -- doctor ---------------------------------------------------------------------------------


def test_a_consistent_board_is_healthy_and_counts_its_rows(root: Path) -> None:
    write_board(root, row(A, refs=B), row(B), row(C, "idle"))
    write_snapshot(root, A)
    write_snapshot(root, B, [A])
    report = Board().doctor()
    assert report.findings == []
    assert report.rows == 3


def test_a_malformed_board_is_one_finding(root: Path) -> None:
    (root / "memory").mkdir()
    (root / "memory" / "index.md").write_text("| a | b |\n|---|---|\n| 1 | 2 |\n")
    report = Board().doctor()
    assert [f.kind for f in report.findings] == ["malformed-board"]
    assert "table header is 'a | b'" in report.findings[0].message
    assert report.rows == 0


def test_row_level_findings(root: Path) -> None:
    write_board(
        root,
        row(A),  # active without snapshot
        row(A, "stale"),  # duplicate
        row("Bad_ID"),
        row(B, "paused", started="yesterday", updated="2026-13-45 99:99"),
        row(C, "idle"),
    )
    write_snapshot(root, C)
    assert findings(root) == [
        ("row-without-snapshot", A, "active row has no snapshot"),
        ("duplicate-row", A, "Session ID appears more than once"),
        ("row-without-snapshot", A, "stale row has no snapshot"),
        ("invalid-id", "Bad_ID", "Session ID is not a safe lowercase ID"),
        ("invalid-status", B, "status 'paused' is not known"),
        ("invalid-time", B, "Started At 'yesterday' is not a time"),
        ("invalid-time", B, "Updated At '2026-13-45 99:99' is not a time"),
        ("idle-with-snapshot", C, "idle row has a session snapshot"),
    ]


def test_reference_findings_on_both_sides(root: Path) -> None:
    gone = "2026-04-01-0900-cursor-main-agent"
    lost = "2026-04-02-0900-cursor-main-agent"
    write_board(root, row(A, refs=f"{B}, {gone}, {lost}"), row(B), row(C))
    write_snapshot(root, A)
    write_snapshot(root, B)  # does not list A under Continues From
    write_snapshot(root, C, [A, gone, lost])  # A does not list C; gone is archived
    (root / "memory" / "archive" / gone).mkdir(parents=True)
    (root / "memory" / "archive" / gone / "index.md").write_text("x\n")
    assert findings(root) == [
        (
            "one-sided-reference",
            A,
            f"Referenced By lists {B}, but {B}'s Continues From does not list it",
        ),
        ("dangling-reference", A, f"Referenced By lists {gone}, which is archived"),
        ("dangling-reference", A, f"Referenced By lists {lost}, which is unknown"),
        (
            "one-sided-reference",
            C,
            f"Continues From lists {A}, whose Referenced By does not list it",
        ),
        ("dangling-reference", C, f"Continues From lists {lost}, which is unknown"),
    ]


def test_a_reference_to_a_row_without_snapshot_is_not_one_sided(root: Path) -> None:
    write_board(root, row(A, refs=B), row(B, "idle"))
    write_snapshot(root, A)
    assert findings(root) == []


def test_files_and_archive_folders_without_their_counterpart(root: Path) -> None:
    write_board(root, row(A))
    write_snapshot(root, A)
    sessions = root / "memory" / "sessions"
    (sessions / f"{B}.md").write_text("x\n")
    (sessions / f"{C}.notes.md").write_text("x\n")
    (sessions / f"{A}.notes.md").write_text("x\n")
    archive = root / "memory" / "archive"
    (archive / "2026-04-01-0900-x").mkdir(parents=True)
    (archive / "2026-04-02-0900-x").mkdir()
    (archive / "2026-04-02-0900-x" / "index.md").write_text("x\n")
    (archive / "stray.txt").write_text("a file, not an archive entry\n")
    (sessions / "2026-04-02-0900-x.md").write_text("archived and still here\n")
    assert findings(root) == [
        (
            "file-without-row",
            B,
            f"memory/sessions/{B}.md has no row on the board and is not archived",
        ),
        (
            "file-without-row",
            C,
            f"memory/sessions/{C}.notes.md has no row on the board and is not archived",
        ),
        ("archive-without-index", "2026-04-01-0900-x", "archive folder has no index.md"),
    ]


def test_an_unreadable_snapshot_is_reported_and_the_next_rows_still_checked(root: Path) -> None:
    write_board(root, row(A), row(B, refs=C), row(C))
    write_snapshot(root, A)
    (root / "memory" / "sessions" / f"{A}.md").write_bytes(b"## Continues From\n\n- \xff\n")
    write_snapshot(root, B)
    write_snapshot(root, C)
    found = findings(root)
    assert [(k, s) for k, s, _ in found] == [
        ("unreadable-snapshot", A),
        ("one-sided-reference", B),
    ]
    assert "not valid UTF-8" in found[0][2]


def test_an_interrupted_change_is_reported_with_its_files(root: Path) -> None:
    write_board(root, row(A))
    write_snapshot(root, A)
    state = root / "memory" / ".workmem"
    state.mkdir()
    note = state / "board-intent.json"
    note.write_text('{"pid": 1, "files": [["memory/sessions/x.md", "00"]], "rows": {}}')
    assert findings(root) == [
        (
            "interrupted-write",
            None,
            "a command was stopped while writing memory/sessions/x.md; the next board "
            "command completes it, or run workmem doctor --fix",
        )
    ]
    note.write_text('{"pid": 1, "files": [], "rows": {}}')
    assert "while writing the board;" in findings(root)[0][2]
    note.write_text("{not json")
    kind, sid, message = findings(root)[0]
    assert (kind, sid) == ("interrupted-write", None)
    assert message.startswith("unreadable note of an interrupted board change")
    assert message.endswith("; workmem doctor --fix removes it")


def test_check_board_repairs_first_only_when_asked(root: Path) -> None:
    write_board(root, row(A), row(B))
    write_snapshot(root, A)
    write_snapshot(root, B, [A])
    workspace = open_workspace(root)
    plain = DoctorReport()
    check_board(workspace, plain)
    assert [f.kind for f in plain.findings] == ["one-sided-reference"]
    assert plain.repairs == []
    fixing = DoctorReport(fix=True)
    check_board(workspace, fixing)
    assert fixing.findings == []
    assert fixing.repairs == [f"{A} Referenced By now lists {B}, whose snapshot continues from it"]
    again = DoctorReport()
    board_findings(BoardContext.open(), again)
    assert again.findings == [] and again.rows == 2


def test_leftover_temps_of_dead_writers_only(root: Path, tmp_path: Path) -> None:
    memory = root / "memory"
    (memory / "sessions").mkdir(parents=True)
    (memory / ".workmem").mkdir()
    dead = 2**22 + 12345  # above the usual pid_max: no such process
    mine = os.getpid()
    wanted = memory / "sessions" / f".{A}.md.{dead}.0.tmp"
    wanted.write_text("x")
    (memory / f".index.md.{mine}.0.tmp").write_text("x")  # a live writer's
    (memory / ".workmem" / f".map.json.{dead}.0.tmp").write_text("x")  # state is not ours
    (memory / f".odd.{dead}.tmp").write_text("x")  # not the temp name pattern
    (memory / ".index.md.notapid.0.tmp").write_text("x")
    assert leftover_temp_files(memory) == [wanted]
    assert leftover_temp_files(tmp_path / "missing") == []
    write_board(root, row(A))
    write_snapshot(root, A)
    assert findings(root) == [
        (
            "leftover-temp",
            None,
            f"memory/sessions/.{A}.md.{dead}.0.tmp was left by a writer that died "
            "mid-write; the file beside it is intact, this one can be deleted",
        )
    ]


def test_list_sessions_reads_without_writing(root: Path) -> None:
    write_board(root, row(A))
    before = (root / "memory" / "index.md").read_bytes()
    assert [r.session_id for r in list_sessions(BoardContext.open())] == [A]
    assert (root / "memory" / "index.md").read_bytes() == before
    assert not (root / "memory" / ".workmem").exists()


def test_check_board_reads_the_workspace_it_is_given_not_the_current_one(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_board(root, row(A))  # an active row without its snapshot
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.delenv("WORKMEM_ROOT")
    monkeypatch.chdir(elsewhere)
    report = DoctorReport()
    check_board(open_workspace(root), report)
    assert [(f.kind, f.session_id) for f in report.findings] == [("row-without-snapshot", A)]
