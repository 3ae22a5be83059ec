"""Running what a trigger phrase asks for: one function per workflow, over the core APIs.

``workmem say --run`` and the user-prompt hook both come here, so a phrase does the same
thing from a terminal and from inside an agent. Workflows whose content only the agent
can write (a wrap-up's memories, a snapshot's decisions) do their deterministic part from
the transcript and return instructions for the rest; nothing here invents prose.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import i18n
from .errors import UsageError, WorkmemError
from .i18n import message
from .intents import Intent
from .root import Workspace

if TYPE_CHECKING:
    from .board.context import BoardContext
    from .continuity.save import SaveReport


@dataclass
class RunContext:
    """Who is asking: the workspace, the platform, and the current sessions if known."""

    workspace: Workspace
    platform: str | None = None
    session_id: str | None = None
    transcript: Path | None = None
    home: Path | None = None
    #: called with the memory session a workflow registered for this conversation when it
    #: had none on the board (the prompt hook records its platform session's pair, so one
    #: platform session stays one memory session: the next save finds this one)
    adopt: Callable[[str], None] | None = None


def workflow_words(workflow: str, language: str = "en") -> str:
    """What a person reads for a workflow ("Session wrap-up", 收工（保存這次的記憶）…),
    never its id."""
    return i18n.text(language, f"workflow.{workflow}")


def describe(intent: Intent | None, language: str = "en") -> str:
    """One line for ``workmem say``: the workflow in words, and what it names."""
    if intent is None:
        return i18n.text(language, "workflow.none")
    named = [v for k, v in sorted(intent.args.items()) if k in ("session_id", "topic")]
    words = workflow_words(intent.workflow, language)
    return f"{words}: {', '.join(named)}" if named else words


@dataclass
class IntentResult:
    workflow: str
    ok: bool
    text: str
    session_id: str | None = None
    details: dict[str, object] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "workflow": self.workflow,
            "ok": self.ok,
            "text": self.text,
            "session_id": self.session_id,
            "details": self.details,
        }


def _board(run: RunContext) -> BoardContext:
    from .board.context import BoardContext

    return BoardContext.open(run.workspace.root, platform=run.platform)


def _need_session(run: RunContext, workflow: str) -> str:
    if not run.session_id:
        raise UsageError(
            f"{workflow} needs the current Memory Session ID (--as ID or WORKMEM_SESSION_ID)"
        )
    return run.session_id


def _on_board(run: RunContext) -> str | None:
    """The current session when the board still has its row. A mapped session that
    organize or an archive has since removed counts as none: the workflow registers
    this conversation again (and ``adopt`` moves its platform session there)."""
    if not run.session_id:
        return None
    return run.session_id if _board(run).index.read().get(run.session_id) else None


def _adopted(run: RunContext, session_id: str) -> None:
    run.session_id = session_id
    if run.adopt is not None:
        run.adopt(session_id)


def _register(intent: Intent, run: RunContext) -> IntentResult:
    """Manual registration (seed 001): a new active row and its snapshot, the topic and
    summary taken from the conversation where there is a transcript, not the defaults."""
    from .board.lifecycle import register_session

    if _on_board(run):
        return update_from_transcript(intent, run)
    result = register_session(_board(run))
    sid = result.session_id
    _adopted(run, sid)
    text = f"Your Memory Session ID is: {sid}"
    details: dict[str, object] = {}
    if run.transcript is not None:
        from .continuity.save import NOTES, SNAPSHOT

        report = _save_parts(run, sid, intent.workflow, (NOTES, SNAPSHOT))
        details = {"saved": list(report.done), "failed": report.failed}
    return IntentResult(intent.workflow, True, text, sid, details)


def _save_parts(
    run: RunContext, sid: str | None, reason: str, parts: tuple[str, ...]
) -> SaveReport:
    """The session's save from its transcript (one read, parts on their own)."""
    from .continuity.save import save_session

    return save_session(
        run.workspace,
        session_id=sid,
        transcript=run.transcript,
        platform=run.platform,
        reason=reason,
        parts=parts,
        home=run.home,
    )


