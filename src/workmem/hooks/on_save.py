"""Pre-compact, stop and session end: save what the session knows before it is lost.

The save itself is the continuity room's (``continuity.save``): one read of the transcript,
then the notes, the board snapshot and row, the relay snapshot and, at the end of the
session, the journal's entry and the transcript's search index, each on its own, so that
one failing costs only itself. Stop starts the gated notes extraction detached.
"""

from __future__ import annotations

from .handlers import HookRun, Reply, memory_session

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from collections.abc import Callable


def _logger(run: HookRun) -> Callable[[str, BaseException], None]:
    """Each failed part of a save goes to the hook log, named after its hook and part."""
    from .runner import log_failure

    def log(part: str, exc: BaseException) -> None:
        log_failure(run.workspace, f"{run.inp.platform}:{run.inp.event}/{part}", exc)

    return log


def _save(
    run: HookRun,
    parts: tuple[str, ...],
    *,
    register: bool,
    tell: bool,
    ended: bool = False,
    gated: bool = False,
) -> Reply:
    from ..continuity.save import save_session
    from ..retrieval.warm import refresh_soon

    sid = memory_session(run, register=register)
    if run.transcript is None or sid is None:
        return Reply()
    report = save_session(
        run.workspace,
        session_id=sid,
        transcript=run.transcript,
        platform=run.inp.platform,
        reason=run.inp.event,
        parts=parts,
        home=run.home,
        log=_logger(run),
        cwd=run.inp.cwd,
        ended=ended,
        gated=gated,
    )
    if not gated:  # a turn's end leaves the index to the next search (it refreshes itself)
        refresh_soon(run.workspace.root)  # the next search finds the index up to date
    if not tell:
        return Reply()
    saved = ", ".join(report.done) or "nothing"
    notice = f"[workmem] session {sid}: saved {saved}"
    if report.failed:
        notice += f"; failed: {', '.join(report.failed)} (see `workmem doctor`)"
    return Reply(notice=notice)


def on_pre_compact(run: HookRun) -> Reply:
    from ..continuity.save import PRE_COMPACT_PARTS
    from ..platforms.delivery import compression_due

    if not compression_due(run):  # Gemini CLI asks before every request
        return Reply()
    return _save(run, PRE_COMPACT_PARTS, register=True, tell=True)


def on_stop(run: HookRun) -> Reply:
    """A turn's end: the snapshot, the board row and the activity record follow the
    session, and the notes within their token gates, so a session that never ends (a crash,
    a usage limit) loses at most its last turn. It runs detached (the agent never waits),
    and only when the transcript grew since the last turn's save."""
    from ..continuity.save import TURN_END_PARTS

    sid = memory_session(run, register=False)
    if sid is None or run.transcript is None or not _grew(run, sid):
        return Reply()
    return _save(run, TURN_END_PARTS, register=False, tell=False, gated=True)


def _grew(run: HookRun, sid: str) -> bool:
    """Whether the transcript changed since the last save recorded it (size and time)."""
    from ..continuity.activity import read

    assert run.transcript is not None
    try:
        info = run.transcript.stat()
    except OSError:
        return True  # an OpenClaw store session: its database decides, read it
    seen = [info.st_size, info.st_mtime_ns]
    activity = read(run.workspace, sid)
    return activity is None or activity.data.get("transcript_seen") != seen


def on_session_end(run: HookRun) -> Reply:
    from ..continuity.save import SESSION_END_PARTS

    # The session is over: nobody reads a notice now (failures are in the hook log).
    reply = _save(run, SESSION_END_PARTS, register=False, tell=False, ended=True)
    if run.inp.platform == "openclaw":
        # /new and /reset: OpenClaw 2026.9 goes on under the same session id, but the next
        # conversation is a new memory session, registered at its bootstrap.
        from .session_map import forget

        forget(run.store, run.inp.platform, run.inp.session_id)
    return reply
