"""Session snapshots ``memory/sessions/<id>.md``: the seed-001 template and its merge policy.

A snapshot is an integrated working summary. Creating one fills the template; updating one
re-reads the file and merges: list sections by item (``files.sections.merge_items``),
prose by paragraph, the Metadata table by field. ``SnapshotChange.apply`` refuses to
return a document that lost anything the old one held.

Every text a change brings is free text: ``apply`` neutralises it (``files.freetext``) so
that "## Continues From" inside a context paragraph stays a line of that paragraph and never
becomes a section, a reference or a fence.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..errors import FormatError, UsageError
from ..files.freetext import neutralize_block, neutralize_line
from ..files.sections import (
    Document,
    Section,
    check_preserved,
    is_placeholder,
    merge_items,
    normalize_title,
)
from ..files.tables import TableDocument, format_row
from ..i18n import placeholders
from .restate import context_lost, merge_context, refine_items, superseded_items

METADATA = "Metadata"
CURRENT_CONTEXT = "Current Context"
DECISIONS = "Decisions"
FILES = "Files / Artifacts"
OPEN_QUESTIONS = "Open Questions"
NEXT_ACTIONS = "Next Actions"
CONTINUES_FROM = "Continues From"
SUPERSEDED = "Superseded / Resolved"

#: The template's sections in order, with the hint text the template puts in each.
TEMPLATE_HINTS: dict[str, str] = {
    CURRENT_CONTEXT: placeholders.CONTEXT_HINT["en"],
    DECISIONS: "- List decisions already made.",
    FILES: "- List files, folders, hooks, skills, or wiki pages created or changed.",
    OPEN_QUESTIONS: "- List unresolved questions, or write `None`.",
    NEXT_ACTIONS: "- List likely next steps, or write `None`.",
    CONTINUES_FROM: (
        "- List source Memory Session IDs this session continues from, or write `None`."
    ),
    SUPERSEDED: (
        "- List replaced decisions, resolved questions, or completed/abandoned actions, "
        "or write `None`."
    ),
}
PROSE_SECTIONS = frozenset({normalize_title(CURRENT_CONTEXT)})
METADATA_FIELDS = ("Session ID", "Agent Name", "Topic", "Status", "Started At", "Updated At")
SECTION_ALIASES = {
    "context": CURRENT_CONTEXT,
    "decisions": DECISIONS,
    "files": FILES,
    "artifacts": FILES,
    "questions": OPEN_QUESTIONS,
    "next": NEXT_ACTIONS,
    "continues": CONTINUES_FROM,
    "superseded": SUPERSEDED,
    "resolved": SUPERSEDED,
}


def canonical_section(name: str) -> str:
    """Accept a template title in any case, or a short alias such as ``next``."""
    key = normalize_title(name)
    if key in SECTION_ALIASES:
        return SECTION_ALIASES[key]
    for title in (METADATA, *TEMPLATE_HINTS):
        if normalize_title(title) == key:
            return title
    return name.strip()


#: every hint a template may hold, in any language it was written in
ALL_HINTS = [*TEMPLATE_HINTS.values(), *placeholders.CONTEXT_HINT.values()]


def _hints_for(title: str) -> list[str]:
    canonical = canonical_section(title)
    hint = TEMPLATE_HINTS.get(canonical)
    if canonical == CURRENT_CONTEXT:
        return list(placeholders.CONTEXT_HINT.values())
    return [hint] if hint else []


def render_template(metadata: Mapping[str, str], language: str = "en") -> str:
    """A fresh snapshot with the template's hints (in ``language``), before any content is
    merged in."""
    lines = [f"# Session: {metadata['Session ID']}", "", f"## {METADATA}", ""]
    lines.append(format_row(["Field", "Value"]))
    lines.append("|---|---|")
    lines.extend(format_row([name, metadata.get(name, "")]) for name in METADATA_FIELDS)
    # Lists start as the template's own "None"; only the prose section keeps its hint,
    # and it is replaced by the first context merged in.
    hint, none = placeholders.CONTEXT_HINT[language], placeholders.NONE[language]
    for title in TEMPLATE_HINTS:
        lines.extend(["", f"## {title}", "", hint if title == CURRENT_CONTEXT else none])
    return "\n".join(lines) + "\n"


@dataclass
class SnapshotChange:
    """What one update brings to a snapshot; applied by the merge policy."""

    metadata: dict[str, str] = field(default_factory=dict)
    prose: dict[str, list[str]] = field(default_factory=dict)
    items: dict[str, list[str]] = field(default_factory=dict)

    def add(self, section: str, text: str) -> None:
        """Route text to a section: list sections take one item per line or bullet.

        Secrets are replaced here, as the write path would: a re-sent item then matches
        the redacted one on file instead of being added a second time.
        """
        from ..redact import redact

        text = redact(text)[0]
        title = canonical_section(section)
        if normalize_title(title) == normalize_title(METADATA):
            raise UsageError("the Metadata section is kept by workmem; use --topic or --status")
        if normalize_title(title) in PROSE_SECTIONS:
            self.prose.setdefault(title, []).append(text)
            return
        items = [line.strip() for line in text.split("\n") if line.strip()]
        self.items.setdefault(title, []).extend(items)

    def add_fragment(self, markdown: str) -> None:
        """Take every ``##`` section of a markdown fragment (``--from-file``)."""
        fragment = Document.parse(markdown)
        if not fragment.sections:
            raise UsageError("the file has no '## Section' headings to merge")
        for section in fragment.sections:
            if normalize_title(section.title) == normalize_title(METADATA):
                continue
            content = section.content()
            if content:
                self.add(section.title, content)

    def is_empty(self) -> bool:
        return not (self.prose or self.items)

    def apply(self, text: str, *, path: str) -> str:
        old = Document.parse(text, path=path)
        if old.get(METADATA) is None:
            raise FormatError(
                "snapshot has no '## Metadata' section; fix it by hand, nothing was written",
                path=path,
            )
        new = Document.parse(text)
        metadata = {name: neutralize_line(value) for name, value in self.metadata.items()}
        _set_metadata(new, metadata, path)
        record: list[str] = []
        # Prose is Current Context's only (``add`` routes nothing else there): one summary.
        for title, paragraphs in self.prose.items():
            section = new.ensure(_title(title))
            merged = merge_context(section, [neutralize_block(p) for p in paragraphs])
            record.extend(neutralize_line(item) for item in superseded_items(merged))
        refined: list[tuple[str, str, str]] = []
        for title, items in self.items.items():
            safe = [neutralize_line(item) for item in items]
            section = new.ensure(_title(title))
            if normalize_title(title) == normalize_title(FILES):
                refined += [(title, a, b) for a, b in refine_items(section, safe)]
            changed = merge_items(section, safe, _hints_for(title))
            if normalize_title(title) != normalize_title(SUPERSEDED):
                record.extend(f"{item} ({title})" for item in changed)
        if record:
            merge_items(new.ensure(SUPERSEDED), record, _hints_for(SUPERSEDED))
        lost = _lost(old, new, refined)
        if lost:
            raise FormatError(
                "merge would drop " + "; ".join(lost) + "; nothing was written", path=path
            )
        return new.render()


