"""The context given back after a compaction or on resume: one document, within a budget.

The document itself is the briefing's (``continuity.briefing.build_resume``): this
session's own work first (plan, request, files, decisions, errors, the agent's notes, the
last reply, commands, the outcome so far), then a line for each session still running
elsewhere, the long-term memories and how to use them, within ``[hooks] resume_tokens``
(default 2,000). This module keeps the call the session-start hook and the benchmark use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..root import Workspace

DEFAULT_BUDGET = 2000


@dataclass
class ResumeContext:
    text: str
    tokens: int
    left_out: list[str] = field(default_factory=list)
    shortened: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)


def budget_of(workspace: Workspace) -> int:
    """``[hooks] resume_tokens`` in workmem.toml (default 2,000)."""
    from .briefing import RESUME, budget_for

    return budget_for(workspace, RESUME)


def build_resume_context(
    workspace: Workspace,
    *,
    session_id: str | None,
    transcript: Path | None,
    platform: str | None = None,
    home: Path | None = None,
    budget: int | None = None,
    header: list[str] | None = None,
) -> ResumeContext:
    """The document (see the module docstring); ``header`` lines go first, in the budget."""
    from .briefing import build_resume

    done = build_resume(
        workspace,
        session_id=session_id,
        transcript=transcript,
        platform=platform,
        home=home,
        budget=budget,
        header=header,
    )
    return ResumeContext(done.text, done.tokens, done.left_out, done.shortened, done.sources)
