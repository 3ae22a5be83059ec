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
workmem owns (the board, a daily log, a snapshot, MEMORY.md, …) **and that file is there
beside it**; a free note's copy must also read as a version of the note (same first line,
most lines shared): the user's own ``design-API.md`` beside ``design.md``, or ``todo 2.md``
beside ``todo.md``, is never taken for a copy. OneDrive's computer name may hold hyphens
(``2026-06-01-DESKTOP-AB12CD3.md``), so every split of the name is tried.

``merge_copies`` merges each into its file with the same merge as git's drivers, without a
common ancestor (so nothing counts as deleted: the result is the union), then moves the copy
under ``memory/conflict-copies/``. Boards and event ledgers go first: a session or event
the copy holds under an ID the file gives to something else keeps both (``identity``: the
copy's gives way, with a new ID), and the copy's other files follow that rename (its
snapshot copy becomes the renamed session's snapshot). A copy that is not text (NUL bytes)
is left where it is and named.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..root import Workspace
from .kinds import BOARD, EVENTS, LOCAL_STATE, LOG_INDEX, TEXT, kind_of

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..doctor import DoctorReport
    from ..files.store import Store

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
    ("iCloud Drive", re.compile(r"^(?P<stem>.+?) (?:[2-9]|[1-9]\d{1,2})" + _EXT + "$")),
)
ONEDRIVE = "OneDrive"
#: A Windows computer name as OneDrive appends it: up to 15 upper-case letters, digits and
#: hyphens, not all digits.
_COMPUTER = re.compile(r"^(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]{0,14}$")


@dataclass(frozen=True)
class ConflictCopy:
    path: Path
    rel: str
    canonical_rel: str
    kind: str
    service: str


def _maybe_copy(name: str) -> bool:
    """A cheap first look: our own names are lower case without spaces (MEMORY.md aside)."""
    if name == "MEMORY.md":
        return False
    return " " in name or ".sync-conflict-" in name or name != name.lower()


def _candidates(name: str) -> list[tuple[str, str]]:
    """(service, the original's name) for every way ``name`` fits a service's pattern."""
    found = []
    for service, pattern in SERVICES:
        match = pattern.match(name)
        if match is not None:
            found.append((service, f"{match.group('stem')}{match.group('ext')}"))
    stem, dot, ext = name.rpartition(".")
    if dot and ext in ("md", "json"):
        for at in range(len(stem)):
            if stem[at] == "-" and at and _COMPUTER.match(stem[at + 1 :]):
                found.append((ONEDRIVE, f"{stem[:at]}.{ext}"))
    return found


def classify(rel: str, exists: Callable[[str], bool] | None = None) -> ConflictCopy | None:
    """The conflict copy ``rel`` is (relative to the memory root), or None.

    ``exists`` says whether an original is there (``find_copies`` asks the folder); a name
    is a copy only of an original that exists. Without it, the name alone decides (the
    original's kind is known and the name is not itself a copy's).
    """
    folder, _, name = rel.rpartition("/")
    if not _maybe_copy(name):
        return None
    best: ConflictCopy | None = None
    for service, original in _candidates(name):
        canonical = f"{folder}/{original}" if folder else original
        kind = kind_of(canonical)
        if kind is None or classify(canonical) is not None:
            continue
        if exists is not None and not exists(canonical):
            continue
        copy = ConflictCopy(Path(rel), rel, canonical, kind, service)
        if exists is not None or kind != TEXT:
            return copy
        best = best or copy  # a free note's copy: only when nothing more specific fits
    return best


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
    """Every conflict copy beside its original, boards and event ledgers first (their
    merge decides the IDs the other copies follow)."""
    root = workspace.root

    def exists(canonical: str) -> bool:
        original = root / canonical
        return original.is_file() and not original.is_symlink()

    found = []
    for rel in _walk(root):
        path = root / rel
        if path.is_symlink() or not path.is_file():
            continue
        copy = classify(rel, exists)
        if copy is None:
            continue
        if copy.kind == TEXT and not _versions_of_one_note(path, root / copy.canonical_rel):
            continue  # a free note of its own that happens to fit a pattern (design-API.md)
        found.append(ConflictCopy(path, rel, copy.canonical_rel, copy.kind, copy.service))
    return sorted(found, key=lambda c: (_ORDER.get(c.kind, 2), c.rel))


_ORDER = {BOARD: 0, EVENTS: 1}


def _versions_of_one_note(copy: Path, original: Path) -> bool:
    """A free note's name alone does not make a copy (``plan-Q3.md`` beside ``plan.md``):
    two versions of one note open alike and share most of their lines."""
    from ..files.store import read_bytes

    texts = []
    for path in (copy, original):
        data = read_bytes(path) or b""
        texts.append([line.strip() for line in data.decode("utf-8", "replace").split("\n")])
    mine, other = ([line for line in t if line] for t in texts)
    if not mine or not other or mine[0] != other[0]:
        return False
    shared = len(set(mine) & set(other))
    return shared * 2 >= min(len(set(mine)), len(set(other)))


@dataclass
class CopiesReport:
    merged: list[dict[str, str]] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: IDs the copies held for something else than the file did, renamed (old -> new)
    renamed: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "merged": self.merged,
            "conflicts": self.conflicts,
            "problems": self.problems,
            "renamed": self.renamed,
            "notes": self.notes,
        }


