"""The table engine rule by rule: what a reader accepts, what it refuses and what it says.

Written against mutation testing (docs/mutation.md): each test pins a rule that a small
change to ``files/tables.py`` used to break without any test noticing.
"""

from __future__ import annotations

import pytest

from workmem.errors import FormatError
from workmem.files.tables import (
    Row,
    TableDocument,
    escape_cell,
    format_row,
    format_separator,
    is_separator,
    is_table_line,
    split_cells,
    unescape_cell,
)

HEADER = ["A", "B", "C"]
TABLE = "| A | B | C |\n|---|---|---|\n"


# -- cells ----------------------------------------------------------------------------------


def test_every_newline_style_in_a_value_becomes_one_line_break() -> None:
    assert escape_cell("one\r\ntwo\rthree\nfour") == "one<br>two<br>three<br>four"
    assert escape_cell("  a  \r\n  b  ") == "a<br>b"
    assert escape_cell("x\r\n\r\ny") == "x<br><br>y"


def test_a_cell_round_trips_pipes_and_breaks_and_is_trimmed() -> None:
    assert escape_cell(" a|b ") == "a\\|b"
    assert unescape_cell("  a\\|b<br>c  ") == "a|b\nc"
    assert unescape_cell("  plain  ") == "plain"


def test_what_counts_as_a_table_line() -> None:
    assert is_table_line("| a | b |")
    assert is_table_line("a | b")
    assert is_table_line("a \\| b | c")  # one unescaped pipe is enough
    assert not is_table_line("no pipes at all")
    assert not is_table_line("only \\| escaped \\| pipes")


def test_split_cells_with_and_without_outer_pipes() -> None:
    assert split_cells("  | a | b |  ") == [" a ", " b "]
    assert split_cells("a | b") == ["a ", " b"]
    assert split_cells("| a | b \\|") == [" a ", " b \\|"]  # an escaped pipe is not the edge
    assert split_cells("|a|") == ["a"]


def test_separator_lines() -> None:
    assert is_separator("|---|:--|--:|:-:|")
    assert is_separator(" --- | --- ")
    assert not is_separator("| --- | x |")
    assert not is_separator("------")  # no pipe: a rule, not a table separator
    assert not is_separator("| a | b |")


def test_formatted_rows_and_separators() -> None:
    assert format_row(["a", "b|c", "d\ne"]) == "| a | b\\|c | d<br>e |"
    assert format_separator(3) == "|---|---|---|"
    assert format_separator(1) == "|---|"


def test_a_row_reads_its_cells_lazily_and_its_key_is_the_first_value() -> None:
    row = Row(raw="| x\\|y | z |", line=7, cells=[" x\\|y ", " z "])
    assert row.key == "x|y"
    assert row.values == ["x|y", "z"]
    assert row.render() == "| x\\|y | z |"
    assert row.line == 7
    built = Row(["k", "v"])
    assert built.key == "k"
    assert built.render() == "| k | v |"
    assert Row([]).key == ""
    assert Row(cells=[]).key == ""


# -- reading a document ---------------------------------------------------------------------


def test_no_table_names_the_columns_it_expected() -> None:
    with pytest.raises(FormatError) as info:
        TableDocument.parse("prose\n", expected_header=HEADER, path="memory/index.md")
    assert str(info.value) == (
        "memory/index.md: no markdown table found (expected columns: A | B | C)"
    )
    with pytest.raises(FormatError) as bare:
        TableDocument.parse("prose\n")
    assert str(bare.value) == "no markdown table found"


def test_a_wrong_header_says_what_it_found_and_what_it_expected() -> None:
    with pytest.raises(FormatError) as info:
        TableDocument.parse("| A | X | C |\n|---|---|---|\n", expected_header=HEADER, path="f")
    assert str(info.value) == (
        "f:1: table header is 'A | X | C', expected 'A | B | C'; nothing was written"
    )


def test_the_header_is_compared_without_case() -> None:
    doc = TableDocument.parse("| a | b | c |\n|---|---|---|\n", expected_header=HEADER)
    assert doc.header == ["a", "b", "c"]
    assert doc.column("B") == 1


def test_a_separator_of_the_wrong_width_is_refused_with_its_line() -> None:
    with pytest.raises(FormatError) as info:
        TableDocument.parse("intro\n| A | B | C |\n|---|---|\n| 1 | 2 | 3 |\n", path="f")
    assert info.value.line == 3
    assert str(info.value) == "f:3: separator has 2 columns, header has 3"


def test_a_row_of_the_wrong_width_says_how_to_fix_it() -> None:
    with pytest.raises(FormatError) as info:
        TableDocument.parse(TABLE + "| 1 | 2 |\n", path="f")
    assert str(info.value) == (
        "f:3: row has 2 cells, the table has 3 columns (an unescaped '|' in a value?); "
        "fix the row, nothing was written"
    )


