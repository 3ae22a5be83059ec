"""Saving a session before its context is lost: one read of the transcript, parts that stand
alone.

A save (before a compaction, at the end of a session) writes several things, each with its
own owner: the running notes, the session's board snapshot and row, the relay snapshot
(with its daily-log entry) and, at the end, the journal's entry and resumption note. Real
sessions are messy, and one part failing must never cost the others: each part runs on
its own, a failure is logged (``hook.log``) and recorded, and the rest go on. The
transcript is read once, in bounded time whatever its size, and handed to every part.

The outcome of the last save is kept in ``memory/.workmem/last-save.json`` so that the next
session start can say, in one line, that a save failed, and ``workmem doctor`` can too.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .. import clock
from ..root import Workspace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

    from ..transcripts.account import SessionAccount
    from ..transcripts.model import Transcript

#: bytes of a transcript's end read by a save (plus its head and its plan lines)
SAVE_WINDOW = 8 * 1024 * 1024
LAST_SAVE = "last-save.json"
#: the parts of a save, in the order they run
NOTES, SNAPSHOT, RELAY, JOURNAL, INDEX = "notes", "snapshot", "relay", "journal", "index"
PRE_COMPACT_PARTS = (NOTES, SNAPSHOT, RELAY)
#: a turn's end: the notes (within their token gates) and the snapshot and row
TURN_END_PARTS = (NOTES, SNAPSHOT)
#: parts that belong to one memory session (the relay and the index are the workspace's)
NEEDS_SESSION = frozenset({NOTES, SNAPSHOT, JOURNAL})
SESSION_END_PARTS = (NOTES, SNAPSHOT, RELAY, JOURNAL, INDEX)


@dataclass
class SaveReport:
    """What one save did: each part's outcome, and how long it took."""

    reason: str
    session_id: str | None
    transcript: str | None
    done: dict[str, str] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    at: str = ""

    @property
    def ok(self) -> bool:
        return not self.failed

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "session_id": self.session_id,
            "transcript": self.transcript,
            "at": self.at,
            "done": self.done,
            "failed": self.failed,
            "skipped": self.skipped,
            "seconds": round(self.seconds, 3),
        }


@dataclass
class SaveInput:
    """Everything the parts share: who is saving, and the transcript read once."""

    workspace: Workspace
    #: "" for a save of the workspace's parts only (relay, index)
    session_id: str
    platform: str | None
    path: Path
    transcript: Transcript
    home: Path | None = None
    #: the notes run only when their token gates let them, and the snapshot only when what
    #: it would say changed (a turn's end)
    gated: bool = False
    #: what the snapshot part wrote from, to tell the next turn's save it has nothing new
    basis: int | None = None
    _account: SessionAccount | None = None

    @property
    def account(self) -> SessionAccount:
        """What came of the session, built once for every part of the save."""
        if self._account is None:
            from ..transcripts.account import build_account

            self._account = build_account(self.transcript)
        return self._account

    def state(self, language: str, limit: int = 600) -> str:
        """The account in one line, safe for any memory file."""
        from ..files.freetext import neutralize_line
        from .account_text import headline

        told = headline(self.account, language, limit=limit)
        return neutralize_line(told, limit=limit) if told else ""


def read_for_save(path: Path, platform: str | None) -> Transcript:
    from ..transcripts.read import read_transcript

    return read_transcript(path, platform, max_bytes=SAVE_WINDOW)


def _failure_text(exc: BaseException) -> str:
    from ..files.freetext import shorten

    return shorten(f"{type(exc).__name__}: {exc}".strip(), 300)  # redacted, then cut


