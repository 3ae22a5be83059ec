"""``workmem sync``: commit the memory, merge what other machines pushed, push, come back.

Memory lives on a branch of its own (``workmem`` by default), checked out in a work tree
inside the repository's git folder (``branch.MemoryTree``), not on the project's branches.
That keeps the project's history clean of memory commits, gives every code branch (and
every worktree) the same board, never needs a clean work tree or touches code, and lets
agents keep writing during a sync: the merge happens in the other work tree and results
come back through the locked store (``tree.import_files``).

One run: clear what a killed run left; bring in anything a previous run merged but did not
finish importing; copy the memory files out and commit them; fetch; rename this clone's
sessions and events that the remote also issued (``pre_merge``, ``rename``); merge (the
merge drivers decide each file); push, and when another machine pushed first, fetch, merge
and push again; bring the merged files back. Offline, the commit stays local and the run
says so; a remote that is wrong is an error that says so. Nothing in the memory's content
can stop a run: a file that cannot travel is refused and named, the rest goes on.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .. import clock
from ..config import load_settings
from ..errors import ConflictError, UsageError
from ..files.store import Store, read_bytes
from ..root import Workspace
from .branch import MemoryTree
from .gitrepo import GitError, toplevel
from .reconcile import daily_log_days, refresh_log_index, restore_archived_rows
from .setup import drivers_registered
from .tree import export_files, import_files, memory_files
from .writers import writer_tag

DEFAULT_BRANCH = "workmem"
DEFAULT_REMOTE = "origin"
IMPORTED_REF = "refs/workmem/imported"
ATTEMPTS = 5

__all__ = ["DEFAULT_BRANCH", "IMPORTED_REF", "MemoryTree", "SyncReport", "sync"]


@dataclass
class SyncReport:
    branch: str
    remote: str
    committed: bool = False
    merged: bool = False
    pushed: bool = False
    offline: bool = False
    no_remote: bool = False
    attempts: int = 0
    exported: list[str] = field(default_factory=list)
    #: files that came back: every path, and which of them are new or were deleted
    imported: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    #: files holding both versions a merge could not decide between (doctor lists them)
    conflicts: list[str] = field(default_factory=list)
    #: IDs of this clone renamed because the remote issued them too (old -> new)
    renamed: dict[str, str] = field(default_factory=dict)
    #: files that could not travel (links, folders, git's own files), skipped
    refused: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items()}


class _Run:
    """One sync's state: the store, the tree, what was exported (the import's base)."""

    def __init__(self, workspace: Workspace, store: Store, tree: MemoryTree, report: SyncReport):
        self.workspace = workspace
        self.store = store
        self.tree = tree
        self.report = report
        self.previously: set[str] = set()
        self.exported: dict[str, bytes | None] = {}

    def export(self, message: str, extra_gone: set[str] | None = None) -> None:
        self.exported, out = export_files(
            self.workspace.root, self.tree.path, self.previously | (extra_gone or set())
        )
        self.report.exported += [p for p in out.changed if p not in self.report.exported]
        self.report.refused += out.refused
        committed, taken_off = self.tree.commit_all(message)
        self.report.committed = self.report.committed or committed
        self.report.refused += [
            f"{rel}: not a memory file (a link or git's own file) on the memory branch, taken off"
            for rel in taken_off
        ]


def sync(
    workspace: Workspace, *, message: str | None = None, attempts: int = ATTEMPTS
) -> SyncReport:
    settings = load_settings(workspace)
    table = settings.section("sync")
    branch = str(table.get("branch") or DEFAULT_BRANCH)
    remote = str(table.get("remote") or DEFAULT_REMOTE)
    top = toplevel(workspace.root)
    if not drivers_registered(top):
        raise UsageError(
            "merge drivers are not set up in this clone; run `workmem sync init` first"
        )
    store = Store(workspace, lock_timeout=max(settings.board.lock_timeout, 60.0))
    report = SyncReport(branch, remote)
    tree = MemoryTree(top, branch, remote)
    run = _Run(workspace, store, tree, report)
    with store.lock(workspace.state_dir / "sync"):
        tree.ensure()
        if tree.cleared:
            report.notes.append(
                f"cleared what an interrupted sync left ({', '.join(tree.cleared)})"
            )
        tree.write_branch_files()
        imported = tree.rev(IMPORTED_REF)
        head = tree.rev("HEAD")
        if imported is not None and head is not None and imported != head:
            _bring_in(store, tree, imported, report)  # a run stopped before it imported
        run.previously = tree.files_at(imported)
        stamp = clock.stamp(clock.now())
        run.export(message or f"workmem: memory from {writer_tag(workspace.root)} at {stamp}")
        if remote not in tree.git("remote").out.split():
            report.no_remote = True
            report.notes.append(
                f"no remote named {remote!r}: the memory is committed in this clone only"
            )
        else:
            _exchange(run, attempts)
        _settle_markers(run)
        back = import_files(
            store,
            tree.path,
            set(memory_files(tree.path)) | set(run.exported),
            lambda rel: run.exported.get(rel),
        )
        report.imported = back.changed
        report.added, report.deleted = back.added, back.deleted
        report.refused += back.refused
        refresh_log_index(workspace.root, daily_log_days(back.merged))
        report.conflicts += [
            f"{rel}: changed here during the sync, both versions kept in the file"
            for rel in back.conflicts
        ]
        report.notes += [f"{rel}: kept this machine's version" for rel in back.kept_local]
        tree.git("update-ref", IMPORTED_REF, "HEAD")
        _verify(tree, report)
    return report


def _exchange(run: _Run, attempts: int) -> None:
    tree, report = run.tree, run.report
    for attempt in range(1, attempts + 1):
        report.attempts = attempt
        fetched = tree.fetch()
        if fetched == "offline":
            report.offline = True
            report.notes.append(
                "offline: the memory is committed locally and goes out at the next sync"
            )
            return
        if fetched == "ok":
            _make_room(run)
            merged, kept, notes = tree.merge_remote()
            report.merged = report.merged or merged
            report.conflicts += [f"{rel}: both versions kept in the file" for rel in kept]
            report.notes += notes
            if merged:
                _reconcile(tree, report)
                _tidy(run)
        pushed = tree.push()
        if pushed == "ok":
            report.pushed = True
            return
        if pushed == "offline":
            report.offline = True
            report.notes.append("could not reach the remote: the memory is committed locally")
            return
        time.sleep(0.2 * attempt)  # another machine pushed first: merge its work and retry
    raise ConflictError(
        f"the remote memory branch kept moving; gave up after {attempts} attempts "
        "(everything is committed locally; run workmem sync again)"
    )


def _make_room(run: _Run) -> None:
    """This clone's sessions and events the remote issued too get new IDs, everywhere in
    the memory root, before the merge (``pre_merge``)."""
    from .identity import OURS, note
    from .pre_merge import colliding
    from .rename import rename_in_root

    theirs = run.tree.rev(run.tree.remote_ref)
    if theirs is None:
        return
    from ..board.issued import issued_ids

    mapping = colliding(run.tree, theirs, issued_ids(run.store))
    if not mapping:
        return
    done = rename_in_root(run.store, mapping)
    gone = {run.workspace.relative(run.workspace.root / old) for old, _ in done.moved}
    run.export("workmem: renamed IDs another machine issued too", gone)
    run.report.renamed.update(mapping)
    for old, new in mapping.items():
        run.report.notes.append(
            note(old, new, OURS, "event" if old.startswith("evt-") else "session")
        )


def _tidy(run: _Run) -> None:
    """What the merge brought that is no memory file (a link, git's own file) leaves the
    branch again, and the report names it."""
    _, taken_off = run.tree.commit_all("workmem: only memory files on the memory branch")
    run.report.refused += [
        f"{rel}: not a memory file (a link or git's own file) on the memory branch, taken off"
        for rel in taken_off
    ]


def _reconcile(tree: MemoryTree, report: SyncReport) -> None:
    """After a merge commit: what no single file's merge can see (``reconcile``)."""
    merged = tree.git("diff", "--name-only", "-z", "HEAD^1", "HEAD", check=False).out
    restored = restore_archived_rows(tree.path)
    if restored:
        tree.commit_all("workmem: restore snapshots of sessions worked on while archived")
        report.notes += [
            f"{sid} was archived on one machine and worked on on another; its snapshot is back"
            for sid in restored
        ]
    days = daily_log_days(p for p in merged.split("\0") if p)
    if days and refresh_log_index(tree.path, days):
        tree.commit_all("workmem: log index rows from the merged daily logs")


def _bring_in(store: Store, tree: MemoryTree, imported: str, report: SyncReport) -> None:
    changed = tree.git("diff", "--name-only", "--no-renames", "-z", imported, "HEAD").out
    paths = {p for p in changed.split("\0") if p and p not in (".gitattributes", ".gitignore")}
    done = import_files(store, tree.path, paths, lambda rel: tree.content_at(imported, rel))
    report.imported += done.changed
    report.refused += done.refused
    tree.git("update-ref", IMPORTED_REF, "HEAD")


def _verify(tree: MemoryTree, report: SyncReport) -> None:
    """Re-read before reporting: the remote branch holds what was pushed."""
    if report.pushed:
        tree.fetch()
        if not tree.git("merge-base", "--is-ancestor", "HEAD", tree.remote_ref, check=False).ok:
            raise GitError("the push did not verify: the remote branch does not hold this commit")


def _settle_markers(run: _Run) -> None:
    """A merged file with conflict markers neither side had is merged by its kind here.

    The drivers never write markers, and free text cannot hold them (``freetext``), so
    markers both sides already had are content from before (doctor names them) and travel
    as they are; they never stop the run.
    """
    from ..files.markers import marker_line, split
    from .kinds import kind_of
    from .merge import merge_file

    tree = run.tree
    parents = tree.git("rev-list", "--parents", "-n", "1", "HEAD", check=False).out.split()[1:]
    settled = []
    for rel, path in memory_files(tree.path).items():
        data = read_bytes(path) or b""
        if b"<<<<<<<" not in data:
            continue
        text = data.decode("utf-8", "replace")
        if marker_line(text) is None:
            continue
        before = [tree.content_at(p, rel) or b"" for p in parents]
        if any(marker_line(b.decode("utf-8", "replace")) is not None for b in before):
            continue  # already in the memory before this merge: content, not a conflict
        parts = split(text)
        kind = kind_of(rel)
        if parts is None or kind is None:
            run.report.refused.append(f"{rel}: conflict markers the merge could not settle")
            continue
        merged = merge_file(kind, parts[0], parts[1], parts[2], rel, origin="the other machine")
        path.write_text(merged.text, encoding="utf-8")
        settled.append(rel)
    if settled:
        tree.commit_all("workmem: merge files git left with conflict markers")
        run.report.notes += [f"{rel}: merged the versions git left in it" for rel in settled]
