"""What ``workmem doctor --fix`` repairs on the board, safely and verified.

Two things, both halves of a change whose other half is known for sure:

- a board change a killed command left half-written (``intent``): completed, or dropped
  when nothing of it was written;
- a continuation recorded in a snapshot's Continues From whose source row does not list
  it in Referenced By (a kill between the two writes by an older version, or a hand
  edit): the snapshot is the seed's record of the continuation, so the source row is
  completed to match. The reverse (Referenced By without Continues From) is only
  reported: which side is wrong cannot be known.
"""

from __future__ import annotations

from ..doctor import DoctorReport
from ..errors import FormatError, UsageError, WriteError
from .context import BoardContext
from .references import add_reference
from .snapshot import continues_from

_INTERRUPTED = {
    "completed": "completed a board change that a stopped command left half-written",
    "dropped": "removed the note of a board change that was stopped before it wrote anything",
    "unreadable": "removed an unreadable note of an interrupted board change",
}


def repair_board(ctx: BoardContext, report: DoctorReport) -> None:
    try:
        outcome = ctx.index.finish_interrupted()
        if outcome is not None:
            report.fixed(_INTERRUPTED[outcome])
        _complete_references(ctx, report)
    except (FormatError, UsageError, WriteError):
        return  # the findings that follow say what is wrong; nothing is forced


def _complete_references(ctx: BoardContext, report: DoctorReport) -> None:
    snapshots = ctx.snapshot_ids()
    done: list[str] = []
    with ctx.index.transaction() as board:
        for row in board.rows():
            if row.session_id not in snapshots:
                continue
            for source in continues_from(ctx.snapshot_text(row.session_id) or ""):
                if source == row.session_id or board.get(source) is None:
                    continue
                if add_reference(board, source, row.session_id):
                    done.append(
                        f"{source} Referenced By now lists {row.session_id}, whose "
                        "snapshot continues from it"
                    )
    for line in done:
        report.fixed(line)
