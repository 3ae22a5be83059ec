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
from ..files.sections import Document, merge_items, merge_prose
from ..files.store import Store
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
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _sections(notes: SnapshotNotes, facts: TranscriptFacts | None) -> dict[str, list[str]]:
    """Section key -> body lines (list items already bulleted)."""
    body: dict[str, list[str]] = {}
    lines: list[str] = []
    if notes.in_progress.strip():
        lines.append(notes.in_progress.strip())
    doing = facts.plan_items("in_progress") if facts else []
    if doing:
        lines.append("")
        lines.extend(f"- Current plan step: {step}" for step in doing)
    if facts and facts.requests:
        lines.append(f"- Last request: “{_clip(facts.requests[-1])}”")
    commands = _unique(notes.commands + [c.command for c in (facts.commands if facts else [])][-5:])
    if commands:
        lines.append("- Reproduction commands:")
        lines.extend(f"  - `{_clip(c, 200)}`" for c in commands[-6:])
    body["in_progress"] = lines or [_NONE]
    completed = notes.completed + (facts.plan_items("completed") if facts else [])
    body["completed"] = [f"- {item}" for item in _unique(completed)]
    pending = notes.pending + (facts.plan_items("pending") if facts else [])
    body["pending"] = [f"{n}. {item}" for n, item in enumerate(_unique(pending), 1)]
    body["decisions"] = [f"- {item}" for item in _unique(notes.decisions)]
    files = list(notes.files)
    if facts:
        files += [f"`{f.path}` — {describe_file(f)}" for f in facts.edited[:30]]
    body["files"] = [f"- {item}" for item in _unique(files)]
    body["preferences"] = [f"- {item}" for item in _unique(notes.preferences)]
    gotchas = list(notes.gotchas)
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


def merge_into(existing: str, fresh: str) -> str:
    """Warm-zone incremental save: new items appended, In Progress and header refreshed."""
    old = Document.parse(existing)
    new = Document.parse(fresh)
    old.preamble = new.preamble
    for section in new.sections:
        key = section_key(section.title)
        target = next((s for s in old.sections if section_key(s.title) == key), None)
        if target is None or key is None:
            old.sections.append(section)
        elif key == "in_progress":
            target.body = section.body
        elif not section.items():
            merge_prose(target, section.content(), hints=[_NONE])
        else:
            merge_items(target, section.items(), hints=[_NONE])
    return old.render()


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
    from ..journal.daily import append_entry
    from ..redact import redact
    from .heartbeat import add_line

    path = snapshot_path(store)
    result = SnapshotResult(path=path, written=False, mode=mode, usage=usage, zone=zone)
    facts = extract_facts(transcript) if transcript is not None else None
    rounds = len(transcript.rounds()) if transcript is not None else 0
    real_work = bool(facts and facts.edited) or not notes.is_empty()
    if not force and rounds < MIN_ROUNDS and not real_work:
        result.skipped_reason = (
            f"very short session ({rounds} round(s), no edits, no notes): no snapshot written"
        )
        return result
    sections = _sections(notes, facts)
    text, result.notes = fit(_header(now, usage, transcript), sections)
    text, result.secrets_removed = redact(text)
    if mode == "incremental":

        def change(old: str | None) -> str:
            if old is None or not old.startswith(TITLE):
                return text
            merged, _ = redact(merge_into(old, text))
            return merged

    else:

        def change(old: str | None) -> str:
            return text

    store.update(path, change, verify=_verify(path, store))
    reread = store.read_text(path)
    result.written = reread is not None
    result.words = count_words(reread[0]) if reread else 0
    active = notes.in_progress.strip().split("\n")[0] if notes.in_progress.strip() else ""
    if not active and facts:
        active = (facts.plan_items("in_progress") or facts.requests[-1:] or [""])[0]
    completed = _unique(notes.completed + (facts.plan_items("completed") if facts else []))
    pct = f"{usage.percent:g}%" if usage else "unknown"
    body = [f"- Context at {pct}", f"- Active: {_clip(active, 200) or 'not stated'}"]
    body.append("- Completed:" + ("" if completed else " nothing recorded yet"))
    body += [f"  - {_clip(item, 200)}" for item in completed]
    entry, _ = redact("\n".join(body))
    result.daily_log = append_entry(
        store, now.date(), f"Session Relay Auto-Save ({now:%H:%M})", entry
    )
    if zone is not None and zone.level >= 2:
        result.heartbeat_added = add_line(store)
    if zone is not None and zone.level >= 3 and usage is not None:
        result.warning = critical_footer(usage.percent)
    return result
