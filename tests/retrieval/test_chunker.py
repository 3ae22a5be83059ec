"""Chunks follow markdown structure and keep exact provenance."""

from __future__ import annotations

import pytest

from workmem.errors import FormatError
from workmem.retrieval import kinds
from workmem.retrieval.chunker import MAX_LINE_CHARS, chunk_events, chunk_file, chunk_markdown

SNAPSHOT = """# Session 2026-05-24-0900-cursor-main-agent

## Current Context

We are building the search index.
It uses SQLite FTS5.

## Decisions
- Use SQLite with FTS5
  because it ships with Python
- [done] Write the chunker

## Open Questions
- None

## Empty Heading
## Next Heading Only
"""


def lines_of(text: str, start: int, end: int) -> str:
    return "\n".join(text.split("\n")[start - 1 : end])


def test_sections_items_and_prose_with_line_ranges() -> None:
    chunks = chunk_markdown(SNAPSHOT)
    texts = [c.text for c in chunks]
    assert texts[0] == "We are building the search index.\nIt uses SQLite FTS5."
    assert texts[1] == "- Use SQLite with FTS5\n  because it ships with Python"
    assert texts[2] == "- [done] Write the chunker"
    assert "- None" not in texts  # a template's "nothing yet" is not something to find
    for chunk in chunks:
        # get() must be able to point at the exact lines of the file
        assert chunk.text.split("\n")[0].strip() in lines_of(
            SNAPSHOT, chunk.line_start, chunk.line_end
        )
    decisions = chunks[1]
    assert (decisions.line_start, decisions.line_end) == (9, 10)
    assert decisions.title == "Decisions"
    assert decisions.headings == ["Session 2026-05-24-0900-cursor-main-agent", "Decisions"]


def test_placeholders_are_not_chunks_but_real_short_items_are() -> None:
    text = (
        "# S\n\n## Decisions\n\nNone\n\n## Files\n- n/a\n\n## 未決\n\n無\n\n"
        "## Next\n- -\n- Ship it\n\n## Notes\n\nNone of the tests failed.\n"
    )
    assert [c.text for c in chunk_markdown(text)] == ["- Ship it", "None of the tests failed."]


def test_heading_without_body_is_a_chunk_unless_it_holds_subsections() -> None:
    text = "# Log\n\n## Parent\n### 14:05 Decided to ship\n### 15:00 Shipped\n"
    chunks = chunk_markdown(text)
    assert [c.text for c in chunks] == ["14:05 Decided to ship", "15:00 Shipped"]
    assert [c.line_start for c in chunks] == [4, 5]


def test_table_rows_are_chunks_with_their_own_date_and_session() -> None:
    board = (
        "# Memory Index\n\n"
        "| Session ID | Agent Name | Topic | Summary | Keywords | Status | Referenced By "
        "| Started At | Updated At |\n"
        "|---|---|---|---|---|---|---|---|---|\n"
        "| 2026-05-24-0900-cursor-main-agent | cursor-main-agent | search | Built a \\| pipe "
        "| fts5 | active | - | 2026-05-24 09:00 | 2026-05-25 10:00 |\n"
    )
    file = kinds.MemoryFile("memory/index.md", kinds.BOARD)
    (row,) = chunk_file(file, board)
    assert row.session_id == "2026-05-24-0900-cursor-main-agent"
    assert row.date == "2026-05-25"
    assert row.line_start == 5
    assert "Summary: Built a | pipe" in row.text
    assert row.title == "2026-05-24-0900-cursor-main-agent · search"


def test_frontmatter_gives_title_and_date_and_is_not_a_chunk() -> None:
    text = (
        "---\nname: Testing policy\ndescription: how we test\ntype: feedback\n"
        "updated: 2026-04-01\n---\nAlways run the real files, never mocks.\n"
    )
    file = kinds.MemoryFile("memory/feedback_testing.md", kinds.TYPED)
    (chunk,) = chunk_file(file, text)
    assert chunk.text == "Always run the real files, never mocks."
    assert chunk.title == "Testing policy"
    assert chunk.date == "2026-04-01"
    assert chunk.line_start == 7
    assert "how we test" in chunk.headings


def test_code_fences_do_not_split_or_make_headings() -> None:
    text = "## Notes\n\n```\n# not a heading\n- not an item\n```\nafter\n"
    (chunk,) = chunk_markdown(text)
    assert "# not a heading" in chunk.text and chunk.text.endswith("after")


def test_long_prose_is_cut_and_huge_lines_split() -> None:
    paragraphs = "\n\n".join(f"Paragraph {i} " + "word " * 100 for i in range(10))
    chunks = chunk_markdown("## Long\n\n" + paragraphs + "\n")
    assert len(chunks) > 2
    assert all(len(c.text) < 4000 for c in chunks)
    huge = chunk_markdown("x" * (MAX_LINE_CHARS * 3))
    assert len(huge) >= 2 and all(c.line_start == 1 for c in huge)


def test_daily_file_date_wins_and_sessions_come_from_paths() -> None:
    daily = kinds.classify("memory/2026-05-24.md")
    assert daily is not None
    (chunk,) = chunk_file(daily, "# 2026-05-24\n\n### 09:00 Plan\n\nShip on 2026-06-01.\n")
    assert chunk.date == "2026-05-24"
    notes = kinds.classify("memory/sessions/2026-05-24-0900-codex-main-agent.notes.md")
    assert notes is not None
    (chunk,) = chunk_file(notes, "## Current State\n\nWorking on search.\n")
    assert chunk.session_id == "2026-05-24-0900-codex-main-agent"
    assert chunk.date == "2026-05-24"


def test_events_list_with_line_numbers() -> None:
    text = (
        "[\n"
        '  {"event_type": "purchase", "text": "Bought sneakers.",'
        ' "normalized_date": "2026-03-15"},\n'
        "  {\n"
        '    "event_type": "meeting",\n'
        '    "object_hint": "design review",\n'
        '    "text": "Met the design team.",\n'
        '    "date": "2026-05-22T10:00"\n'
        "  }\n"
        "]\n"
    )
    first, second = chunk_events(text)
    assert (first.text, first.date, first.line_start, first.line_end) == (
        "Bought sneakers.",
        "2026-03-15",
        2,
        2,
    )
    assert (second.line_start, second.line_end, second.date) == (3, 8, "2026-05-22")
    assert second.title == "meeting · design review"


def test_events_object_form_and_bad_json() -> None:
    text = '{"version": 1, "events": [{"text": "Deployed v2", "normalized_date": "2026-01-02"}]}'
    (only,) = chunk_events(text)
    assert only.text == "Deployed v2" and only.date == "2026-01-02"
    with pytest.raises(FormatError) as caught:
        chunk_events('[\n  {"text": "unterminated"\n')
    assert "events.json" in str(caught.value) and caught.value.line is not None
    with pytest.raises(FormatError):
        chunk_events('{"events": 3}')
    assert chunk_events("  \n") == []
