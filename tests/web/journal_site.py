"""A workspace with a day of real work, made the way agents make it: hooks run as processes
on a Claude Code transcript (start, a save before a compaction, the end), a second session
saved before its compaction, a handoff taken up, a typed memory, an archived session."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from workmem.demo_transcript import claude_code

#: the compaction recorded in the first transcript (UTC, as Claude Code writes it)
COMPACTED_AT = "2026-05-25T09:40:00Z"
MEMORY_NAME = "project_rate-limiter"


def _with_compaction(path: Path, session: str, cwd: str) -> Path:
    claude_code(path, session=session, cwd=cwd)
    record: dict[str, Any] = {
        "type": "system",
        "subtype": "compact_boundary",
        "uuid": "c1",
        "parentUuid": None,
        "logicalParentUuid": "a2",
        "sessionId": session,
        "cwd": cwd,
        "timestamp": COMPACTED_AT,
        "compactMetadata": {"trigger": "auto", "preTokens": 150000},
    }
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")
    return path


def _run(root: Path, now: str, args: list[str], payload: dict[str, object] | None = None) -> str:
    env = {**os.environ, "WORKMEM_NOW": now, "WORKMEM_HOOK_FOREGROUND": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "workmem", *args],
        input=json.dumps({"cwd": str(root), **payload}) if payload is not None else None,
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        timeout=120,
        check=True,
    )
    return done.stdout


def _hook(root: Path, now: str, event: str, payload: dict[str, object]) -> None:
    _run(root, now, ["hook", event, "--platform", "claude-code"], payload)


def build_journal_site(root: Path) -> dict[str, str]:
    """The workspace (see the module); returns the IDs and paths the tests look for."""
    from workmem.files.store import Store
    from workmem.root import Workspace
    from workmem.transcripts.incremental import TranscriptTail

    (root / "workmem.toml").write_text("", encoding="utf-8")
    transcripts = root.parent / "transcripts"
    transcripts.mkdir()
    first = _with_compaction(transcripts / "cc-1.jsonl", "cc-1", str(root))
    second = claude_code(transcripts / "cc-2.jsonl", session="cc-2", cwd=str(root))
    one = {"session_id": "cc-1", "transcript_path": str(first)}
    two = {"session_id": "cc-2", "transcript_path": str(second)}

    _hook(root, "2026-05-25 09:00", "SessionStart", {**one, "source": "startup"})
    _hook(root, "2026-05-25 09:40", "PreCompact", {**one, "trigger": "auto"})
    _hook(root, "2026-05-25 10:15", "SessionEnd", {**one, "reason": "exit"})
    _run(root, "2026-05-25 10:20", ["relay", "restore"])  # the next session takes it up
    _hook(root, "2026-05-25 10:30", "SessionStart", {**two, "source": "startup"})
    _hook(root, "2026-05-25 11:05", "PreCompact", {**two, "trigger": "manual"})
    _run(
        root,
        "2026-05-25 11:10",
        [
            "memory",
            "add",
            "--type",
            "project",
            "--topic",
            "rate limiter",
            "--description",
            "Token bucket per IP",
            "--content",
            "We use a **token bucket**: 5 logins a minute per IP.\n\n"
            "| Limit | Value |\n|---|---|\n| burst | 5 |\n\n"
            "- keyed by IP\n- see [the RFC](https://www.rfc-editor.org/rfc/rfc6585)\n"
            "- not [this](javascript:alert(1))",
        ],
    )
    TranscriptTail(Store(Workspace(root))).update(first, "claude-code")
    board = (root / "memory" / "index.md").read_text(encoding="utf-8")
    ids = [line.split("|")[1].strip() for line in board.splitlines() if "-agent |" in line]
    first_id = next(i for i in ids if i.startswith("2026-05-25-0900"))
    second_id = next(i for i in ids if i.startswith("2026-05-25-1030"))
    _run(root, "2026-05-25 12:00", ["session", "archive", first_id])
    return {"first": first_id, "second": second_id, "memory": MEMORY_NAME}
