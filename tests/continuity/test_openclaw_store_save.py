"""OpenClaw 2026.9: the hooks find the session in the agent's SQLite database from what the
hook bridge forwards, and ``/new`` saves it from there (the events as the bridge passes them:
``platforms/openclaw_hook.py``'s ``pick``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.continuity.test_save_and_resume import hook
from tests.transcripts.openclaw_db import conversation, database_path, make_store
from workmem.hooks.io import parse_input
from workmem.transcripts.openclaw_paths import session_path

SID = "c9786912-1ad5-457f-b704-363ed234d176"


def _hook(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    event: str,
    payload: dict[str, str],
) -> str:
    return hook(monkeypatch, capsys, event, payload, "openclaw")


@pytest.fixture
def home(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("OPENCLAW_STATE_DIR", raising=False)
    make_store(database_path(home), {SID: conversation(SID, root, "Write a rate limiter")})
    return home


def test_new_saves_the_session_from_the_sqlite_store(
    root: Path, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    base = {"sessionId": SID, "sessionKey": "agent:main:main", "agentId": "main"}
    boot = _hook(monkeypatch, capsys, "agent:bootstrap", {**base, "workspaceDir": str(root)})
    sid = json.loads(boot)["context"].splitlines()[0].removeprefix("Your Memory Session ID is: ")
    store_path = str(home / ".openclaw" / "agents" / "main" / "sessions" / "sessions.json")
    new = {
        **base,
        "workspaceDir": str(root),
        "storePath": store_path,
        "commandSource": "gateway:agent",
    }
    _hook(monkeypatch, capsys, "command:new", new)
    memory = root / "memory"
    assert not (memory / ".workmem" / "hook.log").exists()
    saved = json.loads((memory / ".workmem" / "last-save.json").read_text())
    assert saved["transcript"] == str(session_path(database_path(home), SID))
    assert saved["session_id"] == sid and saved["failed"] == {}
    assert {"notes", "snapshot", "relay", "journal"} <= set(saved["done"])
    snapshot = (memory / "sessions" / f"{sid}.md").read_text(encoding="utf-8")
    assert "Write a rate limiter" in snapshot and "ratelimit.py" in snapshot
    assert sid in (memory / "resumption.md").read_text(encoding="utf-8")
    # 2026.9 goes on under the same session id after /new: the next conversation is a new
    # memory session, and the one that ended keeps what was saved of it.
    again = _hook(monkeypatch, capsys, "agent:bootstrap", {**base, "workspaceDir": str(root)})
    second = (
        json.loads(again)["context"].splitlines()[0].removeprefix("Your Memory Session ID is: ")
    )
    assert second and second != sid
    assert "Write a rate limiter" in (memory / "sessions" / f"{sid}.md").read_text("utf-8")


def test_the_session_is_found_from_store_path_marker_or_agent(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = session_path(database_path(home), SID)
    store_path = str(home / ".openclaw" / "agents" / "main" / "sessions" / "sessions.json")
    events = [
        {"previousSessionEntry": {"sessionId": SID}, "storePath": store_path},
        {"sessionId": SID, "agentId": "main"},  # compaction: agent remembered from bootstrap
        {"sessionId": SID, "sessionFile": f"sqlite:main:{SID}:{store_path}"},
        {"sessionId": SID, "storePath": str(database_path(home))},
    ]
    for event in events:
        assert parse_input(json.dumps(event), "openclaw", "session-end").transcript == expected
    # With no database, the agent's JSONL of earlier versions is where the session would be.
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(home / "elsewhere"))
    legacy = parse_input(json.dumps(events[1]), "openclaw", "session-end").transcript
    assert legacy == home / "elsewhere" / "agents" / "main" / "sessions" / f"{SID}.jsonl"
    # Ids that could name another folder are refused, whatever the store path says.
    for hostile in ("../x", "a/b", "..", "a:b"):
        event = {"sessionId": hostile, "agentId": "main", "storePath": store_path}
        assert parse_input(json.dumps(event), "openclaw", "session-end").transcript is None
    marker = {"sessionId": "s", "sessionFile": "sqlite:main:../../x:/etc/sessions.json"}
    assert parse_input(json.dumps(marker), "openclaw", "session-end").transcript is None
