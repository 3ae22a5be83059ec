"""Board rules an audit found partial: each test is named after the rule it checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.snapshot import continues_from
from workmem.cli import main
from workmem.errors import FormatError, NotFoundError, UsageError
from workmem.files.tables import TableDocument


def rows(root: Path) -> dict[str, dict[str, str]]:
    doc = TableDocument.parse((root / "memory" / "index.md").read_text())
    return {r["Session ID"]: r for r in doc.records()}


def tree(root: Path) -> dict[str, bytes]:
    """Every file under memory/ except lock files, as bytes: to prove nothing was written."""
    memory = root / "memory"
    return {
        p.relative_to(memory).as_posix(): p.read_bytes()
        for p in sorted(memory.rglob("*"))
        if p.is_file() and "locks" not in p.parts
    }


# -- Continues From through update is a real continuation --------------------------------


def test_update_continues_from_writes_both_sides_and_verifies(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = Board()
    source = board.register(topic="Source").session_id
    sid = board.start().session_id
    code = main(["session", "update", sid, "--section", f"Continues From={source}", "--json"])
    assert code == 0
    assert f"{source} Referenced By now lists {sid}" in json.loads(capsys.readouterr().out)["notes"]
    assert rows(root)[source]["Referenced By"] == sid
    snapshot = (root / "memory" / "sessions" / f"{sid}.md").read_text()
    assert continues_from(snapshot) == [source]
    assert board.doctor().healthy
    with pytest.raises(Exception, match="still referenced"):
        board.archive(source)


def test_update_continues_from_an_unknown_or_archived_session_is_refused_writing_nothing(
    root: Path,
) -> None:
    board = Board()
    gone = board.register(topic="Archived").session_id
    board.archive(gone)
    sid = board.register(topic="Current").session_id
    before = tree(root)
    with pytest.raises(NotFoundError, match=r"not on the board$"):
        board.update(sid, sections={"Continues From": "2026-01-01-0000-ghost"})
    with pytest.raises(NotFoundError, match="it is archived"):
        board.update(sid, sections={"continues": gone})
    with pytest.raises(UsageError, match="invalid session ID"):
        board.update(sid, sections={"Continues From": "../../etc/passwd"})
    assert tree(root) == before


def test_update_continues_from_itself_or_with_a_marker_is_refused(root: Path) -> None:
    board = Board()
    source = board.register(topic="Source").session_id
    sid = board.register(topic="Current").session_id
    board.update(sid, sections={"Continues From": source})
    before = tree(root)
    with pytest.raises(UsageError, match="itself"):
        board.update(sid, sections={"Continues From": sid})
    with pytest.raises(UsageError, match="session release"):
        board.update(sid, sections={"Continues From": f"[done] {source}"})
    assert tree(root) == before


def test_registration_with_continues_from_references_its_sources(root: Path) -> None:
    board = Board()
    a = board.register(topic="A").session_id
    b = board.register(topic="B").session_id
    sid = board.register(topic="C", sections={"Continues From": f"{a} (the auth work)\n{b}"})
    assert rows(root)[a]["Referenced By"] == sid.session_id
    assert rows(root)[b]["Referenced By"] == sid.session_id
    assert board.doctor().healthy


# -- Archiving a row without a snapshot keeps its values ---------------------------------


def test_archiving_a_row_without_snapshot_keeps_its_values_in_the_archive(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = Board()
    sid = board.start().session_id
    index = root / "memory" / "index.md"
    # A row given real content by hand (or by an older version) but no snapshot.
    index.write_text(index.read_text().replace(rows(root)[sid]["Summary"], "Fixed the CI cache"))
    assert main(["session", "archive", sid]) == 0
    assert "Archived:" in capsys.readouterr().out
    assert sid not in rows(root)
    folder = root / "memory" / "archive" / sid
    assert sorted(p.name for p in folder.iterdir()) == ["index.md"]
    archived = (folder / "index.md").read_text()
    assert "| Summary | Fixed the CI cache |" in archived
    assert "| Original Status | idle |" in archived
    assert "- Session: none" in archived
    assert board.show(sid).archived
    assert board.doctor().healthy


def test_archiving_a_placeholder_row_deletes_it_as_the_seed_says(root: Path) -> None:
    board = Board()
    sid = board.start().session_id
    assert board.archive(sid).action == "delete"
    assert not (root / "memory" / "archive").exists()


# -- The board's Summary follows the snapshot's Current Context --------------------------


def test_board_summary_follows_the_snapshots_current_context_after_later_updates(
    root: Path,
) -> None:
    board = Board()
    sid = board.register(topic="T", context="Started the parser. It reads headers.").session_id
    assert rows(root)[sid]["Summary"] == "Started the parser. It reads headers."
    board.update(sid, sections={"Current Context": "Parser done. Now writing the encoder."})
    assert rows(root)[sid]["Summary"] == "Parser done. Now writing the encoder."
    snapshot = (root / "memory" / "sessions" / f"{sid}.md").read_text()
    assert "Started the parser." in snapshot and "Now writing the encoder." in snapshot
    # An update that brings no context leaves the Summary where the context is.
    board.update(sid, sections={"Decisions": "Use a table"})
    assert rows(root)[sid]["Summary"] == "Parser done. Now writing the encoder."
    # An explicit summary wins, and goes into the snapshot too.
    board.update(sid, summary="Encoder half done.")
    assert rows(root)[sid]["Summary"] == "Encoder half done."
    assert "Encoder half done." in (root / "memory" / "sessions" / f"{sid}.md").read_text()


# -- organize --dry-run -----------------------------------------------------------------


def test_organize_dry_run_reports_every_change_and_writes_nothing(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    idle = board.start().session_id
    old = board.register(topic="Old", context="Old work.").session_id
    (root / "workmem.toml").write_text("[board]\narchive_stale_after_days = 30\n")
    monkeypatch.setenv("WORKMEM_NOW", "2026-08-01 09:00")
    before = tree(root)
    assert main(["organize", "--dry-run", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["dry_run"] is True
    assert report["deleted_idle"] == [idle]
    assert report["marked_stale"] == [old]
    assert report["archived"] == [old]
    assert tree(root) == before
    assert main(["organize", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Dry run: nothing was written.")
    assert f"would delete idle: {idle}" in out
    assert tree(root) == before
    # The real run does what the dry run said.
    real = Board().organize()
    assert (real.deleted_idle, real.marked_stale, real.archived) == ([idle], [old], [old])


# -- Retention: [board] archive_stale_after_days -----------------------------------------


def test_retention_archives_stale_rows_past_the_setting_and_keeps_referenced_ones(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    source = board.register(topic="Source", context="Source work.").session_id
    follower = board.register(topic="Follower", sections={"Continues From": source}).session_id
    monkeypatch.setenv("WORKMEM_NOW", "2026-06-20 09:00")
    recent = Board().register(topic="Recent", context="Recent work.").session_id
    monkeypatch.setenv("WORKMEM_NOW", "2026-06-22 09:00")
    first = Board().organize()  # both old rows go stale; retention is off
    assert sorted(first.marked_stale) == [follower]
    assert first.protected == {source: [follower]}
    assert first.archived == []

    (root / "workmem.toml").write_text("[board]\narchive_stale_after_days = 60\n")
    monkeypatch.setenv("WORKMEM_NOW", "2026-07-30 09:00")  # 66 days after the old rows
    report = Board().organize()
    assert report.archived == [follower]
    assert report.protected == {source: [follower]}  # kept, and said why
    assert source in rows(root) and recent in rows(root)
    assert (root / "memory" / "archive" / follower / "session.md").is_file()
    # Archiving the follower released its reference, so the next organize may take the source.
    assert rows(root)[source]["Referenced By"] == "-"
    monkeypatch.setenv("WORKMEM_NOW", "2026-07-31 09:00")
    later = Board().organize()
    assert source in later.marked_stale and source in later.archived
    assert set(rows(root)) == {recent}
    assert Board().doctor().healthy


def test_retention_reports_a_row_it_cannot_archive_and_archives_the_others(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    blocked = board.register(topic="Blocked", context="Old work.").session_id
    free = board.register(topic="Free", context="Old work.").session_id
    (root / "memory" / "archive" / blocked).mkdir(parents=True)  # left there by hand
    monkeypatch.setenv("WORKMEM_NOW", "2027-01-01 09:00")
    report = Board().organize(archive_after_days=90)
    assert report.archived == [free]
    assert "already exists" in report.inconsistent[blocked]
    assert rows(root)[blocked]["Status"] == "stale"
    assert (root / "memory" / "sessions" / f"{blocked}.md").is_file()


def test_retention_is_off_unless_set_as_the_seed_never_archives_in_organize(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = Board().register(topic="Old", context="Old work.").session_id
    monkeypatch.setenv("WORKMEM_NOW", "2030-01-01 00:00")
    report = Board().organize()
    assert report.marked_stale == [sid] and report.archived == []
    assert rows(root)[sid]["Status"] == "stale"


def test_retention_setting_that_is_not_a_whole_number_of_days_is_refused(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Board().start()
    (root / "workmem.toml").write_text('[board]\narchive_stale_after_days = "soon"\n')
    with pytest.raises(FormatError, match="archive_stale_after_days"):
        Board().organize()
    (root / "workmem.toml").write_text("[board]\narchive_stale_after_days = -3\n")
    with pytest.raises(UsageError, match="zero"):
        Board().organize()


# -- session list: active and idle first, a count of the rest ----------------------------


def test_session_list_shows_active_and_idle_rows_with_a_count_of_the_rest(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board()
    stale = [board.register(topic=f"Old {n}", context="Old.").session_id for n in range(3)]
    monkeypatch.setenv("WORKMEM_NOW", "2026-07-01 09:00")
    Board().organize()
    active = Board().register(topic="Now").session_id
    idle = Board().start().session_id
    capsys.readouterr()
    assert main(["session", "list"]) == 0
    out = capsys.readouterr().out
    assert active in out and idle in out
    assert not any(sid in out for sid in stale)
    assert "3 stale not shown (--all shows every row" in out
    assert main(["session", "list", "--json"]) == 0
    assert [r["session_id"] for r in json.loads(capsys.readouterr().out)] == [active, idle]
    assert main(["session", "list", "--all", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 5
    assert main(["session", "list", "--status", "stale", "--json"]) == 0
    assert sorted(r["session_id"] for r in json.loads(capsys.readouterr().out)) == sorted(stale)
