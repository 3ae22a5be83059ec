"""How a relay save meets the snapshot on file: merged or carried over, then cut to size.

The seed overwrites the snapshot at each save ("only the latest snapshot matters"), but an
overwrite must not lose what only the file holds. So:

- warm zone (``merge_into``): the new save's items are merged into the old ones; a file's
  new entry replaces the entry of the same path; a step now completed leaves Pending;
- full save (``carry_over``): the new text, with the agent's decisions, preferences and
  gotchas it did not restate carried over (marked). Within one session (the same
  transcript) Completed and Working Files are the session's lists, so the old items stay,
  in their order, and the agent's In Progress words stay when the save has none of its
  own. Whatever else the new text no longer lists is reported, item by item;
- then ``fit`` cuts the document as written to the 2,000-word target: Completed first (the
  daily log keeps it), the oldest items first, so the newest progress stays; then the
  oldest gotchas and files, the lowest-priority pending steps. Every item cut is reported.

``unaccounted`` is the check before writing: each item the old file held is in the new
one, or in the report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..files.sections import Block, Document, Section, is_placeholder, item_key, merge_items
from .template import clip_words, count_words, section_key

MAX_WORDS = 2000
MIN_WORDS = 500
_NONE = "None"
#: sections whose items only the agent gives: a full save that does not restate them
#: carries them over instead of dropping them
CARRIED = ("decisions", "preferences", "gotchas")
CARRIED_MARK = "(carried over)"
#: the lists of one session: carried unmarked within the session that wrote them
SESSION_LISTS = ("completed", "files")
LISTS = ("completed", "pending", "decisions", "files", "preferences", "gotchas")
#: what ``fit`` cuts, in order, and from which end (the oldest first; Pending is in
#: priority order, so its last steps go first)
CUTS: tuple[tuple[str, bool], ...] = (
    ("completed", True),
    ("gotchas", True),
    ("files", True),
    ("pending", False),
)
_KEEP_AT_LEAST = 5
#: Completed items a save writes whole again each time (the last commands of a finished
#: plan): one item, the newest text in the place of the old
ROLLING = ("Commands run:",)
_PATH = re.compile(r"^`([^`]+)`")
LABELS = {
    "in_progress": "In Progress",
    "completed": "Completed",
    "pending": "Pending",
    "decisions": "Decisions",
    "files": "Working Files",
    "preferences": "Preferences",
    "gotchas": "Gotchas",
}


@dataclass(frozen=True)
class Drop:
    """An item the new snapshot does not hold, and why."""

    section: str  # a template key, or "section" for a whole section the template lacks
    text: str
    cut: bool = False  # cut for size (True), or no longer listed by the new save


def key_of(item: str, section: str | None = None) -> str:
    """An item's identity: a file entry's path, else its text (marker and carry mark
    aside)."""
    text = item.replace(CARRIED_MARK, "").strip()
    rolling = next((p for p in ROLLING if text.startswith(p)), None)
    if rolling is not None:
        return rolling.casefold()
    if section in (None, "files"):
        path = _PATH.match(text)
        if path:
            return f"`{path.group(1)}`"
    return item_key(text.split("\n")[0])


def find_section(doc: Document, key: str) -> Section | None:
    return next((s for s in doc.sections if section_key(s.title) == key), None)


def list_items(section: Section) -> list[Block]:
    if is_placeholder(section, [_NONE]):
        return []
    return [b for b in section.blocks() if b.is_item]


def _prose(section: Section) -> list[str]:
    """The agent's own lines of a section (not the items a save derived from the transcript)."""
    return [b.text for b in section.blocks() if not b.is_item and b.text and b.text != _NONE]


def _set_items(section: Section, blocks: list[Block]) -> None:
    lines = [line for block in blocks for line in block.lines]
    section.body = ["", *(lines or [_NONE]), ""]


