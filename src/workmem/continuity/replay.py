"""Replaying a recorded session up to a cut through workmem's hooks, and what the agent is
given back after a compaction there (the continuity benchmark's replay).

The prefix of the transcript goes into a sandbox (``sandbox``) in the platform's own
layout; session start, the last request and pre-compact run through the platform's own
hooks, each at the time the recording gives, then whatever the platform gives the model
after a compaction: Claude Code's and Codex's session start ``compact``, Gemini CLI's next
prompt hook, OpenClaw's next bootstrap, Cursor's rules file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import hook_shapes as shapes
from .layouts import Placed
from .sandbox import SEED_ACTIVE, SEED_FEEDBACK, Sandbox, run_hook
from .truth import Recording

__all__ = ["SEED_ACTIVE", "SEED_FEEDBACK", "Replay", "replay", "run_hook"]


@dataclass
class Replay:
    context: str
    #: hook name -> wall seconds
    times: dict[str, float] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    #: what the session start (startup) gave, before any work
    start_context: str = ""


def _request_line(rec: Recording, cut_line: int) -> int:
    lines = [said.line for said in rec.requests if said.line <= cut_line]
    return lines[-1] if lines else cut_line


def replay(
    rec: Recording,
    cut_line: int,
    request: str | None,
    *,
    budget: int,
    seed: bool = True,
    seed_cache: Path | None = None,
) -> Replay:
    """Start, last request, pre-compact at ``cut_line``, then what the platform gives back
    after a compaction (Claude Code and Codex: session start ``compact``; Gemini CLI: the
    next prompt's hook; OpenClaw: the next bootstrap; Cursor: its rules file)."""
    import tempfile

    platform = rec.platform
    with tempfile.TemporaryDirectory(prefix="workmem-continuity-") as tmp:
        box = Sandbox.create(Path(tmp), budget)
        placed = Placed(rec, box.home, box.root)
        first, cut_time = rec.time_at(0), rec.time_at(cut_line)
        if seed:
            box.seed_memory(first - 86400 if first is not None else None, seed_cache)
        asked = _request_line(rec, cut_line)
        path = placed.write(0, first)

        def shaped(
            step: str, text: str | None = None, source: str = "startup"
        ) -> dict[str, object]:
            return shapes.payload(
                platform,
                step,
                session_id=rec.session_id,
                transcript=path,
                root=box.root,
                text=text,
                source=source,
            )

        result = Replay("")
        out = box.hook(platform, shapes.START, shaped(shapes.START), first, label="startup")
        result.start_context = shapes.model_context(platform, shapes.START, out or "", box.root)
        placed.write(asked, rec.time_at(asked))
        box.hook(platform, shapes.PROMPT, shaped(shapes.PROMPT, request or ""), rec.time_at(asked))
        placed.write(cut_line, cut_time)
        out = box.hook(platform, shapes.COMPACT, shaped(shapes.COMPACT), cut_time)
        if platform == "cursor":
            context = shapes.model_context(platform, shapes.COMPACT, out or "", box.root)
        elif platform == "gemini":
            later = [s.text for s in rec.requests if s.line > cut_line]
            nxt = later[0] if later else "continue"
            out = box.hook(
                platform, shapes.PROMPT, shaped(shapes.PROMPT, nxt), cut_time, label="resume"
            )
            context = shapes.model_context(platform, shapes.PROMPT, out or "", box.root)
        else:
            out = box.hook(
                platform,
                shapes.START,
                shaped(shapes.START, source="compact"),
                cut_time,
                label="resume",
            )
            context = shapes.model_context(platform, shapes.START, out or "", box.root)
        result.context = context
        result.times = dict(box.times)
        result.failures = box.failures + box.hook_log()
        return result
