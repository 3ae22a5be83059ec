"""The markdown table engine: tolerant reading, exact write-back, clear refusals."""

from __future__ import annotations

import pytest

from workmem.errors import FormatError
from workmem.files.tables import TableDocument, escape_cell, split_cells, unescape_cell
from workmem.files.text import decode, encode

HEADER = ["A", "B", "C"]


def test_untouched_rows_and_surroundings_are_byte_identical() -> None:
    text = (
        "# Title\n\nintro line\n\n"
        "| A | B | C |\n|:---|---:|---|\n"
        "|  x  |y|   z   |\n"
        "| 1 | 2 | 3 |\n"
        "\nafter the table\n"
    )
    doc = TableDocument.parse(text, expected_header=HEADER)
    assert doc.render() == text
    doc.set_value(doc.rows[1], "B", "two")
    out = doc.render()
    assert "|  x  |y|   z   |" in out  # odd spacing of the untouched row survives
    assert "| 1 | two | 3 |" in out
    assert out.startswith("# Title\n\nintro line\n\n") and out.endswith("\nafter the table\n")


def test_missing_outer_pipes_and_trailing_spaces() -> None:
    text = "A | B | C   \n---|---|---\nx | y | z   \n"
    doc = TableDocument.parse(text, expected_header=HEADER)
    assert [r.values for r in doc.rows] == [["x", "y", "z"]]


def test_escaped_pipes_and_newlines_round_trip() -> None:
    value = "a | b\nsecond line"
    cell = escape_cell(value)
    assert "\n" not in cell and "\\|" in cell
    assert unescape_cell(cell) == value
    doc = TableDocument.parse("| A | B | C |\n|---|---|---|\n")
    doc.append([value, "plain", "x"])
    reparsed = TableDocument.parse(doc.render(), expected_header=HEADER)
    assert reparsed.rows[0].values == [value, "plain", "x"]
    assert split_cells("| a \\| b | c |") == [" a \\| b ", " c "]


def test_crlf_and_bom_are_read_and_kept() -> None:
    raw = "\ufeff| A | B | C |\r\n|---|---|---|\r\n| 1 | 2 | 3 |\r\n".encode()
    text, style = decode(raw)
    assert style.bom and style.newline == "\r\n"
    doc = TableDocument.parse(text, expected_header=HEADER)
    doc.append(["4", "5", "6"])
    written = encode(doc.render(), style)
    assert written.startswith(b"\xef\xbb\xbf| A | B | C |\r\n")
    assert written.endswith(b"| 4 | 5 | 6 |\r\n")
    assert b"\n" not in written.replace(b"\r\n", b"")


def test_wrong_header_is_refused_with_line_number() -> None:
    text = "intro\n\n| A | X | C |\n|---|---|---|\n"
    with pytest.raises(FormatError) as info:
        TableDocument.parse(text, expected_header=HEADER, path="memory/index.md")
    assert info.value.line == 3
    assert "memory/index.md:3" in str(info.value)


def test_row_with_wrong_cell_count_is_refused_with_line_number() -> None:
    text = "| A | B | C |\n|---|---|---|\n| 1 | 2 | 3 |\n| 1 | 2 | 3 | 4 |\n"
    with pytest.raises(FormatError) as info:
        TableDocument.parse(text, expected_header=HEADER)
    assert info.value.line == 4


def test_no_table_is_an_error_and_tables_in_code_fences_are_ignored() -> None:
    with pytest.raises(FormatError):
        TableDocument.parse("just prose\n")
    fenced = "```\n| A | B | C |\n|---|---|---|\n```\n| A | B | C |\n|---|---|---|\n| r | s | t |\n"
    doc = TableDocument.parse(fenced, expected_header=HEADER)
    assert doc.rows[0].values == ["r", "s", "t"]
    assert doc.render() == fenced
