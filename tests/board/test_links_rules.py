"""Continue, release, organize and archive rule by rule, with the exact results they report.

Written against mutation testing (docs/mutation.md): each test pins a rule of
``board/links.py``, ``references.py``, ``cleanup.py`` or ``archive.py`` that a small change
used to break with the whole suite passing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.archive import NO_SNAPSHOT, archive_index
from workmem.board.cleanup import OrganizeReport
from workmem.board.context import BoardContext
from workmem.board.links import check_continuation
from workmem.board.model import BoardRow, default_topic, start_summary
from workmem.board.references import inbound_references
from workmem.board.snapshot import continues_from
from workmem.errors import ConflictError, NotFoundError, UsageError
from workmem.files.tables import TableDocument

TOPIC_NOT_SET = default_topic("en")
START_SUMMARY = start_summary("en")


def rows(root: Path) -> dict[str, dict[str, str]]:
    doc = TableDocument.parse((root / "memory" / "index.md").read_text())
    return {r["Session ID"]: r for r in doc.records()}


def snapshot_path(root: Path, sid: str) -> Path:
    return root / "memory" / "sessions" / f"{sid}.md"


# -- continue -------------------------------------------------------------------------------


def test_continue_without_an_id_registers_with_the_source_topic_and_an_intro(root: Path) -> None:
    board = Board()
    source = board.register(topic="Auth", summary="JWT done.").session_id
    result = board.continue_from(source)
    new = result.session_id
    assert result.action == "continue"
    assert result.row is not None and result.row.session_id == new
    assert result.notes == [
        f"registered {new} first (no Memory Session ID was given)",
        f"{source} Referenced By now lists {new}",
    ]
    assert result.files == [f"memory/sessions/{new}.md", "memory/index.md"]
    assert rows(root)[new]["Topic"] == "Auth"
    assert rows(root)[new]["Summary"] == f"Continuing from {source}: Auth — JWT done."
    text = snapshot_path(root, new).read_text()
    assert f"## Current Context\n\nContinuing from {source}: Auth — JWT done.\n" in text


def test_continue_with_context_uses_it_instead_of_the_intro(root: Path) -> None:
    board = Board()
    source = board.register(topic="Auth").session_id
    new = board.continue_from(source, context="Picking up the token refresh.").session_id
    assert rows(root)[new]["Summary"] == "Picking up the token refresh."


def test_continue_as_a_session_keeps_its_own_summary_unless_context_is_given(
    root: Path,
) -> None:
    board = Board()
    source = board.register(topic="Auth", summary="JWT done.").session_id
    mine = board.register(topic="Mine", summary="My own summary.").session_id
    result = board.continue_from(source, as_id=mine)
    assert result.notes == [f"{source} Referenced By now lists {mine}"]
    assert rows(root)[mine]["Summary"] == "My own summary."
    assert rows(root)[mine]["Topic"] == "Mine"
    other = board.register(topic="Other", summary="Other summary.").session_id
    board.continue_from(source, as_id=other, context="New direction.")
    assert rows(root)[other]["Summary"] == "New direction."


def test_continue_as_an_idle_session_takes_the_intro_as_summary(root: Path) -> None:
    board = Board()
    source = board.register(topic="Auth", summary="JWT done.").session_id
    idle = board.start().session_id
    board.continue_from(source, as_id=idle)
    assert rows(root)[idle]["Summary"] == f"Continuing from {source}: Auth — JWT done."
    assert rows(root)[idle]["Status"] == "active"


def test_continue_refusals(root: Path) -> None:
    board = Board()
    source = board.register(topic="Auth").session_id
    with pytest.raises(UsageError) as itself:
        board.continue_from(source, as_id=source)
    assert str(itself.value) == "a session cannot continue from itself"
    with pytest.raises(UsageError):
        board.continue_from(source, as_id="Bad ID")
    with pytest.raises(UsageError):
        board.continue_from("../x")
    ghost = "2026-01-01-0000-ghost"
    with pytest.raises(NotFoundError) as missing:
        board.continue_from(ghost)
    assert str(missing.value) == f"source session {ghost} is not on the board"
    board.archive(source)
    with pytest.raises(NotFoundError) as archived:
        board.continue_from(source)
    assert str(archived.value) == f"source session {source} is not on the board (it is archived)"


def test_check_continuation_names_the_side_that_is_missing(root: Path) -> None:
    board = Board()
    source = board.register(topic="Auth").session_id
    follower = board.register(topic="Next", agent_name="other-agent").session_id
    ctx = BoardContext.open()
    with pytest.raises(ConflictError) as snap:
        check_continuation(ctx, follower, source)
    assert str(snap.value) == (
        f"continuation incomplete: {follower}'s snapshot does not list {source}"
    )
    path = snapshot_path(root, follower)
    path.write_text(
        path.read_text().replace("## Continues From\n\nNone", f"## Continues From\n\n- {source}")
    )
    with pytest.raises(ConflictError) as row:
        check_continuation(ctx, follower, source)
    assert str(row.value) == (
        f"continuation incomplete: {source}'s Referenced By does not list {follower}"
    )
    ghost = "2026-01-01-0000-ghost"
    path.write_text(path.read_text().replace(f"- {source}", f"- {ghost}"))
    with pytest.raises(ConflictError, match=f"{ghost}'s Referenced By"):
        check_continuation(ctx, follower, ghost)


# -- release --------------------------------------------------------------------------------


def test_release_changes_both_sides_and_reports_each(root: Path) -> None:
    board = Board()
    source = board.register(topic="Auth").session_id
    follower = board.continue_from(source).session_id
    result = board.release(source, as_id=follower)
    assert result.action == "release"
    assert result.session_id == follower
    assert result.row is not None and result.row.session_id == follower
    assert result.notes == [
        f"removed {follower} from {source} Referenced By",
        f"removed {source} from {follower} Continues From",
    ]
    assert result.files == [f"memory/sessions/{follower}.md", "memory/index.md"]
    assert rows(root)[source]["Referenced By"] == "-"
    text = snapshot_path(root, follower).read_text()
    assert f"- [resolved] Released reference to {source} (2026-05-25 13:18)" in text
    with pytest.raises(ConflictError) as again:
        board.release(source, as_id=follower)
    assert str(again.value) == f"{follower} does not reference {source}; nothing to release"


def test_release_of_one_side_only(root: Path) -> None:
    board = Board()
    source = board.register(topic="Auth").session_id
    follower = board.continue_from(source).session_id
    other = board.continue_from(source).session_id
    # The snapshot side alone: the source row no longer lists the follower.
    index = root / "memory" / "index.md"
    index.write_text(index.read_text().replace(f"{follower}, {other}", other))
    result = board.release(source, as_id=follower)
    assert result.notes == [f"removed {source} from {follower} Continues From"]
    assert rows(root)[source]["Referenced By"] == other
    # The row side alone: the snapshot no longer lists the source.
    path = snapshot_path(root, other)
    path.write_text(path.read_text().replace(f"- {source}\n", "None\n"))
    result = board.release(source, as_id=other)
    assert result.notes == [f"removed {other} from {source} Referenced By"]
    assert result.files == ["memory/index.md"]
    assert rows(root)[source]["Referenced By"] == "-"


def test_release_from_a_source_that_left_the_board(root: Path) -> None:
    board = Board()
    source = board.register(topic="Auth").session_id
    follower = board.continue_from(source).session_id
    index = root / "memory" / "index.md"
    lines = index.read_text().split("\n")
    index.write_text("\n".join(line for line in lines if not line.startswith(f"| {source} |")))
    result = board.release(source, as_id=follower)
    assert result.notes == [
        f"{source} is not on the board; only the snapshot was changed",
        f"removed {source} from {follower} Continues From",
    ]
    with pytest.raises(NotFoundError):
        board.release(source, as_id="2026-01-01-0000-ghost")


# -- references -----------------------------------------------------------------------------


def test_inbound_references_join_both_sides_without_repeats(root: Path) -> None:
    board = Board()
    source = board.register(topic="Auth").session_id
    follower = board.continue_from(source).session_id
    ctx = BoardContext.open()
    board_rows = ctx.index.read().rows()
    assert inbound_references(ctx, board_rows) == {source: [follower], follower: []}
    index = root / "memory" / "index.md"
    index.write_text(index.read_text().replace(f"| {follower} |", "| - |", 1))
    board_rows = ctx.index.read().rows()
    # The snapshot side alone still protects the source.
    assert inbound_references(ctx, board_rows)[source] == [follower]
    assert inbound_references(ctx, board_rows, snapshots=set())[source] == []


# -- organize -------------------------------------------------------------------------------


def test_organize_refuses_negative_days_with_their_names(root: Path) -> None:
    board = Board()
    with pytest.raises(UsageError) as days:
        board.organize(-1)
    assert str(days.value) == "--stale-days must be zero or more"
    with pytest.raises(UsageError) as keep:
        board.organize(archive_after_days=-1)
    assert str(keep.value) == "archive_stale_after_days must be zero (off) or more"


def test_organize_marks_stale_only_past_the_cutoff(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    sid = board.register(topic="Work", context="Work.").session_id
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-30 13:18")  # five days later
    assert Board().organize(5).marked_stale == []
    assert Board().organize(4).marked_stale == [sid]
    assert rows(root)[sid]["Status"] == "stale"
    assert "| Status | stale |" in snapshot_path(root, sid).read_text()


def test_organize_keeps_an_overdue_row_with_nothing_to_keep_active(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    sid = board.start().session_id
    index = root / "memory" / "index.md"
    index.write_text(index.read_text().replace("| idle |", "| active |"))
    monkeypatch.setenv("WORKMEM_NOW", "2026-09-01 00:00")
    report = Board().organize()
    assert report.kept_active == [sid] and report.marked_stale == []
    assert rows(root)[sid]["Status"] == "active"


def test_organize_marks_an_overdue_row_with_a_real_summary_even_without_snapshot(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    sid = board.start().session_id
    index = root / "memory" / "index.md"
    text = index.read_text().replace("| idle |", "| active |")
    index.write_text(text.replace(START_SUMMARY, "Fixed CI"))
    monkeypatch.setenv("WORKMEM_NOW", "2026-09-01 00:00")
    report = Board().organize()
    assert report.marked_stale == [sid]
    assert not snapshot_path(root, sid).exists()


def test_organize_leaves_rows_with_an_unreadable_date(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    sid = board.register(topic="Work", context="Work.").session_id
    index = root / "memory" / "index.md"
    index.write_text(index.read_text().replace("| 2026-05-25 13:18 |\n", "| someday |\n"))
    monkeypatch.setenv("WORKMEM_NOW", "2027-01-01 00:00")
    report = Board().organize(archive_after_days=1)
    assert report.kept_active == [sid]
    assert rows(root)[sid]["Status"] == "active"


def test_organize_reports_an_idle_row_that_has_a_snapshot(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    sid = board.register(topic="Work").session_id
    index = root / "memory" / "index.md"
    index.write_text(index.read_text().replace("| active |", "| idle |"))
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 18:00")  # hours later: not running
    report = Board().organize()
    assert report.inconsistent == {
        sid: "idle row has a session snapshot; resolve by hand "
        "(update it to active, or archive it) before organizing deletes it"
    }
    assert sid in rows(root)


def test_organize_reports_a_stale_placeholder_past_retention(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    sid = board.start().session_id
    index = root / "memory" / "index.md"
    index.write_text(index.read_text().replace("| idle |", "| stale |"))
    monkeypatch.setenv("WORKMEM_NOW", "2027-01-01 00:00")
    report = Board().organize(archive_after_days=30)
    assert report.inconsistent == {
        sid: "stale row with only default texts and no snapshot; archive or delete it by hand"
    }
    assert report.archived == []


def test_organize_archives_a_stale_row_with_content_but_no_snapshot(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    sid = board.start().session_id
    index = root / "memory" / "index.md"
    index.write_text(
        index.read_text().replace("| idle |", "| stale |").replace(TOPIC_NOT_SET, "Topic")
    )
    monkeypatch.setenv("WORKMEM_NOW", "2027-01-01 00:00")
    report = Board().organize(archive_after_days=30)
    assert report.archived == [sid]
    assert NO_SNAPSHOT in (root / "memory" / "archive" / sid / "index.md").read_text()


def test_organize_over_its_time_budget_leaves_the_rest_for_later(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.board import cleanup

    board = Board()
    sid = board.register(topic="Work", context="Work.").session_id
    monkeypatch.setattr(cleanup, "SNAPSHOT_MARKING_BUDGET_S", -1.0)
    monkeypatch.setenv("WORKMEM_NOW", "2027-01-01 00:00")
    report = Board().organize(archive_after_days=30)
    assert report.marked_stale == [sid]
    assert report.snapshots_unmarked == [sid]
    assert report.archive_deferred == [sid]
    assert report.archived == []
    assert "| Status | active |" in snapshot_path(root, sid).read_text()


def test_organize_report_as_a_dict() -> None:
    report = OrganizeReport(deleted_idle=["a"], archived=["b"], dry_run=True)
    assert report.to_dict() == {
        "dry_run": True,
        "snapshots_unmarked": [],
        "deleted_idle": ["a"],
        "marked_stale": [],
        "kept_active": [],
        "kept_running": {},
        "protected": {},
        "inconsistent": {},
        "archived": ["b"],
        "archive_deferred": [],
    }


# -- archive --------------------------------------------------------------------------------


def test_the_archive_index_is_the_seed_template_with_safe_values() -> None:
    row = BoardRow("s-1", "agent", "## Topic", "Did\nwork", "k", "stale", "-", "t1", "t2")
    assert archive_index(row, "t3", has_session=True) == (
        "# Archived Session: s-1\n\n## Metadata\n\n| Field | Value |\n|---|---|\n"
        "| Session ID | s-1 |\n| Agent Name | agent |\n| Topic | \\## Topic |\n"
        "| Summary | Did work |\n| Keywords | k |\n| Original Status | stale |\n"
        "| Referenced By | - |\n| Started At | t1 |\n| Updated At | t2 |\n"
        "| Archived At | t3 |\n\n## Files\n\n- Session: ./session.md\n"
    )
    assert archive_index(row, "t3", has_session=False).endswith(f"## Files\n\n{NO_SNAPSHOT}\n")


def test_archive_reports_what_it_wrote_and_released(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    source = board.register(topic="Auth").session_id
    follower = board.continue_from(source).session_id
    monkeypatch.setenv("WORKMEM_NOW", "2026-06-01 10:00")
    result = board.archive(follower)
    assert result.action == "archive"
    assert result.files == [
        f"memory/archive/{follower}/index.md",
        f"memory/archive/{follower}/session.md",
        "memory/index.md",
    ]
    assert result.notes == [f"released reference on {source}"]
    assert (
        "| Archived At | 2026-06-01 10:00 |"
        in (root / "memory" / "archive" / follower / "index.md").read_text()
    )
    assert rows(root)[source]["Referenced By"] == "-"


def test_archive_refusals_say_what_to_do(root: Path) -> None:
    board = Board()
    source = board.register(topic="Auth").session_id
    follower = board.continue_from(source).session_id
    with pytest.raises(ConflictError) as referenced:
        board.archive(source)
    assert str(referenced.value) == (
        f"{source} is still referenced by {follower}; release those references first "
        f"(workmem session release {source} --as ID)"
    )
    (root / "memory" / "archive" / follower).mkdir(parents=True)
    with pytest.raises(ConflictError) as exists:
        board.archive(follower)
    assert str(exists.value) == (f"memory/archive/{follower} already exists; nothing was changed")
    assert snapshot_path(root, follower).is_file()
    with pytest.raises(UsageError):
        board.archive("../x")


def test_a_placeholder_is_deleted_with_a_note_saying_why(root: Path) -> None:
    board = Board()
    sid = board.start().session_id
    result = board.archive(sid)
    assert result.action == "delete"
    assert result.files == ["memory/index.md"]
    assert result.notes == ["no snapshot and only default texts: the row was deleted (was idle)"]


def test_a_row_without_snapshot_is_archived_with_a_note(root: Path) -> None:
    board = Board()
    sid = board.start().session_id
    index = root / "memory" / "index.md"
    index.write_text(index.read_text().replace(TOPIC_NOT_SET, "Real topic"))
    result = board.archive(sid)
    assert result.files == [f"memory/archive/{sid}/index.md", "memory/index.md"]
    assert result.notes == ["no snapshot: the archive keeps the row's values only"]


def test_a_failed_archive_puts_the_snapshot_back(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.board import index as board_index
    from workmem.errors import WriteError

    board = Board()
    sid = board.register(topic="Work").session_id
    before = snapshot_path(root, sid).read_bytes()

    def fail() -> None:
        raise WriteError("disk gone")

    monkeypatch.setattr(board_index, "between_writes", fail)
    with pytest.raises(WriteError):
        Board().archive(sid)
    assert snapshot_path(root, sid).read_bytes() == before
    assert not (root / "memory" / "archive" / sid).exists()
    assert sid in rows(root)
    assert continues_from(before.decode()) == []


def test_a_release_that_cannot_remove_the_source_names_the_snapshot(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.board import snapshot
    from workmem.errors import FormatError

    board = Board()
    source = board.register(topic="Auth").session_id
    follower = board.continue_from(source).session_id
    monkeypatch.setattr(snapshot, "continues_from", lambda _text: [source])
    with pytest.raises(FormatError) as info:
        board.release(source, as_id=follower)
    assert str(info.value) == (
        f"memory/sessions/{follower}.md: could not remove {source} from Continues From"
    )
    assert rows(root)[source]["Referenced By"] == follower
