"""Memory files a merge left unfinished: found, said plainly, and merged on request.

A plain ``git merge`` without workmem's drivers (or a pull in a clone that never ran
``workmem sync init``) leaves conflict markers in memory files. Every structured reader
refuses such a file with ``files.markers.UnfinishedMergeError``; this module is where a
person (``workmem doctor``) and the session start (one line) hear about every one of them,
and where ``workmem doctor --fix`` settles them: the two versions in the file are split
apart and merged by the file's kind, the same merge the drivers and ``workmem sync`` use,
so nothing either side wrote is lost.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from ..root import Workspace
from .kinds import kind_of

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..doctor import DoctorReport
    from .textmerge import Merged

#: The files a session start reads (besides the board, which has its own line).
START_FILES = (
    "MEMORY.md",
    "memory/resumption.md",
    "memory/threads.md",
    "memory/state.json",
    "memory/events.json",
    "memory/log-index.md",
    "memory/relay-snapshot.md",
)


def _marker_line(path: Path) -> int | None:
    from ..files.markers import marker_line
    from ..files.store import read_bytes

    data = read_bytes(path)
    if not data or (b"<<<<<<<" not in data and b">>>>>>>" not in data):
        return None
    return marker_line(data.decode("utf-8", "replace"))


def unfinished_files(workspace: Workspace, rels: list[str] | None = None) -> list[tuple[str, int]]:
    """(path relative to the root, first marker line) of every memory file holding markers;
    only ``rels`` when given."""
    from .tree import memory_files

    root = workspace.root
    candidates = memory_files(root) if rels is None else {rel: root / rel for rel in rels}
    found = []
    for rel, path in sorted(candidates.items()):
        if path.is_symlink():
            continue
        line = _marker_line(path)
        if line is not None:
            found.append((rel, line))
    return found


def start_notice(workspace: Workspace) -> str | None:
    """One line for the session start when a file it reads holds an unfinished merge
    (the board has its own: ``board.inspect.board_notice``)."""
    from .. import clock
    from ..i18n import message

    today = clock.now().date()
    logs = [f"memory/{day:%Y-%m-%d}.md" for day in (today, today - timedelta(days=1))]
    found = unfinished_files(workspace, [*START_FILES, *logs])
    if not found:
        return None
    return message(workspace, "memory.unfinished_merge", files=", ".join(rel for rel, _ in found))


def settle(workspace: Workspace, rel: str) -> str | None:
    """Merge the versions a file's conflict markers hold; what was done, or None when the
    file cannot be settled this way (then it is left as it is)."""
    from ..files.markers import marker_line, split
    from ..files.store import Store
    from .merge import merge_file

    kind = kind_of(rel)
    if kind is None:
        return None
    outcome: list[Merged] = []

    def change(current: str | None) -> str:
        if current is None:
            raise _UnsettledError()
        parts = split(current)
        if parts is None:
            raise _UnsettledError()
        base, ours, theirs = parts
        merged = merge_file(kind, base, ours, theirs, rel, origin="the other branch")
        if marker_line(merged.text) is not None:
            raise _UnsettledError()
        outcome[:] = [merged]
        return merged.text

    try:
        Store(workspace).update(workspace.root / rel, change)
    except _UnsettledError:
        return None
    merged = outcome[0]
    kept = "" if merged.clean else "; both versions kept in the file to settle by hand"
    notes = "".join(f"; {note}" for note in merged.notes)
    return f"merged the two versions a merge left in {rel}{kept}{notes}"


class _UnsettledError(Exception):
    """The markers do not form complete blocks: a person has to look."""


def check_unfinished_merges(workspace: Workspace, report: DoctorReport) -> None:
    """The doctor's check: memory files holding conflict markers; ``--fix`` merges them."""
    from ..files.markers import UNFINISHED

    for rel, line in unfinished_files(workspace):
        if rel == "memory/index.md":
            continue  # the board's own check reports it (and settles it first with --fix)
        if report.fix and (done := settle(workspace, rel)) is not None:
            report.fixed(done)
            continue
        fix = (
            "run `workmem doctor --fix` to merge them"
            if kind_of(rel) is not None
            else "settle it by hand"
        )
        report.add("unfinished-merge", None, f"{rel}:{line}: {UNFINISHED}; {fix}")