def save_session(
    workspace: Workspace,
    *,
    session_id: str | None,
    transcript: Path | None,
    platform: str | None,
    reason: str,
    parts: tuple[str, ...] = PRE_COMPACT_PARTS,
    home: Path | None = None,
    log: Callable[[str, BaseException], None] | None = None,
    cwd: Path | None = None,
    ended: bool = False,
    gated: bool = False,
) -> SaveReport:
    """Run every part; never raises for a part's failure (see the module docstring)."""
    started = time.perf_counter()
    report = SaveReport(reason, session_id, str(transcript) if transcript else None)
    report.at = clock.stamp()
    parsed = None
    if session_id is None:
        report.skipped.update({p: "no memory session" for p in parts if p in NEEDS_SESSION})
        parts = tuple(p for p in parts if p not in NEEDS_SESSION)
    from ..transcripts.openclaw_paths import transcript_exists

    if transcript is None or not transcript_exists(transcript):
        report.skipped.update(dict.fromkeys(parts, "no transcript"))
    elif parts:
        try:
            parsed = read_for_save(transcript, platform)
        except Exception as exc:  # an unreadable transcript: nothing to save from
            report.failed["transcript"] = _failure_text(exc)
            if log is not None:
                log("transcript", exc)
    if parsed is not None and transcript is not None:
        from ..i18n import speaking

        shared = SaveInput(workspace, session_id or "", platform, transcript, parsed, home, gated)
        # The parts write in the language the user spoke in the transcript (with
        # ``language = "auto"``), unless the hook that runs the save saw a prompt.
        with speaking(users_words(parsed)):
            for part in parts:
                try:
                    report.done[part] = PARTS[part](shared)
                except Exception as exc:  # one part failing must not cost the others
                    report.failed[part] = _failure_text(exc)
                    if log is not None:
                        log(part, exc)
            outcome = _outcome_line(shared)
        basis = shared.basis
    else:
        outcome, basis = None, None
    if session_id:
        extra = {"snapshot_basis": basis} if basis is not None else {}
        _note_activity(workspace, session_id, reason, transcript, cwd, outcome, ended, log, extra)
    report.seconds = time.perf_counter() - started
    _record(workspace, report)
    return report


def _outcome_line(job: SaveInput) -> str | None:
    from ..i18n import language_for

    try:
        return job.state(language_for(job.workspace), limit=300) or None
    except Exception:
        return None


def _note_activity(
    workspace: Workspace,
    session_id: str,
    reason: str,
    transcript: Path | None,
    cwd: Path | None,
    outcome: str | None,
    ended: bool,
    log: Callable[[str, BaseException], None] | None,
    extra: dict[str, Any],
) -> None:
    """The session's own activity record: when it saved, the repository then, its outcome,
    and at a session end that it ended (what the next session's handoff reads)."""
    from ..files.store import Store
    from .activity import note_save
    from .repo_state import capture

    try:
        repo = capture(cwd or workspace.root)
        note_save(
            Store(workspace),
            session_id,
            reason=reason,
            transcript=transcript,
            repo=repo.to_dict() if repo is not None else None,
            outcome=outcome,
            ended=ended,
            extra=extra,
        )
    except Exception as exc:  # derived state: a lost record costs a detail of the handoff
        if log is not None:
            log("activity", exc)


def users_words(transcript: Transcript) -> str:
    """The user's own latest requests: what tells the language a user reads."""
    return "\n".join(transcript.user_requests()[-5:])


def _record(workspace: Workspace, report: SaveReport) -> None:
    """Keep the outcome for the next session start and doctor (derived state; best effort)."""
    from ..files.store import Store

    text = json.dumps(report.to_dict(), ensure_ascii=False, indent=1) + "\n"
    # The save itself is done; losing its record only loses a warning.
    with contextlib.suppress(Exception):
        Store(workspace).update(workspace.state_dir / LAST_SAVE, lambda _old: text)


def _read_state(workspace: Workspace, name: str) -> Any:
    """A derived-state JSON file, read through the store (links out of the root refused);
    missing, unreadable or refused is None: derived state is never a reason to fail."""
    from ..files.store import Store

    try:
        current = Store(workspace).read_text(workspace.state_dir / name)
        return json.loads(current[0]) if current else None
    except Exception:
        return None


def last_save(workspace: Workspace) -> dict[str, Any] | None:
    data = _read_state(workspace, LAST_SAVE)
    return data if isinstance(data, dict) else None


def failure_line(workspace: Workspace, session_id: str | None = None) -> str | None:
    """One short line when the last save failed in part (this session's, when given)."""
    record = last_save(workspace)
    if not record or not record.get("failed"):
        return None
    saved = record.get("session_id")
    if session_id is not None and saved != session_id:
        return None
    from ..i18n import language_for, text

    language = language_for(workspace)
    failed = record["failed"]
    names = ", ".join(sorted(failed)) if isinstance(failed, dict) else "some parts"
    whose = ""
    if session_id is None and saved:
        whose = text(language, "save.failed_whose", sid=saved)
    return text(
        language,
        "save.failed",
        whose=whose,
        reason=record.get("reason", "save"),
        at=record.get("at", "?"),
        names=names,
    )


