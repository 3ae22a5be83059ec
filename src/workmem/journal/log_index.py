"""``memory/log-index.md``: one row per daily log, newest first, for lookups at scale.

Seed 004 names this file ``memory/index.md``; that name is the session board in workmem
(DESIGN.md), so the log index lives here. The table is derived from the logs and can be
rebuilt at any time; text around the table (notes, a legacy index moved in by ``migrate``)
is a person's and is carried through untouched.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ..errors import WriteError
from ..files.freetext import neutralize_line
from ..files.store import Store
from ..files.tables import TableDocument, escape_cell, format_row, format_separator, unescape_cell
from ..root import Workspace
from .daily import LogDigest, list_logs, read_digest
from .paths import JournalPaths

COLUMNS = ("Date", "Sessions", "Summary", "Threads", "Topics")
TITLE = "# Daily log index"
INTRO = (
    "One row per daily log in `memory/` (newest first), rebuilt by `workmem migrate` and kept "
    "current by `workmem end`. Text outside the table is yours and is kept."
)


def template() -> str:
    return "\n".join(
        [TITLE, "", INTRO, "", format_row(COLUMNS), format_separator(len(COLUMNS)), ""]
    )


def _cell(text: str, limit: int) -> str:
    """Free text as a cell, exactly as the table reader gives it back (no trailing space)."""
    return unescape_cell(escape_cell(neutralize_line(text, limit=limit)))


def row_values(day: date, found: LogDigest) -> list[str]:
    """The row a daily log should have in the index (what ``doctor`` compares against)."""
    return [
        day.isoformat(),
        str(found.sessions),
        _cell(found.summary, 300),
        _cell(", ".join(found.threads[:8]), 400),
        _cell(", ".join(found.topics[:6]), 200),
    ]


def _parse(text: str | None, where: str) -> TableDocument:
    if text is None or not text.strip():
        return TableDocument.parse(template())
    if "|" not in text:
        # a note-only file (for example a legacy index in prose): keep it below a new table
        doc = TableDocument.parse(template())
        doc.after = ["", *text.rstrip("\n").split("\n")]
        return doc
    return TableDocument.parse(text, expected_header=COLUMNS, path=where)


@dataclass(frozen=True)
class IndexResult:
    rows: int
    changed: bool


def _verify(store: Store, path_show: str, wanted: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    def verify(text: str) -> None:
        doc = TableDocument.parse(text, expected_header=COLUMNS, path=path_show)
        have = {r.values[0]: r.values for r in doc.rows}
        for day, values in wanted.items():
            if have.get(day) != values:
                raise WriteError(f"{path_show}: row {day} did not verify after writing")

    return verify


def update_days(store: Store, workspace: Workspace, days: list[date]) -> IndexResult:
    """Refresh the rows of ``days`` from their logs (after a session wrote to them)."""
    paths = JournalPaths(workspace)
    path = paths.log_index
    wanted = {
        day.isoformat(): row_values(day, read_digest(store, paths.daily_log(day)))
        for day in days
        if paths.daily_log(day).is_file()
    }
    count = [0]

    def change(current: str | None) -> str:
        doc = _parse(current, store.show(path))
        by_day = {row.values[0]: row for row in doc.rows}
        for day_text, values in wanted.items():
            row = by_day.get(day_text)
            if row is None:
                position = next(
                    (i for i, r in enumerate(doc.rows) if r.values[0] < day_text), len(doc.rows)
                )
                doc.append(values)
                doc.rows.insert(position, doc.rows.pop())
            else:
                for column, value in zip(COLUMNS, values, strict=True):
                    doc.set_value(row, column, value)
        count[0] = len(doc.rows)
        return doc.render()

    result = store.update(path, change, verify=_verify(store, store.show(path), wanted))
    return IndexResult(count[0], result.changed)


def rebuild(store: Store, workspace: Workspace) -> IndexResult:
    """Every row again from the logs on disk; rows for logs that no longer exist are kept."""
    return update_days(store, workspace, [log.day for log in list_logs(workspace)])
