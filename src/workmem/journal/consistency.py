"""The working memory's part of ``workmem doctor``: the log index against the daily logs.

The log index is derived from the logs, so it can be checked exactly: every daily log needs
a row, and the row must say what the log says now (its sessions, summary, threads, topics).
A row that lags (an end that stopped before the index was written, a log edited by hand)
is reported, and ``doctor --fix`` rebuilds those rows through the same writer ``end``
uses. An end that stopped part-way leaves its reservation in ``state.json``; that is
reported too, with the command that finishes it (only the agent has the text to finish it).
"""

from __future__ import annotations

from datetime import date

from ..doctor import DoctorReport
from ..errors import WorkmemError
from ..files.tables import TableDocument
from ..root import Workspace
from .daily import list_logs, read_digest
from .journal import Journal
from .log_index import COLUMNS, row_values, update_days


def check_journal(workspace: Workspace, report: DoctorReport) -> None:
    """Add the journal's inconsistencies to ``report`` (and repair the index with ``fix``)."""
    journal = Journal.open(workspace.root)
    _check_index(journal, report)
    _check_unfinished_ends(journal, report)


def _check_index(journal: Journal, report: DoctorReport) -> None:
    logs = list_logs(journal.workspace)
    if not logs:
        return
    store, path = journal.store, journal.paths.log_index
    shown = journal.show(path)
    try:
        text = journal.text(path)
        rows: dict[str, list[str]] = {}
        if text is not None and "|" in text:
            table = TableDocument.parse(text, expected_header=COLUMNS, path=shown)
            rows = {row.values[0]: list(row.values) for row in table.rows}
    except WorkmemError as exc:
        report.add("log-index-unreadable", None, f"{exc} (fix the table by hand)")
        return
    lagging: list[date] = []
    for log in logs:
        try:
            wanted = row_values(log.day, read_digest(store, log.path))
        except WorkmemError as exc:
            report.add("daily-log-unreadable", None, str(exc))
            continue
        have = rows.get(log.day.isoformat())
        if have is None:
            report.add("log-index-missing-row", None, f"{shown} has no row for {log.day}")
            lagging.append(log.day)
        elif have != wanted:
            columns = [c for c, a, b in zip(COLUMNS, have, wanted, strict=False) if a != b]
            report.add(
                "log-index-stale-row",
                None,
                f"{shown}: the row for {log.day} differs from its log ({', '.join(columns)})",
            )
            lagging.append(log.day)
    if lagging and report.fix:
        try:
            update_days(store, journal.workspace, lagging)
        except WorkmemError as exc:
            report.add("log-index-not-repaired", None, str(exc))
            return
        report.fixed(f"{shown}: rebuilt the rows of {len(lagging)} daily log(s) from the logs")


def _check_unfinished_ends(journal: Journal, report: DoctorReport) -> None:
    if not journal.paths.state.is_file():
        return
    try:
        state = journal.state()
    except WorkmemError as exc:
        report.add("state-unreadable", None, str(exc))
        return
    from .reservation import stopped

    for key, record in state.open_sessions.items():
        # an end still running is not unfinished: only one whose owner is gone
        for ending in stopped(record):
            option = "" if key == "default" else f" --session {key!r}"
            report.add(
                "unfinished-session-end",
                None,
                f"session {ending.get('number')} (key {key}) stopped part-way on "
                f"{ending.get('day', 'an earlier day')}: run `workmem end{option}` again to "
                "finish it",
            )
