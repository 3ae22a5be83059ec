"""Archive and organize's snapshot marking rule by rule: results, references released,
what the interrupted-change note records, and what a failure leaves.

Written against mutation testing (docs/mutation.md): each test pins a rule of
``board/archive.py``, ``board/cleanup.py`` or ``board/api.py`` that a small change used to
break with the whole suite passing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.archive import archive_row
from workmem.board.cleanup import _mark_snapshot_stale
from workmem.board.context import BoardContext
from workmem.board.intent import digest
from workmem.board.model import default_topic
from workmem.errors import ConflictError, WriteError
from workmem.files.tables import TableDocument

GHOST = "2026-01-01-0000-ghost"

TOPIC_NOT_SET = default_topic("en")


def rows(root: Path) -> dict[str, dict[str, str]]:
    doc = TableDocument.parse((root / "memory" / "index.md").read_text())
    return {r["Session ID"]: r for r in doc.records()}


def snapshot_path(root: Path, sid: str) -> Path:
    return root / "memory" / "sessions" / f"{sid}.md"


def test_archive_row_reports_the_session_it_archived_or_deleted(root: Path) -> None:
    board = Board()
    kept = board.register(topic="Work").session_id
    placeholder = board.start().session_id
    ctx = BoardContext.open()
    with ctx.index.transaction() as edit:
        archived = archive_row(ctx, edit, edit.require(kept))
        deleted = archive_row(ctx, edit, edit.require(placeholder))
    assert (archived.action, archived.session_id) == ("archive", kept)
    assert (deleted.action, deleted.session_id) == ("delete", placeholder)


def test_archive_result_names_the_session_and_its_row(root: Path) -> None:
    board = Board()
    sid = board.register(topic="Work").session_id
    result = board.archive(sid)
    assert result.session_id == sid
    assert result.row is not None and result.row.topic == "Work"


def test_archiving_keeps_the_other_references_of_the_source(root: Path) -> None:
    board = Board()
    source = board.register(topic="Auth").session_id
    first = board.continue_from(source).session_id
    second = board.continue_from(source).session_id
    board.archive(first)
    assert rows(root)[source]["Referenced By"] == second


def test_a_source_that_left_the_board_or_does_not_list_the_session_is_left_alone(
    root: Path,
) -> None:
    board = Board()
    source = board.register(topic="Auth").session_id
    follower = board.register(topic="Next", agent_name="other-agent").session_id
    path = snapshot_path(root, follower)
    path.write_text(
        path.read_text().replace(
            "## Continues From\n\nNone", f"## Continues From\n\n- {GHOST}\n- {source}"
        )
    )
    result = board.archive(follower)
    assert result.action == "archive"
    assert result.notes == []
    assert rows(root)[source]["Referenced By"] == "-"


def test_the_refusal_lists_every_session_still_referencing(root: Path) -> None:
    board = Board()
    source = board.register(topic="Auth").session_id
    first = board.continue_from(source).session_id
    second = board.continue_from(source).session_id
    with pytest.raises(ConflictError, match=f"is still referenced by {first}, {second}; release"):
        board.archive(source)


def test_the_note_records_what_the_moved_snapshot_holds(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.board import index as board_index

    board = Board()
    sid = board.register(topic="Work").session_id
    content = snapshot_path(root, sid).read_bytes()
    empty = board.register(topic="Empty", agent_name="other-agent").session_id
    snapshot_path(root, empty).write_bytes(b"")
    notes: list[dict[str, list[list[str]]]] = []

    def capture() -> None:
        notes.append(json.loads((root / "memory" / ".workmem" / "board-intent.json").read_text()))

    monkeypatch.setattr(board_index, "between_writes", capture)
    board.archive(sid)
    board.archive(empty)
    files = [{rel: sha for rel, sha in note["files"]} for note in notes]
    assert files[0][f"memory/archive/{sid}/session.md"] == digest(content)
    assert files[1][f"memory/archive/{empty}/session.md"] == digest(b"")


def _fail_between_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    from workmem.board import index as board_index

    def fail() -> None:
        raise WriteError("disk gone")

    monkeypatch.setattr(board_index, "between_writes", fail)


def test_a_failed_archive_of_a_row_without_snapshot_leaves_no_folder(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    sid = board.start().session_id
    index = root / "memory" / "index.md"
    index.write_text(index.read_text().replace(TOPIC_NOT_SET, "Real topic"))
    _fail_between_writes(monkeypatch)
    with pytest.raises(WriteError, match="disk gone"):
        Board().archive(sid)
    assert not (root / "memory" / "archive" / sid).exists()
    assert sid in rows(root)


def test_an_archive_that_cannot_make_its_folder_says_so_and_changes_nothing(
    root: Path,
) -> None:
    board = Board()
    sid = board.register(topic="Work").session_id
    before = snapshot_path(root, sid).read_bytes()
    (root / "memory" / "archive").write_text("a file where the archive folder belongs\n")
    with pytest.raises(WriteError) as info:
        board.archive(sid)
    assert str(info.value) == (
        "memory/archive is a file where a folder is expected; nothing was written"
    )
    assert snapshot_path(root, sid).read_bytes() == before
    assert sid in rows(root)


# -- organize marking snapshots stale -------------------------------------------------------


def test_marking_a_missing_snapshot_or_a_good_one_reports_no_problem(root: Path) -> None:
    board = Board()
    sid = board.register(topic="Work").session_id
    ctx = BoardContext.open()
    assert _mark_snapshot_stale(ctx, GHOST) == ""
    assert _mark_snapshot_stale(ctx, sid) == ""
    assert "| Status | stale |" in snapshot_path(root, sid).read_text()
    assert _mark_snapshot_stale(ctx, sid) == ""  # already stale: nothing to write


def test_marking_a_snapshot_without_metadata_names_the_file(root: Path) -> None:
    board = Board()
    sid = board.register(topic="Work").session_id
    path = snapshot_path(root, sid)
    path.write_text(path.read_text().replace("## Metadata", "## Other"))
    problem = _mark_snapshot_stale(BoardContext.open(), sid)
    assert problem == (
        "marked stale on the board, but its snapshot's Metadata was left as it was "
        f"(memory/sessions/{sid}.md: snapshot has no '## Metadata' section; fix it by hand, "
        "nothing was written); fix the snapshot by hand"
    )


def test_organize_keeps_the_snapshots_line_endings(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    sid = board.register(topic="Work", context="Work.").session_id
    path = snapshot_path(root, sid)
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    monkeypatch.setenv("WORKMEM_NOW", "2027-01-01 00:00")
    report = Board().organize()
    assert report.marked_stale == [sid] and report.inconsistent == {}
    data = path.read_bytes()
    assert b"| Status | stale |\r\n" in data
    assert data.count(b"\n") == data.count(b"\r\n")


# -- the facade -----------------------------------------------------------------------------


def test_update_takes_a_fragment_of_sections(root: Path) -> None:
    board = Board()
    sid = board.register(topic="Work").session_id
    board.update(sid, fragment="## Decisions\n\n- From the file\n\n## Next Actions\n\n- Ship")
    text = snapshot_path(root, sid).read_text()
    assert "## Decisions\n\n- From the file\n" in text
    assert "## Next Actions\n\n- Ship\n" in text
