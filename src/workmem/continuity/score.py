"""How much of what the next steps need a context holds: plan, request, files.

Each part is a share in [0, 1]; a cut's score is the mean of the parts it has (a cut with
no plan is scored on request and files only). Matching is forgiving of case and spacing and
of markdown escapes, never of missing words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WORD = re.compile(r"[a-z0-9_]+|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_SPACE = re.compile(r"\s+")
_STOPWORD_TEXT = (
    "a about above after again against all also am an and any are as at be because been "
    "before being below between both but by can could did do does doing done down during each "
    "few for from further had has have having he her here hers herself him himself his how i "
    "if in into is it its itself just let lets like make me more most my myself need no nor "
    "not now of off on once only or other our ours ourselves out over own please same she "
    "should so some such than that the their theirs them themselves then there these they "
    "this those through to too under until up use used using very want was we were what when "
    "where which while who whom why will with would you your yours yourself yourselves it's "
    "i'm don't can't yes okay ok thanks thank sure get got go going one two see look also "
    "still make sure way think know well really much many every "
)
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def content_words(text: str) -> list[str]:
    """Lower-cased words of three letters or more that carry meaning, and CJK characters."""
    return [
        w
        for w in _WORD.findall(text.lower())
        if (len(w) >= 3 or not w.isascii()) and w not in STOPWORDS
    ]


def flat(text: str) -> str:
    return _SPACE.sub(" ", text.replace("\\#", "#").replace("\\-", "-")).strip().casefold()


@dataclass
class Parts:
    plan: float | None = None
    request: float | None = None
    files: float | None = None

    @property
    def score(self) -> float | None:
        present = [p for p in (self.plan, self.request, self.files) if p is not None]
        return sum(present) / len(present) if present else None

    def to_dict(self) -> dict[str, float | None]:
        return {"plan": self.plan, "request": self.request, "files": self.files}


def plan_share(items: list[str], context: str) -> float | None:
    if not items:
        return None
    whole = flat(context)
    return sum(1 for item in items if flat(item) in whole) / len(items)


def request_share(request: str | None, context: str) -> float | None:
    wanted = set(content_words(request or ""))
    if not wanted:
        return None
    have = set(content_words(context))
    return len(wanted & have) / len(wanted)


def files_share(files: list[str], context: str) -> float | None:
    if not files:
        return None
    lowered = context.casefold()
    names = {f.rstrip("/").rsplit("/", 1)[-1].casefold() for f in files}
    return sum(1 for name in names if name and name in lowered) / len(names)


def score(plan: list[str], request: str | None, files: list[str], context: str) -> Parts:
    return Parts(
        plan_share(plan, context), request_share(request, context), files_share(files, context)
    )
