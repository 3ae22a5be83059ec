"""A markdown text split at its headings into nested parts, and put back byte for byte.

The session snapshot (``##`` sections), MEMORY.md (``##`` tiers holding ``###``
subsections) and threads.md (``##`` threads holding ``###`` parts) are all edited by
people and by us, part by part. They share one rule set here so they cannot drift apart:
lines split on ``\\n`` with the final newline remembered, headings inside fenced code are
text, a heading of a level the caller did not ask for is text, a nested heading before
any parent is text, and every line lands in exactly one place, so
``parse_outline(text).render() == text`` for any text.

What a heading is and how fences close differ by file and are kept as they were, as
arguments: ``heading`` decides what counts as a heading, ``paired_fences`` closes a fence
only on its own marker (MEMORY.md) instead of on any fence line.

The classes are plain (slots, no dataclass): building a dataclass at import costs a few
tenths of a millisecond, and the session-start hook loads this module when it reads
MEMORY.md and threads.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

HeadingMatch = Callable[[str], tuple[int, str] | None]

FENCE_MARKS = ("```", "~~~")
_ATX = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>.+?)\s*#*\s*$")


def atx_heading(line: str) -> tuple[int, str] | None:
    """``## Title ##`` as ``(2, "Title")``; a bare ``##`` or ``##Title`` is not a heading."""
    match = _ATX.match(line)
    if match is None:
        return None
    return len(match.group("hashes")), match.group("title")


def split_lines(text: str) -> tuple[list[str], bool]:
    """The lines of ``text`` and whether it ended with a newline (not kept as a line)."""
    lines = text.split("\n")
    trailing = text.endswith("\n")
    if trailing:
        lines.pop()
    return lines, trailing


def join_lines(lines: Sequence[str], trailing_newline: bool) -> str:
    """The inverse of ``split_lines``."""
    text = "\n".join(lines)
    return text + "\n" if trailing_newline else text


class Node:
    """A heading line, the lines under it, then the nodes one level deeper."""

    __slots__ = ("body", "children", "heading", "level", "title")

    def __init__(self, level: int, title: str, heading: str) -> None:
        self.level = level
        self.title = title
        self.heading = heading
        self.body: list[str] = []
        self.children: list[Node] = []

    def lines(self) -> list[str]:
        out = [self.heading, *self.body]
        for child in self.children:
            out.extend(child.lines())
        return out


class Outline:
    """The lines before the first heading, then the top-level nodes."""

    __slots__ = ("nodes", "preamble", "trailing_newline")

    def __init__(self, *, trailing_newline: bool = True) -> None:
        self.preamble: list[str] = []
        self.nodes: list[Node] = []
        self.trailing_newline = trailing_newline

    def lines(self) -> list[str]:
        out = list(self.preamble)
        for node in self.nodes:
            out.extend(node.lines())
        return out

    def render(self) -> str:
        return join_lines(self.lines(), self.trailing_newline)


def parse_outline(
    text: str,
    levels: Sequence[int] = (2,),
    *,
    heading: HeadingMatch = atx_heading,
    paired_fences: bool = False,
) -> Outline:
    """Split ``text`` at headings of ``levels``: the first is the top, each next one nests.

    ``levels=(2, 3)`` makes ``##`` headings top nodes and ``###`` headings their children;
    a ``###`` before any ``##`` stays text of the preamble.
    """
    lines, trailing = split_lines(text)
    outline = Outline(trailing_newline=trailing)
    depth_of = {level: depth for depth, level in enumerate(levels)}
    open_nodes: list[Node] = []  # the node currently open at each depth
    target = outline.preamble
    fence: str | None = None
    for line in lines:
        stripped = line.lstrip()
        if fence is not None:
            if stripped.startswith(fence if paired_fences else FENCE_MARKS):
                fence = None
            target.append(line)
            continue
        if stripped.startswith(FENCE_MARKS):
            fence = stripped[:3]
            target.append(line)
            continue
        found = heading(line)
        depth = depth_of.get(found[0]) if found is not None else None
        if found is None or depth is None or depth > len(open_nodes):
            target.append(line)
            continue
        node = Node(found[0], found[1], line)
        if depth == 0:
            outline.nodes.append(node)
        else:
            open_nodes[depth - 1].children.append(node)
        del open_nodes[depth:]
        open_nodes.append(node)
        target = node.body
    return outline
