"""``workmem sync``: commit the memory, merge what other machines pushed, push, come back.

Memory lives on a branch of its own (``workmem`` by default), checked out in a work tree
inside the repository's git folder, not on the project's branches. That keeps the
project's history clean of memory commits, gives every code branch the same board (a
checkout does not hide sessions), never needs a clean work tree or touches code, and lets
agents keep writing during a sync: the merge happens in the other work tree and results
come back through the locked store (``tree.import_files``).

One run: bring in anything a previous run merged but did not finish importing; copy the
memory files out and commit them; fetch and merge the remote branch (the merge drivers
decide each file); push, and when another machine pushed first, fetch, merge and push
again; bring the merged files back. Offline, the commit stays local and the run says so.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import clock
from ..config import load_settings
from ..errors import ConflictError, UsageError
from ..files.store import Store, read_bytes
from ..root import Workspace
from .gitrepo import GitError, GitResult, common_dir, config_get, git, git_bytes, toplevel
from .kinds import PATTERNS
from .reconcile import daily_log_days, refresh_log_index, restore_archived_rows
from .setup import DRIVER_PREFIX, IGNORE_LINE, drivers_registered
from .tree import export_files, import_files, memory_files
from .writers import writer_tag

DEFAULT_BRANCH = "workmem"
DEFAULT_REMOTE = "origin"
IMPORTED_REF = "refs/workmem/imported"
ATTEMPTS = 5
_MARKERS = (b"<<<<<<< ", b"\n<<<<<<< ")


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
    imported: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items()}


class MemoryTree:
    """The memory branch's work tree for one clone."""

    def __init__(self, top: Path, branch: str, remote: str):
        self.top = top
        self.branch = branch
        self.remote = remote
        self.path = common_dir(top) / "workmem" / "tree"
        identity = (
            config_get(top, "user.email") or git(top, "config", "user.email", check=False).out
        )
        self._ident: tuple[str, ...] = (
            ()
            if identity.strip()
            else ("-c", "user.name=workmem", "-c", "user.email=workmem@localhost")
        )

    def git(self, *args: str, check: bool = True) -> GitResult:
        # Memory commits are workmem's own: a signing requirement or a hook of the project
        # must not stop them (the project's own commits are untouched).
        return git(self.path, *self._ident, "-c", "commit.gpgsign=false", *args, check=check)

    def rev(self, ref: str) -> str | None:
        found = git(self.top, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
        return found.out.strip() if found.ok and found.out.strip() else None

    @property
    def remote_ref(self) -> str:
        return f"refs/remotes/{self.remote}/{self.branch}"

    def ensure(self) -> None:
        """The work tree, on the memory branch; a new clone starts from an empty history so
        its first merge with the remote branch is a union of both (no side is overwritten)."""
        if (self.path / ".git").exists():
            return
        git(self.top, "worktree", "prune", check=False)
        if self.rev(f"refs/heads/{self.branch}") is None:
            empty_tree = git(self.top, "mktree").out.strip()
            root_commit = git(
                self.top,
                *self._ident,
                "commit-tree",
                empty_tree,
                "-m",
                "workmem: memory branch",
            ).out.strip()
            git(self.top, "branch", self.branch, root_commit)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        git(self.top, "worktree", "add", "--quiet", str(self.path), self.branch)

    def write_branch_files(self) -> None:
        attributes = ["# workmem: merge memory files by kind (workmem sync)"]
        attributes += [f"{p} merge={DRIVER_PREFIX}{k}" for p, k in PATTERNS]
        wanted = {
            ".gitattributes": "\n".join(attributes) + "\n",
            ".gitignore": f"{IGNORE_LINE}\n",
        }
        for name, text in wanted.items():
            path = self.path / name
            if read_bytes(path) != text.encode():
                path.write_text(text, encoding="utf-8")

    def files_at(self, rev: str | None) -> set[str]:
        if rev is None:
            return set()
        listing = self.git("ls-tree", "-r", "-z", "--name-only", rev).out
        return {p for p in listing.split("\0") if p and p not in (".gitattributes", ".gitignore")}

    def content_at(self, rev: str, rel: str) -> bytes | None:
        return git_bytes(self.path, "cat-file", "blob", f"{rev}:{rel}")

    def commit_all(self, message: str) -> bool:
        # --force: the clone's info/exclude (shared by work trees) hides memory/; local state
        # (locks of the index refresh) stays out all the same.
        self.git("add", "-A", "--force", "--", ".", ":(exclude)memory/.workmem")
        if self.git("diff", "--cached", "--quiet", check=False).ok:
            return False
        self.git("commit", "--quiet", "--no-verify", "-m", message)
        return True

    def fetch(self) -> str:
        """'ok', 'missing' (the remote has no memory branch yet) or 'offline'."""
        found = self.git(
            "fetch",
            "--quiet",
            self.remote,
            f"+refs/heads/{self.branch}:{self.remote_ref}",
            check=False,
        )
        if found.ok:
            return "ok"
        if "couldn't find remote ref" in found.err or "could not find remote ref" in found.err:
            return "missing"
        return "offline"

    def merge_remote(self) -> tuple[bool, list[str], list[str]]:
        """Merge the fetched branch: (merged anything, conflicted paths, driver notes)."""
        head = self.rev("HEAD")
        theirs = self.rev(self.remote_ref)
        if theirs is None or theirs == head:
            return False, [], []
        if self.git("merge-base", "--is-ancestor", theirs, "HEAD", check=False).ok:
            return False, [], []
        done = self.git(
            # A folder emptied by an archive (sessions/ moved to archive/<id>/) must not
            # carry the other side's new snapshots along with it.
            "-c",
            "merge.directoryRenames=false",
            "merge",
            "--ff",
            "--no-verify",
            "--no-edit",
            "--allow-unrelated-histories",
            "-m",
            f"workmem: merge memory from {self.remote}",
            self.remote_ref,
            check=False,
        )
        notes = [line.strip() for line in done.err.splitlines() if "workmem merge:" in line]
        if done.ok:
            return True, [], notes
        unmerged = [
            p for p in self.git("diff", "--name-only", "--diff-filter=U", "-z").out.split("\0") if p
        ]
        if not unmerged:
            self.git("merge", "--abort", check=False)
            raise GitError(
                f"merging the memory branch failed: {done.err.strip() or done.out.strip()}"
            )
        for rel in unmerged:
            self._settle(rel)
        self.git("commit", "--quiet", "--no-verify", "--no-edit")
        return True, unmerged, notes

    def _settle(self, rel: str) -> None:
        """A path git left unmerged: the drivers already kept both versions (no markers);
        a file git merged itself is redone by the text merge; a deleted/changed file is kept."""
        path = self.path / rel
        data = read_bytes(path)
        if data is None:
            self.git("rm", "--quiet", "--cached", "--ignore-unmatch", "--", rel)
            return
        if data.startswith(_MARKERS[0]) or _MARKERS[1] in data:
            from .merge import merge_file

            stages = [git_bytes(self.path, "cat-file", "blob", f":{n}:{rel}") for n in (1, 2, 3)]
            texts = [(s or b"").decode("utf-8", "replace") for s in stages]
            merged = merge_file("text", texts[0], texts[1], texts[2], rel)
            path.write_text(merged.text, encoding="utf-8")
        self.git("add", "--force", "--", rel)

    def push(self) -> str:
        """'ok', 'rejected' (someone pushed first) or 'offline'."""
        done = self.git(
            "push", "--quiet", self.remote, f"{self.branch}:refs/heads/{self.branch}", check=False
        )
        if done.ok:
            return "ok"
        text = done.err + done.out
        if any(w in text for w in ("rejected", "non-fast-forward", "fetch first", "stale info")):
            return "rejected"
        return "offline"


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
    with store.lock(workspace.state_dir / "sync"):
        tree.ensure()
        tree.write_branch_files()
        imported = tree.rev(IMPORTED_REF)
        head = tree.rev("HEAD")
        if imported is not None and head is not None and imported != head:
            _bring_in(store, tree, imported, report)  # a run stopped before it imported
        exported, out = export_files(workspace.root, tree.path, tree.files_at(imported))
        report.exported = out.changed
        stamp = clock.stamp(clock.now())
        report.committed = tree.commit_all(
            message or f"workmem: memory from {writer_tag(workspace.root)} at {stamp}"
        )
        remotes = tree.git("remote").out.split()
        if remote not in remotes:
            report.no_remote = True
            report.notes.append(
                f"no remote named {remote!r}: the memory is committed in this clone only"
            )
        else:
            _exchange(tree, report, attempts)
        _check_markers(tree)
        back = import_files(
            store,
            tree.path,
            set(memory_files(tree.path)) | set(exported),
            lambda rel: exported.get(rel),
        )
        report.imported = back.changed
        refresh_log_index(workspace.root, daily_log_days(back.merged))
        report.conflicts += [
            f"{rel}: changed here during the sync, merged" for rel in back.conflicts
        ]
        report.notes += [f"{rel}: kept this machine's version" for rel in back.kept_local]
        tree.git("update-ref", IMPORTED_REF, "HEAD")
        _verify(tree, report)
    return report


def _exchange(tree: MemoryTree, report: SyncReport, attempts: int) -> None:
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
            merged, conflicts, notes = tree.merge_remote()
            report.merged = report.merged or merged
            report.conflicts += conflicts
            report.notes += notes
            if merged:
                _reconcile(tree, report)
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
    tree.git("update-ref", IMPORTED_REF, "HEAD")


def _verify(tree: MemoryTree, report: SyncReport) -> None:
    """Re-read before reporting: the remote branch holds what was pushed."""
    if report.pushed:
        tree.fetch()
        if not tree.git("merge-base", "--is-ancestor", "HEAD", tree.remote_ref, check=False).ok:
            raise GitError("the push did not verify: the remote branch does not hold this commit")


def _check_markers(tree: MemoryTree) -> None:
    """No merged file may hold conflict markers; nothing is imported if one does."""
    for rel, path in memory_files(tree.path).items():
        data = read_bytes(path) or b""
        if data.startswith(_MARKERS[0]) or _MARKERS[1] in data:
            raise GitError(f"{rel} holds conflict markers after the merge; nothing was imported")