def _union(old: list[Block], new: list[Block], key: str) -> list[Block]:
    """The old items in their order, each replaced by the new item of the same identity,
    then the new items the old did not have."""
    fresh = {key_of(b.text, key): b for b in new}
    merged = [fresh.pop(key_of(b.text, key), b) for b in old]
    return merged + [b for b in new if key_of(b.text, key) in fresh]


def _without_done(doc: Document) -> None:
    """A pending step that Completed now lists is done, not pending (no contradiction)."""
    completed, pending = find_section(doc, "completed"), find_section(doc, "pending")
    if completed is None or pending is None:
        return
    done = {key_of(b.text, "completed") for b in list_items(completed)}
    steps = list_items(pending)
    left = [b for b in steps if key_of(b.text, "pending") not in done]
    if len(left) != len(steps):
        _set_items(pending, left)


def merge_into(existing: str, fresh: str) -> tuple[str, list[Drop]]:
    """Warm-zone incremental save: keep what was there, add what is new.

    In Progress takes the new derived lines (plan step, last request, commands) but keeps
    the agent's own words when the new save does not say anything of its own (new words
    of the agent replace the old, which are reported); a section the new save has nothing
    for is left as it was (never a ``None`` after real items).
    """
    old = Document.parse(existing)
    new = Document.parse(fresh)
    old.preamble = new.preamble
    dropped: list[Drop] = []
    for section in new.sections:
        key = section_key(section.title)
        target = next((s for s in old.sections if section_key(s.title) == key), None)
        if target is None or key is None:
            old.sections.append(section)
        elif is_placeholder(section, [_NONE]):
            continue
        elif key == "in_progress":
            said = _prose(section)
            if said:
                dropped += [Drop(key, p) for p in _prose(target) if p not in said]
            _merge_in_progress(target, None if said else target, section)
        elif key in LISTS:
            _set_items(target, _union(list_items(target), list_items(section), key))
        else:
            merge_items(target, section.items(), hints=[_NONE])
    _without_done(old)
    return old.render(), dropped


def _merge_in_progress(target: Section, words_from: Section | None, fresh: Section) -> None:
    """In Progress as the new save wrote it, after the agent's words of ``words_from``."""
    kept = _prose(words_from) if words_from is not None else []
    target.body = [
        "",
        *(p for text in kept for p in (*text.split("\n"), "")),
        *fresh.content().split("\n"),
        "",
    ]


def carry_over(existing: str, fresh: str, *, same_session: bool) -> tuple[str, list[Drop]]:
    """A full save's text with what it must not lose carried over (see the module doc),
    and what of the rest it no longer lists."""
    old = Document.parse(existing)
    new = Document.parse(fresh)
    dropped: list[Drop] = []
    listed = _keys(new)
    for section in old.sections:
        key = section_key(section.title)
        target = find_section(new, key) if key is not None else None
        if key is None or target is None:
            if section.content() and not is_placeholder(section, [_NONE]):
                dropped.append(Drop("section", section.title))
            continue
        if key == "in_progress":
            prose = _prose(section)
            if prose and _prose(target):
                dropped += [Drop(key, p) for p in prose if p not in _prose(target)]
            elif prose and same_session:
                _merge_in_progress(target, section, target)
            else:
                dropped += [Drop(key, p) for p in prose]
            continue
        have = {key_of(b.text, key) for b in list_items(target)}
        missing = [b for b in list_items(section) if key_of(b.text, key) not in have]
        if key in CARRIED and missing:
            marked = [
                b.text if CARRIED_MARK in b.text else f"{b.text} {CARRIED_MARK}" for b in missing
            ]
            merge_items(target, marked, hints=[_NONE])
        elif key in SESSION_LISTS and same_session and missing:
            # The session's list, in its order; an item the new save lists elsewhere
            # (a completed step reopened) follows the new save.
            old_part = [
                b
                for b in list_items(section)
                if key_of(b.text, key) in have or key_of(b.text, key) not in listed
            ]
            _set_items(target, _union(old_part, list_items(target), key))
        else:
            dropped += [Drop(key, b.text) for b in missing if key_of(b.text, key) not in listed]
    _without_done(new)
    return new.render(), dropped


