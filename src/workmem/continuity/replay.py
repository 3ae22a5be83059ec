"""Replaying a recorded session up to a line through workmem's hooks, as the agent would.

The prefix of the transcript goes into a fresh HOME in the platform's own layout, a fresh
memory root is made, and the hooks run as separate processes (``workmem hook …``) exactly
as the platform starts them: session start, the last user prompt, pre-compact, then session
start after the compaction. What that last hook answers is the context the agent would get.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .truth import Recording

#: platform -> its hook event names for: start, prompt, pre-compact
EVENTS = {
    "claude-code": ("SessionStart", "UserPromptSubmit", "PreCompact"),
    "codex": ("SessionStart", "UserPromptSubmit", "PreCompact"),
}
HOOK_TIMEOUT = 60.0


@dataclass
class Replay:
    context: str
    #: hook name -> wall seconds
    times: dict[str, float] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def _transcript_path(home: Path, root: Path, rec: Recording) -> Path:
    if rec.platform == "codex":
        folder = home / ".codex" / "sessions" / "2026" / "01" / "01"
        return folder / f"rollout-2026-01-01T00-00-00-{rec.session_id}.jsonl"
    encoded = re.sub(r"[^A-Za-z0-9]", "-", str(root))
    return home / ".claude" / "projects" / encoded / f"{rec.session_id}.jsonl"


def run_hook(
    event: str, platform: str, payload: dict[str, object], root: Path, env: dict[str, str]
) -> tuple[str, float, str | None]:
    """Run ``workmem hook EVENT`` as the agent starts it: (stdout, wall seconds, problem)."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "workmem", "hook", event, "--platform", platform],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            cwd=root,
            env=env,
            timeout=HOOK_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "", time.perf_counter() - started, f"{event} timed out"
    elapsed = time.perf_counter() - started
    problem = None
    if done.returncode != 0:
        problem = f"{event} exited {done.returncode}: {done.stderr.strip()[-300:]}"
    return done.stdout, elapsed, problem


def _context_of(stdout: str) -> str:
    text = stdout.strip()
    if not text:
        return ""
    try:
        data = json.loads(text)
    except ValueError:
        return text
    specific = data.get("hookSpecificOutput") if isinstance(data, dict) else None
    if isinstance(specific, dict) and isinstance(specific.get("additionalContext"), str):
        return str(specific["additionalContext"])
    return ""


def replay(rec: Recording, cut_line: int, request: str | None, *, budget: int) -> Replay:
    """Run the hooks on the transcript's lines ``0..cut_line`` in a fresh HOME and root."""
    with tempfile.TemporaryDirectory(prefix="workmem-continuity-") as tmp:
        home, root = Path(tmp) / "home", Path(tmp) / "project"
        root.mkdir(parents=True)
        (root / "workmem.toml").write_text(f"[hooks]\nresume_tokens = {budget}\n")
        transcript = _transcript_path(home, root, rec)
        transcript.parent.mkdir(parents=True)
        transcript.write_bytes(b"\n".join(rec.lines[: cut_line + 1]) + b"\n")
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("WORKMEM_", "CLAUDE_", "CODEX_"))
        }
        env.update(HOME=str(home), PYTHONDONTWRITEBYTECODE="1")
        start, prompt, compact = EVENTS[rec.platform]
        base: dict[str, object] = {
            "session_id": rec.session_id,
            "transcript_path": str(transcript),
            "cwd": str(root),
        }
        steps: list[tuple[str, str, dict[str, object]]] = [
            ("startup", start, {"hook_event_name": start, "source": "startup"}),
            ("prompt", prompt, {"hook_event_name": prompt, "prompt": request or ""}),
            ("pre-compact", compact, {"hook_event_name": compact, "trigger": "auto"}),
            ("resume", start, {"hook_event_name": start, "source": "compact"}),
        ]
        result = Replay("")
        out = ""
        for label, event, extra in steps:
            out, seconds, problem = run_hook(event, rec.platform, {**base, **extra}, root, env)
            result.times[label] = seconds
            if problem:
                result.failures.append(problem)
        log = root / "memory" / ".workmem" / "hook.log"
        if log.is_file():
            result.failures += [line for line in log.read_text().splitlines() if line.strip()]
        result.context = _context_of(out)
        return result