def test_rows_have_their_line_numbers_and_the_table_ends_at_a_blank_or_text_line() -> None:
    text = "# T\n\n" + TABLE + "| 1 | 2 | 3 |\n| 4 | 5 | 6 |\n\n| not | part | of it |\n"
    doc = TableDocument.parse(text, expected_header=HEADER)
    assert [r.line for r in doc.rows] == [5, 6]
    assert doc.before == ["# T", ""]
    assert doc.after == ["", "| not | part | of it |"]
    ended = TableDocument.parse(TABLE + "| 1 | 2 | 3 |\nplain text\n| 4 | 5 | 6 |\n")
    assert len(ended.rows) == 1
    assert ended.after == ["plain text", "| 4 | 5 | 6 |"]
    spaces = TableDocument.parse(TABLE + "| 1 | 2 | 3 |\n   \n")
    assert len(spaces.rows) == 1 and spaces.after == ["   "]


def test_a_table_at_the_very_end_without_a_newline_round_trips() -> None:
    text = "| A | B | C |\n|---|---|---|\n| 1 | 2 | 3 |"
    doc = TableDocument.parse(text)
    assert doc.trailing_newline is False
    assert doc.render() == text
    assert TableDocument.parse(text + "\n").render() == text + "\n"


def test_the_first_table_is_the_one_read() -> None:
    text = TABLE + "| 1 | 2 | 3 |\n\n| D | E |\n|---|---|\n| 4 | 5 |\n"
    doc = TableDocument.parse(text)
    assert doc.header == HEADER


def test_tables_in_tilde_and_indented_fences_are_not_read() -> None:
    text = "~~~\n| X | Y |\n|---|---|\n~~~\n  ```\n| X | Y |\n|---|---|\n  ```\n" + TABLE
    assert TableDocument.parse(text).header == HEADER


def test_a_header_line_must_be_followed_by_its_separator() -> None:
    text = "| a | b |\nnot a separator\n|---|---|---|\n" + TABLE
    assert TableDocument.parse(text).header == HEADER
    with pytest.raises(FormatError):
        TableDocument.parse("|---|---|\n")  # a separator alone is no table


def test_escaped_pipes_in_rows_split_only_on_real_pipes() -> None:
    doc = TableDocument.parse(TABLE + "| a \\| b | c | d |\n")
    assert doc.rows[0].values == ["a | b", "c", "d"]


# -- writing --------------------------------------------------------------------------------


def test_a_document_built_in_code_renders_its_own_header_and_separator() -> None:
    doc = TableDocument(header=["A", "B"])
    doc.append(["1", "2"])
    assert doc.render() == "| A | B |\n|---|---|\n| 1 | 2 |\n"
    doc.trailing_newline = False
    assert doc.render() == "| A | B |\n|---|---|\n| 1 | 2 |"


def test_columns_are_found_without_case_and_unknown_ones_raise() -> None:
    doc = TableDocument.parse(TABLE)
    assert [doc.column(n) for n in ("a", "B", "c")] == [0, 1, 2]
    with pytest.raises(KeyError) as info:
        doc.column("D")
    assert info.value.args == ("D",)


def test_a_header_written_by_hand_is_kept_byte_for_byte() -> None:
    text = "|A|  B |C\n|:-|-:|-\n| 1 | 2 | 3 |\n"
    doc = TableDocument.parse(text, expected_header=HEADER)
    doc.append(["4", "5", "6"])
    assert doc.render() == text + "| 4 | 5 | 6 |\n"


def test_records_refuse_a_row_whose_width_does_not_match() -> None:
    doc = TableDocument.parse(TABLE)
    doc.rows.append(Row(["only one value"]))
    with pytest.raises(ValueError, match="shorter"):
        list(doc.records())


def test_records_are_dicts_by_header() -> None:
    doc = TableDocument.parse(TABLE + "| 1 | 2 | 3 |\n| x | y | z |\n")
    assert list(doc.records()) == [
        {"A": "1", "B": "2", "C": "3"},
        {"A": "x", "B": "y", "C": "z"},
    ]


def test_append_refuses_the_wrong_number_of_values() -> None:
    doc = TableDocument.parse(TABLE)
    with pytest.raises(ValueError, match=r"^expected 3 values, got 2$"):
        doc.append(["1", "2"])
    row = doc.append(["1", "2", "3"])
    assert doc.rows == [row]


def test_setting_the_same_value_keeps_the_row_byte_identical() -> None:
    doc = TableDocument.parse(TABLE + "|  1 |2| 3 |\n")
    row = doc.rows[0]
    doc.set_value(row, "b", "2")
    assert doc.render() == TABLE + "|  1 |2| 3 |\n"
    doc.set_value(row, "B", "two")
    assert (row.raw, row.values) == (None, ["1", "two", "3"])
    assert doc.render().endswith("| 1 | two | 3 |\n")
