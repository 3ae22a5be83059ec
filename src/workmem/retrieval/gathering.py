"""Questions whose answer is gathered from several sessions, and a ranking that serves them.

"What pets does Nate have?", "How many times has Joanna found new trails?", "Which cities
have both of them visited?": such a question is answered by a few entries written on
different days, each about one of the things asked for. The best few matches, though, tend
to come from one session, where one thing was talked about at length, and they fill the top
of the list with near-repeats of one answer. On the LoCoMo tune split, the 235 evidence
turns of multi-hop questions with more than one lie in 205 distinct sessions of their
question.

For such questions only, the head of the ranking is re-ordered greedily: each entry taken
lowers the other entries of its file by ``weight`` times the best score, so a second entry
of a session must be clearly better than the best entry of another session to come before
it. Spreading every query this way was measured before and lost recall on single-fact
questions (an answer's neighbours in its session are often the next best evidence); gated
by the question's form it does not. See ``Weights.spread`` for the figures.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .ranking import Candidate

#: How many of the best candidates are re-ordered; the rest keep their places.
SPREAD_DEPTH = 30

_SEVERAL = re.compile(
    r"\bhow many\b|\bboth\b|\bin common\b|\bever\b|\bwhat ways\b"
    # "What activities does …", "Which cities has …", "What board games has …"
    r"|^\W*(?:what|which)\s+(?:[^\W\d_]+\s+)?[^\W\d_]+s\s+(?:has|have|did|does|do|are|were)\b"
    # "What are Joanna's hobbies?"
    r"|^\W*what\s+are\b",
    re.IGNORECASE,
)


def asks_for_several(query: str) -> bool:
    """Whether ``query`` asks for several things, or how many, rather than for one fact.

    English question forms only; any other question is ranked as it always was.
    """
    return _SEVERAL.search(query) is not None


def spread_over_files(ranked: list[Candidate], weight: float) -> list[Candidate]:
    """``ranked`` with its head re-ordered so that one file does not fill it (see above).

    Scores are left as they are: the order is what changes. Cost: at most
    ``SPREAD_DEPTH`` squared comparisons in memory, no query of the index.
    """
    if weight <= 0 or len(ranked) < 2:
        return ranked
    head, tail = ranked[:SPREAD_DEPTH], ranked[SPREAD_DEPTH:]
    step = weight * (head[0].score or 1.0)
    taken: dict[str, int] = {}
    ordered: list[Candidate] = []
    while head:
        best = min(head, key=lambda c: (-(c.score - step * taken.get(c.path, 0)), c.chunk))
        head.remove(best)
        taken[best.path] = taken.get(best.path, 0) + 1
        ordered.append(best)
    return ordered + tail
