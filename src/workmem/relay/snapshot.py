"""The rich relay snapshot ``memory/relay-snapshot.md`` (seed 002, Phases 1, 2, 4, 5).

The rules of the seed, kept by code: In Progress comes first and says what was literally
happening (the agent's words, then the plan step, the last request and the commands to
reproduce it); paths, commands and errors are concrete, taken from the transcript; no
secret survives (everything passes the redactor); 500-2,000 words, and when over, the
Completed list is cut first because the daily log keeps it; the file is overwritten, not
appended to, except in the warm zone where new progress is merged into it; a very short
session with no real work writes nothing. Every save re-reads the file, then appends the
daily-log entry, and in the hot zone adds the HEARTBEAT.md line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..errors import WriteError
from ..files.freetext import neutralize_block, neutralize_line
from ..files.sections import Document
from ..files.store import Store
from ..transcripts.account import FINISHED, SessionAccount, build_account
from ..transcripts.facts import TranscriptFacts, describe_file, extract_facts
from ..transcripts.model import Transcript
from .archive import snapshot_path
from .snapshot_merge import (
    ROLLING,
    Drop,
    carry_over,
    drop_notes,
    find_section,
    fit,
    list_items,
    merge_into,
    size_notes,
    unaccounted,
)
from .template import (
    SECTIONS,
    TITLE,
    SnapshotNotes,
    clip_words,
    count_words,
    heading_of,
    section_key,
)
from .usage import ContextUsage
from .zones import Zone, critical_footer

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

MIN_ROUNDS = 5
_NONE = "None"


@dataclass
class SnapshotResult:
    path: Path
    written: bool
    mode: str
    words: int = 0
    secrets_removed: int = 0
    skipped_reason: str | None = None
    usage: ContextUsage | None = None
    zone: Zone | None = None
    daily_log: Path | None = None
    heartbeat_added: bool = False
    warning: str | None = None
    notes: list[str] = field(default_factory=list)
    #: what the old snapshot held that this one does not (cut for size, no longer listed),
    #: one line per section naming every item; also among ``notes``
    dropped: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "written": self.written,
            "mode": self.mode,
            "words": self.words,
            "secrets_removed": self.secrets_removed,
            "skipped_reason": self.skipped_reason,
            "usage": self.usage.to_dict() if self.usage else None,
            "zone": self.zone.to_dict() if self.zone else None,
            "daily_log": str(self.daily_log) if self.daily_log else None,
            "heartbeat_added": self.heartbeat_added,
            "warning": self.warning,
            "notes": self.notes,
            "dropped": self.dropped,
        }


def _unique(items: list[str]) -> list[str]:
    seen: set[str] = set()
    kept = []
    for item in items:
        key = " ".join(item.split()).casefold()
        if key and key not in seen:
            seen.add(key)
            kept.append(item)
    return kept


def _clip(text: str, width: int = 300) -> str:
    return neutralize_line(text, limit=width)


def _item(text: str) -> str:
    """An item's text made safe for the file: its first line as the item, the rest indented."""
    first, *rest = neutralize_block(text).split("\n") or [""]
    return "\n".join([first, *(f"  {line}" if line else "" for line in rest)])


def _sections(
    notes: SnapshotNotes, facts: TranscriptFacts | None, account: SessionAccount | None = None
) -> dict[str, list[str]]:
    """Section key -> body lines (list items already bulleted). The plan's state comes from
    the session's account: a finished plan leaves nothing "in progress", a step done is
    never also "next", and commits and test results are what was completed."""
    body: dict[str, list[str]] = {}
    lines: list[str] = []
    if notes.in_progress.strip():
        lines.append(neutralize_block(notes.in_progress))
    finished = account is not None and account.status == FINISHED
    doing = [t for s, t in account.open if s == "in_progress"] if account else []
    if doing:
        lines.append("")
        lines.extend(f"- Current plan step: {step}" for step in doing)
    if facts and facts.requests and not finished:
        lines.append(f"- Last request: “{clip_words(facts.requests[-1], 300)}”")
    commands = _unique(notes.commands + [c.command for c in (facts.commands if facts else [])][-5:])
    if commands and not finished:
        lines.append("- Reproduction commands:")
        lines.extend(f"  - `{_clip(c, 200)}`" for c in commands[-6:])
    body["in_progress"] = lines or [_NONE]
    done = account.done if account else []
    completed = notes.completed + done
    if account is not None:
        completed += [f"Committed {c}" for c in account.commits[-3:]]
        run = account.last_tests
        if run is not None and run.passed:
            figures = f" ({run.figures})" if run.figures else ""
            completed.append(f"Tests passed{figures}: `{_clip(run.command, 200)}`")
        if finished and account.closing_states_outcome:
            completed.append(account.closing)
        if finished and commands:  # nothing is in progress: how it was run, with what was done
            completed.append(
                f"{ROLLING[0]} " + "; ".join(f"`{_clip(c, 120)}`" for c in commands[-4:])
            )
    body["completed"] = [f"- {_item(item)}" for item in _unique(completed)]
    finished_keys = {" ".join(d.split()).casefold() for d in done}
    pending = notes.pending + ([t for s, t in account.open if s == "pending"] if account else [])
    pending = [p for p in pending if " ".join(p.split()).casefold() not in finished_keys]
    body["pending"] = [f"{n}. {_item(item)}" for n, item in enumerate(_unique(pending), 1)]
    decisions = notes.decisions + (account.decisions if account else [])
    body["decisions"] = [f"- {_item(item)}" for item in _unique(decisions)]
    files = [_item(f) for f in notes.files]
    if facts:
        files += [f"`{f.path}` — {describe_file(f)}" for f in facts.edited[:30]]
    body["files"] = [f"- {item}" for item in _unique(files)]
    body["preferences"] = [f"- {_item(item)}" for item in _unique(notes.preferences)]
    gotchas = [_item(g) for g in notes.gotchas]
    if facts:
        for error in facts.errors[-8:]:
            state = " (resolved later)" if error.resolved else ""
            what = f"`{_clip(error.subject, 120)}` " if error.subject else ""
            gotchas.append(f"{error.tool} {what}failed{state}: {_clip(error.error, 200)}")
    body["gotchas"] = [f"- {item}" for item in _unique(gotchas)]
    return {key: lines or [_NONE] for key, lines in body.items()}


