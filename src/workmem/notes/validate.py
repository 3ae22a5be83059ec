"""Limits every extractor's output must keep (seed 003's budgets).

No unknown section (content that looks like structure is neutralised by the writer); about
2,000 tokens per section, an oversized one condensed (its oldest lines dropped for the
Worklog, its last lines otherwise, with a marker saying so); 12,000 tokens in all.
"""

from __future__ import annotations

from ..errors import WorkmemError
from .template import NAMES

SECTION_TOKENS = 2000
TOTAL_TOKENS = 12000


class ExtractionError(WorkmemError):
    """An extractor's output was refused; the notes file is left as it was."""


def _tokens(text: str) -> int:
    from ..retrieval.tokens import count_tokens

    return count_tokens(text)


def condense(name: str, text: str, limit: int) -> tuple[str, bool]:
    if _tokens(text) <= limit:
        return text, False
    lines = text.split("\n")
    dropped = 0
    while len(lines) > 1 and _tokens("\n".join(lines)) > limit:
        lines.pop(0 if name == "Worklog" else -1)
        dropped += 1
    body = "\n".join(lines)
    if _tokens(body) > limit:  # one enormous line
        body = body[: limit * 2]
    marker = f"(condensed: {dropped} line(s) dropped to stay near {limit:,} tokens)"
    return (f"{marker}\n{body}" if name == "Worklog" else f"{body}\n{marker}"), True


def check_edits(edits: dict[str, str]) -> None:
    """An extractor may only fill the ten sections; what it writes in them is made safe by
    the writer (headings, rules and fences become text), so content is never refused."""
    for name in edits:
        if name not in NAMES:
            raise ExtractionError(f"unknown notes section {name!r}")


def enforce_budget(contents: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    notes: list[str] = []
    result = dict(contents)
    for name in NAMES:
        text, changed = condense(name, result.get(name, ""), SECTION_TOKENS)
        if changed:
            notes.append(f"condensed {name}")
        result[name] = text
    total = sum(_tokens(v) for v in result.values())
    while total > TOTAL_TOKENS:
        largest = max(NAMES, key=lambda n: _tokens(result[n]))
        size = _tokens(result[largest])
        text, _ = condense(largest, result[largest], max(size // 2, 50))
        result[largest] = text
        notes.append(f"condensed {largest} to keep the notes under {TOTAL_TOKENS:,} tokens")
        new_total = sum(_tokens(v) for v in result.values())
        if new_total >= total:
            break
        total = new_total
    return result, notes
