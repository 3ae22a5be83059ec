"""Markdown documents as ``##`` sections, merged without ever losing an item.

This is the Snapshot Merge Policy of seed 001 as code: a snapshot is integrated, not
overwritten. New list items are appended; an item that comes back with a status marker
(``[done] Write tests``) updates the matching item in place; prose is appended when it
is new; template placeholders give way to real content; sections we do not know are kept
as they are. ``check_preserved`` is the verification step: every item of the old document
must still be there, marked or not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..i18n import placeholders
from .outline import join_lines, parse_outline

STATUS_MARKERS = ("superseded", "resolved", "done")
_BULLET = re.compile(r"^(?P<indent> {0,3})(?P<mark>[-*+]|\d+[.)])\s+(?P<text>.*)$")
_MARKER = re.compile(r"^\[(?P<marker>[A-Za-z]+)(?P<note>[^\]]*)\]\s*(?P<rest>.*)$")
_SPACE = re.compile(r"\s+")
#: "nothing yet" in a template, in every language workmem writes (``None``, ``無``, ``없음`` …)
_PLACEHOLDERS = {"`none`", "n/a", "-", *placeholders.NONE_WORDS}


def normalize_title(title: str) -> str:
    return _SPACE.sub(" ", title).strip().casefold()


def item_key(text: str) -> str:
    """Identity of an item for matching: its text without status marker, case or spacing."""
    core = strip_marker(text)[1]
    core = core.strip().rstrip(".。").strip().strip("`").strip()
    return _SPACE.sub(" ", core).casefold()


def strip_marker(text: str) -> tuple[str | None, str]:
    """Split ``[done] text`` into ``("done", "text")``; unmarked items give ``(None, text)``."""
    match = _MARKER.match(text.strip())
    if match and match.group("marker").casefold() in STATUS_MARKERS:
        return match.group("marker").casefold(), match.group("rest")
    return None, text.strip()


@dataclass
class Block:
    """A list item with its continuation lines, or a run of other text."""

    lines: list[str]
    is_item: bool

    @property
    def text(self) -> str:
        if not self.is_item:
            return "\n".join(self.lines).strip()
        match = _BULLET.match(self.lines[0])
        return match.group("text").strip() if match else self.lines[0].strip()


def parse_blocks(body: Sequence[str]) -> list[Block]:
    blocks: list[Block] = []
    for line in body:
        if _BULLET.match(line):
            blocks.append(Block([line], is_item=True))
        elif blocks and blocks[-1].is_item and line.strip() and line[:1] in (" ", "\t"):
            blocks[-1].lines.append(line)
        elif not line.strip():
            if blocks and not blocks[-1].is_item:
                blocks[-1].lines.append(line)
            else:
                blocks.append(Block([line], is_item=False))
        elif blocks and not blocks[-1].is_item and blocks[-1].lines[-1].strip():
            blocks[-1].lines.append(line)
        else:
            blocks.append(Block([line], is_item=False))
    return blocks


@dataclass
class Section:
    title: str
    heading: str
    body: list[str] = field(default_factory=list)

    def blocks(self) -> list[Block]:
        return parse_blocks(self.body)

    def items(self) -> list[str]:
        return [b.text for b in self.blocks() if b.is_item]

    def content(self) -> str:
        return "\n".join(self.body).strip()


@dataclass
class Document:
    preamble: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    trailing_newline: bool = True

    @classmethod
    def parse(cls, text: str, *, path: str | None = None) -> Document:
        """The sections of ``text``. Given the ``path`` of the file it was read from, a file
        a merge left conflict markers in raises ``UnfinishedMergeError`` (text that is not
        a file yet, such as a fragment an agent sends, is only parsed)."""
        if path is not None:
            from .markers import check_unfinished

            check_unfinished(text, path)
        outline = parse_outline(text)
        sections = [Section(node.title, node.heading, node.body) for node in outline.nodes]
        return cls(outline.preamble, sections, outline.trailing_newline)

    def render(self) -> str:
        lines = list(self.preamble)
        for section in self.sections:
            lines.append(section.heading)
            lines.extend(section.body)
        return join_lines(lines, self.trailing_newline)

    def get(self, title: str) -> Section | None:
        wanted = normalize_title(title)
        for section in self.sections:
            if normalize_title(section.title) == wanted:
                return section
        return None

    def ensure(self, title: str, *, placeholder: str = "None") -> Section:
        """The section named ``title``, appended at the end when missing."""
        found = self.get(title)
        if found is not None:
            return found
        if self.sections and self.sections[-1].body and self.sections[-1].body[-1].strip():
            self.sections[-1].body.append("")
        elif not self.sections and self.preamble and self.preamble[-1].strip():
            self.preamble.append("")
        section = Section(title, f"## {title}", ["", placeholder, ""])
        self.sections.append(section)
        return section


def is_placeholder_text(text: str) -> bool:
    """True for a template's stand-in for "nothing yet" (``None``, ``- None``, ``無``,
    ``なし``, the snapshot's Current Context hint), in any language."""
    stripped = text.strip()
    bullet = _BULLET.match(stripped)
    body = bullet.group("text") if bullet else stripped
    return item_key(body) in _PLACEHOLDERS or placeholders.is_context_hint(body)


