"""Every trigger-phrase workflow run through the dispatcher, checked on disk."""

from __future__ import annotations

from pathlib import Path

from workmem.board import Board
from workmem.demo_transcript import claude_code
from workmem.dispatch import IntentResult, RunContext, run_intent
from workmem.phrases import detect
from workmem.root import Workspace


def _run(
    root: Path, text: str, session: str | None = None, transcript: Path | None = None
) -> IntentResult:
    intent = detect(text)
    assert intent is not None, text
    return run_intent(intent, RunContext(Workspace(root), "claude-code", session, transcript))


def test_continue_release_and_archive_by_phrase(root: Path) -> None:
    board = Board()
    source = board.register(topic="Source work", sections={"Decisions": "keep"}).session_id
    current = board.start(agent_name="second-agent").session_id
    result = _run(root, f"接續 memory {source}", session=current)
    assert result.ok and "來源 session 快照" in result.text  # the phrase's language
    assert board.show(source).row.referenced_by == current  # type: ignore[union-attr]
    refused = _run(root, f"封存 memory session {source}")
    assert not refused.ok and "still referenced" in refused.text
    assert _run(root, f"解除引用 memory {source}", session=current).ok
    archived = _run(root, f"封存 memory session {source}")
    assert archived.ok and archived.text.startswith("已封存")
    assert (root / "memory" / "archive" / source / "session.md").is_file()


def test_release_without_a_session_is_a_clear_failure(root: Path) -> None:
    result = _run(root, "release memory reference 2026-05-25-1318-cursor-main-agent")
    assert not result.ok and "needs the current Memory Session ID" in result.text


def test_notes_wrap_and_relay_phrases(root: Path, tmp_path: Path) -> None:
    transcript = claude_code(tmp_path / "t.jsonl", cwd=str(root))
    sid = Board().start().session_id
    refreshed = _run(root, "/notes", session=sid, transcript=transcript)
    assert refreshed.ok and "## Current State" in refreshed.text
    viewed = _run(root, "/notes --view", session=sid, transcript=transcript)
    assert viewed.text == refreshed.text
    wrapped = _run(root, "收工", session=sid, transcript=transcript)
    assert wrapped.ok and wrapped.text.startswith("收工：已自動保存")
    assert "workmem wrap --from-file -" in wrapped.text
    assert (root / "memory" / "relay-snapshot.md").is_file()
    assert (root / "memory" / "sessions" / f"{sid}.md").is_file()
    fresh = _run(root, "fresh start")
    assert fresh.ok and "archived" in fresh.text
    assert not (root / "memory" / "relay-snapshot.md").exists()
    assert list((root / "memory" / "relay-archive").glob("*.md"))


def test_migrate_phrase_scaffolds_missing_files(root: Path) -> None:
    (root / "MEMORY.md").write_text("# Memory\n\n- the user likes tea\n")
    (root / "memory").mkdir()
    (root / "memory" / "2026-05-20.md").write_text("# 2026-05-20\n\nWorked on the parser.\n")
    result = _run(root, "migrate memory")
    assert result.ok
    assert (root / "memory" / "state.json").is_file()
    assert "the user likes tea" in (root / "MEMORY.md").read_text()
