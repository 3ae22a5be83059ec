"""Finding every secret in a text and replacing each one once.

All detectors look at the same original text and report spans; overlapping spans are
merged into one (so ``STRIPE_SECRET=sk_live_…`` is one secret, named by the more
specific detector), spans over an earlier ``[REDACTED:…]`` are dropped (so redacting
twice changes nothing and counts nothing), and the text is rebuilt once.

Markdown table rows are redacted cell by cell: a secret never swallows a cell border,
and a row's cells come out the same whichever row or file they are written in, which
lets a writer predict what the file will hold (``stored_cell``).
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Iterator

from .named import DETECTORS as NAMED
from .names import compiled, is_placeholder
from .patterns import PATTERNS, Pattern

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Protocol

    class Detector(Protocol):
        kind: str
        triggers: tuple[str, ...]

        def spans(self, text: str) -> Iterator[tuple[int, int]]: ...


#: Every detector, most specific first: on overlap the earlier one names the kind.
DETECTORS: tuple[Detector, ...] = (*PATTERNS, *NAMED)
_RANKS_BY_TRIGGER: dict[str, set[int]] = {}
for _rank, _detector in enumerate(DETECTORS):
    for _trigger in _detector.triggers:
        _RANKS_BY_TRIGGER.setdefault(_trigger, set()).add(_rank)
_ALL_TRIGGERS = tuple(_RANKS_BY_TRIGGER)
#: Characters prose rarely holds that many triggers hold ("ghp_", "sk-", "sig="): each
#: trigger holding one is looked for only when that character is in the text, so clean
#: prose skips most of them after one test per character.
_GATES = "_=:\"'\\-."


def _grouped(triggers: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    groups: dict[str, list[str]] = {}
    for trigger in triggers:
        gate = next((c for c in _GATES if c in trigger), "")
        groups.setdefault(gate, []).append(trigger)
    return tuple((gate, tuple(group)) for gate, group in groups.items())


_ALL_GROUPS = _grouped(_ALL_TRIGGERS)
_ASCII_GROUPS = _grouped(tuple(trigger for trigger in _ALL_TRIGGERS if trigger.isascii()))
_ALSO: dict[int, tuple[str, ...]] = {
    rank: getattr(d, "also", ()) for rank, d in enumerate(DETECTORS) if getattr(d, "also", ())
}
_MARKER = r"\[REDACTED(?::[a-z0-9-]+)?\]"
#: workmem's own retry tokens (a digest of a session end, not a credential): the daily
#: log's end marker and the fields of ``state.json`` that hold the same digest.
_OWN_TOKENS = (
    r"<!-- workmem:session-end token=[0-9a-f]{16} |\"(?:last_end_)?token\": \"[0-9a-f]{16}\""
)
_QUOTES = "\"'`"


def marker(kind: str) -> str:
    return f"[REDACTED:{kind}]"


def _present(text: str, among: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The triggers in ``text``, each looked for once whatever number of detectors share
    it; only ``among`` when given (a cell needs only the triggers its row holds), no
    Chinese, Japanese or Korean word in a text that has none of those characters, and
    no trigger whose gate character (``_GATES``) the text lacks."""
    lowered = text.lower()
    if among is not None:
        return tuple([trigger for trigger in among if trigger in lowered])
    found: list[str] = []
    for gate, triggers in _ASCII_GROUPS if lowered.isascii() else _ALL_GROUPS:
        if not gate or gate in lowered:
            found += [trigger for trigger in triggers if trigger in lowered]
    return tuple(found)


def _ranks(text: str, among: tuple[str, ...] | None = None) -> list[int]:
    """The detectors worth running on ``text``: one of their triggers is in it and all
    their ``also`` literals are too."""
    return _ranks_of(text, _present(text, among))


def _ranks_of(text: str, present: tuple[str, ...]) -> list[int]:
    ranks: set[int] = set()
    for trigger in present:
        ranks |= _RANKS_BY_TRIGGER[trigger]
    return sorted(r for r in ranks if all(part in text for part in _ALSO.get(r, ())))


def _candidates(text: str, ranks: list[int] | None = None) -> Iterator[tuple[int, int, int, str]]:
    """(rank, start, end, kind) of every span some detector claims."""
    for rank in _ranks(text) if ranks is None else ranks:
        detector = DETECTORS[rank]
        # Named detectors judge their own values; a generic format's value is judged here.
        generic = isinstance(detector, Pattern) and detector.generic
        for start, end in detector.spans(text):
            if generic:
                if end - start >= 2 and text[start] in _QUOTES and text[end - 1] == text[start]:
                    start, end = start + 1, end - 1
                if is_placeholder(text[start:end]):
                    continue
            yield rank, start, _escape_safe_end(text, start, end), detector.kind


def _escape_safe_end(text: str, start: int, end: int) -> int:
    """Never end a span on a lone backslash: it would unescape the quote after it (JSON)."""
    backslashes = len(text[start:end]) - len(text[start:end].rstrip("\\"))
    return end - 1 if backslashes % 2 else end


