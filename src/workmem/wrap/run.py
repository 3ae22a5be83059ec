"""The session wrap-up (seed 000, Steps 1-8) as one verified workflow.

1 detect the platform, 2 gather state, 3 analyse (update over create: a topic that
matches an existing file's topic, spacing and case aside, updates that file), 4 write
(redacted, verified), 5 maintain, 6 regenerate the index, 7 bootstrap, 8 confirm. The
checkpoint mode skips Step 5 and marks each saved file with ``> Checkpoint: …``. When no
memory changes, nothing else is touched either and the report says "nothing new".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from .. import clock
from ..errors import UsageError, WorkmemError
from ..facts.antipatterns import Finding, findings
from ..facts.index import IndexReport, update_index
from ..facts.maintain import MaintenanceReport, maintain
from ..facts.typed import list_memories
from ..facts.write import MemoryInput, SaveResult, memory_text, save_memory
from ..files.store import Store
from ..platforms.bootstrap import BootstrapResult, bootstrap
from ..platforms.detect import Context, Detection, detect_platform, memory_path, row_for
from ..root import Workspace
from .gather import GatheredState, gather_state
from .publish import PublishReport, publish

_LOOSE = re.compile(r"[\W_]+", re.UNICODE)
#: Seed 000: "3-5 memory files is typical, 10+ is too many".
TOO_MANY_FILES = 10


@dataclass(frozen=True)
class Unsaved:
    """A memory whose write failed, and its text, given back so it is not lost."""

    filename: str
    error: str
    text: str

    def to_dict(self) -> dict[str, str]:
        return {"file": self.filename, "error": self.error, "text": self.text}


def pick_language(
    items: Sequence[MemoryInput], lang: str | None, workspace: Workspace | None = None
) -> str:
    """The table's language: ``lang`` (``--lang``) when it names one, else the
    ``[workmem] language`` setting; with ``auto``, the user's words when a hook saw them,
    else the memories' own words, else the system locale, else English."""
    from ..i18n import AUTO, check_setting, language_for

    words = " ".join(f"{i.description} {i.content}" for i in items)
    setting = check_setting(lang, "--lang") if lang is not None else None
    if setting is not None and setting != AUTO:
        return setting
    return language_for(workspace, setting=setting, words=words)


@dataclass
class WrapReport:
    platform: Detection
    language: str
    checkpoint: bool
    stamp: str
    state: GatheredState | None = None
    saved: list[SaveResult] = field(default_factory=list)
    maintenance: MaintenanceReport | None = None
    index: IndexReport | None = None
    bootstrap: BootstrapResult | None = None
    published: PublishReport | None = None
    #: the seed's anti-patterns found in the memories (written anyway unless strict)
    warnings: list[Finding] = field(default_factory=list)
    #: memories whose write failed, with their text for the person to save by hand
    unsaved: list[Unsaved] = field(default_factory=list)
    #: typed memory files in the folder after the wrap-up (10 or more: too many)
    memory_files: int = 0

    @property
    def too_many(self) -> bool:
        return self.memory_files >= TOO_MANY_FILES

    @property
    def nothing_new(self) -> bool:
        return not any(s.action != "unchanged" for s in self.saved)

    @property
    def problems(self) -> list[tuple[str, str]]:
        """Memories that could not be read (left untouched), from maintenance or the index."""
        if self.maintenance is not None:
            return self.maintenance.problems
        return self.index.problems if self.index is not None else []

    @property
    def redactions(self) -> int:
        """Secrets replaced in what was written (gathered git remotes are counted apart)."""
        return sum(s.redactions for s in self.saved)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": not self.unsaved,
            "nothing_new": self.nothing_new,
            "checkpoint": self.checkpoint,
            "stamp": self.stamp,
            "language": self.language,
            "platform": self.platform.to_dict(),
            "saved": [s.to_dict() for s in self.saved],
            "redactions": self.redactions,
            "maintenance": self.maintenance.to_dict() if self.maintenance else None,
            "index": self.index.to_dict() if self.index else None,
            "bootstrap": self.bootstrap.to_dict() if self.bootstrap else None,
            "published": self.published.to_dict() if self.published else None,
            "warnings": [w.to_dict() for w in self.warnings],
            "unsaved": [u.to_dict() for u in self.unsaved],
            "memory_files": self.memory_files,
            "too_many_files": self.too_many,
            "state": self.state.to_dict() if self.state else None,
        }


def match_existing(items: Sequence[MemoryInput], store: Store) -> list[MemoryInput]:
    """Point each item at an existing file of the same type whose topic is the same words."""
    existing: dict[tuple[str, str], str] = {}
    for memory in list_memories(store).memories:
        existing.setdefault((memory.type, _LOOSE.sub("", memory.topic.casefold())), memory.topic)
    resolved = []
    for item in items:
        key = (item.type, _LOOSE.sub("", item.topic.casefold()))
        topic = existing.get(key)
        if topic is not None and f"{item.type}_{topic}.md" != item.filename:
            item = replace(item, topic=topic)
        resolved.append(item)
    return resolved


def resolve_platform(workspace: Workspace, platform: str | None, home: Path | None) -> Detection:
    if platform:
        row = row_for(platform)
        ctx = Context.current(workspace.root, home)
        return Detection(row, f"--platform {platform}", memory_path(row, ctx), row.instructions)
    return detect_platform(workspace.root, home)


def wrap(
    workspace: Workspace,
    items: Sequence[MemoryInput],
    *,
    checkpoint: bool = False,
    publish_to_platform: bool = False,
    platform: str | None = None,
    home: Path | None = None,
    now: datetime | None = None,
    lang: str | None = None,
    run_bootstrap: bool = True,
    gather: bool = True,
    agent_name: str | None = None,
    strict: bool = False,
) -> WrapReport:
    """Steps 1-8 over ``items``; ``strict`` refuses memories that hold an anti-pattern."""
    found = [f for item in items for f in findings(item.filename, item.content)]
    if strict and found:
        listed = "; ".join(str(f) for f in found)
        raise UsageError(f"refused (--strict), nothing was written: {listed}")
    moment = now or clock.now()
    store = Store(workspace)
    detection = resolve_platform(workspace, platform, home)  # Step 1
    language = pick_language(items, lang, workspace)
    report = WrapReport(detection, language, checkpoint, clock.stamp(moment))
    report.warnings = found
    if gather:
        report.state = gather_state(workspace, store)  # Step 2
    planned = match_existing(items, store)  # Step 3
    for item in planned:  # Step 4
        try:
            saved = save_memory(
                store,
                item,
                today=moment.date(),
                platform=detection.key,
                checkpoint=report.stamp if checkpoint else None,
            )
        except (WorkmemError, OSError) as exc:  # the others are still saved; this one's
            text = memory_text(item, moment.date(), detection.key)  # text goes back
            report.unsaved.append(Unsaved(item.filename, str(exc) or type(exc).__name__, text))
            continue
        report.saved.append(saved)
    report.memory_files = len(list_memories(store).memories)
    if report.nothing_new:
        return report
    touched = {s.filename for s in report.saved}
    if checkpoint:  # the lightweight mode skips Step 5
        report.index = update_index(store, now=moment, touched=touched, agent_name=agent_name)
    else:  # Steps 5 and 6
        report.maintenance = maintain(
            workspace, store=store, now=moment, touched=touched, agent_name=agent_name
        )
        report.index = report.maintenance.index
    if run_bootstrap:  # Step 7
        report.bootstrap = bootstrap(workspace, detection.key, store=store)
    if publish_to_platform:
        report.published = publish(store, detection.memory_path, moment.date())
    return report
