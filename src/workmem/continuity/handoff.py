"""Picking up another session's work on purpose: ``workmem handoff``, "continue where we
left off" in a first prompt, the MCP tool.

The start briefing already carries the most recent stopped session's work; when the user
says to continue (or names a session by ID or by words of its topic), the new session gets
that session's whole handoff and the board records the link on both sides (Continues From
in the new snapshot, Referenced By on the source), as the board's rules ask. A session that
does not exist is a clear error (exit 3), never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import NotFoundError
from ..root import Workspace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

    from .briefing import Briefing
    from .roster import Roster, SessionView


@dataclass
class Handoff:
    briefing: Briefing
    source: str
    #: the current session now continues from the source (the board says so on both sides)
    linked: bool = False
    link_problem: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "linked": self.linked,
            "link_problem": self.link_problem,
            "tokens": self.briefing.tokens,
            "running": self.briefing.running,
            "left_out": self.briefing.left_out,
            "sources": self.briefing.sources,
            "text": self.briefing.text,
        }


#: a first prompt that only says to go on ("continue", 繼續, 続けて …): the handoff
_BARE_CONTINUE = re.compile(
    r"^\s*(?:please\s+|ok(?:ay)?[,.]?\s+)?(?:continue|go on|carry on|keep going|resume)"
    r"(?:\s+please)?\s*[.!]?\s*$"
    r"|^\s*(?:請|请)?(?:繼續|继续|接續|接续|續上|续上)(?:吧|一下)?\s*[。！!]?\s*$"
    r"|^\s*続け(?:て|てください|よう)\s*[。！!]?\s*$|^\s*続きを?(?:お願い(?:します)?)?\s*[。！!]?\s*$"
    r"|^\s*(?:이어서|계속)(?:\s*(?:해|해줘|해 줘|하자|해주세요|진행해))?\s*[.!]?\s*$",
    re.I,
)
#: a transcript this large holds more than a first prompt
_FIRST_PROMPT_BYTES = 2 * 1024 * 1024
#: start and first prompt together stay within this many tokens
START_AND_FIRST_PROMPT = 3000


def is_bare_continue(text: str | None) -> bool:
    return bool(text) and _BARE_CONTINUE.match(text or "") is not None


def pick(
    workspace: Workspace,
    wanted: str | None,
    *,
    current: str | None,
    cwd: str | None = None,
    explicit: bool = False,
) -> tuple[SessionView, Roster]:
    """The session to hand over: ``wanted`` (an ID, a platform session id, topic words:
    even one that still looks active, since the user named it), else the most recent one
    that is not running (this worktree's first); asked for explicitly ("continue"), the
    most recent one that stopped without ending comes before one that ended. A session
    that is still running is never picked unnamed: two agents on one plan collide."""
    from .roster import choose_handoff, find, read_roster

    roster = read_roster(workspace)
    if explicit and not wanted:
        stopped = [s for s in roster.others(current) if s.stopped and s.has_work]
        if stopped:
            return stopped[0], roster
    if wanted:
        view = find(roster, wanted.strip())
        if view is None or view.session_id == current:
            raise NotFoundError(
                f"no session {wanted!r} in this project's memory "
                "(`workmem session list --all` lists them)"
            )
        return view, roster
    view = choose_handoff(roster, current, cwd=cwd)
    if view is None:
        running = [s for s in roster.others(current) if s.running and s.has_work]
        if running:
            raise NotFoundError(
                f"the last session, {running[0].session_id}, still looks active in another "
                "window: name it to pick it up anyway (`workmem handoff "
                f"{running[0].session_id}`, or 'continue memory {running[0].session_id}')"
            )
        raise NotFoundError("no earlier session with work to hand over in this project")
    return view, roster


def handoff(
    workspace: Workspace,
    wanted: str | None = None,
    *,
    current: str | None = None,
    link: bool = False,
    platform: str | None = None,
    home: Path | None = None,
    cwd: str | None = None,
    budget: int | None = None,
    explicit: bool = False,
    seen: dict[str, set[int]] | None = None,
) -> Handoff:
    """The handoff of ``wanted`` (see ``pick``); with ``link`` and a ``current`` session,
    the continuation is written on the board (both sides, verified) first. ``seen``: per
    session, what this session's start showed of it (not said again)."""
    from .briefing import build_handoff

    view, roster = pick(workspace, wanted, current=current, cwd=cwd, explicit=explicit)
    shown = (seen or {}).get(view.session_id)
    briefing = build_handoff(
        workspace, view, roster=roster, current=current, home=home, budget=budget, seen=shown
    )
    done = Handoff(briefing, view.session_id)
    if link and current and view.row is not None:
        done.linked, done.link_problem = _link(workspace, current, view.session_id, platform)
    return done


def _link(
    workspace: Workspace, current: str, source: str, platform: str | None
) -> tuple[bool, str | None]:
    from ..board.context import BoardContext
    from ..board.links import continue_session
    from ..errors import WorkmemError

    try:
        ctx = BoardContext.open(workspace.root, platform=platform)
        row = ctx.index.read().get(current)
        if row is None:
            return False, f"this session ({current}) is not on the board"
        if source in _continues_from(ctx, current):
            return True, None
        continue_session(ctx, source, as_id=current)
    except WorkmemError as exc:
        return False, str(exc)
    return True, None


def _continues_from(ctx: Any, session_id: str) -> list[str]:
    from ..board.snapshot import continues_from

    text = ctx.snapshot_text(session_id)
    return continues_from(text) if text else []


def at_first_prompt(
    workspace: Workspace,
    *,
    session_id: str | None,
    transcript: Path | None,
    platform: str | None,
    home: Path | None,
    cwd: str | None,
) -> Handoff | None:
    """ "Continue" as a session's first prompt: the full handoff of the most recent unfinished
    session, linked on the board, within what the start left of 3,000 tokens. Once per
    session; later a bare "continue" is about the session's own work and does nothing here."""
    from ..files.store import Store
    from . import activity

    if not session_id or not _first_prompt(transcript):
        return None
    record = activity.read(workspace, session_id)
    data = record.data if record is not None else {}
    if data.get("handed_over"):
        return None
    started_with = data.get("start_tokens")
    room = START_AND_FIRST_PROMPT - (started_with if isinstance(started_with, int) else 1200)
    budget = max(min(room, 2000), 600)
    shown, facts = data.get("start_shown"), data.get("start_facts")
    seen = (
        {shown: {f for f in facts if isinstance(f, int)}}
        if shown and isinstance(facts, list)
        else {}
    )
    try:
        done = handoff(
            workspace,
            current=session_id,
            link=True,
            platform=platform,
            home=home,
            cwd=cwd,
            budget=budget,
            explicit=True,
            seen=seen,
        )
    except NotFoundError as exc:
        return Handoff(_said(str(exc)), "") if "still looks active" in str(exc) else None
    activity.update(Store(workspace), session_id, lambda d: d.update(handed_over=done.source))
    return done


def _said(line: str) -> Briefing:
    """A one-line answer where there is nothing to hand over."""
    from .briefing import HANDOFF, Briefing

    text = line[:1].upper() + line[1:] + "."
    return Briefing(text=text, tokens=len(text) // 3, kind=HANDOFF)


def after_the_start(
    workspace: Workspace, session_id: str | None
) -> tuple[int, dict[str, set[int]]]:
    """(budget, facts seen) for a handoff given in a session whose start briefed it already:
    the two together stay within 3,000 tokens and say each fact once."""
    from . import activity

    record = activity.read(workspace, session_id) if session_id else None
    data = record.data if record is not None else {}
    started_with = data.get("start_tokens")
    room = START_AND_FIRST_PROMPT - (started_with if isinstance(started_with, int) else 1200)
    shown, facts = data.get("start_shown"), data.get("start_facts")
    seen: dict[str, set[int]] = {}
    if isinstance(shown, str) and isinstance(facts, list):
        seen[shown] = {f for f in facts if isinstance(f, int)}
    return max(min(room, 2000), 600), seen


def _first_prompt(transcript: Path | None) -> bool:
    """No earlier request in this session's transcript (a new one, or none yet)."""
    if transcript is None:
        return True
    try:
        if transcript.stat().st_size > _FIRST_PROMPT_BYTES:
            return False
        from ..transcripts.read import read_transcript

        requests = read_transcript(transcript, None, max_bytes=_FIRST_PROMPT_BYTES).user_requests()
    except Exception:
        return True  # unreadable yet (being written): the start was a moment ago
    return len([r for r in requests if r.strip()]) <= 1
