"""One platform session is one memory session on every path, even when the session-start
hook never ran: a registration or a continuation asked for at a prompt is the session every
later hook (and the next save) finds, and it is named from the transcript."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from workmem.board import Board
from workmem.cli import main
from workmem.demo_transcript import claude_code
from workmem.files.tables import TableDocument

MAP = Path("memory") / ".workmem" / "platform-sessions.json"


def hook(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    event: str,
    payload: dict[str, object],
) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(payload)))
    assert main(["hook", event, "--platform", "claude-code"]) == 0
    out = capsys.readouterr().out
    if not out.strip():
        return ""
    data = json.loads(out)
    return str(data.get("hookSpecificOutput", {}).get("additionalContext", data))


def rows(root: Path) -> dict[str, dict[str, str]]:
    doc = TableDocument.parse((root / "memory" / "index.md").read_text(encoding="utf-8"))
    return {r["Session ID"]: r for r in doc.records()}


def mapped(root: Path, platform_session: str) -> str:
    data = json.loads((root / MAP).read_text())
    return str(data[f"claude-code:{platform_session}"]["memory_session_id"])


def sid_in(text: str) -> str:
    line = next(x for x in text.splitlines() if "Your Memory Session ID is:" in x)
    return line.split("Your Memory Session ID is:")[1].strip()


@pytest.fixture
def chat(root: Path, tmp_path: Path) -> dict[str, object]:
    transcript = claude_code(tmp_path / "p1.jsonl", session="p1", cwd=str(root))
    return {"session_id": "p1", "transcript_path": str(transcript), "cwd": str(root)}


def test_registering_at_a_prompt_is_the_session_the_next_save_finds(
    root: Path,
    chat: dict[str, object],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    said = hook(capsys, monkeypatch, "UserPromptSubmit", {**chat, "prompt": "補註冊 memory"})
    sid = sid_in(said)
    assert mapped(root, "p1") == sid
    row = rows(root)[sid]
    # named from the conversation, not the placeholders
    assert row["Topic"] == "Add rate limiting to the login endpoint"
    assert "手動補註冊" not in row["Summary"] and "Registered by hand" not in row["Summary"]
    assert "rate limiting" in row["Summary"] or "limit" in row["Summary"]
    # the next save (which registers when it finds nothing) finds this one
    hook(capsys, monkeypatch, "PreCompact", {**chat, "trigger": "auto"})
    assert list(rows(root)) == [sid]
    hook(capsys, monkeypatch, "UserPromptSubmit", {**chat, "prompt": "狀態更新"})
    assert list(rows(root)) == [sid]


def test_continuing_at_a_prompt_keeps_the_continuation_on_the_session_that_goes_on(
    root: Path,
    chat: dict[str, object],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = Board(root).register(topic="Login work", context="Started the limiter.").session_id
    said = hook(capsys, monkeypatch, "UserPromptSubmit", {**chat, "prompt": f"接續記憶 {source}"})
    sid = sid_in(said)
    assert sid != source and mapped(root, "p1") == sid
    hook(capsys, monkeypatch, "PreCompact", {**chat, "trigger": "auto"})
    board = rows(root)
    assert set(board) == {source, sid}
    assert board[source]["Referenced By"] == sid
    snapshot = (root / "memory" / "sessions" / f"{sid}.md").read_text(encoding="utf-8")
    assert source in snapshot.split("## Continues From")[1]


def test_a_mapped_session_that_left_the_board_is_replaced_and_remapped(
    root: Path,
    chat: dict[str, object],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = sid_in(hook(capsys, monkeypatch, "SessionStart", {**chat, "source": "startup"}))
    Board(root).archive(first)  # an idle placeholder: deleted
    assert first not in rows(root)
    said = hook(capsys, monkeypatch, "UserPromptSubmit", {**chat, "prompt": "補註冊 memory"})
    second = sid_in(said)
    assert second != first and mapped(root, "p1") == second
    hook(capsys, monkeypatch, "PreCompact", {**chat, "trigger": "auto"})
    assert list(rows(root)) == [second]


def test_register_without_a_platform_session_still_registers(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["say", "補註冊 memory", "--run"]) == 0
    sid = sid_in(capsys.readouterr().out)
    assert list(rows(root)) == [sid]
    assert not (root / MAP).exists()
