"""Free text written into the board, snapshots and archive entries forges no structure.

One attack per field: each value tries to start a heading, a table row, a frontmatter
fence or a comment, and each must come back readable and change nothing else.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.snapshot import continues_from
from workmem.cli import main
from workmem.files.sections import Document
from workmem.files.tables import TableDocument

TEMPLATE_SECTIONS = [
    "Metadata",
    "Current Context",
    "Decisions",
    "Files / Artifacts",
    "Open Questions",
    "Next Actions",
    "Continues From",
    "Superseded / Resolved",
]


def rows(root: Path) -> dict[str, dict[str, str]]:
    doc = TableDocument.parse((root / "memory" / "index.md").read_text())
    return {r["Session ID"]: r for r in doc.records()}


def snapshot(root: Path, sid: str) -> str:
    return (root / "memory" / "sessions" / f"{sid}.md").read_text()


def titles(text: str) -> list[str]:
    return [s.title for s in Document.parse(text).sections]


def test_context_with_a_continues_from_heading_creates_no_reference(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = Board()
    source = board.register(topic="Source").session_id
    sid = board.start().session_id
    forged = f"x\n## Continues From\n- {source}"
    assert main(["session", "update", sid, "--context", forged]) == 0
    text = snapshot(root, sid)
    assert titles(text) == TEMPLATE_SECTIONS
    assert continues_from(text) == []
    assert f"x\n\\## Continues From\n- {source}\n" in text  # kept, as text
    assert rows(root)[source]["Referenced By"] == "-"
    assert board.doctor().healthy
    capsys.readouterr()
    assert main(["session", "archive", source]) == 0  # nothing protects it


def test_summary_that_forges_a_daily_log_session_or_fence_stays_one_line(root: Path) -> None:
    board = Board()
    sid = board.start().session_id
    summary = "s\n### Session 42 · 00:00 · fake\n---\n| a | b |"
    board.update(sid, summary=summary)
    row = rows(root)[sid]
    assert row["Summary"] == "s ### Session 42 · 00:00 · fake --- | a | b |"
    text = snapshot(root, sid)
    assert titles(text) == TEMPLATE_SECTIONS
    assert "\n---\n" not in text and "\n### " not in text
    assert board.show(sid).row.to_dict()["summary"] == row["Summary"]  # type: ignore[union-attr]


def test_topic_with_heading_pipes_and_fence_round_trips_readably(root: Path) -> None:
    board = Board()
    topic = "## Auth | rate limits\n---"
    sid = board.register(topic=topic).session_id
    cell = rows(root)[sid]["Topic"]
    assert cell == "\\## Auth | rate limits ---"  # the stored cell cannot start a heading
    assert board.show(sid).row.to_dict()["topic"] == "## Auth | rate limits ---"  # type: ignore[union-attr]
    text = snapshot(root, sid)
    assert "| Topic | \\## Auth \\| rate limits --- |" in text
    assert titles(text) == TEMPLATE_SECTIONS
    assert board.doctor().healthy


def test_keywords_with_pipes_newlines_and_a_comment_stay_in_their_cell(root: Path) -> None:
    board = Board()
    sid = board.register(topic="T", keywords="a | b\n<!-- workmem:end -->\n## c").session_id
    row = rows(root)[sid]
    assert row["Keywords"] == "a | b <\\!-- workmem:end --> ## c"
    assert row["Status"] == "active"  # the columns after Keywords are where they were
    assert len(rows(root)) == 1


def test_section_items_that_look_like_headings_and_fences_stay_items(root: Path) -> None:
    board = Board()
    sid = board.register(topic="T").session_id
    items = "## Continues From\n---\n<!-- x -->\n=== \n# top"
    board.update(sid, sections={"Decisions": items})
    text = snapshot(root, sid)
    assert titles(text) == TEMPLATE_SECTIONS
    decisions = Document.parse(text).get("Decisions")
    assert decisions is not None
    assert decisions.items() == ["\\## Continues From", "\\---", "<\\!-- x -->", "\\===", "\\# top"]
    assert continues_from(text) == []


def test_a_section_name_with_a_line_break_makes_one_heading(root: Path) -> None:
    board = Board()
    sid = board.register(topic="T").session_id
    board.update(sid, sections={"Risks\n## Continues From": "- slow disk"})
    text = snapshot(root, sid)
    assert titles(text) == [*TEMPLATE_SECTIONS, "Risks ## Continues From"]
    assert continues_from(text) == []


def test_a_fragment_file_keeps_its_sections_and_neutralises_what_is_inside(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = Board()
    sid = board.register(topic="T").session_id
    fragment = tmp_path / "f.md"
    fragment.write_text(
        "## Current Context\n\nDid X.\n### Detail\n```\n## inside an open fence\n"
        "\n## Decisions\n\n- Keep Y\n"
    )
    # The open fence in Current Context is the fragment's own problem; it must not hide
    # the Decisions heading that follows it in our file.
    assert main(["session", "update", sid, "--from-file", str(fragment)]) == 0
    text = snapshot(root, sid)
    assert titles(text) == TEMPLATE_SECTIONS
    context = Document.parse(text).get("Current Context")
    assert context is not None and "\\### Detail" in context.content()
    assert "- Keep Y" in text


def test_continue_intro_built_from_a_hand_edited_summary_forges_nothing(root: Path) -> None:
    board = Board()
    source = board.register(topic="Source").session_id
    other = board.register(topic="Other").session_id
    index = root / "memory" / "index.md"
    # A person edits the source's Summary cell to hold line breaks and a heading.
    text = index.read_text().replace(
        "| 手動補註冊，已建立 session snapshot。 |",
        f"| ok<br>## Continues From<br>- {other} |",
        1,
    )
    index.write_text(text)
    sid = board.start().session_id
    board.continue_from(source, as_id=sid)
    assert continues_from(snapshot(root, sid)) == [source]
    assert rows(root)[other]["Referenced By"] == "-"


def test_archive_index_values_are_neutral_lines(root: Path) -> None:
    board = Board()
    sid = board.register(topic="<!-- workmem:x -->", summary="a\n## b | c").session_id
    board.archive(sid)
    index = (root / "memory" / "archive" / sid / "index.md").read_text()
    assert titles(index) == ["Metadata", "Files"]
    assert "| Topic | <\\!-- workmem:x --> |" in index
    assert "| Summary | a ## b \\| c |" in index
