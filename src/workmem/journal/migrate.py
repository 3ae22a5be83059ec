"""``workmem migrate``: turn a legacy workspace (AGENT.md, MEMORY.md, daily logs) layered.

Every step of seed 004's migration, in an order where no step can destroy what a later one
needs: detect; copy logs that exist only in the ``memory/daily/`` mirror to their canonical
flat place; move a legacy daily-log ``memory/index.md`` to ``log-index.md`` (``.bak`` first;
the name belongs to the session board now); create the missing files, with ``state.json``
bootstrapped from the logs and ``resumption.md`` seeded from the newest one; wrap an
untiered MEMORY.md under ``## Active`` (``.bak`` first); patch AGENT.md once (``.bak``
first); rebuild the log index. ``--dry-run`` computes the same plan and writes nothing.
A second run finds every step done and changes nothing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConflictError, WriteError
from ..files.store import Store
from . import agent_patch, log_index
from .daily import digest, list_logs
from .journal import Journal
from .paths import day_of_log
from .scaffold import Detection, create_if_missing, detect
from .state import REVIEW_DUE, JournalState
from .templates import starter_texts

LEGACY_HEADING = "## Legacy index (moved from memory/index.md by workmem migrate)"


@dataclass
class Step:
    name: str
    action: str  # what happens (or would): create, write, move, patch, skip, rebuild
    path: str
    detail: str = ""
    changed: bool = False


@dataclass
class MigrationReport:
    root: str
    dry_run: bool
    detection: Detection
    steps: list[Step] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return any(step.changed for step in self.steps)

    def to_dict(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "dry_run": self.dry_run,
            "changed": self.changed,
            "detection": self.detection.to_dict(),
            "steps": [asdict(s) for s in self.steps],
        }


def backup(store: Store, path: Path) -> Path:
    """Copy ``path`` to ``path.bak`` (or ``.bak.2``…; an existing equal copy is reused)."""
    data = store.read_bytes(path)
    if data is None:
        raise WriteError(f"cannot back up {store.show(path)}: it does not exist")
    for index in range(1, 100):
        target = path.with_name(path.name + (".bak" if index == 1 else f".bak.{index}"))
        existing = store.read_bytes(target)
        if existing == data:
            return target
        if existing is None:
            with store.lock(target):
                store.write_bytes(target, data)  # verified by re-reading
            return target
    raise WriteError(f"too many backups of {store.show(path)}; clean up the .bak files")


def bootstrap_state(journal: Journal) -> str:
    """``state.json`` inferred from the logs on disk: count, last session, flags, threads."""
    logs = list_logs(journal.workspace)
    state = JournalState()
    threads: list[str] = []
    for log in logs:
        text = journal.text(log.path) or ""
        found = digest(text)
        state.session_count += found.sessions
        if log is logs[-1]:
            time = f" {found.last_time}" if found.last_time else ""
            state.last_session = f"{log.day.isoformat()}{time}"
            state.last_summary = found.latest_summary[:300] or None
        if log in logs[-3:]:
            threads = list(dict.fromkeys([*found.threads, *threads]))
    state.active_threads = threads[:10]
    # the wrapped MEMORY.md wants a first review (seed 004: "After migration: review MEMORY.md")
    state.flags = {REVIEW_DUE: bool(logs), "bootstrapped_from_logs": bool(logs)}
    # a curation already logged in MEMORY.md is not mistaken later for one done after this
    state.last_review = journal.last_maintenance_date()
    return state.render()


def seeded_resumption(journal: Journal) -> str:
    logs = list_logs(journal.workspace)
    if not logs:
        return starter_texts()["resumption.md"]
    newest = logs[-1]
    found = digest(journal.text(newest.path) or "")
    summary = found.latest_summary or "(the log has no summary line; read it first)"
    return (
        "# Resumption\n\n"
        f"I'm picking up from {newest.day.isoformat()}. Last time: {summary}\n\n"
        f"Before anything else I should read `memory/{newest.day.isoformat()}.md` and check "
        "which threads it left open. (Seeded by `workmem migrate` from that log; the next "
        "`workmem end` replaces this note with a real handoff.)\n"
    )


class _Migration:
    def __init__(self, journal: Journal, dry_run: bool, skip_agent_patch: bool) -> None:
        self.journal = journal
        self.store = journal.store
        self.paths = journal.paths
        self.dry_run = dry_run
        self.skip_agent_patch = skip_agent_patch
        self.report = MigrationReport(str(journal.workspace.root), dry_run, detect(journal))

    def step(
        self, name: str, action: str, path: Path, detail: str = "", changed: bool = False
    ) -> None:
        would = changed and self.dry_run
        self.report.steps.append(
            Step(
                name,
                f"would {action}" if would else action,
                self.journal.show(path),
                detail,
                changed and not self.dry_run,
            )
        )

    def run(self) -> MigrationReport:
        self.mirror_logs()
        self.legacy_index()
        self.missing_files()
        self.memory_md()
        self.agent_file()
        self.rebuild_index()
        return self.report

    def mirror_logs(self) -> None:
        for shown in self.report.detection.mirror_only_logs:
            source = self.journal.workspace.root / shown
            day = day_of_log(source.name)
            if day is None:
                continue
            target = self.paths.daily_log(day)
            text = self.journal.text(source) or ""
            if not self.dry_run:
                create_if_missing(self.store, target, text)
            self.step("copy mirror log", "create", target, f"from {shown} (mirror kept)", True)

    def legacy_index(self) -> None:
        legacy = self.paths.legacy_index
        kind = self.report.detection.index_kind
        if kind != "log-index":
            detail = {
                "absent": "no memory/index.md",
                "board": "memory/index.md is the session board",
            }
            self.step(
                "legacy index",
                "skip",
                legacy,
                detail.get(kind, "memory/index.md kept: not a daily-log index"),
            )
            return
        if self.dry_run:
            self.step("legacy index", "move", legacy, "to memory/log-index.md (with .bak)", True)
            return
        text = self.journal.text(legacy) or ""
        saved = backup(self.store, legacy)
        # its headings go two levels down so they sit inside the section (the .bak is verbatim)
        moved = "\n".join(
            "##" + line if line.startswith("#") and not line.startswith("#####") else line
            for line in text.strip().split("\n")
        )
        section = f"{LEGACY_HEADING}\n\n{moved}\n"

        def add(current: str | None) -> str:
            base = current if current is not None else log_index.template()
            if LEGACY_HEADING in base:
                return base
            return base.rstrip("\n") + "\n\n" + section

        self.store.update(self.paths.log_index, add)
        check = self.journal.text(self.paths.log_index) or ""
        if moved.strip() and moved.strip() not in check:
            raise WriteError("memory/log-index.md: the moved legacy index did not verify")
        with self.store.lock(legacy):
            legacy.unlink()
        self.step(
            "legacy index",
            "move",
            legacy,
            f"to memory/log-index.md; copy in {self.journal.show(saved)}",
            True,
        )

    def missing_files(self) -> None:
        texts = starter_texts()
        for name, path in self.paths.layered_files().items():
            if path.exists():
                self.step(f"create {name}", "skip", path, "exists")
                continue
            if (
                name == "log-index.md"
                and self.dry_run
                and self.report.detection.index_kind == "log-index"
            ):
                self.step(f"create {name}", "skip", path, "made by the legacy index move")
                continue
            detail = "starter"
            text = texts[name]
            if name == "state.json":
                text, detail = bootstrap_state(self.journal), "bootstrapped from the daily logs"
            elif name == "resumption.md":
                text, detail = seeded_resumption(self.journal), "seeded from the newest log"
            created = False if self.dry_run else create_if_missing(self.store, path, text)
            self.step(f"create {name}", "create", path, detail, created or self.dry_run)

    def memory_md(self) -> None:
        from ..facts.memory_md import check_nothing_lost, ensure_tiers, has_tiers, scaffold_text

        path = self.paths.memory_md
        text = self.journal.text(path)
        if text is None:
            if not self.dry_run:
                create_if_missing(self.store, path, scaffold_text())
            self.step("MEMORY.md tiers", "create", path, "scaffold", True)
            return
        if has_tiers(text):
            self.step("MEMORY.md tiers", "skip", path, "already has ## Active and ## Fading")
            return
        if self.dry_run:
            self.step(
                "MEMORY.md tiers", "write", path, "wrap content under ## Active (with .bak)", True
            )
            return
        saved = backup(self.store, path)

        def wrap(current: str | None) -> str:
            if current is None or has_tiers(current):
                return current or scaffold_text()
            return ensure_tiers(current)

        def verify(new: str) -> None:
            lost = check_nothing_lost(text, new)
            if lost:
                raise ConflictError(f"MEMORY.md lost {len(lost)} line(s) when wrapped")

        self.store.update(path, wrap, verify=verify)
        self.step(
            "MEMORY.md tiers",
            "write",
            path,
            f"wrapped under ## Active; copy in {self.journal.show(saved)}",
            True,
        )

    def agent_file(self) -> None:
        path = self.paths.agent_file()
        if path is None:
            self.step(
                "patch AGENT.md", "skip", self.paths.root / "AGENT.md", "no AGENT.md or AGENTS.md"
            )
            return
        if self.skip_agent_patch:
            self.step("patch AGENT.md", "skip", path, "--skip-agent-patch")
            return
        text = self.journal.text(path) or ""
        if agent_patch.is_patched(text):
            self.step("patch AGENT.md", "skip", path, "already has the memory-management section")
            return
        if self.dry_run:
            self.step(
                "patch AGENT.md",
                "patch",
                path,
                "append the memory-management section (with .bak)",
                True,
            )
            return
        saved = backup(self.store, path)

        def verify(new: str) -> None:
            if not new.startswith(text.rstrip("\n")) or not agent_patch.is_patched(new):
                raise WriteError(f"{self.journal.show(path)}: patch did not verify")

        self.store.update(path, lambda current: agent_patch.patched(current or ""), verify=verify)
        self.step(
            "patch AGENT.md",
            "patch",
            path,
            f"section appended; copy in {self.journal.show(saved)}",
            True,
        )

    def rebuild_index(self) -> None:
        path = self.paths.log_index
        logs = list_logs(self.journal.workspace)
        if self.dry_run:
            self.step("rebuild log index", "rebuild", path, f"{len(logs)} daily log(s)", bool(logs))
            return
        result = log_index.rebuild(self.store, self.journal.workspace)
        self.step(
            "rebuild log index",
            "rebuild" if result.changed else "skip",
            path,
            f"{result.rows} row(s)" + ("" if result.changed else ", already current"),
            result.changed,
        )


def migrate(
    root: str | Path | None = None, *, dry_run: bool = False, skip_agent_patch: bool = False
) -> MigrationReport:
    return _Migration(Journal.open(root), dry_run, skip_agent_patch).run()
