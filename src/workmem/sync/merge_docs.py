"""Markdown files merged by heading: snapshots, notes, threads, MEMORY.md, typed memories.

Each file is split with the same outline parser its writers use (``files.outline``), at
the heading levels its writers use: ``##`` sections of a snapshot or notes file, ``##``
threads holding ``###`` parts, ``##`` tiers of MEMORY.md holding ``###`` subsections.
Parts are matched by what identifies them to their readers (a thread's ID, a tier's
title), and each part's body is merged by item and paragraph (``textmerge.merge_blocks``):
the never-drop policy of ``session update``, applied between two machines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..errors import FormatError
from ..facts.frontmatter import Frontmatter, set_fields, split
from ..facts.memory_md import _heading as memory_heading
from ..facts.memory_md import norm_title
from ..files.outline import HeadingMatch, Node, Outline, atx_heading, parse_outline
from ..files.sections import is_placeholder_text, normalize_title
from ..files.tables import TableDocument
from ..journal.threads import Thread, part_of
from .merge_tables import merge_table
from .textmerge import Merged, merge_blocks, merge_lines, missing_lines, pick

NodeKey = Callable[[Node], str]
BodyMerge = Callable[[Node, list[str], list[str], list[str]], list[str]]

_TOUCHED = re.compile(r"^\s*\**\s*last touched\s*:", re.IGNORECASE)
_STATUS = re.compile(r"^\s*\**\s*status\s*:", re.IGNORECASE)
_FIELD_VALUE = ("Field", "Value")


def _lines_of(node: Node) -> list[str]:
    return node.lines()


def merge_nodes(
    base: Sequence[Node],
    ours: Sequence[Node],
    theirs: Sequence[Node],
    *,
    keys: Sequence[NodeKey],
    body: BodyMerge,
) -> list[Node]:
    """Nodes matched by ``keys[0]`` (their children by ``keys[1]``…), merged recursively.

    A node only one side has is kept, unless it is in the base unchanged (the other side
    removed it). Ours gives the order; nodes only theirs has follow.
    """
    key = keys[0]
    base_by = {key(n): n for n in base}
    theirs_by = {key(n): n for n in theirs}
    ours_keys = {key(n) for n in ours}
    merged: list[Node] = []
    for node in ours:
        other = theirs_by.get(key(node))
        was = base_by.get(key(node))
        if other is None:
            if was is None or _lines_of(was) != _lines_of(node):
                merged.append(node)
            continue
        if _lines_of(other) == _lines_of(node) or (
            was is not None and _lines_of(other) == _lines_of(was)
        ):
            merged.append(node)
            continue
        if was is not None and _lines_of(node) == _lines_of(was):
            merged.append(other)
            continue
        combined = Node(node.level, node.title, node.heading)
        combined.body = body(
            node, was.body if was is not None else [], list(node.body), list(other.body)
        )
        combined.children = merge_nodes(
            was.children if was is not None else [],
            node.children,
            other.children,
            keys=keys[1:] or keys,
            body=body,
        )
        merged.append(combined)
    for node in theirs:
        if key(node) in ours_keys:
            continue
        was = base_by.get(key(node))
        if was is None or _lines_of(was) != _lines_of(node):
            _end_with_blank(merged)
            merged.append(node)
    return merged


def _end_with_blank(nodes: list[Node]) -> None:
    """The node before an appended one ends with a blank line, so headings stay apart."""
    if not nodes:
        return
    last = nodes[-1]
    while last.children:
        last = last.children[-1]
    if (last.body and last.body[-1].strip()) or not last.body:
        last.body.append("")


def merge_outlines(
    base: str,
    ours: str,
    theirs: str,
    *,
    levels: Sequence[int],
    keys: Sequence[NodeKey],
    body: BodyMerge,
    heading: HeadingMatch = atx_heading,
    paired_fences: bool = False,
) -> str:
    def parse(text: str) -> Outline:
        return parse_outline(text, levels, heading=heading, paired_fences=paired_fences)

    b, o, t = parse(base), parse(ours), parse(theirs)
    result = Outline(trailing_newline=o.trailing_newline or t.trailing_newline)
    result.preamble = merge_lines(b.preamble, o.preamble, t.preamble)
    if o.preamble and t.nodes and not o.nodes and result.preamble[-1:] != [""]:
        result.preamble.append("")
    result.nodes = merge_nodes(b.nodes, o.nodes, t.nodes, keys=keys, body=body)
    return result.render()


def _section_key(node: Node) -> str:
    return normalize_title(node.title)


def _merge_metadata(base: list[str], ours: list[str], theirs: list[str]) -> list[str]:
    """The snapshot's Metadata table by field; a field both sides changed: the newer side's."""

    def table(lines: list[str]) -> TableDocument:
        return TableDocument.parse("\n".join(lines), expected_header=_FIELD_VALUE)

    b = table(base) if base else table(ours)
    o, t = table(ours), table(theirs)

    def updated(doc: TableDocument) -> str:
        return next((r.values[1] for r in doc.rows if r.key.casefold() == "updated at"), "")

    newer_is_theirs = (updated(t), t.render()) > (updated(o), o.render())
    newer = t if newer_is_theirs else o

    def combine(_base: list[str] | None, ours_row: list[str], theirs_row: list[str]) -> list[str]:
        return theirs_row if newer_is_theirs else ours_row

    merged = TableDocument.parse(merge_table(b, o, t, combine).text)
    if o.render() != b.render() and t.render() != b.render():
        # Status follows the newer side, as on the board (an organize's "stale" on one
        # machine does not win over work done later on another).
        wanted = {r.key.casefold(): r.values[1] for r in newer.rows}
        for row in merged.rows:
            if row.key.casefold() == "status" and "status" in wanted:
                merged.set_value(row, "Value", wanted["status"])
    return merged.render().split("\n")


def section_body(node: Node, base: list[str], ours: list[str], theirs: list[str]) -> list[str]:
    if normalize_title(node.title) == "metadata":
        try:
            return _merge_metadata(base, ours, theirs)
        except FormatError:
            pass  # a hand-broken Metadata table: merged as text below, nothing dropped
    return merge_blocks(base, ours, theirs)


def _table_row(line: str) -> bool:
    return line.startswith("|")


def merge_sections(base: str, ours: str, theirs: str, path: str) -> Merged:
    """A session snapshot, a notes file or the relay snapshot: section by section."""
    text = merge_outlines(base, ours, theirs, levels=(2,), keys=[_section_key], body=section_body)
    return _guarded(base, ours, theirs, text, path, ignore=_table_row)


def _thread_key(node: Node) -> str:
    return Thread(node.heading, node.title).id.casefold()


def _part_key(node: Node) -> str:
    return part_of(node.title) or normalize_title(node.title)


def _newest(lines: list[str], pattern: re.Pattern[str]) -> list[str]:
    """One line of a kind (``Last touched:``), the latest, where a merge put two."""
    found = [line for line in lines if pattern.match(line)]
    if len(found) < 2:
        return lines
    keep = max(found)
    seen = False
    out = []
    for line in lines:
        if pattern.match(line):
            if seen or line != keep:
                continue
            seen = True
        out.append(line)
    return out


def thread_body(node: Node, base: list[str], ours: list[str], theirs: list[str]) -> list[str]:
    if node.level == 2:  # a thread's head: status and last-touched lines, free text
        merged = merge_lines(base, ours, theirs)
        touched_ours = next((line for line in ours if _TOUCHED.match(line)), "")
        touched_theirs = next((line for line in theirs if _TOUCHED.match(line)), "")
        newer = theirs if touched_theirs > touched_ours else ours
        status = next((line for line in newer if _STATUS.match(line)), None)
        if status is not None:
            merged = [line for line in merged if not _STATUS.match(line) or line == status]
        return _newest(merged, _TOUCHED)
    return merge_blocks(base, ours, theirs)


def _thread_ignored(line: str) -> bool:
    return bool(_TOUCHED.match(line) or _STATUS.match(line))


def merge_threads(base: str, ours: str, theirs: str, path: str) -> Merged:
    text = merge_outlines(
        base, ours, theirs, levels=(2, 3), keys=[_thread_key, _part_key], body=thread_body
    )
    return _guarded(base, ours, theirs, text, path, ignore=_thread_ignored)


def _tier_key(node: Node) -> str:
    return norm_title(node.title)


def plain_body(node: Node, base: list[str], ours: list[str], theirs: list[str]) -> list[str]:
    return merge_blocks(base, ours, theirs)


def merge_memory_md(base: str, ours: str, theirs: str, path: str) -> Merged:
    text = merge_outlines(
        base,
        ours,
        theirs,
        levels=(2, 3),
        keys=[_tier_key],
        body=plain_body,
        heading=memory_heading,
        paired_fences=True,
    )
    return _guarded(base, ours, theirs, text, path)


def _front(text: str, path: str) -> Frontmatter | None:
    return split(text, path) if text.strip() else None


def merge_typed(base: str, ours: str, theirs: str, path: str) -> Merged:
    """A typed memory: frontmatter key by key (the newer ``updated`` wins), body by section."""
    fb, fo, ft = _front(base, path), _front(ours, path), _front(theirs, path)
    if fo is None or ft is None:
        if fo is not None or ft is not None:
            raise FormatError("one version has frontmatter and the other not", path=path)
        return merge_sections(base, ours, theirs, path)
    body = merge_outlines(
        fb.body if fb else "",
        fo.body,
        ft.body,
        levels=(2,),
        keys=[_section_key],
        body=plain_body,
    )
    raw, displaced = _merge_front(fb, fo, ft, path)
    if displaced:
        body = _with_history(body, displaced, str(ft.data.get("updated") or fo.data.get("updated")))
    text = fo.render(raw=raw, body=body)
    return _guarded(base, ours, theirs, text, path, ignore=_front_line)


def _with_history(body: str, displaced: list[tuple[str, str]], when: str) -> str:
    """A frontmatter value the merge could not keep in place (both sides set the key), kept
    in ``## History`` as typed memories keep every replaced text."""
    from ..files.freetext import neutralize_line

    lines = [f"- {key}: {neutralize_line(value)}" for key, value in displaced]
    entry = [
        f"### {when} — merged: the other side's {', '.join(k for k, _ in displaced)}",
        "",
        *lines,
    ]
    text = body.rstrip("\n")
    if not re.search(r"^## History\s*$", text, re.MULTILINE):
        text += "\n\n## History"
    return text + "\n\n" + "\n".join(entry) + "\n"