def find_secrets(text: str, ranks: list[int] | None = None) -> list[tuple[int, int, str]]:
    """Non-overlapping ``(start, end, kind)`` spans of the secrets in ``text``, in order.

    Overlapping claims become one span covering all of them, named by the most specific
    detector among them; claims over an earlier redaction are dropped. ``ranks``: the
    detectors to run, when the caller already asked ``_ranks``.
    """
    found = sorted(_candidates(text, ranks), key=lambda c: (c[1], c[0]))
    if not found:
        return []
    taken = sorted(_already_redacted(text))
    merged: list[tuple[int, int, str]] = []
    best = -1
    for rank, start, end, kind in found:
        if end <= start or _overlaps(taken, start, end):
            continue
        if merged and start < merged[-1][1]:
            first, last, named = merged[-1]
            if rank < best:
                named, best = kind, rank
            merged[-1] = (first, max(last, end), named)
        else:
            merged.append((start, end, kind))
            best = rank
    return merged


def _already_redacted(text: str) -> list[tuple[int, int]]:
    """Spans that must stay as they are: earlier redactions and workmem's own tokens."""
    spans = [m.span() for m in compiled(_MARKER).finditer(text)] if "[REDACTED" in text else []
    if "token" in text:
        spans.extend(m.span() for m in compiled(_OWN_TOKENS).finditer(text))
    return spans


def _overlaps(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    if not taken:
        return False
    index = bisect.bisect_left(taken, (end, -1)) - 1  # the last span starting before ``end``
    return index >= 0 and taken[index][1] > start


def _replace(text: str, spans: Iterable[tuple[int, int, str]], keep_lines: bool = False) -> str:
    parts = []
    position = 0
    for start, end, kind in spans:
        parts.append(text[position:start])
        parts.append(marker(kind))
        if keep_lines:  # a secret over several lines leaves as many line breaks
            parts.append("\n" * text.count("\n", start, end))
        position = end
    parts.append(text[position:])
    return "".join(parts)


def markers_in(text: str) -> int:
    """How many redactions ``text`` holds: what was removed from it, wherever on its way
    (free text is redacted before it is cut, so the last redaction may find nothing)."""
    return len(compiled(_MARKER).findall(text)) if "[REDACTED" in text else 0


def might_hold_secret(text: str) -> bool:
    """False when no detector could match: most texts stop here, after substring tests."""
    return bool(_ranks(text))


def redact_plain(
    text: str, ranks: list[int] | None = None, *, keep_lines: bool = False
) -> tuple[str, int]:
    """Redact ``text`` as one piece, ignoring table structure."""
    spans = find_secrets(text, ranks)
    return (_replace(text, spans, keep_lines), len(spans)) if spans else (text, 0)


def is_table_row(line: str) -> bool:
    return line.lstrip().startswith("|")


def _cell_borders(line: str) -> list[int]:
    """Positions of the unescaped ``|`` of a table row."""
    borders = []
    index = line.find("|")
    while index >= 0:
        backslashes = len(line[:index]) - len(line[:index].rstrip("\\"))
        if backslashes % 2 == 0:
            borders.append(index)
        index = line.find("|", index + 1)
    return borders


def redact_row(line: str) -> tuple[str, int]:
    """A table row with each cell redacted on its own; borders and padding kept."""
    present = _present(line)
    if not _ranks_of(line, present):
        return line, 0
    borders = _cell_borders(line)
    edges = [*borders, len(line)] if borders[-1] < len(line) - 1 else borders
    parts = [line[: edges[0] + 1]]
    count = 0
    for left, right in itertools.pairwise(edges):
        cell = line[left + 1 : right]
        content = cell.strip()
        ranks = _ranks(content, present) if content else None
        if ranks:
            clean, found = redact_plain(content, ranks)
            lead = cell[: len(cell) - len(cell.lstrip())]
            cell = lead + clean + cell[len(lead) + len(content) :]
            count += found
        parts.append(cell + line[right : right + 1])
    return "".join(parts), count


def redact(text: str, *, keep_lines: bool = False) -> tuple[str, int]:
    """``text`` with every recognised secret replaced, and how many were replaced.

    ``keep_lines``: a secret that spanned lines (a PEM key) leaves as many line breaks
    after its marker, so every later line keeps its number (the search index quotes a
    file's lines by number).
    """
    ranks = _ranks(text) if text else []
    if not ranks:
        return text, 0
    if "|" not in text:
        return redact_plain(text, ranks, keep_lines=keep_lines)
    out: list[str] = []
    block: list[str] = []
    total = 0

    def flush() -> None:
        nonlocal total
        if block:
            clean, found = redact_plain("\n".join(block), keep_lines=keep_lines)
            out.append(clean)
            total += found
            block.clear()

    for line in text.split("\n"):
        if is_table_row(line):
            flush()
            clean, found = redact_row(line)
            out.append(clean)
            total += found
        else:
            block.append(line)
    flush()
    return "\n".join(out), total


__all__ = [
    "DETECTORS",
    "find_secrets",
    "is_table_row",
    "marker",
    "markers_in",
    "might_hold_secret",
    "redact",
    "redact_plain",
    "redact_row",
]