def update_from_transcript(intent: Intent, run: RunContext) -> IntentResult:
    """The deterministic half of a session update: notes, snapshot and row from the
    transcript; the decisions and next actions are the agent's to add."""
    from .board.lifecycle import update_session
    from .continuity.save import NOTES, SNAPSHOT

    sid = _need_session(run, intent.workflow)
    if run.transcript is None:
        update_session(_board(run), sid)
        details: dict[str, object] = {"saved": ["snapshot"], "failed": {}}
    else:
        report = _save_parts(run, sid, intent.workflow, (NOTES, SNAPSHOT))
        if SNAPSHOT in report.failed:
            return IntentResult(
                intent.workflow,
                False,
                _failed(run, intent, report.failed[SNAPSHOT]),
                sid,
                report.to_dict(),
            )
        details = {"saved": list(report.done), "failed": report.failed}
    ws = run.workspace
    text = f"{message(ws, 'flow.updated', sid=sid)} {message(ws, 'flow.update_next', sid=sid)}"
    return IntentResult(intent.workflow, True, text, sid, details)


def _failed(run: RunContext, intent: Intent, error: object) -> str:
    words = workflow_words(intent.workflow, i18n.language_for(run.workspace))
    return message(run.workspace, "flow.failed", workflow=words, error=error)


def _continue(intent: Intent, run: RunContext) -> IntentResult:
    from .board.links import continue_session

    source = intent.args["session_id"]
    current = _on_board(run)
    result = continue_session(_board(run), source, as_id=current)
    text = message(run.workspace, "flow.continued", sid=result.session_id, source=source)
    if current is None:
        _adopted(run, result.session_id)
        text = f"Your Memory Session ID is: {result.session_id}\n{text}"
    # The source's work: its handoff where the hooks saw it, else its snapshot as written.
    body = _handoff(run, source, current=result.session_id, link=False)
    body = body or (_board(run).snapshot_text(source) or "").strip()
    if body:
        head = message(run.workspace, "flow.source_snapshot", source=source)
        text += f"\n\n{head}\n\n{body}"
    return IntentResult(intent.workflow, True, text, result.session_id)


def _release(intent: Intent, run: RunContext) -> IntentResult:
    from .board.links import release_reference

    sid = _need_session(run, intent.workflow)
    source = intent.args["session_id"]
    release_reference(_board(run), source, as_id=sid)
    text = message(run.workspace, "flow.released", sid=sid, source=source)
    return IntentResult(intent.workflow, True, text, sid)


def _archive(intent: Intent, run: RunContext) -> IntentResult:
    from .board.cleanup import archive_session

    result = archive_session(_board(run), intent.args["session_id"])
    key = "flow.archived" if result.action == "archive" else "flow.deleted"
    text = message(run.workspace, key, sid=result.session_id)
    return IntentResult(intent.workflow, True, text, result.session_id)


def _organize(intent: Intent, run: RunContext) -> IntentResult:
    from .board.cleanup import organize

    # The caller's own row is never swept, even while it is still an idle placeholder.
    report = organize(_board(run), current=run.session_id)
    ws = run.workspace
    none = message(ws, "flow.none")
    lines = [message(ws, "flow.organized")]
    for key, ids in (
        ("flow.deleted_idle", report.deleted_idle),
        ("flow.marked_stale", report.marked_stale),
        ("flow.kept_active", report.kept_active),
        ("flow.protected", list(report.protected)),
    ):
        lines.append(message(ws, key, ids=", ".join(ids) or none))
    if report.kept_running:
        lines.append(message(ws, "flow.kept_running", ids=", ".join(report.kept_running)))
    lines += [
        message(ws, "flow.attention", sid=sid, why=why) for sid, why in report.inconsistent.items()
    ]
    return IntentResult(intent.workflow, True, "\n".join(lines), details=report.to_dict())


def _notes(intent: Intent, run: RunContext) -> IntentResult:
    from .notes.workflow import update_notes, view_notes

    if intent.workflow == "notes.refresh":
        update_notes(
            run.workspace,
            session_id=run.session_id,
            transcript=run.transcript,
            platform=run.platform,
            home=run.home,
        )
    sid, text = view_notes(run.workspace, run.session_id, run.transcript)
    return IntentResult(intent.workflow, True, text, sid)


