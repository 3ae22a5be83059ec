"""Session start: register or find the memory session, then give the agent its briefing.

A new session gets one document (``continuity.briefing.build_start``): the work of the
most recent session that stopped or ended, whichever agent ran it, a line for each other
session (one still running elsewhere is named as such, never handed over), the long-term
memories and how to use memory. A resumed or compacted session gets its own work back
(``build_resume``). Both within their budgets (``[hooks] start_tokens``, ``resume_tokens``).
"""

from __future__ import annotations

from .handlers import HookRun, Reply, memory_session

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

RESUME_SOURCES = ("compact", "resume")


NO_ID = (
    "No Memory Session ID yet: the session board could not be written "
    "(`workmem doctor` shows why and offers the fix)."
)


def on_session_start(run: HookRun) -> Reply:
    known = _known(run)
    sid = _register(run)
    if sid:
        _note_start(run, sid)
    head = f"Your Memory Session ID is: {sid}" if sid else NO_ID
    # A platform that says no source (OpenClaw's bootstrap after a compaction) is resuming
    # when this very platform session has a memory session and a transcript already.
    resuming = run.inp.source in RESUME_SOURCES or (
        run.inp.source is None and known == sid and run.transcript is not None
    )
    if resuming and sid:
        from ..continuity.briefing import build_resume

        resumed = build_resume(
            run.workspace,
            session_id=sid,
            transcript=run.transcript,
            platform=run.inp.platform,
            home=run.home,
            header=[head],
        )
        return Reply(context=resumed.text)
    from ..continuity.briefing import build_start

    cwd = run.inp.cwd or run.workspace.root
    briefing = build_start(
        run.workspace, session_id=sid, home=run.home, cwd=str(cwd), header=[head]
    )
    if sid:
        from ..continuity.fit import fact_keys

        shown: dict[str, Any] = {
            "start_tokens": briefing.tokens,
            "start_shown": briefing.session_shown,
        }
        if briefing.session_shown:  # what a "continue" need not say again
            shown["start_facts"] = sorted(fact_keys(briefing.text))
        _note(run, sid, lambda data: data.update(shown))
    return Reply(context=briefing.text)


def _known(run: HookRun) -> str | None:
    """The memory session this platform session had before this start, if any."""
    from .session_map import lookup

    try:
        mapped = lookup(run.store, run.inp.platform, run.inp.session_id)
    except Exception:
        return None
    return mapped.memory_session_id if mapped else None


def _register(run: HookRun) -> str | None:
    """This session's ID; a board that cannot be read or written (an unfinished merge, a
    full disk) costs the ID only, never the rest of the start (logged for doctor)."""
    from ..errors import WorkmemError

    try:
        return memory_session(run, register=True)
    except WorkmemError as exc:
        if not run.workspace.memory_dir.is_dir():
            raise  # no memory folder to read either: the hook fails open, says nothing
        from .runner import log_failure

        log_failure(run.workspace, f"{run.inp.platform}:{run.inp.event}/register", exc)
        return None


def _note_start(run: HookRun, sid: str) -> None:
    """The session's activity record (who, where, which agent process): what tells a later
    session whether this one is still running. Derived state: a failure is only logged.

    The transcript is recorded where the agent says it will be, even before it exists:
    Claude Code writes its file only after the start, and a session killed in its first
    turn has no save that would record it later."""
    from ..continuity.activity import note_start

    try:
        note_start(
            run.store,
            sid,
            platform=run.inp.platform,
            platform_session_id=run.inp.session_id,
            transcript=run.inp.transcript,
            cwd=run.inp.cwd,
        )
    except Exception as exc:
        from .runner import log_failure

        log_failure(run.workspace, f"{run.inp.platform}:{run.inp.event}/activity", exc)


def _note(run: HookRun, sid: str, change: Callable[[dict[str, Any]], None]) -> None:
    from ..continuity.activity import update

    try:
        update(run.store, sid, change)
    except Exception as exc:
        from .runner import log_failure

        log_failure(run.workspace, f"{run.inp.platform}:{run.inp.event}/activity", exc)