def merge_copies(workspace: Workspace) -> CopiesReport:
    """Merge every conflict copy into its file (two-way) and move the copy to the archive."""
    from .. import clock
    from ..errors import WorkmemError
    from ..files.store import Store
    from ..files.text import decode
    from .identity import rewrite
    from .reconcile import daily_log_days, refresh_log_index

    store = Store(workspace)
    report = CopiesReport()
    stamp = clock.now().strftime("%Y-%m-%d-%H%M%S")
    renamed: dict[str, str] = {}
    for copy in find_copies(workspace):
        into = _renamed_path(copy.canonical_rel, renamed)
        target = workspace.root / into
        try:
            found = store.read_bytes(copy.path)
            if found is None:
                continue
            if b"\0" in found:
                raise WorkmemError("it holds NUL bytes, so it is not text a memory file holds")
            text = rewrite(decode(found, copy.rel)[0], renamed)
            outcome = _MergeInto(copy, text, into)
            store.update(target, outcome.change)
            archived = workspace.root / ARCHIVE_DIR / stamp / copy.rel.removeprefix("memory/")
            store.move(copy.path, archived)
        except WorkmemError as exc:
            report.problems.append(f"{copy.rel}: {exc}; the copy was left where it is")
            continue
        if outcome.renamed:
            _follow_in_their_files(store, outcome.theirs_only, outcome.renamed)
        renamed.update(outcome.renamed)
        report.renamed.update(outcome.renamed)
        report.notes += outcome.notes
        report.merged.append(
            {
                "copy": copy.rel,
                "into": into,
                "service": copy.service,
                "archived": store.show(archived),
            }
        )
        days = daily_log_days([into])
        if days or copy.kind == LOG_INDEX:  # the index is derived from the logs
            refresh_log_index(workspace.root, days or None)
        if not outcome.clean:
            report.conflicts.append(f"{into}: both versions kept in the file (settle by hand)")
    if renamed:
        _follow_links(store, renamed)
    return report


def _rewriting(mapping: dict[str, str]) -> Callable[[str | None], str]:
    from .identity import rewrite

    def change(current: str | None) -> str:
        return rewrite(current or "", mapping)

    return change


def _follow_links(store: Store, renamed: dict[str, str]) -> None:
    """A snapshot that continues from a renamed session, where the board says which of the
    two it is: the renamed one lists it in Referenced By and the other does not."""
    from ..board.model import COLUMNS, split_references
    from ..board.snapshot import continues_from
    from ..errors import FormatError
    from .merge_tables import parse_board

    board = store.read_text(store.workspace.board_file)
    try:
        rows = parse_board(board[0] if board else "", "memory/index.md").rows
    except FormatError:
        return
    column = COLUMNS.index("Referenced By")
    references = {row.key: set(split_references(row.values[column])) for row in rows}
    for row in rows:
        path = store.workspace.snapshot_file(row.key)
        found = store.read_text(path)
        if found is None:
            continue
        fix = {
            old: new
            for old, new in renamed.items()
            if old in continues_from(found[0])
            and row.key in references.get(new, set())
            and row.key not in references.get(old, set())
        }
        if fix:
            store.update(path, _rewriting(fix))


def _follow_in_their_files(store: Store, sessions: set[str], renamed: dict[str, str]) -> None:
    """The other machine's own sessions (rows only its board had) came with snapshot and
    notes files that synced without a conflict: their references follow the renames too."""
    from .identity import rewrite

    folder = store.workspace.sessions_dir
    for session in sorted(sessions):
        for path in (folder / f"{session}.md", folder / f"{session}.notes.md"):
            data = store.read_bytes(path)
            if data is not None and any(old.encode() in data for old in renamed):
                store.update(path, lambda current: rewrite(current or "", renamed))


def _renamed_path(rel: str, renamed: dict[str, str]) -> str:
    """A snapshot, notes or archive path of a session the merge renamed, under its new ID."""
    parts = rel.split("/")
    if len(parts) == 3 and parts[1] == "sessions":
        for suffix in (".notes.md", ".md"):
            session = parts[2].removesuffix(suffix)
            if parts[2].endswith(suffix) and session in renamed:
                return f"memory/sessions/{renamed[session]}{suffix}"
    if len(parts) >= 4 and parts[1] == "archive" and parts[2] in renamed:
        return "/".join([*parts[:2], renamed[parts[2]], *parts[3:]])
    return rel


class _MergeInto:
    """The change a copy makes to its file, re-run against the latest text under the lock.

    The copy is the side that gives way when both hold one ID for two things: the file is
    what every machine already has."""

    def __init__(self, copy: ConflictCopy, text: str, into: str):
        self.copy = copy
        self.text = text
        self.into = into
        self.clean = True
        self.renamed: dict[str, str] = {}
        self.theirs_only: set[str] = set()
        self.notes: list[str] = []

    def change(self, current: str | None) -> str:
        from .identity import THEIRS
        from .merge import merge_file, readable

        if current is None and readable(self.copy.kind, self.text, self.into):
            return self.text  # the file itself is gone: the copy takes its place
        merged = merge_file(
            self.copy.kind,
            None,
            current or "",
            self.text,
            self.into,
            origin=self.copy.rel,
            renamed=THEIRS,
        )
        self.clean = merged.clean
        self.renamed = merged.renamed
        if merged.renamed and self.copy.kind == BOARD:
            self.theirs_only = _board_ids(self.text) - _board_ids(current or "")
        self.notes = [
            f"{self.copy.rel}: {note}" for note in merged.notes if "issued on both" in note
        ]
        return merged.text


def _board_ids(text: str) -> set[str]:
    from ..errors import FormatError
    from .merge_tables import parse_board

    try:
        return {row.key for row in parse_board(text, "memory/index.md").rows}
    except FormatError:
        return set()


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
