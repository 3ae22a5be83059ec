"""Memory maintenance (seed 000, Step 5) and the index update that follows it (Step 6).

Order matters: deduplicate first (so a merged file is compressed once, as one), then
compress files over 50 lines, then check staleness while regenerating the index. Stale
memories are only marked ``[STALE]``; nothing is deleted automatically except a generic
file whose every line now lives in the more specific one. Each run leaves one line in the
Maintenance Log when it changed anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .. import clock
from ..errors import WorkmemError, WriteError
from ..files.store import Store
from ..root import Workspace
from .archive import append_archive, archive_block
from .compress import COMPRESS_OVER, Compression, compress_text
from .dedup import Overlap, find_overlaps, merge_pair
from .index import IndexReport, update_index
from .typed import list_memories, read_memory


@dataclass
class MaintenanceReport:
    compressed: list[Compression] = field(default_factory=list)
    merged: list[Overlap] = field(default_factory=list)
    index: IndexReport | None = None
    problems: list[tuple[str, str]] = field(default_factory=list)
    dry_run: bool = False
    #: Staleness found without writing the index (dry runs).
    stale_found: list[tuple[str, str]] = field(default_factory=list)

    @property
    def stale(self) -> list[tuple[str, str]]:
        return self.index.stale if self.index else self.stale_found

    @property
    def history_expired(self) -> int:
        return sum(c.history_expired for c in self.compressed)

    def to_dict(self) -> dict[str, Any]:
        return {
            "dry_run": self.dry_run,
            "compressed": [c.to_dict() for c in self.compressed],
            "merged": [m.to_dict() for m in self.merged],
            "stale": [{"file": f, "reason": r} for f, r in self.stale],
            "index": self.index.to_dict() if self.index else None,
            "problems": [{"file": f, "error": e} for f, e in self.problems],
        }


def _compress_one(store: Store, name: str, now: datetime, over: int) -> Compression | None:
    today = now.date()
    path = store.workspace.memory_dir / name
    with store.lock(path):
        memory = read_memory(store, path)
        if memory is None or memory.lines <= over:
            return None
        current = store.read_text(path)
        assert current is not None
        result = compress_text(current[0], name, today, over=over)
        if result is None:
            return None
        stamp = clock.stamp(now)
        append_archive(store, archive_block(stamp, f"compress {name}", result.archived))
        head = memory.front.render(body="")

        def verify(text: str) -> None:
            if not text.startswith(head):
                raise WriteError(f"{store.show(path)}: frontmatter changed while compressing")

        store.update(path, lambda latest: result.text, verify=verify)
        return result


def maintain(
    workspace: Workspace,
    *,
    store: Store | None = None,
    now: datetime | None = None,
    dry_run: bool = False,
    touched: set[str] | None = None,
    agent_name: str | None = None,
    compress_over: int = COMPRESS_OVER,
) -> MaintenanceReport:
    """Dedup, compress, staleness, index. ``dry_run`` reports what would happen only."""
    store = store or Store(workspace)
    moment = now or clock.now()
    day = moment.date()
    report = MaintenanceReport(dry_run=dry_run)
    listing = list_memories(store)
    report.problems = list(listing.problems)
    report.merged = find_overlaps(listing.memories)
    if dry_run:
        report.stale_found = [
            (m.filename, why) for m in listing.memories if (why := m.stale_reason(day))
        ]
        for memory in listing.memories:
            current = store.read_text(memory.path)
            if current is None:
                continue
            found = compress_text(current[0], memory.filename, day, over=compress_over)
            if found is not None:
                report.compressed.append(found)
        return report
    done: list[Overlap] = []
    for pair in report.merged:
        try:
            merge_pair(store, pair, day)
        except WorkmemError as exc:
            report.problems.append((pair.generic.filename, f"not merged: {exc}"))
            continue
        done.append(pair)
    report.merged = done
    memories = list_memories(store).memories
    for memory in memories:
        try:
            found = _compress_one(store, memory.filename, moment, compress_over)
        except WorkmemError as exc:
            report.problems.append((memory.filename, f"not compressed: {exc}"))
            continue
        if found is not None:
            report.compressed.append(found)
    removed = {pair.generic.filename for pair in done}
    keep = set(touched or ()) | {pair.specific.filename for pair in done}
    # Compression keeps frontmatter byte-identical, so staleness from this listing holds.
    preview = sum(1 for m in memories if m.stale_reason(day))
    report.index = update_index(
        store,
        now=moment,
        touched=keep,
        removed=removed,
        log=_log(report, preview),
        agent_name=agent_name,
    )
    return report


def _log(report: MaintenanceReport, stale: int) -> str | None:
    """A Maintenance Log line when files changed; stale marks alone show in the index."""
    if not (report.compressed or report.merged):
        return None
    return (
        f"maintain: compressed {len(report.compressed)}, merged {len(report.merged)}, "
        f"stale {stale}, history expired {report.history_expired}"
    )