def _lost(old: Document, new: Document, refined: list[tuple[str, str, str]]) -> list[str]:
    """What the merge would drop without a mark (empty when nothing): every section but
    the Metadata by ``check_preserved``, Current Context by ``restate.context_lost``; an
    entry refined in place counts as kept when its refinement is there."""
    baseline = Document.parse(old.render())
    for title, before, after in refined:
        section = baseline.get(title)
        assert section is not None  # an entry refined in place was in the old document
        blocks = section.blocks()
        for block in blocks:
            if block.is_item and block.text == before:
                block.lines[0] = block.lines[0].replace(before, after, 1)
        section.body = [line for block in blocks for line in block.lines]
    lost = check_preserved(baseline, new, hints=ALL_HINTS, skip=[METADATA, CURRENT_CONTEXT])
    return lost + context_lost(
        old.get(CURRENT_CONTEXT), new.get(CURRENT_CONTEXT), new.get(SUPERSEDED)
    )


def _title(title: str) -> str:
    """A section title given as free text (``--section NAME=``), as one safe heading line."""
    return neutralize_line(title).lstrip("\\#").strip() or "Notes"


def _set_metadata(doc: Document, values: Mapping[str, str], path: str) -> None:
    """Set fields of the Metadata table; every other line of the section stays as it was."""
    section = doc.get(METADATA)
    assert section is not None  # apply refused a snapshot without one
    try:
        table = TableDocument.parse("\n".join(section.body), expected_header=("Field", "Value"))
    except FormatError as exc:  # its line counts from the section; say the file's line
        line = None if exc.line is None else exc.line + _lines_before_body(doc, section)
        raise FormatError(str(exc), path=path, line=line) from None
    present = {r.values[0].casefold(): r for r in table.rows}
    for name, value in values.items():
        row = present.get(name.casefold())
        if row is None:
            table.append([name, value])
        else:
            table.set_value(row, "Value", value)
    # The split gives back the section's lines one for one; a table that touched the next
    # heading (or the end of the file) gets the blank line a heading needs after it.
    section.body = table.render().split("\n")
    if section.body[-1].strip():
        section.body.append("")


