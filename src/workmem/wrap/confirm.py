"""Step 8: the confirmation table, in the user's language (zh-TW is the seed's own table).

Everything in it comes from the verified reports of the earlier steps: the table lists
each file saved, compressed or merged; the lines below give the maintenance counts, the
platform and memory path, redactions, the boot directive and the mirror.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..files.tables import escape_cell
from ..i18n import text
from .run import Unsaved, WrapReport


def _row(*cells: str) -> str:
    return "| " + " | ".join(escape_cell(c) for c in cells) + " |"


def _given_back(t: Callable[..., str], unsaved: Unsaved) -> list[str]:
    """A memory whose write failed: why, and its whole text in a fence, to save by hand."""
    longest = max((len(run) for run in re.findall(r"`+", unsaved.text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [
        t("unsaved", file=unsaved.filename, error=unsaved.error),
        f"{fence}markdown",
        unsaved.text.rstrip("\n"),
        fence,
    ]


def render(report: WrapReport) -> str:
    def t(key: str, **fields: object) -> str:
        return text(report.language, f"wrap.{key}", **fields)

    # Each anti-pattern in the reader's language (the finding's own reason is for --json).
    warnings = [t("warning", finding=t(f"finding.{f.kind}", file=f.file)) for f in report.warnings]
    if report.too_many:
        warnings.append(t("too_many", n=report.memory_files))
    unsaved = [line for u in report.unsaved for line in _given_back(t, u)]
    if report.nothing_new:
        return "\n".join([*unsaved, *([] if unsaved else [t("nothing")]), *warnings])
    title = t("checkpoint_title", stamp=report.stamp) if report.checkpoint else t("title")
    head = (t("file"), t("action"), t("content"))
    lines = [title, _row(*head), "|" + "|".join("------" for _ in head) + "|"]
    for saved in report.saved:
        lines.append(_row(saved.filename, t(saved.action), saved.summary))
    maintenance = report.maintenance
    if maintenance is not None:
        for comp in maintenance.compressed:
            what = t("history_removed") if comp.history_expired else t("detail_moved")
            detail = t(
                "compress_detail", before=comp.lines_before, after=comp.lines_after, what=what
            )
            lines.append(_row(comp.filename, t("compressed"), detail))
        for pair in maintenance.merged:
            detail = t("merged_detail", target=pair.specific.filename)
            lines.append(_row(pair.generic.filename, t("merged"), detail))
        lines.append(
            t(
                "maintenance",
                c=len(maintenance.compressed),
                s=len(maintenance.stale),
                m=len(maintenance.merged),
            )
        )
    else:
        lines.append(t("maintenance_skipped"))
    lines.append(t("platform", name=report.platform.name, path="memory/ + MEMORY.md"))
    if report.redactions:
        lines.append(t("redacted", n=report.redactions))
    boot = report.bootstrap
    if boot is not None and boot.status == "added":
        lines.append(t("bootstrap_added", file=boot.file))
    elif boot is not None and boot.status == "manual":
        where = report.platform.row.instructions
        known = where != "—"  # the fallback platform has no instructions of its own
        lines.append(t("bootstrap_manual", where=where) if known else t("bootstrap_anywhere"))
    if report.published is not None:
        pub = report.published
        lines.append(t("published", target=pub.target, n=len(pub.written)))
        for name, reason in pub.skipped:
            lines.append(t("publish_skipped", file=name, reason=reason))
    lines.extend(unsaved)
    lines.extend(warnings)
    if report.index is not None:
        lines.extend(report.index.notes)
    for name, error in report.problems:
        lines.append(t("problem", file=name, error=error))
    if report.index is not None and report.index.created:
        lines.append(t("first"))
    lines.append(t("checkpoint_next") if report.checkpoint else t("next"))
    return "\n".join(lines)
