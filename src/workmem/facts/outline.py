"""MEMORY.md's entries laid out by tier and subsection, with the moves curation makes.

Curation and the typed index both edit the same file: they take entries out of one place
and put them in another, and some entries leave for ``archive.md``. ``Outline`` keeps each
body as entries and untouched runs of other lines, records every move, and renders back
through ``MemoryDoc`` so nothing outside the moved entries changes. ``fit_budget`` keeps the
file under ``MAX_LINES`` by moving the oldest low-value entries down, never the newest.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date

from .entries import STALE_MARK, Entry, join_parts, split_entries
from .memory_md import ACTIVE, FADING, MAINTENANCE_LOG, MAX_LINES, MemoryDoc, Tier

ARCHIVE = "archive.md"
_SPACE = re.compile(r"\s+")
Parts = list[Entry | list[str]]


@dataclass(frozen=True)
class Move:
    text: str
    source: str
    target: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"text": self.text, "from": self.source, "to": self.target, "reason": self.reason}


def where(tier: str, section: str) -> str:
    return f"{tier} > {section}" if section else tier


@dataclass
class Outline:
    doc: MemoryDoc
    bodies: dict[tuple[str, str], Parts] = field(default_factory=dict)
    #: Entries leaving the file, by origin, in the order they left.
    archived: list[tuple[str, Entry]] = field(default_factory=list)
    #: Entries dropped as duplicates, with the entry that now holds their content.
    merged: list[tuple[Entry, Entry]] = field(default_factory=list)

    @classmethod
    def parse(cls, text: str) -> Outline:
        outline = cls(MemoryDoc.parse(text))
        for title in (ACTIVE, FADING, MAINTENANCE_LOG):
            tier = outline.doc.tier(title)
            if tier is None:
                continue
            outline.bodies[(title, "")] = split_entries(tier.intro, title, "")
            for sub in tier.subs:
                outline.bodies[(title, sub.title)] = split_entries(sub.body, title, sub.title)
        return outline

    def entries(self, tier: str | None = None) -> Iterator[Entry]:
        for (tier_title, _), parts in list(self.bodies.items()):
            if tier is not None and tier_title != tier:
                continue
            for part in list(parts):
                if isinstance(part, Entry):
                    yield part

    def _tier(self, title: str) -> Tier:
        return self.doc.ensure_tier(title)

    def remove(self, entry: Entry) -> None:
        parts = self.bodies[(entry.tier, entry.section)]
        for index, part in enumerate(parts):
            if part is entry:
                del parts[index]
                # Two blank runs meeting where the entry was become one.
                if (
                    0 < index < len(parts)
                    and _is_blank(parts[index - 1])
                    and _is_blank(parts[index])
                ):
                    del parts[index]
                return
        raise KeyError(entry.first)

    def add(self, entry: Entry, tier: str, section: str) -> None:
        """Append ``entry`` after the last item of ``tier > section`` (created if missing)."""
        key = (tier, section)
        if key not in self.bodies:
            found = self._tier(tier)
            if section:
                sub = found.sub(section) or found.ensure_sub(section)
                self.bodies[key] = split_entries(sub.body, tier, sub.title)
            else:
                self.bodies[key] = split_entries(found.intro, tier, "")
        parts = self.bodies[key]
        position = len(parts)
        while position > 0 and _is_blank(parts[position - 1]):
            position -= 1
        if position == 0:
            if not parts or not _is_blank(parts[0]):
                parts.insert(0, [""])
            position = 1
        elif not isinstance(parts[position - 1], Entry):
            parts.insert(position, [""])
            position += 1
        entry.tier, entry.section = tier, section
        parts.insert(position, entry)
        if position == len(parts) - 1:
            parts.append([""])

    def move(self, entry: Entry, tier: str, section: str) -> Move:
        source = where(entry.tier, entry.section)
        self.remove(entry)
        self.add(entry, tier, section)
        return Move(entry.first, source, where(tier, section), "")

    def to_archive(self, entry: Entry) -> Move:
        source = where(entry.tier, entry.section)
        self.remove(entry)
        self.archived.append((source, entry))
        return Move(entry.first, source, ARCHIVE, "")

    def merge_into(self, dropped: Entry, keeper: Entry) -> Move:
        source = where(dropped.tier, dropped.section)
        self.remove(dropped)
        self.merged.append((dropped, keeper))
        return Move(dropped.first, source, where(keeper.tier, keeper.section), "")

    def render(self) -> str:
        for (tier_title, section), parts in self.bodies.items():
            tier = self.doc.tier(tier_title)
            if tier is None:
                continue
            lines = join_parts(parts)
            if not section:
                tier.intro[:] = lines
                continue
            sub = tier.sub(section)
            if sub is not None:
                sub.body[:] = lines
        return self.doc.render()

    def archive_groups(self) -> list[tuple[str, list[str]]]:
        groups: dict[str, list[str]] = {}
        for origin, entry in self.archived:
            groups.setdefault(origin, []).extend(entry.lines)
        return list(groups.items())


def _is_blank(part: Entry | list[str]) -> bool:
    return not isinstance(part, Entry) and not any(line.strip() for line in part)


def line_count(text: str) -> int:
    return len(text.splitlines())


def fit_budget(
    outline: Outline,
    dated: Callable[[Entry], date | None],
    max_lines: int = MAX_LINES,
    protect: Callable[[Entry], bool] = lambda e: False,
    keep_log: int = 5,
) -> tuple[list[Move], list[Move]]:
    """Move entries out until the file fits; returns the (faded, archived) moves.

    Only leaving the file saves lines, so each round archives the oldest Maintenance Log
    line beyond the last ``keep_log``, else the oldest low-value Fading entry, else fades
    the oldest low-value Active entry (which a later round may archive). Low value means
    stale index lines first, then the oldest dates, then the earliest in the file.
    Protected entries (just written) move only when nothing else can, so the limit holds
    even when one wrap-up writes more memories than fit. Undated and pinned entries and
    the newest dated entry of each tier never move.
    """
    faded: list[Move] = []
    archived: list[Move] = []
    #: per entry: (not stale, its date or None, protected), worked out once
    facts: dict[int, tuple[bool, date | None, bool]] = {}

    def fact(entry: Entry) -> tuple[bool, date | None, bool]:
        if id(entry) not in facts:
            facts[id(entry)] = (STALE_MARK not in entry.text, dated(entry), protect(entry))
        return facts[id(entry)]

    def candidates(tier: str, protected: bool) -> list[Entry]:
        pool = [(fact(e), i, e) for i, e in enumerate(outline.entries(tier)) if not e.pinned]
        known = [(f, i, e) for f, i, e in pool if f[1] is not None]
        if len(known) <= 1:
            return []
        ordered = sorted(known, key=lambda t: (t[0][0], t[0][1], t[1]))
        return [e for f, _, e in ordered[:-1] if f[2] == protected]

    while line_count(outline.render()) > max_lines:
        log = list(outline.entries(MAINTENANCE_LOG))
        if len(log) > keep_log:
            archived.append(outline.to_archive(log[0]))
            continue
        for protected in (False, True):
            fading = candidates(FADING, protected)
            if fading:
                archived.append(outline.to_archive(fading[0]))
                break
            active = candidates(ACTIVE, protected)
            if active:
                faded.append(outline.move(active[0], FADING, active[0].section))
                break
        else:
            break
    return faded, archived


def _lines(text: str) -> Counter[str]:
    return Counter(k for line in text.split("\n") if (k := _SPACE.sub(" ", line).strip()))


def lost_lines(
    old: str, new: str, archived: str, outline: Outline, allowed: Iterable[str] = ()
) -> list[str]:
    """Old lines found nowhere: not in the new file, the archive text, or a merge keeper.

    ``allowed`` are lines the caller removes on purpose (an index line being replaced).
    """
    missing = _lines(old) - _lines(new) - _lines(archived) - _lines("\n".join(allowed))
    for dropped, keeper in outline.merged:
        if dropped.key() and (dropped.key() == keeper.key() or dropped.key() in keeper.key()):
            missing -= _lines(dropped.text)
    return sorted(missing)