def _front_line(line: str) -> bool:
    return bool(re.match(r"^[A-Za-z_][\w.-]*\s*:", line)) or line.startswith("> Updated ")


#: Keys whose older value is not worth keeping when the newer side changed them.
_BOOKKEEPING = frozenset({"updated", "expires", "platform", "type"})


def _merge_front(
    fb: Frontmatter | None, fo: Frontmatter, ft: Frontmatter, path: str
) -> tuple[str, list[tuple[str, str]]]:
    """The merged frontmatter, and the (key, value) pairs of the side that lost a key both
    sides set (the newer ``updated`` wins), so the caller keeps them in History."""
    chosen, _ = pick(fb.raw if fb else None, fo.raw, ft.raw)
    if not (fo.raw != ft.raw and (fb is None or (fo.raw != fb.raw and ft.raw != fb.raw))):
        return str(chosen), []
    theirs_newer = str(ft.data.get("updated", "")) > str(fo.data.get("updated", ""))
    base_data = fb.data if fb else {}
    changes: dict[str, str] = {}
    displaced: list[tuple[str, str]] = []
    for key, value in ft.data.items():
        if isinstance(value, list | dict) or value is None:
            continue
        ours_value = fo.data.get(key)
        if value == ours_value:
            continue
        both = key in fo.data and ours_value != base_data.get(key)
        if both and not theirs_newer:
            if value != base_data.get(key) and key not in _BOOKKEEPING:
                displaced.append((key, ft.get_str(key) or ""))
            continue  # both changed it: ours is the newer side
        if both and key not in _BOOKKEEPING and str(ours_value or "").strip():
            displaced.append((key, fo.get_str(key) or ""))
        changes[key] = ft.get_str(key) or ""
    return (set_fields(fo.raw, changes, path) if changes else fo.raw), displaced


def _guarded(
    base: str,
    ours: str,
    theirs: str,
    text: str,
    path: str,
    *,
    ignore: Callable[[str], bool] = lambda line: False,
) -> Merged:
    def ignored(line: str) -> bool:
        # a template's placeholder ("None", the context hint) gives way to real content
        return ignore(line) or line.casefold() in ("none", "- none") or is_placeholder_text(line)

    lost = missing_lines(base, ours, theirs, text, ignore=ignored)
    if lost:
        raise LossError(f"the merge would lose {len(lost)} line(s), e.g. {lost[0][:80]!r}", path)
    return Merged(text)


class LossError(FormatError):
    """A merge result that lost a line neither side removed: both versions are kept instead."""

    def __init__(self, message: str, path: str):
        super().__init__(message, path=path)
