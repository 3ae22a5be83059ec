"""The three-way building blocks every file kind's merge is made of.

``pick`` decides one value, ``merge_lines`` free text around the structure (a preamble, the
text around a table), ``merge_blocks`` the body of one section by list item and paragraph:
what one side added is kept, what one side removed or changed while the other left it alone
follows that side, and what both sides changed differently is kept twice rather than
guessed. Without a common ancestor (a cloud conflict copy) the base is empty, so nothing
counts as removed and the result is the union of both.

``missing_lines`` is the loss guard: every line either side holds must be in the result,
unless the other side deliberately removed it. A merge that fails it is not written as such.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..files.sections import Block, is_placeholder_text, item_key, parse_blocks, strip_marker

_SPACE = re.compile(r"\s+")


@dataclass
class Merged:
    """A merge's result: the text, whether it decided everything, and what it noticed."""

    text: str
    clean: bool = True
    notes: list[str] = field(default_factory=list)
    #: IDs the merge renamed to keep both things issued under them (old -> new)
    renamed: dict[str, str] = field(default_factory=dict)


def pick(base: object, ours: object, theirs: object) -> tuple[object, bool]:
    """The three-way choice for one value; ``(ours, True)`` when both changed differently."""
    if ours == theirs or theirs == base:
        return ours, False
    if ours == base:
        return theirs, False
    return ours, True


def norm(line: str) -> str:
    return _SPACE.sub(" ", line).strip()


def merge_lines(base: Sequence[str], ours: Sequence[str], theirs: Sequence[str]) -> list[str]:
    """Free lines: one side's change is taken; changes on both sides are both kept."""
    if list(ours) == list(theirs) or list(theirs) == list(base):
        return list(ours)
    if list(ours) == list(base):
        return list(theirs)
    base_set = {norm(line) for line in base if line.strip()}
    theirs_set = {norm(line) for line in theirs if line.strip()}
    ours_set = {norm(line) for line in ours if line.strip()}
    kept = [
        line
        for line in ours
        if not line.strip() or norm(line) not in base_set or norm(line) in theirs_set
    ]
    added = [
        line
        for line in theirs
        if line.strip() and norm(line) not in ours_set and norm(line) not in base_set
    ]
    return _collapse_blanks(kept + added)


def _collapse_blanks(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if not line.strip() and out and not out[-1].strip():
            continue
        out.append(line)
    return out


def _key(block: Block) -> str:
    if block.is_item:
        return "item:" + item_key(block.text)
    return "text:" + norm(block.text).casefold()


def _exact(block: Block) -> str:
    return "\n".join(line.rstrip() for line in block.lines).strip()


def merge_blocks(
    base: Sequence[str],
    ours: Sequence[str],
    theirs: Sequence[str],
    *,
    placeholder: Callable[[str], bool] = is_placeholder_text,
) -> list[str]:
    """The lines of one section body merged item by item and paragraph by paragraph.

    Ours gives the order; what only theirs has is appended. An item both sides marked
    differently (``[done] X`` and ``[superseded] X``) keeps our mark, unless only theirs
    marked it. A placeholder (``None``) gives way as soon as the section has real content.
    """
    if list(ours) == list(theirs) or list(theirs) == list(base):
        return list(ours)
    if list(ours) == list(base):
        return list(theirs)
    base_exact = {_key(b): _exact(b) for b in parse_blocks(base) if b.text}
    ours_blocks = parse_blocks(ours)
    theirs_blocks = parse_blocks(theirs)
    ours_keys = {_key(b) for b in ours_blocks if b.text}
    theirs_by_key = {_key(b): b for b in theirs_blocks if b.text}
    result: list[Block] = []
    for block in ours_blocks:
        if not block.text:
            result.append(block)
            continue
        key = _key(block)
        other = theirs_by_key.get(key)
        if other is None:
            if base_exact.get(key) == _exact(block):
                continue  # theirs removed it (a release, a move) and ours left it alone
            result.append(block)
            continue
        result.append(_choose(block, other, base_exact.get(key)))
    added = [
        block
        for block in theirs_blocks
        if block.text
        and _key(block) not in ours_keys
        and base_exact.get(_key(block)) != _exact(block)
    ]
    lines = _append_blocks(result, added)
    if any(line.strip() and not placeholder(line) for line in lines):
        lines = [line for line in lines if not (line.strip() and placeholder(line))]
    lines = _collapse_blanks(lines)
    if ours and not ours[0].strip() and (not lines or lines[0].strip()):
        lines.insert(0, "")
    if ours and not ours[-1].strip() and (not lines or lines[-1].strip()):
        lines.append("")
    return lines


def _choose(ours: Block, theirs: Block, base: str | None) -> Block:
    if _exact(ours) == _exact(theirs) or _exact(theirs) == base:
        return ours
    if _exact(ours) == base:
        return theirs
    ours_mark = strip_marker(ours.text)[0] if ours.is_item else None
    theirs_mark = strip_marker(theirs.text)[0] if theirs.is_item else None
    return theirs if theirs_mark and not ours_mark else ours


def _append_blocks(result: list[Block], added: list[Block]) -> list[str]:
    lines = [line for block in result for line in block.lines]
    if not added:
        return lines
    trailing = 0
    while lines and not lines[-1].strip():
        lines.pop()
        trailing += 1
    filled = [b for b in result if b.text]
    previous_is_item = bool(filled) and filled[-1].is_item
    for block in added:
        body = [line for line in block.lines]
        while body and not body[-1].strip():
            body.pop()
        if lines and not (block.is_item and previous_is_item):
            lines.append("")
        lines.extend(body)
        previous_is_item = block.is_item
    lines.extend([""] * min(trailing, 1))
    return lines


def _line_set(text: str, ignore: Callable[[str], bool]) -> set[str]:
    return {n for line in text.split("\n") if (n := norm(line)) and not ignore(n)}


def missing_lines(
    base: str,
    ours: str,
    theirs: str,
    result: str,
    *,
    ignore: Callable[[str], bool] = lambda line: False,
) -> list[str]:
    """Lines of ours or theirs that the result lost without the other side removing them."""
    base_set = _line_set(base, ignore)
    ours_set = _line_set(ours, ignore)
    theirs_set = _line_set(theirs, ignore)
    removed = (base_set - ours_set) | (base_set - theirs_set)
    needed = (ours_set | theirs_set) - removed
    return sorted(needed - _line_set(result, ignore))


def placeholder_line(line: str) -> bool:
    """``None``, ``- None``, ``無``: a template's "nothing yet", which gives way to content."""
    return is_placeholder_text(line)


def first_of(values: Iterable[str | None]) -> str | None:
    return next((v for v in values if v), None)