def _restore(intent: Intent, run: RunContext) -> IntentResult:
    from .relay.workflows import restore

    fresh = intent.workflow == "relay.archive"
    if not fresh:
        handed = _handoff(run, intent.args.get("topic") or None)
        if handed is not None:
            return IntentResult(intent.workflow, True, handed)
    result = restore(run.workspace, fresh=fresh, platform=run.platform, home=run.home)
    ws = run.workspace
    if fresh:
        archived = result.archived_to
        where = archived.name if archived else message(ws, "flow.nothing_archived")
        return IntentResult(intent.workflow, True, message(ws, "flow.fresh", where=where))
    text = result.text or message(ws, "flow.nothing_restored")
    return IntentResult(intent.workflow, True, text)


def _handoff(
    run: RunContext, wanted: str | None = None, *, current: str | None = None, link: bool = True
) -> str | None:
    """ "Continue from the last session" (or one named by ID or topic words): its full
    handoff, linked on the board (Continues From / Referenced By); None when there is none
    (the relay's restore of the last conversations stands in)."""
    from .continuity.handoff import after_the_start, handoff
    from .errors import NotFoundError

    current = current or run.session_id
    budget, seen = after_the_start(run.workspace, current)
    try:
        done = handoff(
            run.workspace,
            wanted,
            current=current,
            link=link,
            platform=run.platform,
            home=run.home,
            budget=budget,
            explicit=True,
            seen=seen,
        )
    except NotFoundError as exc:
        if wanted and not link:
            return None  # a named session the board has but the hooks never saw
        said = str(exc)
        return f"{said[:1].upper()}{said[1:]}." if "still looks active" in said else None
    return done.briefing.text


def _migrate(intent: Intent, run: RunContext) -> IntentResult:
    from .journal.migrate import migrate

    report = migrate(run.workspace.root)
    done = [s for s in report.steps if s.changed]
    steps = "; ".join(f"{s.name} ({s.path})" for s in done)
    ws = run.workspace
    text = (
        message(ws, "flow.migrated", steps=steps) if done else message(ws, "flow.migrate_nothing")
    )
    return IntentResult(intent.workflow, True, text, details=report.to_dict())


def _wrap(intent: Intent, run: RunContext) -> IntentResult:
    """The deterministic half of a wrap-up; the memories themselves come from the agent."""
    from .continuity.save import NOTES, RELAY, SNAPSHOT

    saved: list[str] = []
    if run.transcript is not None:
        parts = (RELAY, NOTES, SNAPSHOT) if run.session_id else (RELAY,)
        report = _save_parts(run, run.session_id, intent.workflow, parts)
        if RELAY in report.done:
            saved.append(message(run.workspace, "flow.wrap_relay"))
        if SNAPSHOT in report.done:
            saved.append(f"memory/sessions/{run.session_id}.md")
    elif run.session_id:
        update_from_transcript(intent, run)
        saved.append(f"memory/sessions/{run.session_id}.md")
    ws = run.workspace
    lines = [
        message(ws, "flow.wrap_saved", files=", ".join(saved) or "-"),
        message(ws, "flow.wrap_finish"),
    ]
    return IntentResult(intent.workflow, True, "\n".join(lines), run.session_id)


_RUNNERS: dict[str, Callable[[Intent, RunContext], IntentResult]] = {
    "session.register": _register,
    "session.update": update_from_transcript,
    "session.continue": _continue,
    "session.release": _release,
    "session.archive": _archive,
    "organize": _organize,
    "notes.refresh": _notes,
    "notes.view": _notes,
    "relay.restore": _restore,
    "relay.archive": _restore,
    "migrate": _migrate,
    "wrap": _wrap,
}


def run_intent(intent: Intent, run: RunContext) -> IntentResult:
    """Run the workflow; a ``WorkmemError`` becomes a failed result with its message."""
    runner = _RUNNERS.get(intent.workflow)
    if runner is None:
        raise UsageError(f"no runner for workflow {intent.workflow!r}")
    from .i18n import speaking

    # The confirmation speaks the phrase's language (a hook that saw the whole prompt
    # has decided already, from more words).
    with speaking(intent.phrase, hint=intent.language):
        try:
            return runner(intent, run)
        except WorkmemError as exc:
            return IntentResult(intent.workflow, False, _failed(run, intent, exc))
