"""Pre-compact, stop and session end: save what the session knows before it is lost.

Pre-compact merges the notes into the snapshot and writes the relay snapshot, verified,
within the platform's timeout; stop starts the gated notes extraction detached; session
end checkpoints the snapshot, the relay snapshot (with its daily-log entry), leaves a
resumption note built from the notes and, when transcripts are searched, indexes the
session's transcript.
"""

from __future__ import annotations

from .. import clock
from .handlers import HookRun, Reply, memory_session


def on_pre_compact(run: HookRun) -> Reply:
    from ..dispatch import RunContext, update_from_transcript
    from ..phrases import Intent

    sid = memory_session(run, register=True)
    if run.transcript is None:
        return Reply()
    if sid:
        context = RunContext(run.workspace, run.inp.platform, sid, run.transcript, run.home)
        update_from_transcript(Intent("session.update", "pre-compact", "en"), context)
    _relay_snapshot(run)
    return Reply(notice=f"[workmem] notes, snapshot {sid} and relay snapshot saved")


def on_stop(run: HookRun) -> Reply:
    from ..notes.workflow import run_detached

    sid = memory_session(run, register=False)
    if sid and run.transcript is not None:
        run_detached(
            run.workspace,
            session_id=sid,
            transcript=run.transcript,
            platform=run.inp.platform,
            gated=True,
        )
    return Reply()


def on_session_end(run: HookRun) -> Reply:
    """Checkpoint the session's state: relay snapshot (with its daily-log entry), the board
    snapshot from the notes, and a resumption note built from the notes."""
    from ..dispatch import RunContext, update_from_transcript
    from ..journal.writer import MemoryWriter
    from ..phrases import Intent

    sid = memory_session(run, register=False)
    if run.transcript is None or sid is None:
        return Reply()
    context = RunContext(run.workspace, run.inp.platform, sid, run.transcript, run.home)
    # One notes extraction serves both the snapshot and the resumption note.
    updated = update_from_transcript(Intent("session.update", "session-end", "en"), context)
    state = str(updated.details.get("current_state") or "")
    _relay_snapshot(run)
    if state:
        note = (
            f"I was working in memory session {sid}. Where I left it ({clock.stamp()}): "
            f"{state.strip()}\nPick up from there; the session snapshot and notes have details."
        )
        MemoryWriter(run.workspace.root).end_session(
            session_summary=f"Session {sid} ended: {state.strip()[:300]}",
            resumption_note=note,
        )
    _index_transcript(run)
    return Reply()


def _relay_snapshot(run: HookRun) -> None:
    """The relay snapshot from the transcript, written whatever its zone (compaction or end
    is the last chance)."""
    from ..relay.template import SnapshotNotes
    from ..relay.workflows import snapshot

    snapshot(
        run.workspace,
        SnapshotNotes(),
        transcript=run.transcript,
        platform=run.inp.platform,
        force=True,
        home=run.home,
    )


def _index_transcript(run: HookRun) -> None:
    """With ``[search] transcripts`` on, the ended session's words become searchable now."""
    import contextlib

    from ..errors import LockTimeoutError
    from ..retrieval.search import index_transcript

    if run.transcript is None:
        return
    # A reindex holding the index is already reading every transcript: do not wait on it.
    with contextlib.suppress(LockTimeoutError):
        index_transcript(run.workspace, run.transcript, wait=2.0)
