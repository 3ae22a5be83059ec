"""Organize never deletes a session that is still running: the caller's own, or one whose
row, hooks or transcript were active lately."""

from __future__ import annotations

import io
import json
import os
import sys
from datetime import datetime
from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.running import CALLER, RECENT_HOOK, RECENT_ROW, RECENT_TRANSCRIPT
from workmem.cli import main
from workmem.errors import UsageError
from workmem.files.store import Store
from workmem.files.tables import TableDocument
from workmem.hooks import session_map
from workmem.root import open_workspace


def rows(root: Path) -> dict[str, dict[str, str]]:
    doc = TableDocument.parse((root / "memory" / "index.md").read_text(encoding="utf-8"))
    return {r["Session ID"]: r for r in doc.records()}


def later(monkeypatch: pytest.MonkeyPatch, stamp: str = "2026-05-25 18:00") -> None:
    monkeypatch.setenv("WORKMEM_NOW", stamp)


def map_to(root: Path, platform_session: str, sid: str, transcript: Path | None) -> None:
    session_map.remember(
        Store(open_workspace(root)), "claude-code", platform_session, sid, transcript
    )


def test_an_idle_row_started_a_minute_ago_is_kept(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = Board().start().session_id
    later(monkeypatch, "2026-05-25 13:19")
    report = Board().organize()
    assert report.deleted_idle == []
    assert report.kept_running == {sid: RECENT_ROW}
    later(monkeypatch)  # hours later, nothing active: the placeholder goes
    assert Board().organize().deleted_idle == [sid]


def test_the_callers_own_idle_row_is_kept_however_old(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = Board().start().session_id
    other = Board().start().session_id
    later(monkeypatch, "2026-06-30 09:00")
    report = Board().organize(current=own)
    assert report.kept_running == {own: CALLER}
    assert report.deleted_idle == [other]
    assert own in rows(root)


def test_an_old_idle_row_whose_transcript_was_just_written_is_kept(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = Board().start().session_id
    quiet = Board().start().session_id
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("{}\n")
    map_to(root, "p1", sid, transcript)
    map_to(root, "p2", quiet, tmp_path / "gone.jsonl")
    later(monkeypatch, "2026-05-27 10:00")
    # the hooks mapped it two days ago; the agent wrote its transcript a minute ago
    moment = datetime(2026, 5, 27, 9, 59).timestamp()
    os.utime(transcript, (moment, moment))
    report = Board().organize()
    assert report.kept_running == {sid: RECENT_TRANSCRIPT}
    assert report.deleted_idle == [quiet]


def test_a_session_whose_hooks_just_mapped_it_is_kept(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = Board().start().session_id
    later(monkeypatch, "2026-05-26 09:00")
    map_to(root, "p1", sid, None)  # a resume re-mapped it this morning
    later(monkeypatch, "2026-05-26 09:30")
    assert Board().organize().kept_running == {sid: RECENT_HOOK}


def test_an_openclaw_session_is_judged_by_its_database(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = Board().start().session_id
    database = tmp_path / "sessions.sqlite"
    database.write_bytes(b"")
    map_to(root, "oc", sid, database / "abc-123")
    later(monkeypatch, "2026-05-27 10:00")
    moment = datetime(2026, 5, 27, 9, 50).timestamp()
    os.utime(database, (moment, moment))
    assert Board().organize().kept_running == {sid: RECENT_TRANSCRIPT}


def test_a_running_active_row_is_not_marked_stale(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = Board().register(topic="Long work", context="Still going.").session_id
    gone = Board().register(topic="Old work", context="Done long ago.").session_id
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("{}\n")
    map_to(root, "p1", sid, transcript)
    later(monkeypatch, "2026-07-01 09:00")
    moment = datetime(2026, 7, 1, 8, 30).timestamp()
    os.utime(transcript, (moment, moment))
    report = Board().organize()
    assert report.marked_stale == [gone]
    assert report.kept_running == {sid: RECENT_TRANSCRIPT}
    assert rows(root)[sid]["Status"] == "active"


def test_the_window_is_a_setting(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sid = Board().start().session_id
    later(monkeypatch, "2026-05-25 13:40")
    (root / "workmem.toml").write_text("[board]\nrunning_minutes = 10\n")
    assert Board().organize().deleted_idle == [sid]
    (root / "workmem.toml").write_text("[board]\nrunning_minutes = -1\n")
    with pytest.raises(UsageError, match="running_minutes"):
        Board().organize()


def test_a_corrupt_map_or_an_unreadable_time_changes_nothing_else(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = Board().start().session_id
    state = root / "memory" / ".workmem"
    state.mkdir(parents=True, exist_ok=True)
    (state / "platform-sessions.json").write_text('{"claude-code:x": {"memory_session_id": 5}')
    later(monkeypatch)
    assert Board().organize().deleted_idle == [sid]


def test_organize_at_a_prompt_keeps_the_callers_row_and_its_next_save_keeps_its_id(
    root: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from workmem.demo_transcript import claude_code

    transcript = claude_code(tmp_path / "p.jsonl", session="p", cwd=str(root))
    base = {"session_id": "p", "transcript_path": str(transcript), "cwd": str(root)}

    def fire(event: str, **extra: object) -> str:
        monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({**base, **extra})))
        assert main(["hook", event, "--platform", "claude-code"]) == 0
        return capsys.readouterr().out

    out = fire("SessionStart", source="startup")
    sid = json.loads(out)["hookSpecificOutput"]["additionalContext"].splitlines()[0]
    sid = sid.removeprefix("Your Memory Session ID is: ")
    # a day later, the same chat (idle all along) asks to organize
    later(monkeypatch, "2026-05-26 13:18")
    fire("UserPromptSubmit", prompt="整理 memory")
    assert sid in rows(root)
    fire("PreCompact", trigger="auto")
    assert list(rows(root)) == [sid]


def _activity(root: Path, sid: str, data: dict[str, object]) -> None:
    folder = root / "memory" / ".workmem" / "activity"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{sid}.json").write_text(json.dumps({"session_id": sid, **data}))


def test_the_hooks_activity_record_keeps_a_session_running(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.board.running import AGENT_ALIVE
    from workmem.files.oscompat import _proc_stat

    quiet, seen, alive, ended = (Board().start().session_id for _ in range(4))
    later(monkeypatch, "2026-05-27 10:00")
    _activity(root, seen, {"last_seen": "2026-05-27 09:30"})
    _activity(root, quiet, {"last_seen": "2026-05-25 13:18"})
    me = _proc_stat(os.getpid())  # a process that is certainly alive: this one
    if me is None:
        pytest.skip("processes cannot be read here")
    agent = f"{os.getpid()}:{me[2]}"
    _activity(root, alive, {"last_seen": "2026-05-25 13:18", "agent": agent})
    _activity(root, ended, {"last_seen": "2026-05-27 09:59", "ended": "2026-05-27 09:59"})
    report = Board().organize()
    assert report.kept_running == {seen: RECENT_HOOK, alive: AGENT_ALIVE}
    assert sorted(report.deleted_idle) == sorted([quiet, ended])