def is_placeholder(section: Section, hints: Iterable[str] = ()) -> bool:
    """True when a section holds only ``None`` or a template hint, i.e. no real content."""
    hint_keys = {item_key(h.lstrip("-* ")) for h in hints}
    for block in section.blocks():
        text = block.text
        if not text:
            continue
        key = item_key(text)
        if key in _PLACEHOLDERS or key in hint_keys:
            continue
        return False
    return True


def _set_body(section: Section, content_lines: list[str]) -> None:
    section.body = ["", *content_lines, ""]


def _matches(existing_key: str, new_key: str) -> bool:
    if existing_key == new_key:
        return True
    # "[superseded] Use SQLite: replaced by Postgres" marks "Use SQLite".
    return (
        bool(existing_key)
        and new_key.startswith(existing_key)
        and (len(new_key) > len(existing_key) and not new_key[len(existing_key)].isalnum())
    )


def merge_items(section: Section, new_items: Iterable[str], hints: Iterable[str] = ()) -> list[str]:
    """Merge list items into a section by the merge policy; never removes an item.

    Returns the items whose status marker changed an existing item, so the caller can
    record them (the snapshot lists them again under Superseded / Resolved).
    """
    marked: list[str] = []
    hints = list(hints)
    if is_placeholder(section, hints):
        _set_body(section, [])
    blocks = section.blocks()
    # Trim trailing blank text so appended items join the list.
    while blocks and not blocks[-1].is_item and not blocks[-1].text:
        blocks.pop()
    for raw in new_items:
        text = raw.strip()
        if text.startswith(("- ", "* ")):
            text = text[2:].strip()
        if not text or item_key(text) in _PLACEHOLDERS:
            continue
        marker, _ = strip_marker(text)
        key = item_key(text)
        # Unmarked items must match exactly; a marked one may carry a note after the text.
        target = None
        for block in blocks:
            if not block.is_item:
                continue
            existing = item_key(block.text)
            if existing == key or (marker is not None and _matches(existing, key)):
                target = block
                break
        if target is None:
            blocks.append(Block([f"- {text}"], is_item=True))
            continue
        old_marker, _ = strip_marker(target.text)
        if marker is not None and (marker != old_marker or item_key(target.text) != key):
            indent = _BULLET.match(target.lines[0])
            prefix = indent.group("indent") if indent else ""
            target.lines[0] = f"{prefix}- {text}"
            marked.append(text)
    lines = [line for block in blocks for line in block.lines]
    while lines and not lines[0].strip():
        lines.pop(0)
    _set_body(section, lines if lines else ["None"])
    return marked


def merge_prose(section: Section, text: str, hints: Iterable[str] = ()) -> None:
    """Add a paragraph to a prose section unless the section already says it."""
    addition = text.strip()
    if not addition:
        return
    if is_placeholder(section, hints):
        _set_body(section, addition.split("\n"))
        return
    existing = _SPACE.sub(" ", section.content()).casefold()
    if _SPACE.sub(" ", addition).casefold() in existing:
        return
    lines = section.content().split("\n")
    _set_body(section, [*lines, "", *addition.split("\n")])


def check_preserved(
    old: Document, new: Document, hints: Iterable[str] = (), skip: Iterable[str] = ()
) -> list[str]:
    """What the old document held that the new one lost; empty when nothing was lost.

    An item counts as kept when its text (marker aside) still appears as an item of the
    same section or of any section (it may have moved to Superseded / Resolved).
    """
    hint_keys = {item_key(h.lstrip("-* ")) for h in hints}
    skipped = {normalize_title(title) for title in skip}
    new_items: dict[str, set[str]] = {}
    everywhere: set[str] = set()
    for section in new.sections:
        keys = {item_key(i) for i in section.items()}
        new_items[normalize_title(section.title)] = keys
        everywhere |= keys
    new_text = _SPACE.sub(" ", new.render()).casefold()
    lost: list[str] = []
    for section in old.sections:
        if normalize_title(section.title) in skipped:
            continue
        if new.get(section.title) is None:
            lost.append(f"section '{section.title}'")
            continue
        for block in section.blocks():
            key = item_key(block.text)
            if not key or key in _PLACEHOLDERS or key in hint_keys:
                continue
            if block.is_item:
                kept = key in new_items.get(normalize_title(section.title), set())
                if not kept and not any(_matches(key, k) for k in everywhere):
                    lost.append(f"'{block.text}' in {section.title}")
            elif _SPACE.sub(" ", block.text).casefold() not in new_text:
                lost.append(f"text '{block.text[:60]}' in {section.title}")
    return lost
