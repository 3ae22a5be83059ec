"""What the real clients showed in tests/agents/test_handoff.py, kept here as fast tests.

- Claude Code names its transcript at SessionStart but writes the file only afterwards, so
  a session killed before its first turn ended (no Stop, no SessionEnd: no save) is known
  only by what its start recorded. While the start recorded only a transcript that
  already existed, such a session had nothing to hand over, and the next session was
  given an older session's work instead.
- Gemini CLI fires PreCompress before every model request, the first one included, when
  its chat file holds no request yet. That save had nothing to say, and the board's
  placeholder ("Registered when the session started …") became the snapshot's context,
  handed to the next session as the agent's own notes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.continuity.hooks import context_of, hook, sid_of, touch
from tests.continuity.sessions import LAST_REQUEST, PLAN, hazardous_session
from tests.transcripts.util import ClaudeWriter, claude_project
from workmem.continuity import activity
from workmem.i18n.placeholders import START_SUMMARY
from workmem.root import Workspace

OLDER_REQUEST = "Rename the settings loader to read_settings"


@pytest.fixture
def folder(
    root: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> Path:
    """Claude Code's transcript folder for this project, holding an earlier session that
    ended with work of its own (so no fallback can stand in for the one killed later)."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    folder = claude_project(home, root)
    writer = ClaudeWriter(session="sess-old", cwd=str(root))
    writer.user(OLDER_REQUEST)
    writer.assistant("Renamed it in src/settings.py.")
    older = writer.write(folder / "sess-old.jsonl")
    payload = {"session_id": "sess-old", "transcript_path": str(older), "cwd": str(root)}
    start = {**payload, "source": "startup"}
    hook(monkeypatch, capsys, "SessionStart", start, at="2026-05-25 09:00")
    hook(monkeypatch, capsys, "Stop", payload, at="2026-05-25 09:05")
    hook(monkeypatch, capsys, "SessionEnd", {**payload, "reason": "exit"}, at="2026-05-25 09:06")
    return folder


def _start_killed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], root: Path, path: Path
) -> str:
    """A Claude Code start whose transcript does not exist yet, as the real client's."""
    payload = {
        "session_id": "sess-a",
        "transcript_path": str(path),
        "cwd": str(root),
        "source": "startup",
    }
    assert not path.exists()
    out = hook(monkeypatch, capsys, "SessionStart", payload, at="2026-05-25 13:00")
    return sid_of(context_of(out))


def _start_codex(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], root: Path
) -> str:
    payload = {"session_id": "codex-b", "cwd": str(root), "source": "startup"}
    out = hook(monkeypatch, capsys, "SessionStart", payload, "codex", at="2026-05-25 13:40")
    return context_of(out, "codex")


def test_a_session_killed_in_its_first_turn_is_handed_over(
    root: Path,
    folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = folder / "sess-a.jsonl"
    sid = _start_killed(monkeypatch, capsys, root, path)
    record = activity.read(Workspace(root), sid)
    assert record is not None and record.transcript == path  # where it will be
    # The agent writes its transcript, then is killed mid-turn: no hook runs again.
    hazardous_session(path, str(root), session="sess-a")
    touch(path, "2026-05-25 13:05")
    context = _start_codex(monkeypatch, capsys, root)
    assert f"Claude Code session `{sid}`" in context
    assert "stopped without ending 35 min ago" in context
    assert f"[in progress] {PLAN[1]}" in context and LAST_REQUEST in context
    assert "src/parse.py" in context
    work, others = context.split("## Other sessions")
    assert OLDER_REQUEST not in work and OLDER_REQUEST in others  # the older one: a line


def test_a_transcript_announced_but_never_written_hands_over_the_session_before(
    root: Path,
    folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Killed before it wrote a line: nothing of it to hand over, and nothing breaks."""
    path = folder / "sess-a.jsonl"
    _start_killed(monkeypatch, capsys, root, path)
    context = _start_codex(monkeypatch, capsys, root)
    assert "Claude Code session" in context and OLDER_REQUEST in context
    assert not path.exists()


def _gemini_chat(path: Path) -> Path:
    """A Gemini CLI 0.61 chat file as it is at the first PreCompress: the session's record
    and the CLI's own context message, no request yet."""
    records = [
        {"sessionId": "g-1", "projectHash": "ab12", "startTime": "2026-05-25T13:00:00.000Z"},
        {
            "$set": {
                "messages": [
                    {
                        "id": "m1",
                        "timestamp": "2026-05-25T13:00:01.000Z",
                        "type": "user",
                        "content": [{"text": "<session_context>\nThis is the Gemini CLI."}],
                    }
                ]
            }
        },
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_save_with_nothing_to_say_leaves_no_placeholder_as_the_agents_notes(
    root: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    chat = _gemini_chat(tmp_path / "session-g-1.jsonl")
    payload = {"session_id": "g-1", "transcript_path": str(chat), "cwd": str(root)}
    start = {**payload, "source": "startup"}
    sid = sid_of(context_of(hook(monkeypatch, capsys, "SessionStart", start, "gemini")))
    hook(monkeypatch, capsys, "PreCompress", {**payload, "trigger": "auto"}, "gemini")
    snapshot = (root / "memory" / "sessions" / f"{sid}.md").read_text(encoding="utf-8")
    context = snapshot.split("## Current Context", 1)[1].split("\n## ", 1)[0]
    for text in START_SUMMARY.values():
        assert text not in context
    assert START_SUMMARY["en"] in (root / "memory" / "index.md").read_text()  # the row's


def test_a_placeholder_already_in_a_snapshot_is_not_handed_over_as_notes(
    root: Path,
    folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Snapshots written before the fix hold it: the briefing leaves it out."""
    path = hazardous_session(folder / "sess-a.jsonl", str(root), session="sess-a")
    payload = {"session_id": "sess-a", "transcript_path": str(path), "cwd": str(root)}
    start = {**payload, "source": "startup"}
    sid = sid_of(
        context_of(hook(monkeypatch, capsys, "SessionStart", start, at="2026-05-25 13:00"))
    )
    hook(monkeypatch, capsys, "Stop", payload, at="2026-05-25 13:05")
    snapshot = root / "memory" / "sessions" / f"{sid}.md"
    text = snapshot.read_text(encoding="utf-8")
    written = text.replace(
        "## Current Context\n\n", f"## Current Context\n\n{START_SUMMARY['ja']}\n\n", 1
    )
    assert written != text
    snapshot.write_text(written, encoding="utf-8")
    context = _start_codex(monkeypatch, capsys, root)
    assert f"Claude Code session `{sid}`" in context
    assert START_SUMMARY["ja"] not in context and "Notes of where things stand" not in context
