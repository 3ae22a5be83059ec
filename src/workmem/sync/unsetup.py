"""``workmem sync uninit``: undo ``workmem sync init``, each file back as it was.

``sync init`` records, before its first change to each file, the file's bytes (or that it
did not exist) and, after, what it wrote (``init.json`` in the repository's git folder).
Uninit puts back:

- every file init changed and nobody changed since: byte for byte as before (a file init
  created is removed);
- a file changed since (by a person, or another tool): only workmem's own part is taken
  out (its attributes block, its ignore and exclude lines, ``machine_ids``), the rest kept;
- the merge drivers in the clone's git config (their sections removed).

The memory itself stays: the files in the memory root, and the memory branch with its
history (the report says how to delete it). The branch's work tree inside the git folder is
derived and goes.
"""

from __future__ import annotations

import base64
import contextlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..files.store import Store
from ..root import Workspace
from .gitrepo import common_dir, config_get, git, toplevel

RECORD = "init.json"


@dataclass
class UninitReport:
    dry_run: bool
    restored: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


def _record_path(git_dir: Path) -> Path:
    return git_dir / "workmem" / RECORD


def _load(git_dir: Path) -> dict[str, dict[str, str | None]]:
    try:
        data = json.loads(_record_path(git_dir).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    return files if isinstance(files, dict) else {}


def _encode(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode("ascii")


def _decode(value: object) -> bytes | None:
    return base64.b64decode(str(value)) if isinstance(value, str) else None


def remember(git_dir: Path, path: Path, data: bytes | None, *, after: bool = False) -> None:
    """Keep ``path``'s bytes before init's first change (``after``: what init wrote)."""
    files = _load(git_dir)
    entry = files.setdefault(str(path), {})
    if after:
        entry["after"] = _encode(data)
    elif "before" not in entry:
        entry["before"] = _encode(data)
    target = _record_path(git_dir)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_suffix(".tmp")
    temporary.write_text(json.dumps({"version": 1, "files": files}, indent=2), "utf-8")
    temporary.replace(target)


def uninit_sync(workspace: Workspace, *, dry_run: bool = False) -> UninitReport:
    from .kinds import DESCRIPTIONS
    from .setup import DRIVER_PREFIX

    top = toplevel(workspace.root)
    git_dir = common_dir(top)
    store = Store(workspace)
    report = UninitReport(dry_run)
    recorded = _load(git_dir)
    for path in _init_files(workspace, top, git_dir):
        entry = recorded.get(str(path), {})
        current = store.read_bytes(path)
        shown = _shown(path, top)
        if "before" in entry and current == _decode(entry.get("after")):
            wanted = _decode(entry.get("before"))
        else:
            wanted = _without_workmem(path, current, workspace)
        if wanted == current:
            report.unchanged.append(shown)
            continue
        (report.removed if wanted is None else report.restored).append(shown)
        if dry_run:
            continue
        if wanted is None:
            path.unlink()
        else:
            with store.lock(path):
                store.write_bytes(path, wanted)
    sections = [
        section
        for section in (f"merge.{DRIVER_PREFIX}{kind}" for kind in DESCRIPTIONS)
        if config_get(top, f"{section}.driver") is not None
        or config_get(top, f"{section}.name") is not None
    ]
    if sections:
        report.removed.append(f"git config: workmem's {len(sections)} merge drivers")
    if not dry_run:
        for section in sections:
            git(top, "config", "--local", "--remove-section", section, check=False)
        _record_path(git_dir).unlink(missing_ok=True)
    _forget_tree(top, git_dir, report, dry_run)
    report.notes.append(
        "the memory files stay in the memory root; git now shows them (commit or ignore them)"
    )
    return report


def _init_files(workspace: Workspace, top: Path, git_dir: Path) -> list[Path]:
    return [
        top / ".gitattributes",
        top / ".gitignore",
        git_dir / "info" / "exclude",
        workspace.config_file,
    ]


def _without_workmem(path: Path, current: bytes | None, workspace: Workspace) -> bytes | None:
    """The file with only workmem's part taken out (it changed since init, or init left no
    record); a file that held nothing else is removed."""
    from .setup import BEGIN, END, IGNORE_LINE

    if current is None:
        return None
    text = current.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    bare = [line.rstrip("\r") for line in lines]  # CRLF files keep their line ends
    if path.name == ".gitattributes" and BEGIN in bare:
        start = bare.index(BEGIN)
        end = bare.index(END, start) if END in bare[start:] else len(lines) - 1
        if start > 0 and not bare[start - 1].strip():
            start -= 1  # the blank line init put before its block
        del lines[start : end + 1]
    elif path.name == ".gitignore":
        lines = [line for line in lines if not line.strip().endswith(IGNORE_LINE)]
    elif path.name == "exclude":
        lines = [
            line
            for line in lines
            if not re.fullmatch(r"/(?:.*/)?(?:memory/|MEMORY\.md)", line.strip())
        ]
    elif path == workspace.config_file:
        lines = [line for line in lines if not re.match(r"^\s*machine_ids\s*=\s*true\b", line)]
        joined = "\n".join(lines)
        joined = re.sub(r"\n*\[sync\]\s*\n*(?=\Z|\n\[)", "\n", joined)
        lines = joined.split("\n")
    result = "\n".join(lines)
    if not result.strip():
        return None
    if text.endswith("\n") and not result.endswith("\n"):
        result += "\n"
    return result.encode("utf-8", "surrogateescape")


def _forget_tree(top: Path, git_dir: Path, report: UninitReport, dry_run: bool) -> None:
    """The memory branch's work tree (derived) goes; the branch itself stays."""
    tree = git_dir / "workmem" / "tree"
    if (tree / ".git").exists():
        report.removed.append("the memory branch's work tree (its history stays on the branch)")
        if not dry_run:
            git(top, "worktree", "remove", "--force", str(tree), check=False)
            git(top, "worktree", "prune", check=False)
            git(top, "update-ref", "-d", "refs/workmem/imported", check=False)
    found = git(top, "for-each-ref", "--format=%(refname:short)", "refs/heads/", check=False).out
    for branch in found.split():
        if branch == "workmem":
            report.notes.append(
                "the memory branch 'workmem' keeps the memory's history; delete it with "
                "`git branch -D workmem` (and on the remote) if you no longer want it"
            )
    if not dry_run and (git_dir / "workmem").is_dir():
        with contextlib.suppress(OSError):  # something else lives there: left
            (git_dir / "workmem").rmdir()


def _shown(path: Path, top: Path) -> str:
    try:
        return path.relative_to(top).as_posix()
    except ValueError:
        return str(path)
