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
from ..files.sections import Document, Section, is_placeholder, item_key, merge_items, merge_prose
from ..files.store import Store
from ..transcripts.account import FINISHED, SessionAccount, build_account
from ..transcripts.facts import TranscriptFacts, describe_file, extract_facts
from ..transcripts.model import Transcript
from .archive import snapshot_path
from .template import SECTIONS, TITLE, SnapshotNotes, count_words, heading_of, section_key
from .usage import ContextUsage
from .zones import Zone, critical_footer

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

MAX_WORDS = 2000
MIN_WORDS = 500
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
        lines.append(f"- Last request: “{_clip(facts.requests[-1])}”")
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
                "Commands run: " + "; ".join(f"`{_clip(c, 120)}`" for c in commands[-4:])
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


def fit(header: list[str], sections: dict[str, list[str]]) -> tuple[str, list[str]]:
    """Render within MAX_WORDS, cutting Completed first, then the long factual lists."""
    notes: list[str] = []
    text = render(header, sections)
    cut = 0
    while count_words(text) > MAX_WORDS and sections["completed"] not in ([], [_NONE]):
        sections["completed"].pop()
        cut += 1
        text = render(header, sections)
    if cut:
        notes.append(f"cut {cut} Completed item(s) to stay under {MAX_WORDS} words")
    for key in ("files", "gotchas", "pending"):
        while count_words(text) > MAX_WORDS and len(sections[key]) > 5:
            sections[key].pop()
            text = render(header, sections)
    words = count_words(text)
    if words > MAX_WORDS:
        notes.append(f"snapshot is {words} words, over the {MAX_WORDS}-word target")
    elif words < MIN_WORDS:
        notes.append(f"snapshot is {words} words, under the {MIN_WORDS}-word target")
    return text, notes


def _prose(section: Section) -> list[str]:
    """The agent's own lines of a section (not the items a save derived from the transcript)."""
    return [b.text for b in section.blocks() if not b.is_item and b.text and b.text != _NONE]


def merge_into(existing: str, fresh: str) -> str:
    """Warm-zone incremental save: keep what was there, add what is new.

    In Progress takes the new derived lines (plan step, last request, commands) but keeps
    the agent's own words when the new save does not say anything of its own; a section the
    new save has nothing for is left as it was (never a ``None`` after real items).
    """
    old = Document.parse(existing)
    new = Document.parse(fresh)
    old.preamble = new.preamble
    for section in new.sections:
        key = section_key(section.title)
        target = next((s for s in old.sections if section_key(s.title) == key), None)
        if target is None or key is None:
            old.sections.append(section)
        elif is_placeholder(section, [_NONE]):
            continue
        elif key == "in_progress":
            kept = _prose(target) if not _prose(section) else []
            fresh_lines = section.content().split("\n")
            target.body = [
                "",
                *(p for text in kept for p in (*text.split("\n"), "")),
                *fresh_lines,
                "",
            ]
        elif not section.items():
            merge_prose(target, section.content(), hints=[_NONE])
        else:
            merge_items(target, section.items(), hints=[_NONE])
    return old.render()


#: sections whose items only the agent gives: a full save that does not restate them
#: carries them over instead of dropping them
CARRIED = ("decisions", "preferences", "gotchas")
CARRIED_MARK = "(carried over)"


def carry_over(existing: str, fresh: str) -> tuple[str, list[str]]:
    """A full save's text with the agent's earlier items it did not restate carried over,
    and what of the rest it no longer lists (for the result's notes)."""
    old = Document.parse(existing)
    new = Document.parse(fresh)
    dropped: list[str] = []
    for section in old.sections:
        key = section_key(section.title)
        target = next((s for s in new.sections if section_key(s.title) == key), None)
        if key is None or target is None:
            continue
        have = {item_key(i) for i in target.items()}
        missing = [i for i in section.items() if item_key(i.replace(CARRIED_MARK, "")) not in have]
        if key in CARRIED and missing:
            marked = [i if CARRIED_MARK in i else f"{i} {CARRIED_MARK}" for i in missing]
            merge_items(target, marked, hints=[_NONE])
        elif key == "pending":
            dropped += [f"pending: {i}" for i in missing]
    return new.render(), dropped


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
) -> SnapshotResult:
    """Build, write and verify the snapshot, then sync the daily log and the heartbeat."""
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
    sections = _sections(notes, facts, account)
    text, result.notes = fit(_header(now, usage, transcript), sections)
    from ..redact.engine import markers_in

    text = redact(text)[0]
    result.secrets_removed = markers_in(text)  # most were removed as the parts were cut
    if mode == "incremental":

        def change(old: str | None) -> str:
            if old is None or not old.startswith(TITLE):
                return text
            merged, _ = redact(merge_into(old, text))
            return merged

    else:

        def change(old: str | None) -> str:
            if old is None or not old.startswith(TITLE):
                return text
            carried, dropped = carry_over(old, text)
            result.notes += [f"no longer listed: {what}" for what in dropped[:10]]
            return redact(carried)[0]

    store.update(path, change, verify=_verify(path, store))
    reread = store.read_text(path)
    result.written = reread is not None
    result.words = count_words(reread[0]) if reread else 0
    if reread is not None:
        from .daily_sync import sync_daily_log

        completed = _unique(notes.completed + (facts.plan_items("completed") if facts else []))
        result.daily_log = sync_daily_log(
            store, reread[0], completed=completed, now=now, usage=usage
        )
    if zone is not None and zone.level >= 2:
        result.heartbeat_added = add_line(store)
    if zone is not None and zone.level >= 3 and usage is not None:
        from ..i18n import language_for

        result.warning = critical_footer(usage.percent, language_for(store.workspace))
    return result
