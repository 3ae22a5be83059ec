"""Deep recall (seed 004, Phase 4): passages from the search index, else from the newest logs.

Used when the opening message asks to remember (the loader's deep phase) and by
``MemoryLoader.phase_4_search`` mid-session; a session start without such a message never
imports it, nor the search index behind it.

Passages are chosen best first, as many as the budget holds, and then written grouped by
file (files in the order of their best passage, passages in file order inside), each
under one short line: its line number, its date when the file name does not give it, and
its heading (who spoke, which session wrote it). A file's path is written once, not once
per passage: on long chat-like logs, where a passage is a sentence or two, a path on every
passage cost about a third of the budget (LoCoMo tune conversations, 1,500 tokens: 25.5
passages a question, 0.850 of the evidence loaded; grouped with headings 30.6, 0.864).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..errors import WorkmemError
from .budget import OMISSION_RESERVE, PhaseText
from .daily import list_logs
from .journal import Journal
from .terms import term_set, terms

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

    from ..retrieval.hits import Hit

DEFAULT_RECALL_KINDS = ["daily", "archive", "thread", "memory", "resumption"]
#: workmem's own bookkeeping comments (session-end tokens): noise in recalled text
_MARKER = re.compile(r"^<!--\s*workmem:[^>]*-->$")


@dataclass(frozen=True)
class Passage:
    """One recalled chunk as the loader writes it."""

    key: str
    path: str
    line: int
    date: str | None
    title: str
    body: str

    @classmethod
    def of(cls, hit: Hit) -> Passage:
        body = "\n".join(
            line for line in hit.text.strip().split("\n") if not _MARKER.match(line.strip())
        )
        return cls(f"search:{hit.id}", hit.path, hit.line_start, hit.date, hit.title, body.strip())

    def file_heading(self) -> str:
        return f"### {self.path}\n"

    def entry(self) -> str:
        """``heading: text``: the heading says which entry it is (and who wrote it) in the
        file named above it; the line number stands in for a missing heading."""
        head = self.title.strip() or f"line {self.line}"
        if self.date and self.date not in self.path:
            head += f" · {self.date}"
        return f"{head}: {self.body}\n" if self.body else f"{head}\n"


def grouped(title: str, passages: list[Passage]) -> str:
    """The passages under ``title``, grouped by file in the order of each file's first."""
    files: dict[str, list[Passage]] = {}
    for passage in passages:
        files.setdefault(passage.path, []).append(passage)
    parts = [title.rstrip("\n") + "\n"]
    for path_passages in files.values():
        parts.append(path_passages[0].file_heading())
        parts.extend(p.entry() for p in sorted(path_passages, key=lambda p: p.line))
    return "".join(parts)


def add_passages(
    phase: PhaseText, title: str, passages: list[Passage], *, what: str = "passages"
) -> int:
    """As many passages as fit, best first, written grouped (``grouped``); returns how many.

    What did not fit is named in ``phase.omitted`` and said in one line, as ``add_list``
    does; a first passage too long for the whole room is clipped rather than dropped.
    """
    if not passages:
        return 0
    room = phase.room()
    cost = phase.count(title.rstrip("\n") + "\n")
    chosen: list[Passage] = []
    files: set[str] = set()
    for index, passage in enumerate(passages):
        extra = phase.count(passage.entry())
        if passage.path not in files:
            extra += phase.count(passage.file_heading())
        reserve = OMISSION_RESERVE if index < len(passages) - 1 else 0
        if cost + extra > room - reserve:
            break
        chosen.append(passage)
        files.add(passage.path)
        cost += extra
    # Token counts of joined text can differ from the sum of the parts: the block's own
    # count decides, dropping the last chosen passages until it fits.
    while chosen:
        reserve = OMISSION_RESERVE if len(chosen) < len(passages) else 0
        if phase.add_block([p.key for p in chosen], grouped(title, chosen), reserve=reserve):
            break
        chosen.pop()
    if not chosen:
        if not _add_clipped(phase, title, passages[0]):
            phase.omitted.extend(p.key for p in passages if p.key not in phase.omitted)
            return 0
        chosen = [passages[0]]
    rest = passages[len(chosen) :]
    if rest:
        phase.omitted.extend(p.key for p in rest if p.key not in phase.omitted)
        phase.add("omission note", f"… {len(rest)} more {what} omitted (token budget)")
    return len(chosen)


_CUT = " … (cut to fit the budget)"


def _add_clipped(phase: PhaseText, title: str, passage: Passage) -> bool:
    """The passage's text cut to the longest start that fits (found by halving), so a
    passage longer than the whole budget still gives its beginning."""
    room = phase.room()
    low, high = 0, min(len(passage.body), 16 * max(room, 0) + 64)
    best: str | None = None
    while low <= high:
        middle = (low + high) // 2
        text = grouped(title, [replace(passage, body=passage.body[:middle].rstrip() + _CUT)])
        if phase.count(text) <= room:
            best, low = text, middle + 1
        else:
            high = middle - 1
    if best is None or not phase.add(f"{passage.key} (clipped)", best):
        return False
    phase.notes.append(f"{passage.key} clipped")
    return True


@dataclass(frozen=True)
class Recalled:
    """What a recall found: search hits, or the daily logs scanned when search failed.

    Described as dicts only when asked (``items``): a hit's description makes its
    snippet, and the loader, which only writes the passages, never needs it.
    """

    hits: tuple[Hit, ...] = ()
    scanned: tuple[dict[str, Any], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.hits or self.scanned)

    def items(self) -> list[dict[str, Any]]:
        return [hit.to_dict(compact=True) for hit in self.hits] + list(self.scanned)


def recall_into(
    phase: PhaseText,
    title: str,
    journal: Journal,
    query: str,
    kinds: list[str] | None,
    k: int,
    warnings: list[str],
) -> Recalled:
    """Fill ``phase`` with what the search index recalls for ``query``.

    When the index cannot be used, the newest daily logs that share the query's words are
    loaded instead, whole, and a warning says so.
    """
    try:
        from ..retrieval.search import search

        hits = search(journal.workspace, query, k=k, kinds=kinds or DEFAULT_RECALL_KINDS)
    except (ImportError, WorkmemError) as exc:
        warnings.append(f"search unavailable ({exc}); scanned the newest daily logs instead")
        items, found = _scan_logs(journal, query, k, warnings)
        phase.add_list(title, items, what="daily logs")
        return Recalled(scanned=tuple(found))
    add_passages(phase, title, [Passage.of(hit) for hit in hits])
    return Recalled(hits=tuple(hits))


def _scan_logs(
    journal: Journal, query: str, k: int, warnings: list[str]
) -> tuple[list[tuple[str, str]], list[dict[str, Any]]]:
    wanted = set(terms(query))
    scored: list[tuple[int, str, str]] = []
    for log in reversed(list_logs(journal.workspace)[-120:]):
        text = journal.safe_text(log.path, warnings)
        if not text:
            continue
        score = len(wanted & term_set(text))
        if score:
            scored.append((score, log.day.isoformat(), text))
    scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
    items = [(f"log:{day}", f"#### memory/{day}.md\n{text.strip()}") for _, day, text in scored[:k]]
    return items, [{"path": f"memory/{day}.md", "score": s} for s, day, _ in scored[:k]]
