"""The daily-log entry a session end writes: everything the session produced, in one place.

The entry is the episodic record that makes every other write safe to do: the resumption
note and each replaced thread position are in it, so when ``resumption.md`` or a thread's
``Current Position`` is rewritten, the previous words survive in the log. A marker with
the end's token lets a retried ``end`` see that its entry is already there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..files.freetext import neutralize_block, neutralize_line
from .daily import END_MARKER
from .thread_updates import ThreadUpdate

MARKER = END_MARKER + "{token} key={key} -->"
#: The suffixes of the markers of an end's extra entries (replaced positions, replaced note)
POSITIONS, RESUMPTION = "-positions", "-resumption"


def marker(token: str, key: str) -> str:
    return MARKER.format(token=token, key=key)


def has_marker(text: str, token: str) -> bool:
    """True when the main entry of the session end ``token`` is in ``text``."""
    return f"{END_MARKER}{token} " in text


def quote(text: str) -> str:
    """Free text as a blockquote whose lines can start no heading, rule or comment."""
    lines = neutralize_block(text).split("\n")
    return "\n".join(f"> {line}" if line.strip() else ">" for line in lines)


def _bullet(text: str) -> str:
    """Free text as one list item: continuation lines indented, none of them structure."""
    lines = neutralize_block(text).split("\n")
    return "\n".join([f"- {lines[0]}", *(f"  {line}" if line else "" for line in lines[1:])])


def _one(text: str) -> str:
    return neutralize_line(text)


@dataclass
class EntryParts:
    token: str
    key: str
    summary: str
    mood: str | None
    resumption: str
    notes: list[dict[str, Any]] = field(default_factory=list)
    updates: dict[str, ThreadUpdate] = field(default_factory=dict)
    touched: list[str] = field(default_factory=list)
    old_positions: dict[str, str] = field(default_factory=dict)
    replaced_resumption: str | None = None


def compose(parts: EntryParts) -> str:
    # The summary is one line (a multi-line summary is folded, never stray bullets): the
    # log index, state.json and the loader all read it as one line.
    lines = [marker(parts.token, parts.key), f"**Summary:** {_one(parts.summary)}"]
    if parts.mood:
        lines += ["", f"**Mood:** {_one(parts.mood)}"]

    def section(title: str, items: list[str]) -> None:
        if items:
            lines.extend(["", f"#### {title}", *items])

    by_kind: dict[str, list[dict[str, Any]]] = {}
    for note in parts.notes:
        by_kind.setdefault(str(note.get("kind")), []).append(note)
    decisions = []
    for note in by_kind.get("decision", []):
        why = f" — {note['reasoning']}" if note.get("reasoning") else ""
        where = f" [ref: {note['thread']}]" if note.get("thread") else ""
        decisions.append(_bullet(f"{note['text']}{why}{where}"))
    for thread_id, update in parts.updates.items():
        decisions += [_bullet(f"{d} [ref: {thread_id}]") for d in update.new_decisions]
    section("Decisions", decisions)
    questions = [
        _bullet(n["text"] + (f" [ref: {n['thread']}]" if n.get("thread") else ""))
        for n in by_kind.get("question", [])
    ]
    section("Open questions", questions)
    section("Patterns", [_bullet(n["text"]) for n in by_kind.get("pattern", [])])
    section("Threads", _thread_lines(parts))
    events = []
    for note in by_kind.get("event", []):
        when = note.get("date") or f"undated ({note.get('date_text') or 'no date'})"
        events.append(
            _bullet(
                f"{note.get('event_id')} · {_one(str(when))} · {_one(str(note.get('type')))}: "
                f"{note['text']}"
            )
        )
    section("Events", events)
    lines += ["", "#### Resumption note", quote(parts.resumption)]
    if parts.replaced_resumption:
        lines += [
            "",
            "#### Replaced resumption note (hand-written)",
            quote(parts.replaced_resumption),
        ]
    return "\n".join(lines) + "\n"


def _thread_lines(parts: EntryParts) -> list[str]:
    out = []
    for thread_id in parts.touched:
        update = parts.updates.get(thread_id)
        line = f"- [ref: {thread_id}]"
        if update and update.current_position:
            line += f" {_one(update.current_position)}"
            old = parts.old_positions.get(thread_id, "").strip()
            if old and " ".join(old.split()) != " ".join(update.current_position.split()):
                line += f" (was: {_one(old)})"
        else:
            line += " touched"
        out.append(line)
        if update:
            out += [f"  - opened: {_one(q)}" for q in update.new_open_questions]
            out += [f"  - closed: {_one(q)}" for q in update.closed_questions]
    return out


def positions_addendum(token: str, key: str, replaced: dict[str, tuple[str, str]]) -> str:
    """Positions replaced that the entry did not record (another agent changed them first)."""
    lines = [marker(f"{token}{POSITIONS}", key)]
    for thread_id, (old, new) in replaced.items():
        lines.append(f"- [ref: {thread_id}] {_one(new)} (was: {_one(old)})")
    return "\n".join(lines) + "\n"


def resumption_addendum(token: str, key: str, note: str) -> str:
    """A hand-written (or parallel) resumption note the new one replaced, kept in the log."""
    return f"{marker(f'{token}{RESUMPTION}', key)}\n{quote(note)}\n"
