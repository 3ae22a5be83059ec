"""A markdown table inside a document, edited row by row.

The board (``memory/index.md``) is shared state that hooks and agents write at nearly the
same moment, and that people edit by hand. So the engine:

* reads tolerantly: trailing spaces, missing outer pipes, ``\\|`` escapes (CRLF and BOM are
  handled one level down, in ``text``);
* refuses what it cannot read, with the line number, before anything is written;
* writes back every row it was not asked to touch byte for byte, and everything around the
  table unchanged, so concurrent edits to other rows and notes around the table survive;
* escapes ``|`` and newlines in values so one value can never break the table.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ..errors import FormatError
from .markers import check_unfinished

_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")
_SEPARATOR_CELL = re.compile(r"^\s*:?-+:?\s*$")
_LINE_BREAK = "<br>"


def escape_cell(value: str) -> str:
    """One value as table-safe text: pipes escaped, newlines as ``<br>``, trimmed."""
    flat = value.replace("\r\n", "\n").replace("\r", "\n").strip()
    flat = _LINE_BREAK.join(part.strip() for part in flat.split("\n"))
    return flat.replace("|", "\\|")


def unescape_cell(text: str) -> str:
    value = text.strip()
    # The membership tests keep the common case (nothing escaped) cheap on 10,000-row boards.
    if "\\|" in value:
        value = value.replace("\\|", "|")
    if _LINE_BREAK in value:
        value = value.replace(_LINE_BREAK, "\n")
    return value


def is_table_line(line: str) -> bool:
    if "|" not in line:
        return False
    return "\\|" not in line or _UNESCAPED_PIPE.search(line) is not None


def split_cells(line: str) -> list[str]:
    """Raw cell texts of a row line, with or without the outer pipes."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    if "\\|" in body:
        return _UNESCAPED_PIPE.split(body)
    return body.split("|")


def is_separator(line: str) -> bool:
    if not is_table_line(line):
        return False
    return all(_SEPARATOR_CELL.match(cell) for cell in split_cells(line))


def format_row(values: Sequence[str]) -> str:
    return "| " + " | ".join(escape_cell(v) for v in values) + " |"


def format_separator(width: int) -> str:
    return "|" + "---|" * width


class Row:
    """One table row: its values, and the source line it came from while untouched.

    Values are unescaped on first use: a registration on a 10,000-row board needs only
    the first cell of each row, so parsing stays cheap.
    """

    __slots__ = ("_cells", "_values", "line", "raw")

    def __init__(
        self,
        values: list[str] | None = None,
        raw: str | None = None,
        line: int | None = None,
        cells: list[str] | None = None,
    ):
        self._values = values
        self._cells = cells
        self.raw = raw
        self.line = line

    @property
    def values(self) -> list[str]:
        if self._values is None:
            self._values = [unescape_cell(c) for c in self._cells or []]
        return self._values

    @property
    def key(self) -> str:
        """The first cell (the row's identity on the board)."""
        if self._values is None and self._cells:
            return unescape_cell(self._cells[0])
        return self.values[0] if self.values else ""

    def render(self) -> str:
        return self.raw if self.raw is not None else format_row(self.values)


@dataclass
class TableDocument:
    """A document holding one table: lines before it, the table, and lines after it."""

    header: list[str]
    rows: list[Row] = field(default_factory=list)
    before: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    header_raw: str | None = None
    separator_raw: str | None = None
    trailing_newline: bool = True

    @classmethod
    def parse(
        cls, text: str, *, expected_header: Sequence[str] | None = None, path: str | None = None
    ) -> TableDocument:
        """Find the first table in ``text`` and read every row, or raise ``FormatError``
        (``UnfinishedMergeError`` when a merge left conflict markers in it)."""
        check_unfinished(text, path)
        lines = text.split("\n")
        trailing_newline = text.endswith("\n")
        if trailing_newline:
            lines.pop()
        start = _find_table(lines)
        if start is None:
            raise FormatError(
                "no markdown table found"
                + (
                    f" (expected columns: {' | '.join(expected_header)})" if expected_header else ""
                ),
                path=path,
            )
        header = [unescape_cell(c) for c in split_cells(lines[start])]
        if expected_header is not None and [h.casefold() for h in header] != [
            h.casefold() for h in expected_header
        ]:
            raise FormatError(
                f"table header is '{' | '.join(header)}', expected "
                f"'{' | '.join(expected_header)}'; nothing was written",
                path=path,
                line=start + 1,
            )
        separator = lines[start + 1]
        if len(split_cells(separator)) != len(header):
            raise FormatError(
                f"separator has {len(split_cells(separator))} columns, header has {len(header)}",
                path=path,
                line=start + 2,
            )
        rows: list[Row] = []
        index = start + 2
        while index < len(lines) and lines[index].strip() and is_table_line(lines[index]):
            cells = split_cells(lines[index])
            if len(cells) != len(header):
                raise FormatError(
                    f"row has {len(cells)} cells, the table has {len(header)} columns "
                    "(an unescaped '|' in a value?); fix the row, nothing was written",
                    path=path,
                    line=index + 1,
                )
            rows.append(Row(raw=lines[index], line=index + 1, cells=cells))
            index += 1
        return cls(
            header=header,
            rows=rows,
            before=lines[:start],
            after=lines[index:],
            header_raw=lines[start],
            separator_raw=separator,
            trailing_newline=trailing_newline,
        )

    def render(self) -> str:
        lines = list(self.before)
        lines.append(self.header_raw if self.header_raw is not None else format_row(self.header))
        lines.append(
            self.separator_raw
            if self.separator_raw is not None
            else format_separator(len(self.header))
        )
        lines.extend(row.render() for row in self.rows)
        lines.extend(self.after)
        text = "\n".join(lines)
        return text + "\n" if self.trailing_newline else text

    def column(self, name: str) -> int:
        folded = name.casefold()
        for position, title in enumerate(self.header):
            if title.casefold() == folded:
                return position
        raise KeyError(name)

    def records(self) -> Iterator[dict[str, str]]:
        for row in self.rows:
            yield dict(zip(self.header, row.values, strict=True))

    def append(self, values: Sequence[str]) -> Row:
        if len(values) != len(self.header):
            raise ValueError(f"expected {len(self.header)} values, got {len(values)}")
        row = Row(list(values))
        self.rows.append(row)
        return row

    def set_value(self, row: Row, column: str, value: str) -> None:
        """Change one cell; the row is re-rendered, every other row stays byte-identical."""
        position = self.column(column)
        if row.values[position] != value:
            row.values[position] = value
            row.raw = None


def _find_table(lines: list[str]) -> int | None:
    in_fence = False
    for index in range(len(lines) - 1):
        stripped = lines[index].lstrip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if is_table_line(lines[index]) and is_separator(lines[index + 1]):
            return index
    return None
