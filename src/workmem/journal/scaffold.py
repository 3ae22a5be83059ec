"""``workmem init``: create the working-memory files that are missing, never touch the rest.

Each file is created inside its own locked update that only writes when the file is still
absent at that moment, so running ``init`` beside a live agent (or twice at once) can never
overwrite anything. A legacy workspace (instructions, MEMORY.md and daily logs, but no
layered files) is not scaffolded over: ``migrate`` is the tool for it, and init says so.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError, WriteError
from ..files.store import Store
from ..root import find_root
from .daily import list_logs
from .journal import Journal
from .paths import JournalPaths, day_of_log
from .templates import starter_texts

_BOARD_HEADER_START = "session id"


@dataclass
class Detection:
    """What a workspace already has (seed 004's migration step 1)."""

    agent_file: str | None
    memory_md: bool
    memory_tiered: bool
    daily_logs: int
    mirror_only_logs: list[str]
    missing: list[str]
    index_kind: str  # "absent" | "board" | "log-index" | "unknown"

    @property
    def legacy(self) -> bool:
        has_logs = self.daily_logs > 0 or bool(self.mirror_only_logs)
        has_memory = self.agent_file is not None or self.memory_md
        unmigrated = (
            "state.json" in self.missing
            or (self.memory_md and not self.memory_tiered)
            or self.index_kind == "log-index"
        )
        return has_logs and has_memory and unmigrated

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "legacy": self.legacy}


def index_kind(text: str | None) -> str:
    """Is ``memory/index.md`` the session board, or seed 004's daily-log index?"""
    if text is None:
        return "absent"
    from ..files.tables import TableDocument

    try:
        doc = TableDocument.parse(text)
    except Exception:  # no table: prose; decide by what it mentions
        doc = None
    if doc is not None and doc.header and doc.header[0].strip().casefold() == _BOARD_HEADER_START:
        return "board"
    mentions_logs = any(day_of_log(word.strip("[]()<>`|*")) for word in text.split()) or (
        doc is not None and doc.header and doc.header[0].strip().casefold() in ("date", "日期")
    )
    import re

    if mentions_logs or re.search(r"\b\d{4}-\d{2}-\d{2}\b", text):
        return "log-index"
    return "unknown"


def detect(journal: Journal) -> Detection:
    paths = journal.paths
    memory_text = journal.text(paths.memory_md) if paths.memory_md.is_file() else None
    tiered = False
    if memory_text is not None:
        from ..facts.memory_md import has_tiers

        tiered = has_tiers(memory_text)
    flat = {log.day for log in list_logs(journal.workspace)}
    mirror: list[str] = []
    if paths.daily_mirror.is_dir():
        for entry in sorted(paths.daily_mirror.iterdir()):
            day = day_of_log(entry.name)
            if day is not None and entry.is_file() and day not in flat:
                mirror.append(journal.show(entry))
    index_text = journal.text(paths.legacy_index) if paths.legacy_index.is_file() else None
    agent = paths.agent_file()
    return Detection(
        agent_file=journal.show(agent) if agent else None,
        memory_md=memory_text is not None,
        memory_tiered=tiered,
        daily_logs=len(flat),
        mirror_only_logs=mirror,
        missing=[name for name, p in paths.layered_files().items() if not p.exists()],
        index_kind=index_kind(index_text),
    )


def create_if_missing(store: Store, path: Path, text: str) -> bool:
    """Write ``text`` only if ``path`` does not exist at the moment of writing."""

    def change(current: str | None) -> str:
        return text if current is None else current

    def verify(reread: str) -> None:
        if reread != text:
            raise WriteError(f"{store.show(path)}: content did not verify after creating it")

    return store.update(path, change, verify=verify).created


@dataclass
class InitReport:
    root: str
    created: list[str] = field(default_factory=list)
    existing: list[str] = field(default_factory=list)
    detection: Detection | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "created": self.created,
            "existing": self.existing,
            "detection": self.detection.to_dict() if self.detection else None,
        }


def init(
    root: str | Path | None = None,
    *,
    agent_name: str | None = None,
    user_name: str | None = None,
    force_scaffold: bool = False,
) -> InitReport:
    # Starting a memory root is what init is for: the folder found is the user's choice here,
    # even when it is only the git top-level or the current folder.
    journal = Journal.open(find_root(root))
    found = detect(journal)
    if found.legacy and not force_scaffold:
        what = ", ".join(
            bit
            for bit in (
                found.agent_file,
                "MEMORY.md" if found.memory_md else None,
                f"{found.daily_logs} daily log(s)" if found.daily_logs else None,
            )
            if bit
        )
        raise UsageError(
            f"this looks like a legacy workspace ({what}, no layered files yet): run "
            "`workmem migrate` (preview with --dry-run), or `workmem init --force-scaffold` "
            "to scaffold anyway; nothing was written"
        )
    from ..facts.memory_md import scaffold_text

    report = InitReport(root=str(journal.workspace.root), detection=found)
    paths: JournalPaths = journal.paths
    wanted = {paths.memory_md: scaffold_text(agent_name, user_name)}
    for name, text in starter_texts().items():
        wanted[paths.layered_files()[name]] = text
    for path, text in wanted.items():
        shown = journal.show(path)
        if create_if_missing(journal.store, path, text):
            report.created.append(shown)
        else:
            report.existing.append(shown)
    return report