def _header(now: datetime, usage: ContextUsage | None, transcript: Transcript | None) -> list[str]:
    model = (usage.model if usage else None) or (transcript.model if transcript else None)
    context = (
        f"{usage.used_tokens:,}/{usage.window:,} ({usage.percent:g}%, {usage.source})"
        if usage
        else "unknown"
    )
    minutes = "?"
    compactions = 0
    if transcript is not None:
        started, ended = transcript.started, transcript.ended
        if started and ended:
            minutes = str(max(int((ended - started).total_seconds() // 60), 0))
        compactions = len(transcript.compactions)
    return [
        TITLE,
        f"> Auto-saved by session-relay | {now.isoformat(timespec='seconds')}",
        f"> Model: {model or 'unknown'} | Context: {context}",
        f"> Session duration: ~{minutes} min | Compactions: {compactions}",
    ]


def render(header: list[str], sections: dict[str, list[str]]) -> str:
    lines = [*header, ""]
    for key, _title in SECTIONS:
        lines += [heading_of(key), "", *sections.get(key, [_NONE]), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def _verify(path: Path, store: Store) -> Any:
    def verify(text: str) -> None:
        if not text.startswith(TITLE):
            raise WriteError(f"{store.show(path)}: the snapshot title is missing after writing")
        found = [section_key(line[3:]) for line in text.split("\n") if line.startswith("## ")]
        missing = [key for key, _ in SECTIONS if key not in found]
        if missing or not found or found[0] != "in_progress":
            raise WriteError(
                f"{store.show(path)}: after writing, sections are wrong (missing {missing})"
            )

    return verify


def write_snapshot(
    store: Store,
    notes: SnapshotNotes,
    *,
    transcript: Transcript | None,
    usage: ContextUsage | None,
    zone: Zone | None,
    now: datetime,
    mode: str = "full",
    force: bool = False,
    same_session: bool = False,
) -> SnapshotResult:
    """Build, merge (``snapshot_merge``), cut to size, check, write and verify the snapshot,
    then sync the daily log and the heartbeat.

    ``same_session``: the snapshot on file was written from the same transcript, so its
    Completed and Working Files are this session's lists and stay.
    """
    from ..redact import redact
    from .heartbeat import add_line

    path = snapshot_path(store)
    result = SnapshotResult(path=path, written=False, mode=mode, usage=usage, zone=zone)
    facts = extract_facts(transcript) if transcript is not None else None
    account = build_account(transcript, facts) if transcript is not None and facts else None
    rounds = len(transcript.rounds()) if transcript is not None else 0
    real_work = bool(facts and facts.edited) or not notes.is_empty()
    if not force and rounds < MIN_ROUNDS and not real_work:
        result.skipped_reason = (
            f"very short session ({rounds} round(s), no edits, no notes): no snapshot written"
        )
        return result
    from ..redact.engine import markers_in

    fresh = redact(render(_header(now, usage, transcript), _sections(notes, facts, account)))[0]
    result.secrets_removed = markers_in(fresh)  # most were removed as the parts were cut
    drops: list[Drop] = []

    def change(old: str | None) -> str:
        drops.clear()
        if old is None or not old.startswith(TITLE):
            merged, old = fresh, None
        else:
            if mode == "incremental":
                carried, dropped = merge_into(old, fresh)
            else:
                carried, dropped = carry_over(old, fresh, same_session=same_session)
            merged = redact(carried)[0]
            drops.extend(dropped)
        text, cut = fit(merged)
        drops.extend(cut)
        lost = unaccounted(old, text, drops) if old is not None else []
        if lost:
            raise WriteError(
                f"{store.show(path)}: the save would lose "
                + "; ".join(lost[:5])
                + " without saying so; nothing was written"
            )
        return text

    store.update(path, change, verify=_verify(path, store))
    reread = store.read_text(path)
    result.written = reread is not None
    result.words = count_words(reread[0]) if reread else 0
    result.dropped = drop_notes(drops)
    result.notes = result.dropped + size_notes(result.words)
    if reread is not None:
        from .daily_sync import sync_daily_log

        completed = _unique(
            notes.completed
            + [d.text for d in drops if d.section == "completed"]
            + completed_items(reread[0])
        )
        result.daily_log = sync_daily_log(
            store, reread[0], completed=completed, now=now, usage=usage
        )
    if zone is not None and zone.level >= 2:
        result.heartbeat_added = add_line(store)
    if zone is not None and zone.level >= 3 and usage is not None:
        from ..i18n import language_for

        result.warning = critical_footer(usage.percent, language_for(store.workspace))
    return result


def completed_items(text: str) -> list[str]:
    """The Completed items of a snapshot, first lines only."""
    section = find_section(Document.parse(text), "completed")
    return [b.text.split("\n")[0] for b in list_items(section)] if section is not None else []
