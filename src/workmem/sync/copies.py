"""Conflict copies that cloud folders make of memory files, found and merged back.

When two machines change a file before the folder has synced, the service keeps one
version under the file's name and the other as a copy, each service naming it its own way:

==================  ==========================================================
Syncthing           ``index.sync-conflict-20260525-131800-ABCDEFG.md``
Dropbox             ``index (Alice's conflicted copy 2026-05-25).md``,
                    ``index (Case Conflict).md``, ``index (Selective Sync Conflict).md``
Obsidian Sync       ``index (Conflicted copy MacBook 202605251318).md``
Google Drive        ``index (1).md``
OneDrive            ``index-DESKTOP-AB12CD3.md`` (the computer's name, upper case)
iCloud Drive        ``index 2.md``
==================  ==========================================================

A name counts as a copy only when, with the service's addition taken off, it names a file
workmem owns (the board, a daily log, a snapshot, …). ``merge_copies`` merges each into its
file with the same merge as git's drivers, without a common ancestor (so nothing counts as
deleted: the result is the union), then moves the copy under ``memory/conflict-copies/``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..root import Workspace
from .kinds import LOCAL_STATE, LOG_INDEX, TEXT, kind_of

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..doctor import DoctorReport

ARCHIVE_DIR = "memory/conflict-copies"
_EXT = r"(?P<ext>\.(?:md|json))"
SERVICES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "Syncthing",
        re.compile(r"^(?P<stem>.+?)\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7}" + _EXT + "$"),
    ),
    (
        "Dropbox",
        re.compile(
            r"^(?P<stem>.+?) \((?:[^()]*'s )?conflicted copy(?: [^()]*?)?(?: \(\d+\))?\)"
            + _EXT
            + "$"
        ),
    ),
    (
        "Dropbox",
        re.compile(r"^(?P<stem>.+?) \((?:Case|Selective Sync) Conflict(?: \d+)?\)" + _EXT + "$"),
    ),
    (
        "Obsidian Sync",
        re.compile(r"^(?P<stem>.+?) \(Conflicted copy [^()]*\)" + _EXT + "$"),
    ),
    ("Google Drive", re.compile(r"^(?P<stem>.+?) \(\d{1,3}\)" + _EXT + "$")),
    (
        "OneDrive",
        re.compile(r"^(?P<stem>.+?)-(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]{0,62}" + _EXT + "$"),
    ),
    ("iCloud Drive", re.compile(r"^(?P<stem>.+?) (?:[2-9]|[1-9]\d{1,2})" + _EXT + "$")),
)


@dataclass(frozen=True)
class ConflictCopy:
    path: Path
    rel: str
    canonical_rel: str
    kind: str
    service: str


def _maybe_copy(name: str) -> bool:
    """A cheap first look: our own names are lower case without spaces (MEMORY.md aside)."""
    return (
        " " in name or ".sync-conflict-" in name or (name != name.lower() and name[:6] != "MEMORY")
    )


def classify(rel: str, exists: bool | None = None) -> ConflictCopy | None:
    """The conflict copy ``rel`` is (relative to the memory root), or None."""
    folder, _, name = rel.rpartition("/")
    if not _maybe_copy(name):
        return None
    for service, pattern in SERVICES:
        match = pattern.match(name)
        if match is None:
            continue
        canonical = (
            f"{folder}/{match.group('stem')}{match.group('ext')}"
            if folder
            else (f"{match.group('stem')}{match.group('ext')}")
        )
        kind = kind_of(canonical)
        if kind is None or classify(canonical) is not None:
            continue
        if kind == TEXT and exists is False:
            continue  # a free note's copy only when the note itself is there
        return ConflictCopy(Path(rel), rel, canonical, kind, service)
    return None


def _walk(root: Path) -> Iterator[str]:
    if root.is_dir():
        for entry in os.scandir(root):
            if entry.name.startswith("MEMORY") and entry.name != "MEMORY.md":
                yield entry.name
    folder = root / "memory"
    if not folder.is_dir() or folder.is_symlink():
        return
    for dirpath, dirnames, filenames in os.walk(folder):
        here = Path(dirpath).relative_to(root).as_posix()
        dirnames[:] = [
            d
            for d in dirnames
            if f"{here}/{d}/" != LOCAL_STATE
            and f"{here}/{d}" != ARCHIVE_DIR
            and not (Path(dirpath) / d).is_symlink()
        ]
        for name in filenames:
            if _maybe_copy(name):
                yield f"{here}/{name}"


def find_copies(workspace: Workspace) -> list[ConflictCopy]:
    root = workspace.root
    found = []
    for rel in _walk(root):
        path = root / rel
        if path.is_symlink():
            continue
        copy = classify(rel)
        if copy is None:
            continue
        if copy.kind == TEXT and not (root / copy.canonical_rel).is_file():
            continue
        found.append(ConflictCopy(path, rel, copy.canonical_rel, copy.kind, copy.service))
    return sorted(found, key=lambda c: c.rel)


@dataclass
class CopiesReport:
    merged: list[dict[str, str]] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {"merged": self.merged, "conflicts": self.conflicts, "problems": self.problems}


def merge_copies(workspace: Workspace) -> CopiesReport:
    """Merge every conflict copy into its file (two-way) and move the copy to the archive."""
    from .. import clock
    from ..errors import WorkmemError
    from ..files.store import Store
    from .reconcile import daily_log_days, refresh_log_index

    store = Store(workspace)
    report = CopiesReport()
    stamp = clock.now().strftime("%Y-%m-%d-%H%M%S")
    for copy in find_copies(workspace):
        target = workspace.root / copy.canonical_rel
        try:
            found = store.read_text(copy.path)
            if found is None:
                continue
            outcome = _MergeInto(copy, found[0])
            store.update(target, outcome.change)
            archived = workspace.root / ARCHIVE_DIR / stamp / copy.rel.removeprefix("memory/")
            store.move(copy.path, archived)
        except WorkmemError as exc:
            report.problems.append(f"{copy.rel}: {exc}; the copy was left where it is")
            continue
        report.merged.append(
            {
                "copy": copy.rel,
                "into": copy.canonical_rel,
                "service": copy.service,
                "archived": store.show(archived),
            }
        )
        days = daily_log_days([copy.canonical_rel])
        if days or copy.kind == LOG_INDEX:  # the index is derived from the logs
            refresh_log_index(workspace.root, days or None)
        if not outcome.clean:
            report.conflicts.append(
                f"{copy.canonical_rel}: both versions kept in the file (settle by hand)"
            )
    return report


class _MergeInto:
    """The change a copy makes to its file, re-run against the latest text under the lock."""

    def __init__(self, copy: ConflictCopy, text: str):
        self.copy = copy
        self.text = text
        self.clean = True

    def change(self, current: str | None) -> str:
        from .merge import merge_file, readable

        if current is None and readable(self.copy.kind, self.text, self.copy.canonical_rel):
            return self.text  # the file itself is gone: the copy takes its place
        merged = merge_file(
            self.copy.kind,
            None,
            current or "",
            self.text,
            self.copy.canonical_rel,
            origin=self.copy.rel,
        )
        self.clean = merged.clean
        return merged.text


def copies_notice(workspace: Workspace) -> str | None:
    """One line for the session-start hook when conflict copies wait to be merged."""
    copies = find_copies(workspace)
    if not copies:
        return None
    more = f" and {len(copies) - 1} more" if len(copies) > 1 else ""
    return (
        f"workmem: a cloud folder left conflict copies of memory files ({copies[0].rel}{more}); "
        "run `workmem sync --merge-copies` to merge them."
    )


def check_sync(workspace: Workspace, report: DoctorReport) -> None:
    """The doctor's check: conflict copies waiting, and versions a merge kept for a person."""
    from ..files.store import read_bytes
    from .kept import kept_versions
    from .tree import memory_files

    copies = find_copies(workspace)
    if copies and report.fix:
        merged = merge_copies(workspace)
        for item in merged.merged:
            report.fixed(f"merged conflict copy {item['copy']} into {item['into']}")
        copies = find_copies(workspace)
    for copy in copies:
        report.add(
            "conflict-copy",
            None,
            f"{copy.rel} is a {copy.service} conflict copy of {copy.canonical_rel}; "
            "merge it with `workmem sync --merge-copies`",
        )
    for rel, path in memory_files(workspace.root).items():
        if kind_of(rel) is None or rel.startswith(ARCHIVE_DIR + "/"):
            continue
        data = read_bytes(path) or b""
        if b"workmem:kept-version" not in data and b"workmem_kept_versions" not in data:
            continue
        for reason in kept_versions(data.decode("utf-8", "replace")):
            report.add(
                "kept-version",
                None,
                f"{rel} holds two versions a merge could not decide between ({reason}); "
                "keep what is right and delete the quoted block",
            )
