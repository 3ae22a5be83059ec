"""The memory branch's work tree: where ``workmem sync`` commits, fetches, merges and pushes.

It lives inside the repository's git folder (``<git common dir>/workmem/tree``), a linked
worktree on the memory branch, so the project's own work tree and branches are never
touched. Everything on the branch is workmem's to decide: its ``.gitattributes`` and
``.gitignore`` are written by workmem at every run and never taken from memory content, and
only memory files are ever staged (never a link, a git file, a writer's temp file or git's
own ``.merge_file_*``). A run that was killed leaves nothing that stops the next one: its
git locks and half-done merge are cleared first (the caller holds workmem's sync lock, so
no other sync can own them).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..files.store import read_bytes
from .gitrepo import GitError, GitResult, common_dir, config_get, git, git_bytes
from .identity import IDS_SETTLED
from .kinds import PATTERNS

#: Files at the top of the branch that are workmem's own.
BRANCH_FILES = (".gitattributes", ".gitignore")
_MARKERS = (b"<<<<<<< ", b"\n<<<<<<< ")
_OFFLINE = re.compile(
    r"could not resolve host|connection (?:refused|timed out|reset)|network is unreachable|"
    r"operation timed out|failed to connect|temporary failure in name resolution|"
    r"no route to host|could not connect|timed out",
    re.IGNORECASE,
)


def branch_attributes() -> str:
    from .setup import DRIVER_PREFIX

    lines = ["# workmem: merge memory files by kind (workmem sync)"]
    lines += [f"{p} merge={DRIVER_PREFIX}{k}" for p, k in PATTERNS]
    return "\n".join(lines) + "\n"


def is_memory_file(rel: str) -> bool:
    """A path the memory branch may hold: memory content, never git's or a writer's files."""
    from .tree import is_transfer_name

    if rel in BRANCH_FILES:
        return True
    if not (rel == "MEMORY.md" or rel.startswith("memory/")) or rel.startswith("memory/.workmem/"):
        return False
    return all(is_transfer_name(part) for part in rel.split("/"))


class MemoryTree:
    """The memory branch's work tree for one clone."""

    #: where the memory is inside the branch's commits (at the top)
    prefix = ""

    def __init__(self, top: Path, branch: str, remote: str):
        self.top = top
        self.branch = branch
        self.remote = remote
        self.common = common_dir(top)
        self.path = self.common / "workmem" / "tree"
        identity = (
            config_get(top, "user.email") or git(top, "config", "user.email", check=False).out
        )
        self._ident: tuple[str, ...] = (
            ()
            if identity.strip()
            else ("-c", "user.name=workmem", "-c", "user.email=workmem@localhost")
        )
        self.cleared: list[str] = []

    def git(
        self, *args: str, check: bool = True, extra_env: dict[str, str] | None = None
    ) -> GitResult:
        # Memory commits are workmem's own: a signing requirement or a hook of the project
        # must not stop them (the project's own commits are untouched).
        return git(
            self.path,
            *self._ident,
            "-c",
            "commit.gpgsign=false",
            *args,
            check=check,
            extra_env=extra_env,
        )

    def rev(self, ref: str) -> str | None:
        """A commit by name; ``HEAD`` is the memory branch's (asked in its work tree)."""
        where = self.path if (self.path / ".git").exists() else self.top
        found = git(where, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
        return found.out.strip() if found.ok and found.out.strip() else None

    @property
    def remote_ref(self) -> str:
        return f"refs/remotes/{self.remote}/{self.branch}"

    @property
    def git_dir(self) -> Path:
        from ..gitcheckout import git_dir

        return git_dir(self.path) or self.common / "worktrees" / "tree"

    def ensure(self) -> None:
        """The work tree, on the memory branch; a new clone starts from an empty history so
        its first merge with the remote branch is a union of both (no side is overwritten)."""
        if (self.path / ".git").exists():
            self._clear_leftovers()
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

    def _clear_leftovers(self) -> None:
        """What a killed run left: git's lock files and an unfinished merge."""
        folders = [self.git_dir, self.common, self.common / "refs" / "heads"]
        names = ["index.lock", "HEAD.lock", f"{self.branch}.lock", "ORIG_HEAD.lock"]
        for folder in folders:
            for name in names:
                lock = folder / name
                if lock.is_file() and not lock.is_symlink():
                    lock.unlink()
                    self.cleared.append(name)
        if (self.git_dir / "MERGE_HEAD").exists():
            self.git("merge", "--abort", check=False)
            if (self.git_dir / "MERGE_HEAD").exists():
                self.git("reset", "--quiet", "--merge", check=False)
            self.cleared.append("an unfinished merge")
        for junk in self.path.glob(".merge_file_*"):
            if junk.is_file() and not junk.is_symlink():
                junk.unlink()

    def write_branch_files(self) -> None:
        from .setup import IGNORE_LINE

        wanted = {".gitattributes": branch_attributes(), ".gitignore": f"{IGNORE_LINE}\n"}
        for name, text in wanted.items():
            path = self.path / name
            if path.is_symlink() or path.is_dir():
                self.git("rm", "-r", "--quiet", "--cached", "--ignore-unmatch", "--", name)
                _remove(path)
            if read_bytes(path) != text.encode():
                path.write_text(text, encoding="utf-8")

    def files_at(self, rev: str | None) -> set[str]:
        if rev is None:
            return set()
        listing = self.git("ls-tree", "-r", "-z", "--name-only", rev).out
        return {p for p in listing.split("\0") if p and p not in BRANCH_FILES}

    def content_at(self, rev: str, rel: str) -> bytes | None:
        return git_bytes(self.path, "cat-file", "blob", f"{rev}:{rel}")

    def commit_all(self, message: str) -> tuple[bool, list[str]]:
        """Stage exactly the memory files and workmem's branch files, commit; (committed,
        paths the branch held that are not memory files and were taken off it)."""
        from .tree import memory_files

        wanted = set(memory_files(self.path)) | {
            n for n in BRANCH_FILES if (self.path / n).is_file()
        }
        tracked = {p for p in self.git("ls-files", "-z").out.split("\0") if p}
        gone = sorted(tracked - wanted)
        refused = [p for p in gone if not is_memory_file(p) or (self.path / p).is_symlink()]
        if gone:
            self.git("--literal-pathspecs", "rm", "-r", "--quiet", "--cached", "--", *gone)
        if wanted:
            self._add(sorted(wanted))
        if self.git("diff", "--cached", "--quiet", check=False).ok:
            return False, refused
        self.git("commit", "--quiet", "--no-verify", "-m", message)
        return True, refused

    def _add(self, paths: list[str]) -> None:
        # --force: the clone's info/exclude (shared by work trees) hides memory/.
        for start in range(0, len(paths), 500):
            chunk = paths[start : start + 500]
            self.git("--literal-pathspecs", "add", "--force", "--", *chunk)

    def fetch(self) -> str:
        """'ok', 'missing' (the remote has no memory branch yet) or 'offline'; a remote that
        is not a repository (a wrong or moved URL) is a ``GitError`` that says so."""
        found = self.git(
            "fetch",
            "--quiet",
            self.remote_target(),
            f"+refs/heads/{self.branch}:{self.remote_ref}",
            check=False,
        )
        if found.ok:
            return "ok"
        if "couldn't find remote ref" in found.err or "could not find remote ref" in found.err:
            return "missing"
        return self._failure(found, "fetch from")

    def _failure(self, done: GitResult, verb: str) -> str:
        text = (done.err or done.out).strip()
        if _OFFLINE.search(text):
            return "offline"
        detail = text.splitlines()[-1] if text else f"git exit code {done.code}"
        url = self.remote_url() or self.remote
        said = detail.removeprefix("fatal: ")
        raise GitError(
            f"could not {verb} the remote {self.remote!r} ({url}): {said}. "
            "Check it with `git remote -v` (fix it with `git remote set-url`); the memory is "
            "committed locally"
        )

    def remote_url(self) -> str | None:
        return config_get(self.top, f"remote.{self.remote}.url")

    def remote_target(self) -> str:
        """The remote as git must be told from inside the git folder: its name, or for a
        relative local path (resolved from the project's top, as git does there) the path."""
        url = self.remote_url()
        if url is None or _is_url(url) or Path(url).is_absolute():
            return self.remote
        return str((self.top / url).resolve())

    def merge_remote(self) -> tuple[bool, list[str], list[str]]:
        """Merge the fetched branch: (merged anything, paths settled by hand, notes)."""
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
            # IDs both sides issued were renamed before this merge, with every file they
            # name (``pre_merge``): the drivers keep to the files as they are
            extra_env={IDS_SETTLED: "1"},
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
        kept: list[str] = []
        for rel in unmerged:
            outcome = self._settle(rel)
            if outcome == "kept both":
                kept.append(rel)
            else:
                notes.append(f"{rel}: {outcome}")
        self.git("commit", "--quiet", "--no-verify", "--no-edit")
        return True, kept, notes

    def _settle(self, rel: str) -> str:
        """A path git left unmerged; what was done, in words a report can show."""
        path = self.path / rel
        stages = {n: git_bytes(self.path, "cat-file", "blob", f":{n}:{rel}") for n in (1, 2, 3)}
        if path.is_symlink() or path.is_dir() or not is_memory_file(rel):
            self.git("rm", "-r", "--quiet", "--cached", "--ignore-unmatch", "--", rel)
            _remove(path)
            return "not a memory file (a link, a folder or git's own file); taken off the branch"
        data = read_bytes(path)
        if data is None:
            self.git("rm", "--quiet", "--cached", "--ignore-unmatch", "--", rel)
            return "deleted on both sides"
        if stages[3] is None:
            self.git("add", "--force", "--", rel)
            return "deleted on the other machine, changed here: the changed version is kept"
        if stages[2] is None:
            self.git("add", "--force", "--", rel)
            return "deleted here, changed on the other machine: the changed version is kept"
        if data.startswith(_MARKERS[0]) or _MARKERS[1] in data:
            from .merge import merge_file

            texts = [(stages[n] or b"").decode("utf-8", "replace") for n in (1, 2, 3)]
            merged = merge_file("text", texts[0], texts[1], texts[2], rel)
            path.write_text(merged.text, encoding="utf-8")
            self.git("add", "--force", "--", rel)
            return "merged line by line"
        self.git("add", "--force", "--", rel)
        return "kept both"

    def push(self) -> str:
        """'ok', 'rejected' (someone pushed first) or 'offline'; a wrong remote raises."""
        done = self.git(
            "push",
            "--quiet",
            self.remote_target(),
            f"{self.branch}:refs/heads/{self.branch}",
            check=False,
        )
        if done.ok:
            return "ok"
        text = done.err + done.out
        if any(w in text for w in ("rejected", "non-fast-forward", "fetch first", "stale info")):
            return "rejected"
        return self._failure(done, "push to")


def _is_url(url: str) -> bool:
    """A remote that is not a local path: ``scheme://…`` or scp-like ``host:path``."""
    if "://" in url:
        return True
    head, sep, _ = url.partition(":")
    return bool(sep) and "/" not in head and len(head) > 1


def _remove(path: Path) -> None:
    import shutil

    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)