def _keys(doc: Document) -> set[str]:
    """Every item's identity, in every list of the document."""
    return {
        key_of(b.text, key)
        for s in doc.sections
        if (key := section_key(s.title)) in LISTS
        for b in list_items(s)
    }


def fit(text: str) -> tuple[str, list[Drop]]:
    """The document within ``MAX_WORDS``, cut as the module doc says; what was cut."""
    if count_words(text) <= MAX_WORDS:
        return text, []
    doc = Document.parse(text)
    cut: list[Drop] = []
    for key, oldest_first in CUTS:
        section = find_section(doc, key)
        if section is None:
            continue
        items = list_items(section)
        floor = 0 if key == "completed" else _KEEP_AT_LEAST
        while len(items) > floor and count_words(doc.render()) > MAX_WORDS:
            gone = items.pop(0 if oldest_first else -1)
            cut.append(Drop(key, gone.text, cut=True))
            _set_items(section, _renumbered(items) if key == "pending" else items)
        if count_words(doc.render()) <= MAX_WORDS:
            break
    return doc.render(), cut


def _renumbered(items: list[Block]) -> list[Block]:
    """Pending steps numbered 1, 2, … again after a cut."""
    out = []
    for n, block in enumerate(items, 1):
        first = re.sub(r"^(\s*)\d+[.)]", rf"\g<1>{n}.", block.lines[0], count=1)
        out.append(Block([first, *block.lines[1:]], is_item=True))
    return out


def size_notes(words: int) -> list[str]:
    if words > MAX_WORDS:
        return [f"snapshot is {words:,} words, over the {MAX_WORDS:,}-word target"]
    if words < MIN_WORDS:
        return [f"snapshot is {words:,} words, under the {MIN_WORDS}-word target"]
    return []


def drop_notes(drops: list[Drop]) -> list[str]:
    """One line per section and reason, naming every item."""
    notes: list[str] = []
    groups: dict[tuple[str, bool], list[str]] = {}
    for drop in drops:
        groups.setdefault((drop.section, drop.cut), []).append(drop.text)
    for (section, was_cut), texts in groups.items():
        names = "; ".join(clip_words(t, 100) for t in texts)
        label = LABELS.get(section, "section")
        if was_cut:
            kept = " (the daily log keeps them)" if section == "completed" else ""
            notes.append(
                f"cut {len(texts)} {label} item(s), the oldest first, to stay under "
                f"{MAX_WORDS:,} words{kept}: {names}"
            )
        elif section == "section":
            notes.append(f"no longer in the snapshot: section(s) {names}")
        else:
            notes.append(f"no longer listed under {label}: {names}")
    return notes


def unaccounted(existing: str, written: str, drops: list[Drop]) -> list[str]:
    """Items of the old snapshot that are neither in the new one nor reported."""
    old, new = Document.parse(existing), Document.parse(written)
    here = _keys(new)
    text = " ".join(new.render().split()).casefold()
    told = {(d.section, key_of(d.text, d.section)) for d in drops}
    told_text = {" ".join(d.text.split()).casefold() for d in drops}
    missing: list[str] = []
    for section in old.sections:
        key = section_key(section.title)
        if key == "in_progress":
            for prose in _prose(section):
                flat = " ".join(prose.split()).casefold()
                if flat not in text and flat not in told_text:
                    missing.append(f"In Progress: {prose[:60]}")
        elif key in LISTS:
            for block in list_items(section):
                if (
                    key_of(block.text, key) not in here
                    and (key, key_of(block.text, key)) not in told
                ):
                    missing.append(f"{LABELS[key]}: {block.text[:60]}")
    return missing
