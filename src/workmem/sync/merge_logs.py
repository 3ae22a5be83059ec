"""Append-only logs merged by entry: daily logs and ``memory/archive.md``.

An entry is a heading and everything under it (``### Session 2 · 13:18 · agent`` in a
daily log, ``## Archived …`` in the archive). Both sides' entries are kept, an entry
exactly repeated is kept once, and the entries are interleaved by the time their heading
names, so the log still reads in time order. An entry one side edited by hand replaces the
version the other side left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..files.outline import FENCE_MARKS, Node, Outline, atx_heading, parse_outline
from .textmerge import Merged, merge_lines

_TIME = re.compile(r"\b([01]?\d|2[0-3]):([0-5]\d)\b")


def entry_level(*texts: str) -> int:
    """The level entries are written at: the highest heading below the title (default 3)."""
    levels: list[int] = []
    for text in texts:
        fence = False
        for line in text.split("\n"):
            if line.lstrip().startswith(FENCE_MARKS):
                fence = not fence
                continue
            found = None if fence else atx_heading(line)
            if found is not None and found[0] >= 2:
                levels.append(found[0])
    return min(levels) if levels else 3


def _text(node: Node) -> str:
    return "\n".join(line.rstrip() for line in node.lines()).strip()


def _time(node: Node) -> str | None:
    found = _TIME.search(node.title)
    return f"{int(found.group(1)):02d}:{found.group(2)}" if found else None


def _interleave(ours: list[Node], added: list[Node]) -> list[Node]:
    """Both lists in their own order, merged by heading time (untimed entries keep place)."""
    out: list[Node] = []
    i = j = 0
    while i < len(ours) and j < len(added):
        mine, theirs = _time(ours[i]), _time(added[j])
        if mine is not None and theirs is not None and theirs < mine:
            out.append(added[j])
            j += 1
        else:
            out.append(ours[i])
            i += 1
    return [*out, *ours[i:], *added[j:]]


def merge_entries(base: str, ours: str, theirs: str, path: str) -> Merged:
    level = entry_level(base, ours, theirs)

    def parse(text: str) -> Outline:
        return parse_outline(text, (level,))

    b, o, t = parse(base), parse(ours), parse(theirs)
    base_set = {_text(n) for n in b.nodes}
    ours_set = {_text(n) for n in o.nodes}
    theirs_set = {_text(n) for n in t.nodes}
    kept = [n for n in o.nodes if not (_text(n) in base_set and _text(n) not in theirs_set)]
    added = [n for n in t.nodes if _text(n) not in ours_set and _text(n) not in base_set]
    nodes = _unique(_interleave(kept, added))
    result = Outline(trailing_newline=True)
    result.preamble = merge_lines(b.preamble, o.preamble, t.preamble)
    _spaced(result.preamble if nodes else [])
    for node in nodes[:-1]:
        _spaced(_tail(node))
    if nodes:
        tail = _tail(nodes[-1])
        while tail and not tail[-1].strip():
            tail.pop()
    result.nodes = nodes
    text = result.render()
    return Merged(text if text.strip() else ours)


def _tail(node: Node) -> list[str]:
    return node.body


def _spaced(lines: list[str]) -> None:
    if lines and lines[-1].strip():
        lines.append("")


def _unique(nodes: Sequence[Node]) -> list[Node]:
    seen: set[str] = set()
    out = []
    for node in nodes:
        key = _text(node)
        if key in seen:
            continue
        seen.add(key)
        out.append(node)
    return out
