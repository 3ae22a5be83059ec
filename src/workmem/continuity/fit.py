"""Fitting the resume document into its token budget, and proving it fits.

Hooks count tokens with a fast estimate (see ``retrieval.tokens``): loading the real BPE on
every prompt costs too much (its ranks alone take ~150 ms to load here). The estimate is
close on prose and code but undercounts text dense in digits and punctuation (pasted JSON
logs, hashes, timestamps) by a third or more, so a document filled to the estimate can run
past the budget the agent was promised. The document is therefore built to the estimate
with a margin, then the finished document is counted once more with a slower count that
prices runs of digits and punctuation (``upper_estimate``, at or above the BPE on nearly
all text); when that count is over, it is built again with the room scaled down.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

#: share of the budget filled when tokens are estimated, not counted
ESTIMATE_MARGIN = 0.85
#: rebuilds allowed after the real count (each shrinks the room by the measured excess)
_REBUILDS = 3


@dataclass
class Part:
    """One section of the document: its lines in order of importance, and its share."""

    title: str
    lines: list[str]
    #: share of the budget it may take before the others had theirs
    share: float
    #: heading level (``##``, ``###``); a part's place in the document is its place in the list
    level: int = 2
    #: when it is funded: lower first (equal ranks in document order)
    rank: int = 0
    kept: list[str] = field(default_factory=list)

    @property
    def heading(self) -> str:
        return "#" * self.level + " " + self.title

    @property
    def shortened(self) -> bool:
        """Some of it is shown, not all (lines dropped, or the last shown one clipped)."""
        if not self.kept:
            return False
        return len(self.kept) < len(self.lines) or self.kept[-1] != self.lines[len(self.kept) - 1]


@dataclass
class Fitted:
    text: str
    #: the count the budget was checked against (the BPE, or the upper estimate in hooks)
    tokens: int
    left_out: list[str]
    shortened: list[str]


_MARKERS = re.compile(r"^\s*(?:[-*>]\s*)?(?:\[[a-z ]+\]\s*)?")
#: a question and the answer after its arrow ("Shall I …? → yes") are one fact: split apart,
#: a repeat of either would leave the other half alone on its line
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+(?!→)|(?<=[。！？])(?!\s*→)")
_NON_WORD = re.compile(r"[\W_]+")
#: sentences shorter than this (after normalising) may repeat: "tests passed", a file name
_MIN_REPEAT = 20


def _fact(text: str) -> str:
    return _NON_WORD.sub(" ", _MARKERS.sub("", text)).strip().casefold()


def _weighty(fact: str) -> bool:
    """Long enough that saying it twice is a repeat (a CJK character weighs a short word)."""
    return len(fact) + 2 * sum(1 for c in fact if c >= "\u3040") >= _MIN_REPEAT


def _key(fact: str) -> int:
    import zlib

    return zlib.crc32(fact.encode("utf-8", "replace"))


def _facts_of(line: str) -> tuple[str, list[str]]:
    """(the line's list marker, its facts): a quoted line is one fact, any other line one
    per sentence."""
    if line.lstrip().startswith(">"):
        return "", [line]
    prefix = _MARKERS.match(line)
    head = prefix.group(0) if prefix else ""
    return head, [s for s in _SENTENCE_END.split(line[len(head) :]) if s.strip()]


def fact_keys(text: str) -> set[int]:
    """The facts a finished document showed, as keys ``dedupe`` takes as already seen (so
    a document given after it in the same session does not say them again, short ones
    included: "[done] Run tests" was read there)."""
    keys: set[int] = set()
    for line in text.splitlines():
        for fact in _facts_of(line)[1]:
            flat = _fact(fact)
            if len(flat) >= 8:
                keys.add(_key(flat))
    return keys


def dedupe(top: list[str], parts: list[Part], seen: set[int] | None = None) -> None:
    """Each fact once in the whole document: a sentence already shown (in the top lines, an
    earlier part, or ``seen``: an earlier document) is dropped from a later line, and a line
    left with nothing goes. Quoted lines (a request, shown verbatim) are compared whole."""
    earlier = set(seen or ())
    seen = set(earlier)

    def fresh(line: str) -> str | None:
        head, sentences = _facts_of(line)
        kept = []
        for sentence in sentences:
            fact = _fact(sentence)
            key = _key(fact)
            if key in seen and (_weighty(fact) or key in earlier):
                continue
            seen.add(key)
            kept.append(sentence)
        if not kept:
            return None
        return line if len(kept) == len(sentences) else head + " ".join(kept)

    top[:] = [line for line in (fresh(t) for t in top) if line is not None]
    for part in parts:
        lines = [line for line in (fresh(t) for t in part.lines) if line is not None]
        # a label left without what it introduced ("Then:") goes too
        part.lines = [] if all(_is_label(line) for line in lines) else lines


def _is_label(line: str) -> bool:
    text = line.strip()
    return text.endswith(":") and len(text) <= 40 and not text.startswith(("-", ">"))


def _tokens(text: str) -> int:
    from ..retrieval.tokens import count_tokens

    return count_tokens(text)


def take_lines(lines: list[str], tokens: int) -> list[str]:
    """The first lines that fit in ``tokens``; the last one clipped to fit if needed."""
    kept: list[str] = []
    used = _tokens("\n")
    for line in lines:
        cost = _tokens(line) + 1
        if used + cost <= tokens:
            kept.append(line)
            used += cost
            continue
        room = tokens - used
        if room > 20:
            ratio = room / cost
            from ..files.freetext import cut_at, redacted

            clean = redacted(line)  # redacted before it is cut
            kept.append(clean[: cut_at(clean, max(int(len(clean) * ratio) - 2, 0))].rstrip() + " …")
        break
    return kept


def fit_parts(parts: list[Part], budget: int) -> None:
    """Each part up to its share first, then what was cut grows into what is left, in order."""
    for part in parts:
        part.kept = []
    remaining = budget
    order = sorted(parts, key=lambda p: p.rank)
    for part in order:
        heading = _tokens(part.heading) + 2
        allowed = min(int(part.share * budget), remaining - heading)
        if not part.lines or allowed <= 20:
            continue
        part.kept = take_lines(part.lines, allowed)
        if part.kept:
            remaining -= heading + _tokens("\n".join(part.kept))
    for part in order:
        if not part.lines or (len(part.kept) == len(part.lines) and not part.shortened):
            continue
        heading = 0 if part.kept else _tokens(part.heading) + 2
        before = _tokens("\n".join(part.kept)) if part.kept else 0
        grown = take_lines(part.lines, before + remaining - heading)
        if len(grown) > len(part.kept) or (grown and _tokens("\n".join(grown)) > before):
            remaining -= heading + _tokens("\n".join(grown)) - before
            part.kept = grown


def _compose(top: list[str], parts: list[Part], room: int, budget: int, files: list[str]) -> Fitted:
    footer_reserve = 60 if files else 40
    fit_parts(parts, room - _tokens("\n\n".join(top)) - footer_reserve)
    body: list[str] = ["\n\n".join(top)]
    for part in parts:
        if part.kept:
            body.append(part.heading + "\n" + "\n".join(part.kept))
    left_out = [p.title for p in parts if p.lines and not p.kept]
    shortened = [p.title for p in parts if p.kept and p.shortened]
    if left_out or shortened:
        words = []
        if left_out:
            words.append("left out: " + ", ".join(left_out))
        if shortened:
            words.append("shortened: " + ", ".join(shortened))
        where = f" {whole_in(files)}" if files else ""
        body.append(f"(To stay within {budget:,} tokens, {'; '.join(words)}.{where})")
    text = "\n\n".join(body)
    return Fitted(text, _tokens(text), left_out, shortened)


def whole_in(files: list[str]) -> str:
    """The sentence that says where the whole of a shortened document is."""
    return f"The whole of it is in {' and '.join(files)}."


def named_before(files: list[str], seen: set[int] | None) -> bool:
    """Whether an earlier document (its ``fact_keys``) already said where the whole is."""
    return bool(files and seen) and _key(_fact(whole_in(files))) in (seen or set())


def compose_within(
    top: list[str],
    parts: list[Part],
    budget: int,
    files: list[str],
    *,
    real_count: Callable[[str], int | None] | None = None,
) -> Fitted:
    """The document of ``top`` lines and ``parts``, within ``budget`` tokens by a count at
    or above the real one.

    ``real_count`` (default: ``upper_estimate``) is consulted only when the fill was
    estimated; tests pass their own to stand for text the estimate misreads, and ``None``
    from it means "cannot tell" (the estimate's margin is then what holds).
    """
    from ..retrieval.tokens import tokenizer_name, upper_estimate

    if tokenizer_name() != "cjk-estimate":
        return _compose(top, parts, budget, budget, files)
    counter = real_count or upper_estimate
    room = int(budget * ESTIMATE_MARGIN)
    fitted = _compose(top, parts, room, budget, files)
    for _ in range(_REBUILDS):
        real = counter(fitted.text)
        if real is None:
            return fitted
        if real <= budget:
            fitted.tokens = real
            return fitted
        room = max(int(room * budget / real * 0.97), 0)
        fitted = _compose(top, parts, room, budget, files)
    real = counter(fitted.text)
    if real is not None:
        fitted.tokens = real
    return fitted
