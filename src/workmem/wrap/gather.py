"""Step 2 of the wrap-up: the project's state, gathered so the agent can decide what to save.

Git is asked four questions at once (the seed says "in parallel"): recent commits, status,
branch, remotes. Remote URLs can carry credentials (``https://user:token@host``), so they
lose their user part and pass the redactor. Without git, the top-level listing with
modification times stands in. Existing memories and project artifacts are listed so the
agent updates rather than duplicates.
"""

from __future__ import annotations

import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..files.store import Store
from ..root import Workspace

ARTIFACTS = (
    "README.md",
    "README.rst",
    "README",
    "package.json",
    "pyproject.toml",
    "setup.py",
    "go.mod",
    "Cargo.toml",
    "pom.xml",
    "build.gradle",
    "Gemfile",
    "composer.json",
    "Makefile",
    "CMakeLists.txt",
)
GIT_TIMEOUT = 10.0
MAX_LISTING = 40
_USERINFO = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)[^/@\s]+@", re.IGNORECASE)


@dataclass
class GatheredState:
    is_git: bool = False
    branch: str | None = None
    recent_commits: list[str] = field(default_factory=list)
    status: list[str] = field(default_factory=list)
    remotes: list[str] = field(default_factory=list)
    listing: list[str] = field(default_factory=list)
    memories: list[dict[str, str]] = field(default_factory=list)
    artifacts: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    redactions: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _git(root: Path, *args: str) -> tuple[int, str]:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT,
            check=False,
            encoding="utf-8",
            errors="replace",
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 127, str(exc)
    return done.returncode, done.stdout


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines() if line.strip()]


def clean_remote(line: str) -> str:
    """A ``git remote -v`` line without the credentials a URL may embed."""
    return _USERINFO.sub(lambda m: m.group("scheme"), line)


def _listing(root: Path) -> list[str]:
    entries = []
    try:
        children = sorted(root.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    for child in children:
        if child.name.startswith(".") or child.name == "memory":
            continue
        try:
            when = datetime.fromtimestamp(child.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        except OSError:
            continue
        entries.append(f"{when}  {child.name}{'/' if child.is_dir() else ''}")
        if len(entries) >= MAX_LISTING:
            break
    return entries


def gather_state(workspace: Workspace, store: Store | None = None) -> GatheredState:
    from ..facts.typed import list_memories
    from ..redact import redact

    store = store or Store(workspace)
    root = workspace.root
    state = GatheredState()
    code, inside = _git(root, "rev-parse", "--is-inside-work-tree")
    state.is_git = code == 0 and inside.strip() == "true"
    if state.is_git:
        questions = {
            "log": ("log", "--oneline", "-15"),
            "status": ("status", "--short"),
            "branch": ("branch", "--show-current"),
            "remote": ("remote", "-v"),
        }
        with ThreadPoolExecutor(max_workers=len(questions)) as pool:
            futures = {k: pool.submit(_git, root, *args) for k, args in questions.items()}
            answers = {k: f.result() for k, f in futures.items()}
        state.recent_commits = _lines(answers["log"][1]) if answers["log"][0] == 0 else []
        state.status = _lines(answers["status"][1]) if answers["status"][0] == 0 else []
        branch = answers["branch"][1].strip()
        state.branch = branch or None
        remotes = []
        for line in _lines(answers["remote"][1]):
            clean, count = redact(clean_remote(line))
            state.redactions += count + (clean_remote(line) != line)
            remotes.append(clean)
        state.remotes = remotes
        if answers["log"][0] != 0:
            state.notes.append("git log failed (no commits yet?)")
    else:
        state.notes.append("not a git repository: listing files by modification time")
        state.listing = _listing(root)
    listing = list_memories(store)
    state.memories = [
        {"file": m.filename, "type": m.type, "name": m.name, "description": m.description}
        for m in listing.memories
    ]
    state.notes.extend(f"{name}: {why}" for name, why in listing.problems)
    state.artifacts = [name for name in ARTIFACTS if (root / name).is_file()]
    return state