def _lines_before_body(doc: Document, section: Section) -> int:
    """How many lines of the file come before ``section``'s body (its heading included)."""
    count = len(doc.preamble)
    for other in doc.sections:
        count += 1
        if other is section:
            break
        count += len(other.body)
    return count


def section_items(text: str, title: str) -> list[str]:
    section = Document.parse(_section_slice(text, title)).get(title)
    if section is None or is_placeholder(section, _hints_for(title)):
        return []
    return section.items()


def _section_slice(text: str, title: str) -> str:
    """Just the ``## title`` part of a document, found without parsing the whole file.

    Organize reads every snapshot on the board; slicing keeps that linear in the size of
    one section rather than of each file. Falls back to the whole text when unsure.
    """
    marker = f"\n## {title}\n"
    start = f"\n{text}".find(marker)  # a heading starts a line; "\\## title" is text
    if start < 0 or "```" in text or "~~~" in text:
        return text
    end = text.find("\n## ", start + len(marker) - 2)
    return text[start:] if end < 0 else text[start : end + 1]


def continues_from(text: str) -> list[str]:
    """Source session IDs listed under Continues From (markers and prose ignored)."""
    ids: list[str] = []
    for item in section_items(text, CONTINUES_FROM):
        token = _source_token(item)
        if token.startswith("["):
            continue
        if token and token not in ids:
            ids.append(token)
    return ids


def _source_token(item: str) -> str:
    """The session ID an item of Continues From starts with (``a-1``, `` `a-1` (words)``),
    read the way ``references.continuation_sources`` accepted it, so what an update wrote
    is what the board reads back."""
    words = item.strip().strip("`").split()
    return words[0].strip("`") if words else ""


def remove_continues_from(text: str, source_id: str, note: str, *, path: str) -> str:
    """Drop one source from Continues From, recording the release under Superseded."""
    doc = Document.parse(text)
    section = doc.get(CONTINUES_FROM)
    if section is not None:
        kept = [
            line
            for block in section.blocks()
            for line in block.lines
            if not (block.is_item and _source_token(block.text) == source_id)
        ]
        while kept and not kept[-1].strip():
            kept.pop()
        while kept and not kept[0].strip():
            kept.pop(0)
        section.body = ["", *(kept or ["None"]), ""]
    merge_items(doc.ensure(SUPERSEDED), [note], _hints_for(SUPERSEDED))
    result = doc.render()
    if source_id in continues_from(result):
        raise FormatError(f"could not remove {source_id} from Continues From", path=path)
    return result
