"""The Context Window Guardian (seed 000): one reading of usage, and compaction means save now."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from workmem.root import Workspace
from workmem.wrap.guardian import context_report


def _record(kind: str, uuid: str, stamp: str, **extra: object) -> str:
    base: dict[str, object] = {
        "type": kind,
        "timestamp": stamp,
        "sessionId": "s1",
        "uuid": uuid,
        "cwd": "/work/project",
    }
    base.update(extra)
    return json.dumps(base)


def _assistant(uuid: str, stamp: str, context: int) -> str:
    message = {
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "ok"}],
        "usage": {
            "input_tokens": context - 10_000,
            "cache_read_input_tokens": 10_000,
            "cache_creation_input_tokens": 0,
            "output_tokens": 50,
        },
    }
    return _record("assistant", uuid, stamp, message=message)


def _transcript(path: Path, *, context: int, compacted: bool = False) -> Path:
    user = {"role": "user", "content": [{"type": "text", "text": "go on"}]}
    lines = [
        _record("user", "u1", "2026-05-25T10:00:00.000Z", message=user),
        _assistant("a1", "2026-05-25T10:01:00.000Z", context),
    ]
    if compacted:
        lines.append(
            _record(
                "system",
                "cb",
                "2026-05-25T10:30:00.000Z",
                subtype="compact_boundary",
                content="Conversation compacted",
                compactMetadata={"trigger": "auto", "preTokens": context},
            )
        )
        lines.append(_assistant("a2", "2026-05-25T10:31:00.000Z", 20_000))
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def _cli(root: Path, *argv: str, transcript: Path) -> dict[str, object]:
    env = {**os.environ, "WORKMEM_ROOT": str(root), "WORKMEM_TRANSCRIPT": str(transcript)}
    env["HOME"] = str(root / "home")
    done = subprocess.run(
        [sys.executable, "-m", "workmem", *argv, "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    loaded: dict[str, object] = json.loads(done.stdout)
    return loaded


def test_context_and_relay_status_read_the_same_usage(root: Path, tmp_path: Path) -> None:
    transcript = _transcript(tmp_path / "session.jsonl", context=160_000)
    plain = _cli(root, "context", transcript=transcript)
    relay = _cli(root, "relay", "status", transcript=transcript)
    usage = relay["usage"]
    assert isinstance(usage, dict)
    assert plain["used_tokens"] == usage["used_tokens"] == 160_000
    assert plain["window"] == usage["window"] == 200_000
    assert plain["percent"] == usage["percent"] == 80.0
    assert plain["zone"] == "full-save" and plain["source"] == "recorded"
    assert plain["transcript"] == str(transcript)


def test_context_without_a_transcript_says_so(root: Path) -> None:
    report = context_report(workspace=Workspace(root), home=root / "empty-home")
    assert report.percent == 0.0 and "no transcript found" in report.method


def test_a_compaction_means_save_now_until_memory_is_saved(root: Path, tmp_path: Path) -> None:
    transcript = _transcript(tmp_path / "compacted.jsonl", context=150_000, compacted=True)
    workspace = Workspace(root)
    report = context_report(workspace=workspace, transcript=transcript)
    assert report.percent == 10.0  # 20,000 of 200,000 after the compaction
    assert (report.zone, report.level, report.action) == ("compacted", 3, "save-now")
    assert "save everything important to memory now" in report.message
    assert report.compactions == 1 and report.saved_since_compaction is False
    memory = root / "memory" / "feedback_testing.md"
    memory.parent.mkdir(parents=True, exist_ok=True)
    memory.write_text("---\nname: testing\ntype: feedback\n---\nreal DB\n", "utf-8")
    board = root / "memory" / "index.md"  # a session start touching the board is no save
    board.write_text("# board\n", "utf-8")
    before = transcript.stat().st_mtime - 3600 * 24 * 400
    os.utime(memory, (before, before))
    assert context_report(workspace=workspace, transcript=transcript).zone == "compacted"
    os.utime(memory, None)  # written now: after the compaction
    saved = context_report(workspace=workspace, transcript=transcript)
    assert saved.zone == "normal" and saved.saved_since_compaction is True
    assert "memory was saved after the last one" in saved.note


def test_a_real_compacted_transcript_is_reported_compacted(fixtures: Path, root: Path) -> None:
    path = fixtures / "claude-code" / "cclog-dag_compact_after_rewind.jsonl"
    report = context_report(workspace=Workspace(root), transcript=path)
    assert report.zone == "compacted" and report.compacted_at is not None
    assert report.compacted_at.startswith("2025-07-01")


@pytest.mark.parametrize("turns", [0, 30])
def test_counts_given_use_the_seed_formula_not_a_transcript(root: Path, turns: int) -> None:
    report = context_report(
        workspace=None, user_turns=turns, tool_results=60, responses=30, platform="claude-code"
    )
    assert report.method.startswith("estimate: ") and report.transcript is None


def test_files_init_scaffolds_are_no_save_after_a_compaction(root: Path, tmp_path: Path) -> None:
    """A fresh root (``workmem init`` after the compaction) has saved nothing yet."""
    from workmem.journal.scaffold import init

    transcript = _transcript(tmp_path / "compacted.jsonl", context=150_000, compacted=True)
    created = init(root).created
    assert "MEMORY.md" in created and any(name.endswith("state.json") for name in created)
    workspace = Workspace(root)
    report = context_report(workspace=workspace, transcript=transcript)
    assert report.zone == "compacted" and report.saved_since_compaction is False
    # the first real save after it counts
    memory_md = root / "MEMORY.md"
    memory_md.write_text(
        memory_md.read_text().replace("### Project\n", "### Project\n- v2 shipped\n"), "utf-8"
    )
    saved = context_report(workspace=workspace, transcript=transcript)
    assert saved.zone == "normal" and saved.saved_since_compaction is True
