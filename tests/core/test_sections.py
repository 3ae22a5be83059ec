"""The section engine: merge by item, mark instead of drop, keep unknown sections."""

from __future__ import annotations

from workmem.files.sections import (
    Document,
    check_preserved,
    item_key,
    merge_items,
    merge_prose,
    strip_marker,
)

DOC = """# Session: x

## Decisions

- Use SQLite
- Keep files as truth
  with a continuation line

## My Own Notes

free text the template does not know

## Next Actions

None
"""


def test_parse_render_round_trip_keeps_everything() -> None:
    assert Document.parse(DOC).render() == DOC


def test_new_items_append_and_duplicates_do_not() -> None:
    doc = Document.parse(DOC)
    section = doc.get("decisions")
    assert section is not None
    merge_items(section, ["use sqlite.", "Add FTS5 index"])
    assert section.items() == ["Use SQLite", "Keep files as truth", "Add FTS5 index"]
    assert "  with a continuation line" in section.body


def test_marker_updates_item_in_place_and_is_reported() -> None:
    doc = Document.parse(DOC)
    section = doc.get("Decisions")
    assert section is not None
    changed = merge_items(section, ["[superseded] Use SQLite: moved to Postgres"])
    assert changed == ["[superseded] Use SQLite: moved to Postgres"]
    assert section.items()[0] == "[superseded] Use SQLite: moved to Postgres"
    assert len(section.items()) == 2


def test_unmarked_longer_item_is_new_not_swallowed() -> None:
    doc = Document.parse(DOC)
    section = doc.get("Decisions")
    assert section is not None
    merge_items(section, ["Use SQLite everywhere"])
    assert "Use SQLite everywhere" in section.items()
    assert "Use SQLite" in section.items()


def test_placeholder_gives_way_and_empty_stays_none() -> None:
    doc = Document.parse(DOC)
    nxt = doc.get("Next Actions")
    assert nxt is not None
    merge_items(nxt, ["None"])
    assert nxt.content() == "None"
    merge_items(nxt, ["Write tests"])
    assert nxt.items() == ["Write tests"]


def test_prose_appends_only_new_text() -> None:
    doc = Document.parse("## Current Context\n\nWe refactored auth.\n")
    section = doc.get("Current Context")
    assert section is not None
    merge_prose(section, "We refactored auth.")
    merge_prose(section, "Then we wrote tests.")
    assert section.content() == "We refactored auth.\n\nThen we wrote tests."


def test_check_preserved_finds_dropped_items_and_sections() -> None:
    old = Document.parse(DOC)
    new = Document.parse(DOC.replace("- Use SQLite\n", "").replace("## My Own Notes", "## X"))
    lost = check_preserved(old, new)
    assert any("Use SQLite" in item for item in lost)
    assert any("My Own Notes" in item for item in lost)
    marked = Document.parse(DOC.replace("- Use SQLite", "- [done] Use SQLite"))
    assert check_preserved(old, marked) == []


def test_markers_and_keys() -> None:
    assert strip_marker("[resolved] Which DB?") == ("resolved", "Which DB?")
    assert strip_marker("[note] keep") == (None, "[note] keep")
    assert item_key("`Use   SQLite`.") == "use sqlite"


def test_headings_inside_code_fences_are_not_sections() -> None:
    doc = Document.parse("## A\n\n```\n## not a heading\n```\n## B\n")
    assert [s.title for s in doc.sections] == ["A", "B"]