# -- the parts ------------------------------------------------------------------------


def _notes(job: SaveInput) -> str:
    from ..notes.workflow import update_notes

    result = update_notes(
        job.workspace,
        session_id=job.session_id,
        transcript=job.path,
        platform=job.platform,
        home=job.home,
        parsed=job.transcript,
        gated=job.gated,
    )
    if result.failed:
        raise RuntimeError(result.failed)
    if not result.ran:
        return f"not yet ({result.reason})"
    return f"{len(result.changed)} section(s) changed"


def topic_of(transcript: Transcript) -> str | None:
    """A topic for the board: the platform's own title, else the first request's words."""
    from ..files.freetext import neutralize_line

    if transcript.title and transcript.title.strip():
        return neutralize_line(transcript.title, limit=80)
    requests = transcript.user_requests()
    if not requests:
        return None
    return neutralize_line(requests[0], limit=80) or None


def state_text(transcript: Transcript, language: str = "en") -> str:
    """What came of the session so far, in one line: its account (``account_text``)."""
    from ..files.freetext import neutralize_line
    from ..transcripts.account import build_account
    from .account_text import headline

    told = headline(build_account(transcript), language, limit=600)
    return neutralize_line(told, limit=600) if told else ""


def state_paragraph(transcript: Transcript, language: str = "en") -> str:
    """The state for the snapshot's Current Context, marked as written by a save."""
    from ..i18n.placeholders import AUTO_SAVED

    state = state_text(transcript, language)
    return f"{AUTO_SAVED[language]} ({clock.stamp()}): {state}" if state else ""


def _snapshot(job: SaveInput) -> str:
    """The board snapshot and row: the account, the plan's steps, decisions and files merged
    in; a topic where there is none; the Summary told from the outcome."""
    from ..board.context import BoardContext
    from ..board.lifecycle import update_session
    from ..board.snapshot import CURRENT_CONTEXT, FILES, SnapshotChange
    from ..i18n.placeholders import AUTO_SAVED
    from ..transcripts.facts import describe_file, extract_facts

    ctx = BoardContext.open(job.workspace.root, platform=job.platform)
    language = ctx.language()
    state = job.state(language)
    edited = extract_facts(job.transcript).edited[:20]
    if _unchanged_since_last_turn(job, state, [f.path for f in edited]):
        return "unchanged since the last turn"
    row = ctx.index.read().get(job.session_id)
    if row is None:
        raise LookupError(f"session {job.session_id} is not on the board")
    change = SnapshotChange()
    if state:
        change.add(CURRENT_CONTEXT, f"{AUTO_SAVED[language]} ({clock.stamp()}): {state}")
    _plan_and_decisions(job, change, ctx.snapshot_text(job.session_id))
    if edited:
        change.add(FILES, "\n".join(f"`{f.path}` — {describe_file(f)}" for f in edited))
    # The agent's own words win: a placeholder topic is filled in; the summary follows the
    # account unless the agent wrote its own (one a save wrote is recorded, so it can tell).
    topic = topic_of(job.transcript) if row.has_placeholder_topic else None
    summary_now = job.state(language, limit=200)
    written_by_save = _auto_summaries(job.workspace).get(job.session_id)
    summary: str | None = row.summary
    if summary_now and (not row.has_meaningful_summary or row.summary == written_by_save):
        summary = summary_now
    result = update_session(ctx, job.session_id, topic=topic, summary=summary, change=change)
    if result.row is not None and (summary != row.summary or written_by_save is not None):
        _remember_auto_summary(job.workspace, job.session_id, result.row.summary)
    # [fidelity, issue 28 item 6] what the hooks cannot see: Keywords from the real topic,
    # the dated events the user stated (never raises; says what it did or what failed)
    from ..journal.stated_events import record_from_conversation

    said = record_from_conversation(
        job.workspace, job.session_id, job.transcript, platform=job.platform
    )
    done = f"{result.row.status}; topic {result.row.topic!r}" if result.row else "updated"
    return f"{done}; {said}" if said else done


