"""Curation of MEMORY.md (seed 004, "every ~5 sessions"): promote, demote, archive, merge.

The rules are mechanical so that they can be checked: an entry's age is the newest date it
mentions (a typed-index line takes its file's ``updated``). A Fading entry confirmed again
(a date inside the fade window) is promoted back to Active; an Active entry older than
``fade_after_days`` fades; a Fading entry older than ``archive_after_days`` moves to
``memory/archive.md``. Pinned (``[pinned]``) and undated entries never move. Entries that say
the same thing are merged into one. A pattern the journal saw noted in several sessions
(``patterns``, from ``workmem.journal.patterns``) is confirmed: it is added to Active under
``### Patterns``, once. The Maintenance Log records what happened.

Nothing is deleted: before writing, every line of the old file must be found in the new
file, in the archive text being appended, or in the entry a duplicate was merged into;
otherwise the rewrite is refused with ``ConflictError`` and no file is touched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Protocol

from .. import clock
from ..config import load_settings
from ..errors import ConflictError, FormatError, WriteError
from ..files.freetext import neutralize_line
from ..files.store import Store
from ..root import Workspace
from .archive import append_archive, archive_block, archive_file, memory_file
from .entries import Entry
from .memory_md import ACTIVE, FADING, MAINTENANCE_LOG, MAX_LINES, ensure_tiers, has_tiers
from .outline import Move, Outline, fit_budget, line_count, lost_lines
from .typed import list_memories

PATTERNS = "Patterns"


class Confirmed(Protocol):
    """A pattern noted in several sessions (``workmem.journal.patterns.RepeatedPattern``)."""

    @property
    def text(self) -> str: ...
    @property
    def count(self) -> int: ...
    @property
    def last(self) -> date: ...


@dataclass(frozen=True)
class CurationSettings:
    fade_after_days: int = 60
    archive_after_days: int = 180
    max_lines: int = MAX_LINES
    keep_log: int = 20
    #: a pattern noted in this many sessions is promoted to Active
    pattern_repeats: int = 3

    @classmethod
    def from_workspace(cls, workspace: Workspace) -> CurationSettings:
        table = load_settings(workspace).section("curate")
        values: dict[str, int] = {}
        names = ("fade_after_days", "archive_after_days", "max_lines", "keep_log")
        for name in (*names, "pattern_repeats"):
            if name in table:
                value = table[name]
                if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                    raise FormatError(
                        f"[curate] {name} must be a positive whole number, got {value!r}",
                        path=str(workspace.config_file),
                    )
                values[name] = value
        return cls(**values)


@dataclass
class CurationReport:
    memory_file: str
    promoted: list[Move] = field(default_factory=list)
    faded: list[Move] = field(default_factory=list)
    archived: list[Move] = field(default_factory=list)
    merged: list[Move] = field(default_factory=list)
    undated: int = 0
    lines_before: int = 0
    lines_after: int = 0
    changed: bool = False
    dry_run: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def moved(self) -> int:
        return len(self.promoted) + len(self.faded) + len(self.archived) + len(self.merged)

    def summary(self) -> str:
        return (
            f"promoted {len(self.promoted)}, faded {len(self.faded)}, "
            f"archived {len(self.archived)}, merged {len(self.merged)}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "memory_file": self.memory_file,
            "changed": self.changed,
            "dry_run": self.dry_run,
            "promoted": [m.to_dict() for m in self.promoted],
            "faded": [m.to_dict() for m in self.faded],
            "archived": [m.to_dict() for m in self.archived],
            "merged": [m.to_dict() for m in self.merged],
            "undated": self.undated,
            "lines_before": self.lines_before,
            "lines_after": self.lines_after,
            "notes": self.notes,
        }


def _reason(move: Move, why: str) -> Move:
    return Move(move.text, move.source, move.target, why)


def _contained(short: str, long: str) -> bool:
    """``short`` says nothing ``long`` does not: word-bounded containment, 3+ words."""
    return len(short.split()) >= 3 and f" {short} " in f" {long} " and short != long


def _same_word(a: str, b: str) -> bool:
    """One word, written short or long: ``auth``/``authentication``, ``config``/
    ``configuration``, ``test``/``tests``. Only words of letters (a number is a number:
    5 is not 50), and a short form of at least three letters."""
    if a == b:
        return True
    if not (a.isalpha() and b.isalpha() and a.isascii() and b.isascii()):
        return False
    short, long = sorted((a, b), key=len)
    return len(short) >= 3 and long.startswith(short.removesuffix("s"))


def _same_fact(a: str, b: str) -> bool:
    """Two entries that say the same thing in other words: as many words, each the same
    word written short or long ("The API uses JWT auth" / "… JWT authentication"); 3+
    words, so a two-word note is never merged by this rule."""
    left, right = a.split(), b.split()
    return (
        a != b
        and len(left) == len(right) >= 3
        and all(_same_word(x, y) for x, y in zip(left, right, strict=True))
    )


class _Curator:
    def __init__(
        self, outline: Outline, dates: dict[str, date], today: date, cfg: CurationSettings
    ):
        self.outline = outline
        self.dates = dates
        self.today = today
        self.cfg = cfg

    def dated(self, entry: Entry) -> date | None:
        link = entry.link()
        if link is not None and link in self.dates:
            return self.dates[link]
        return entry.own_date()

    def merge(self) -> list[Move]:
        moves: list[Move] = []
        rank = {ACTIVE: 0, FADING: 1}
        pool = [e for tier in (ACTIVE, FADING) for e in self.outline.entries(tier)]
        groups: dict[str, list[Entry]] = {}
        for entry in pool:
            key = entry.key()
            if key:
                groups.setdefault(key, []).append(entry)
        for group in groups.values():
            if len(group) < 2:
                continue
            keeper = min(
                group,
                key=lambda e: (rank[e.tier], -(self.dated(e) or date.min).toordinal()),
            )
            for entry in group:
                if entry is not keeper:
                    moves.append(_reason(self.outline.merge_into(entry, keeper), "duplicate"))
        remaining = [e for tier in (ACTIVE, FADING) for e in self.outline.entries(tier)]
        dropped: set[int] = set()
        for short in remaining:
            if short.link() is not None:
                continue
            for long in remaining:
                if long is short or id(long) in dropped or long.link() is not None:
                    continue
                if (long.tier, long.section) != (short.tier, short.section):
                    continue
                if _contained(short.key(), long.key()):
                    move = self.outline.merge_into(short, long)
                    moves.append(_reason(move, "contained in a fuller entry"))
                    dropped.add(id(short))
                    break
                if _same_fact(short.key(), long.key()) and len(short.text) < len(long.text):
                    move = self.outline.merge_into(short, long)
                    moves.append(_reason(move, "the same fact in other words"))
                    dropped.add(id(short))
                    break
        return moves

    def promote(self) -> list[Move]:
        cutoff = self.today - timedelta(days=self.cfg.fade_after_days)
        moves = []
        for entry in list(self.outline.entries(FADING)):
            when = self.dated(entry)
            if when is not None and when >= cutoff:
                move = self.outline.move(entry, ACTIVE, entry.section)
                moves.append(_reason(move, f"confirmed {when.isoformat()}"))
        return moves

    def demote(self) -> tuple[list[Move], list[Move]]:
        fade_cut = self.today - timedelta(days=self.cfg.fade_after_days)
        archive_cut = self.today - timedelta(days=self.cfg.archive_after_days)
        archived = []
        for entry in list(self.outline.entries(FADING)):
            when = self.dated(entry)
            if when is not None and when < archive_cut and not entry.pinned:
                archived.append(
                    _reason(self.outline.to_archive(entry), f"last seen {when.isoformat()}")
                )
        faded = []
        for entry in list(self.outline.entries(ACTIVE)):
            when = self.dated(entry)
            if when is not None and when < fade_cut and not entry.pinned:
                move = self.outline.move(entry, FADING, entry.section)
                faded.append(_reason(move, f"last seen {when.isoformat()}"))
        return faded, archived

    def confirm(self, patterns: Sequence[Confirmed], archived: str) -> list[Move]:
        """Add each confirmed pattern not yet in MEMORY.md (or its archive) to Active."""
        known = [e.key() for tier in (ACTIVE, FADING) for e in self.outline.entries(tier)]
        have = f" {' | '.join(known)} {Entry([archived], '', '').key()} "
        moves = []
        for pattern in patterns:
            if pattern.count < self.cfg.pattern_repeats:
                continue
            text = neutralize_line(pattern.text, limit=300)
            key = Entry([text], ACTIVE, PATTERNS).key()
            if not key or f" {key} " in have:
                continue
            entry = Entry(
                [f"- {text} (noted in {pattern.count} sessions, last {pattern.last})"],
                ACTIVE,
                PATTERNS,
            )
            self.outline.add(entry, ACTIVE, PATTERNS)
            have += f" {key} "
            moves.append(Move(entry.first, "daily logs", f"{ACTIVE} > {PATTERNS}", "confirmed"))
        return moves

    def trim_log(self) -> list[Move]:
        log = list(self.outline.entries(MAINTENANCE_LOG))
        extra = len(log) - self.cfg.keep_log
        return [_reason(self.outline.to_archive(e), "old log line") for e in log[: max(extra, 0)]]


def curate(
    workspace: Workspace,
    *,
    now: datetime | None = None,
    store: Store | None = None,
    dry_run: bool = False,
    settings: CurationSettings | None = None,
    patterns: Sequence[Confirmed] = (),
) -> CurationReport:
    """Curate MEMORY.md once; writes archive.md first, then MEMORY.md, both verified.

    ``patterns`` are the journal's repeated patterns; those noted often enough are promoted.
    """
    moment = now or clock.now()
    store = store or Store(workspace, read_only=dry_run)
    cfg = settings or CurationSettings.from_workspace(workspace)
    path = memory_file(workspace)
    report = CurationReport(store.show(path), dry_run=dry_run)
    with store.lock(path):
        current = store.read_text(path)
        if current is None:
            report.notes.append("no MEMORY.md yet: nothing to curate")
            return report
        old = current[0]
        base = ensure_tiers(old)
        if not has_tiers(old):
            report.notes.append("MEMORY.md had no tiers: its content was wrapped under ## Active")
        elif base != old:
            report.notes.append("MEMORY.md lacked some of its standard sections: they were added")
        outline = Outline.parse(base)
        dates: dict[str, date] = {}
        for memory in list_memories(store).memories:
            if memory.updated is not None:
                dates[memory.filename] = memory.updated
        curator = _Curator(outline, dates, moment.date(), cfg)
        archived_text = store.read_text(archive_file(workspace)) if patterns else None
        report.promoted = curator.confirm(patterns, archived_text[0] if archived_text else "")
        report.merged = curator.merge()
        report.promoted += curator.promote()
        report.faded, report.archived = curator.demote()
        report.archived += curator.trim_log()
        report.undated = sum(
            1 for t in (ACTIVE, FADING) for e in outline.entries(t) if curator.dated(e) is None
        )
        stamp = clock.stamp(moment)
        if report.moved or base != old:
            log_entry = Entry([f"- {stamp} curate: {report.summary()}"], MAINTENANCE_LOG, "")
            outline.add(log_entry, MAINTENANCE_LOG, "")
        faded, archived = fit_budget(outline, curator.dated, cfg.max_lines, keep_log=5)
        report.faded += [_reason(m, "MEMORY.md over its line budget") for m in faded]
        report.archived += [_reason(m, "MEMORY.md over its line budget") for m in archived]
        new = outline.render()
        block = archive_block(stamp, "curate", outline.archive_groups()) if outline.archived else ""
        report.lines_before, report.lines_after = line_count(old), line_count(new)
        if line_count(new) > cfg.max_lines:
            report.notes.append(
                f"MEMORY.md still has {line_count(new)} lines (budget {cfg.max_lines}): the rest "
                "is undated, pinned or the newest; curate it by hand"
            )
        lost = lost_lines(old, new, block, outline)
        if lost:
            raise ConflictError(
                f"curation refused: {len(lost)} line(s) of MEMORY.md would be lost without "
                f"being moved (first: {lost[0]!r}); nothing was written"
            )
        report.changed = new != old
        if dry_run or not report.changed:
            return report
        if block:
            append_archive(store, block)

        def change(latest: str | None) -> str:
            if latest != old:
                raise ConflictError("MEMORY.md changed while curating; nothing was written")
            return new

        def verify(text: str) -> None:
            missing = [e.first for t in (ACTIVE, FADING) for e in outline.entries(t)]
            missing = [line for line in missing if line not in text]
            if missing:
                raise WriteError(f"MEMORY.md re-read lacks {len(missing)} curated entries")

        store.update(path, change, verify=verify)
    if block:
        report.notes.append(f"archived entries appended to {store.show(archive_file(workspace))}")
    return report
