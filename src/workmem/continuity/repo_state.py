"""The repository's state at a save, and what moved since: whether the tree moved under a plan.

A handoff tells the next agent what the last one was doing; if commits landed or files
changed after that, the plan may be stale (a step done by hand, a branch switched). Each
save records the branch, HEAD and the uncommitted files (one ``git status`` call, bounded in
time); a handoff compares them with the tree now: new commits, files changed after the
save, a branch switched. Git is asked, never written to, and anything it cannot answer
(no repository, no git, a timeout) is simply absent: the state is a help, not a condition.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

#: seconds any one git call may take (a hook has a few in all)
GIT_SECONDS = 2.0
MAX_FILES = 200
MAX_COMMITS = 10


@dataclass
class RepoState:
    worktree: str
    branch: str | None = None
    head: str | None = None
    dirty: list[str] = field(default_factory=list)
    #: when it was recorded (the memory's clock, ``YYYY-MM-DD HH:MM``) and the wall time
    at: str = ""
    at_epoch: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "worktree": self.worktree,
            "branch": self.branch,
            "head": self.head,
            "dirty": self.dirty,
            "at": self.at,
            "at_epoch": self.at_epoch,
        }

    @classmethod
    def from_dict(cls, data: object) -> RepoState | None:
        if not isinstance(data, dict) or not isinstance(data.get("worktree"), str):
            return None
        dirty = data.get("dirty")
        return cls(
            worktree=data["worktree"],
            branch=data["branch"] if isinstance(data.get("branch"), str) else None,
            head=data["head"] if isinstance(data.get("head"), str) else None,
            dirty=[d for d in dirty if isinstance(d, str)] if isinstance(dirty, list) else [],
            at=data["at"] if isinstance(data.get("at"), str) else "",
            at_epoch=float(data["at_epoch"])
            if isinstance(data.get("at_epoch"), int | float)
            else 0,
        )


@dataclass
class Drift:
    """What changed in the tree since a recorded state."""

    new_commits: list[str] = field(default_factory=list)
    changed_since: list[str] = field(default_factory=list)
    branch_now: str | None = None
    switched: bool = False

    @property
    def moved(self) -> bool:
        return bool(self.new_commits or self.changed_since or self.switched)


def _git(folder: Path, *args: str) -> str | None:
    import subprocess  # here: reading a recorded state (the roster, a resume) runs no git

    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["GIT_OPTIONAL_LOCKS"] = "0"  # a status must never take the index lock from a user
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args],
            capture_output=True,
            timeout=GIT_SECONDS,
            env=env,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "replace")


def capture(folder: Path) -> RepoState | None:
    """The state of the repository ``folder`` is in (None: not a repository, or no git).

    Its time is the memory's clock (``WORKMEM_NOW`` when set), so that a replay whose files
    carry recorded times compares like with like."""
    from .. import clock

    out = _git(folder, "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=normal")
    if out is None:
        return None
    top = _git(folder, "rev-parse", "--show-toplevel")
    moment = clock.now()
    state = RepoState((top or str(folder)).strip(), at=clock.stamp(moment))
    state.at_epoch = moment.timestamp()
    for entry in out.split("\0"):
        if entry.startswith("# branch.head "):
            head = entry.split(" ", 2)[2]
            state.branch = None if head == "(detached)" else head
        elif entry.startswith("# branch.oid "):
            oid = entry.split(" ", 2)[2]
            state.head = None if oid == "(initial)" else oid
        elif entry[:2] in ("1 ", "2 ", "u ", "? ") and len(state.dirty) < MAX_FILES:
            state.dirty.append(entry.split(" ")[-1] if entry[0] != "?" else entry[2:])
    return state


def drift_since(saved: RepoState) -> Drift:
    """New commits, files changed after the save, a branch switched (what git can tell)."""
    drift = Drift()
    folder = Path(saved.worktree)
    now = capture(folder) if folder.is_dir() else None
    if now is None:
        return drift
    drift.branch_now = now.branch
    drift.switched = bool(saved.branch and now.branch and saved.branch != now.branch)
    if saved.head and now.head and saved.head != now.head:
        log = _git(folder, "log", "--format=%h %s", f"-{MAX_COMMITS}", f"{saved.head}..{now.head}")
        if log is not None:
            drift.new_commits = [line for line in log.splitlines() if line.strip()]
    for name in now.dirty:
        try:
            changed = (folder / name).stat().st_mtime > saved.at_epoch
        except OSError:
            changed = name not in saved.dirty  # deleted since: changed if it was clean then
        if changed:
            drift.changed_since.append(name)
    return drift