def _unchanged_since_last_turn(job: SaveInput, state: str, files: list[str]) -> bool:
    """At a turn's end, whether the snapshot would say what it says already (the same
    account, plan, decisions and files as at the last save): then the board is not
    rewritten for nothing. Other saves always write."""
    import zlib

    account = job.account
    said = [state, *files, *(t for _s, t in account.open), *account.done, *account.decisions]
    job.basis = zlib.crc32("\n".join(said).encode("utf-8", "replace"))
    if not job.gated:
        return False
    from .activity import read

    record = read(job.workspace, job.session_id)
    return record is not None and record.data.get("snapshot_basis") == job.basis


def _plan_and_decisions(job: SaveInput, change: Any, snapshot: str | None) -> None:
    """Open steps as Next Actions; a step the plan finished is marked done where the snapshot
    listed it open; decisions and the agent's question in the transcript's own words."""
    from ..board.snapshot import DECISIONS, NEXT_ACTIONS, OPEN_QUESTIONS, section_items
    from ..files.freetext import neutralize_line

    account = job.account
    listed = {" ".join(i.split()).casefold() for i in section_items(snapshot or "", NEXT_ACTIONS)}
    steps = [neutralize_line(text, limit=300) for _status, text in account.open]
    steps += [
        f"[done] {neutralize_line(text, limit=300)}"
        for text in account.done
        if " ".join(neutralize_line(text, limit=300).split()).casefold() in listed
    ]
    if steps:
        change.add(NEXT_ACTIONS, "\n".join(steps))
    if account.decisions:
        change.add(DECISIONS, "\n".join(neutralize_line(d, limit=300) for d in account.decisions))
    if account.question:
        change.add(OPEN_QUESTIONS, neutralize_line(account.question, limit=300))


AUTO_SUMMARIES = "auto-summaries.json"


def _auto_summaries(workspace: Workspace) -> dict[str, str]:
    """Session -> the board Summary a save last wrote (derived state)."""
    data = _read_state(workspace, AUTO_SUMMARIES)
    return {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}


def _remember_auto_summary(workspace: Workspace, session_id: str, summary: str) -> None:
    from ..files.store import Store

    def change(old: str | None) -> str:
        try:
            data = json.loads(old) if old else {}
        except ValueError:
            data = {}
        data = data if isinstance(data, dict) else {}
        data[session_id] = summary
        return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"

    Store(workspace).update(workspace.state_dir / AUTO_SUMMARIES, change)


def _relay(job: SaveInput) -> str:
    from ..relay.template import SnapshotNotes
    from ..relay.workflows import snapshot

    result = snapshot(
        job.workspace,
        SnapshotNotes(),
        transcript=job.path,
        platform=job.platform,
        force=True,
        home=job.home,
        parsed=job.transcript,
    )
    if not result.written:
        return result.skipped_reason or "skipped"
    return "; ".join([f"{result.words} words", *result.dropped])  # every drop, reported


def _journal(job: SaveInput) -> str:
    """The session's entry in the daily log and a resumption note for the next session."""
    from ..i18n import language_for, text
    from ..journal.writer import MemoryWriter

    language = language_for(job.workspace)
    state = job.state(language)
    if not state:
        return "nothing to record"
    note = text(language, "save.resumption", sid=job.session_id, stamp=clock.stamp(), state=state)
    open_steps = [f"- {step}" for _status, step in job.account.open]
    if open_steps:
        note += "\n" + "\n".join(open_steps)
    # The log names the agent the board names: the hook's platform, not a guess from an
    # environment that agents do not always mark.
    from ..board.context import BoardContext

    agent = BoardContext.open(job.workspace.root, platform=job.platform).agent_name()
    MemoryWriter(job.workspace.root, agent_name=agent).end_session(
        session_summary=text(
            language, "save.ended", sid=job.session_id, state=job.state(language, 300)
        ),
        resumption_note=note,
    )
    return "daily log and resumption written"


def _index(job: SaveInput) -> str:
    """With ``[search] transcripts`` on, the ended session's words become searchable now."""
    from ..errors import LockTimeoutError
    from ..retrieval.search import index_transcript

    try:
        index_transcript(job.workspace, job.path, wait=2.0)
    except LockTimeoutError:
        return "index busy (a reindex is reading every transcript)"
    return "indexed"


PARTS: dict[str, Callable[[SaveInput], str]] = {
    NOTES: _notes,
    SNAPSHOT: _snapshot,
    RELAY: _relay,
    JOURNAL: _journal,
    INDEX: _index,
}
