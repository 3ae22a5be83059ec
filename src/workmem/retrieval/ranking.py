"""Fusing the ranking signals into one score.

Scores are fused by value, not by rank: BM25 is divided by the best BM25 of the query and
cosine is stretched between the candidates' floor and top, so a chunk that is far better
on one signal keeps its lead, where rank fusion would flatten it.

That relevance is multiplied by ``1 + title * share``, where share is the part of the
query's content words found in the chunk's heading: who wrote an entry, what a memory is
called, which decision a section records. A heading word matters even when it is common
(in a chat between two people each name heads half the entries, so BM25 gives it no
weight); because it multiplies what the words already match, an entry matched only by
its heading stays below the entries that match in their text. On the LoCoMo tune split,
where the heading names the speaker, title = 2 raised recall@5 0.716 -> 0.775 with the
dense extra (holdout 0.662 -> 0.720) and lexical-only 0.666 -> 0.704 (holdout 0.670 ->
0.696); an additive form gained less, and 1 or 3 did not do better on the tune split.
``title_floor`` (off by default) makes a heading match count for at least that share, so a
long question that names a person lifts that person's entries as a short one does.

Then small, bounded boosts: closeness to a time the query names, recency for kinds that
age, the strength of the chunk's file (a conversation or session that holds several good
hits is probably the right one), and the caller's current session.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache
from typing import Any

from ..errors import FormatError
from .dates import DateRange
from .kinds import TIMELY_KINDS


@dataclass(frozen=True)
class Weights:
    """Fusion weights; ``[search]`` in ``workmem.toml`` may override any of them."""

    lexical: float = 1.0
    dense: float = 0.8
    #: BM25 column weights: the chunk's own text, its context (headings, date, neighbours).
    body: float = 2.0
    context: float = 1.0
    #: BM25 weight of the section column: the words of the sections an entry is filed
    #: under and of its kind (``vocabulary``, ``labels``), matched only by the term a
    #: question's form adds ("should … be split?" -> decision).
    section: float = 1.0
    #: Lift of an entry inside the time a query names ("in January", "last spring"). 1.0
    #: (was 0.3): on a simulated year, the share of top-5 hits inside "last winter" went
    #: 0.27 -> 0.75 and inside "last spring" 0.80 -> 1.00, a season being no word of the
    #: entries; LoCoMo tune split, lexical, R@10 0.772 -> 0.776.
    date: float = 1.0
    recency: float = 0.05
    half_life_days: float = 30.0
    group: float = 0.15
    near_session: float = 0.1
    #: Lift of an entry of the kind a question's form asks for (``vocabulary``: the
    #: resumption note for "what should I pick up next?").
    asked_kind: float = 0.5
    #: How much a chunk whose heading names what the query names is lifted (see ``fuse``).
    title: float = 2.0
    #: The least share a heading match counts for, however long the question: in "What
    #: board games has Nate played?" the name is one word of four, yet the entries Nate
    #: wrote are where the answer is (LoCoMo: 99 % of the evidence of multi-hop questions
    #: naming one speaker is that speaker's). Off (0) by default: at 0.75 it lifted LoCoMo
    #: multi-hop recall@10 a little further (held back, dense 0.535 -> 0.555 on three
    #: conversations; lexical 0.488 -> 0.500), but on a year of memory, where headings
    #: name topics, it outweighed the time a question names ("一月份關於 parser 的決定":
    #: January decisions in the top 25 for 12 of 12 -> 9 of 12). Chat-like memories whose
    #: headings name the speaker may turn it on.
    title_floor: float = 0.0
    #: How far a question asking for several things spreads its top hits over files
    #: (``gathering``), chosen on the LoCoMo tune split (0.1-0.3): multi-hop recall@10,
    #: lexical, tune 0.449 -> 0.485, held back 0.446 -> 0.488 (recall@10 0.788 -> 0.795);
    #: with the dense extra, tune 0.496 -> 0.524, held back 0.550 -> 0.560.
    spread: float = 0.15
    candidates: int = 150

    @classmethod
    def from_settings(cls, table: Mapping[str, Any], path: str = "workmem.toml") -> Weights:
        """Read ``[search.weights]``; a wrong key or value is an error, never ignored."""
        from ..config import numbers_from

        values = numbers_from(cls, dict(table), "search.weights", path)
        if values.get("half_life_days", 1.0) <= 0 or values.get("candidates", 1) < 1:
            raise FormatError(
                "[search.weights] half_life_days and candidates must be > 0", path=path
            )
        return replace(cls(), **values)


@dataclass
class Candidate:
    chunk: int
    kind: str
    path: str
    day: date | None
    session_id: str | None
    lexical: float = 0.0
    dense: float | None = None
    title: float = 0.0
    score: float = 0.0


def title_match(asked: set[str], title: str | None) -> float:
    """Share of the query's terms (content words, CJK grams) that the chunk's heading holds."""
    if not asked or not title:
        return 0.0
    return len(asked & _heading_words(title)) / len(asked)


@lru_cache(maxsize=65536)
def _heading_words(title: str) -> frozenset[str]:
    """The heading's terms, and the term of each section family it files entries under
    ("Resumption note" holds "next": the question "what's next?" names it)."""
    # Every query reads the headings of ~300 candidates; the same ones again and again.
    from .analyze import index_terms
    from .stemming import stem
    from .vocabulary import families_of_heading

    terms = set(index_terms(title).split())
    terms.update(stem(family.term) for family in families_of_heading(title))
    return frozenset(terms)


def fuse(
    candidates: list[Candidate],
    weights: Weights,
    *,
    dense_floor: float = 0.0,
    named: DateRange | None = None,
    today: date | None = None,
    near_session: str | None = None,
    asked_kinds: frozenset[str] = frozenset(),
) -> list[Candidate]:
    """Score every candidate in place and return them best first."""
    if not candidates:
        return []
    top_lex = max(c.lexical for c in candidates) or 1.0
    dense_values = [c.dense for c in candidates if c.dense is not None]
    top_dense = max(dense_values) if dense_values else 0.0
    spread = top_dense - dense_floor
    for c in candidates:
        lexical = c.lexical / top_lex
        dense = 0.0
        if c.dense is not None and spread > 1e-9:
            dense = max(0.0, (c.dense - dense_floor) / spread)
        relevance = weights.lexical * lexical + weights.dense * dense
        share = max(c.title, weights.title_floor) if c.title > 0 else 0.0
        c.score = relevance * (1.0 + weights.title * share)
    best = max(c.score for c in candidates) or 1.0
    group_best: dict[str, float] = {}
    for c in candidates:
        group_best[c.path] = max(group_best.get(c.path, 0.0), c.score)
    for c in candidates:
        boost = weights.group * group_best[c.path] / best
        if named is not None and c.day is not None:
            scale = max(3.0, named.span / 2)
            boost += weights.date * math.exp(-named.distance(c.day) / scale)
        if today is not None and c.day is not None and c.kind in TIMELY_KINDS:
            age = max(0, (today - c.day).days)
            boost += weights.recency * 0.5 ** (age / weights.half_life_days)
        if near_session and c.session_id == near_session:
            boost += weights.near_session
        if c.kind in asked_kinds:
            boost += weights.asked_kind
        c.score += boost
    return sorted(candidates, key=lambda c: (-c.score, c.chunk))
