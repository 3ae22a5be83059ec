"""The full seed-001 lifecycle, checked file by file: start -> update -> continue ->
release -> organize (15 days later) -> archive."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.model import DEFAULT_START_SUMMARY, DEFAULT_TOPIC, IDLE
from workmem.board.snapshot import continues_from
from workmem.errors import ConflictError, NotFoundError, UsageError
from workmem.files.tables import TableDocument


def board_rows(root: Path) -> dict[str, dict[str, str]]:
    doc = TableDocument.parse((root / "memory" / "index.md").read_text())
    return {r["Session ID"]: r for r in doc.records()}


def test_session_start_writes_one_idle_row_with_seed_defaults(root: Path) -> None:
    (root / "workmem.toml").write_text('[workmem]\nlanguage = "zh-TW"\n')  # the seed's texts
    result = Board().start()
    assert result.session_id == "2026-05-25-1318-cursor-main-agent"
    row = board_rows(root)[result.session_id]
    assert row == {
        "Session ID": result.session_id,
        "Agent Name": "cursor-main-agent",
        "Topic": DEFAULT_TOPIC,
        "Summary": DEFAULT_START_SUMMARY,
        "Keywords": "sessionStart, cursor-agent",
        "Status": IDLE,
        "Referenced By": "-",
        "Started At": "2026-05-25 13:18",
        "Updated At": "2026-05-25 13:18",
    }
    assert not (root / "memory" / "sessions").exists()


def test_ids_in_the_same_minute_get_suffixes_and_are_never_reused(root: Path) -> None:
    board = Board()
    ids = [board.start().session_id for _ in range(3)]
    base = "2026-05-25-1318-cursor-main-agent"
    assert ids == [base, f"{base}-2", f"{base}-3"]
    # An archived ID is not handed out again even after its row left the board.
    board.update(ids[0], sections={"Decisions": "keep"})
    board.archive(ids[0])
    assert board.start().session_id == f"{base}-4"


def test_manual_registration_writes_snapshot_and_active_row(root: Path) -> None:
    result = Board().register(
        topic="Auth refactor",
        context="Moved auth to JWT. Tests are green.",
        sections={"Decisions": "Use JWT\nKeep the sessions table"},
    )
    row = board_rows(root)[result.session_id]
    assert row["Status"] == "active"
    assert row["Summary"] == "Moved auth to JWT. Tests are green."
    assert row["Keywords"] == "manual-registration, cursor-agent, session-snapshot"
    snapshot = (root / "memory" / "sessions" / f"{result.session_id}.md").read_text()
    assert snapshot.startswith(f"# Session: {result.session_id}\n")
    assert "| Status | active |" in snapshot
    assert "- Use JWT\n- Keep the sessions table" in snapshot
    assert "## Continues From\n\nNone" in snapshot


def test_full_lifecycle(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    board = Board()
    source = board.start().session_id
    filler = board.start(agent_name="helper-agent").session_id

    # Session Update creates the missing snapshot and promotes idle -> active.
    board.update(
        source,
        topic="Board design",
        sections={
            "Current Context": "Designed the board table.",
            "Decisions": "Use flock for locks",
            "Next Actions": "Write tests\nWrite benchmark",
            "Open Questions": "Which tokenizer?",
        },
    )
    rows = board_rows(root)
    assert rows[source]["Status"] == "active"
    assert rows[source]["Summary"] == "Designed the board table."

    # A later update merges: marks instead of dropping, keeps old facts.
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 15:00")
    board.update(
        source,
        sections={"Next Actions": "[done] Write tests", "Decisions": "Index with FTS5"},
    )
    snap = (root / "memory" / "sessions" / f"{source}.md").read_text()
    assert "- [done] Write tests" in snap and "- Write benchmark" in snap
    assert "- Use flock for locks\n- Index with FTS5" in snap
    assert "- Which tokenizer?" in snap
    assert "| Updated At | 2026-05-25 15:00 |" in snap
    assert "| Started At | 2026-05-25 13:18 |" in snap
    assert board_rows(root)[source]["Updated At"] == "2026-05-25 15:00"

    # Continue Memory from a new agent with no ID: registers it first, links both sides.
    follower = board.continue_from(source).session_id
    rows = board_rows(root)
    assert rows[source]["Referenced By"] == follower
    assert rows[source]["Topic"] == "Board design"  # source metadata untouched
    follower_snap = (root / "memory" / "sessions" / f"{follower}.md").read_text()
    assert continues_from(follower_snap) == [source]

    # A second continuation by an existing session appends with a comma.
    other = board.register(topic="Docs").session_id
    board.continue_from(source, as_id=other)
    assert board_rows(root)[source]["Referenced By"] == f"{follower}, {other}"

    # Archive is refused while referenced.
    with pytest.raises(ConflictError, match="still referenced"):
        board.archive(source)

    # Release Reference: both sides change, the release is recorded, not dropped.
    board.release(source, as_id=other)
    assert board_rows(root)[source]["Referenced By"] == follower
    other_snap = (root / "memory" / "sessions" / f"{other}.md").read_text()
    assert continues_from(other_snap) == []
    assert f"[resolved] Released reference to {source}" in other_snap

    # Organize 15 days later: idle rows go, overdue unreferenced active rows go stale.
    monkeypatch.setenv("WORKMEM_NOW", "2026-06-10 09:00")
    report = board.organize()
    assert report.deleted_idle == [filler]
    assert source in report.protected
    assert sorted(report.marked_stale) == sorted([follower, other])
    rows = board_rows(root)
    assert filler not in rows
    assert rows[other]["Status"] == "stale"
    assert rows[other]["Updated At"] == "2026-05-25 15:00"  # last real work, unchanged
    assert rows[source]["Status"] == "active"
    # The snapshot's Metadata follows its row, and nothing else in it changes.
    stale_snap = (root / "memory" / "sessions" / f"{follower}.md").read_text()
    assert "| Status | active |" in follower_snap
    assert stale_snap == follower_snap.replace("| Status | active |", "| Status | stale |")
    follower_snap = stale_snap

    # Archive the follower: its reference on the source is released as part of it.
    result = board.archive(follower)
    assert result.action == "archive"
    folder = root / "memory" / "archive" / follower
    assert (folder / "session.md").read_text() == follower_snap
    archive_index = (folder / "index.md").read_text()
    assert f"# Archived Session: {follower}" in archive_index
    assert "| Original Status | stale |" in archive_index
    assert "| Archived At | 2026-06-10 09:00 |" in archive_index
    assert "- Session: ./session.md" in archive_index
    assert not (root / "memory" / "sessions" / f"{follower}.md").exists()
    rows = board_rows(root)
    assert follower not in rows
    assert rows[source]["Referenced By"] == "-"

    # Now the source can be archived too, and doctor finds the board consistent.
    board.archive(source)
    assert source not in board_rows(root)
    assert board.doctor().healthy


def test_organize_reports_a_snapshot_whose_metadata_it_cannot_mark(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    broken = board.register(topic="Broken snapshot", summary="Did real work").session_id
    fine = board.register(topic="Fine snapshot", summary="Did other work").session_id
    path = root / "memory" / "sessions" / f"{broken}.md"
    damaged = path.read_text().replace("## Metadata", "## Notes about it")
    path.write_text(damaged)
    monkeypatch.setenv("WORKMEM_NOW", "2026-07-01 09:00")
    report = board.organize()
    assert sorted(report.marked_stale) == sorted([broken, fine])
    assert "Metadata" in report.inconsistent[broken]
    assert path.read_text() == damaged  # reported, never written over
    assert "| Status | stale |" in (root / "memory" / "sessions" / f"{fine}.md").read_text()
    assert board_rows(root)[broken]["Status"] == "stale"


def test_organize_marks_snapshots_within_its_time_budget(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.board import cleanup

    board = Board()
    ids = [board.register(topic=f"Work {n}", summary=f"Did {n}").session_id for n in range(3)]
    before = {sid: (root / "memory" / "sessions" / f"{sid}.md").read_text() for sid in ids}
    monkeypatch.setattr(cleanup, "SNAPSHOT_MARKING_BUDGET_S", -1.0)  # already spent
    monkeypatch.setenv("WORKMEM_NOW", "2026-07-01 09:00")
    report = board.organize()
    assert sorted(report.marked_stale) == sorted(ids) == sorted(report.snapshots_unmarked)
    assert all(board_rows(root)[sid]["Status"] == "stale" for sid in ids)
    for sid in ids:  # the board is organized; the snapshots wait for their next update
        assert (root / "memory" / "sessions" / f"{sid}.md").read_text() == before[sid]
    assert report.to_dict()["snapshots_unmarked"] == report.snapshots_unmarked


def test_organize_keeps_idle_rows_with_snapshots_and_reports_them(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    sid = board.start().session_id
    (root / "memory" / "sessions").mkdir(parents=True)
    (root / "memory" / "sessions" / f"{sid}.md").write_text("# Session: x\n")
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 18:00")  # hours later: not running
    report = board.organize()
    assert report.deleted_idle == []
    assert sid in report.inconsistent
    assert sid in board_rows(root)


def test_organize_protects_sources_named_only_in_continues_from(root: Path) -> None:
    board = Board()
    source = board.start().session_id
    follower = board.register(sections={"Continues From": source}).session_id
    report = board.organize()
    assert report.protected[source] == [follower]
    assert source in board_rows(root)


def test_archive_without_snapshot_deletes_the_row_instead(root: Path) -> None:
    board = Board()
    sid = board.start().session_id
    result = board.archive(sid)
    assert result.action == "delete"
    assert sid not in board_rows(root)
    assert not (root / "memory" / "archive").exists()


def test_update_requires_a_known_session_and_refuses_idle(root: Path) -> None:
    board = Board()
    with pytest.raises(NotFoundError):
        board.update("2026-01-01-0000-nobody")
    sid = board.start().session_id
    with pytest.raises(UsageError):
        board.update(sid, status="idle")


def test_list_puts_meaningful_rows_first(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    board = Board()
    idle = board.start().session_id
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 14:00")
    active = board.register(topic="Real work").session_id
    assert [r.session_id for r in board.list()] == [active, idle]
    assert [r.session_id for r in board.list(["idle"])] == [idle]


def test_summary_keeps_file_names_whole_and_drops_bullets() -> None:
    from workmem.board.lifecycle import summary_from

    assert summary_from("- Created CLAUDE.md for the repo.\n- Next: tests. Later: docs.") == (
        "Created CLAUDE.md for the repo. Next: tests."
    )
    assert summary_from("完成了索引。接著寫測試。然後文件。") == "完成了索引。接著寫測試。"
