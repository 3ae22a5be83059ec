"""``workmem sync init``: git attributes, merge drivers, ignores and machine IDs, idempotent.

What it writes, each only when missing or different:
- ``.gitattributes`` (repository top): one ``merge=workmem-KIND`` line per memory file kind,
  in a block of its own, so a plain ``git merge`` of memory files uses the drivers too;
- ``.gitignore``: ``memory/.workmem/`` (derived, local state is never committed);
- ``.git/info/exclude``: the memory files themselves, which ``workmem sync`` keeps on a
  branch of their own (this clone only; the project's own history is not touched);
- the repository's config: ``merge.workmem-KIND.driver = workmem merge-driver KIND %O %A %B %P``;
- ``workmem.toml``: ``[sync] machine_ids = true``, so session IDs carry a machine tag.

Before it changes a file for the first time it records the file's bytes (or that it was
missing) in ``<git common dir>/workmem/init.json``, so ``workmem sync uninit`` can put each
file back exactly as it was (``unsetup``).
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..files.store import Store
from ..root import Workspace
from . import kinds
from .gitrepo import common_dir, config_get, git, toplevel

BEGIN = "# workmem: merge memory files by row, section and entry (workmem sync init)"
END = "# workmem: end"
IGNORE_LINE = "memory/.workmem/"
DRIVER_PREFIX = "workmem-"


@dataclass
class InitReport:
    dry_run: bool
    changes: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "dry_run": self.dry_run,
            "changes": self.changes,
            "unchanged": self.unchanged,
            "notes": self.notes,
        }


def driver_command() -> str:
    """How git should call the driver: this installation's ``workmem``, by absolute path."""
    beside = Path(sys.executable).parent / "workmem"
    if beside.is_file():
        return shlex.quote(str(beside))
    import shutil

    found = shutil.which("workmem")
    if found:
        return shlex.quote(found)
    return f"{shlex.quote(sys.executable)} -m workmem"


def attribute_lines(prefix: str = "") -> list[str]:
    """The attribute block for memory files under ``prefix`` (the memory root in the repo)."""
    lines = [BEGIN]
    lines += [f"{prefix}{pattern} merge={DRIVER_PREFIX}{kind}" for pattern, kind in kinds.PATTERNS]
    lines.append(END)
    return lines


def with_block(text: str | None, block: list[str]) -> str:
    """``text`` with workmem's block replaced (or appended); everything else kept."""
    lines = (text or "").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if BEGIN in lines and END in lines[lines.index(BEGIN) :]:
        start = lines.index(BEGIN)
        end = lines.index(END, start)
        lines[start : end + 1] = block
    else:
        if lines and lines[-1].strip():
            lines.append("")
        lines.extend(block)
    return "\n".join(lines) + "\n"


def with_lines(text: str | None, wanted: list[str]) -> str:
    lines = (text or "").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    present = {line.strip() for line in lines}
    missing = [line for line in wanted if line not in present]
    if not missing:
        return text or ""
    return "\n".join([*lines, *missing]) + "\n"


def _sync_table(text: str | None) -> str:
    import tomllib

    current = text or ""
    try:
        data = tomllib.loads(current)
    except tomllib.TOMLDecodeError:
        from ..errors import FormatError

        raise FormatError("invalid settings file; fix it first, nothing was written") from None
    table = data.get("sync")
    if isinstance(table, dict) and "machine_ids" in table:
        return current
    if isinstance(table, dict):
        return current.replace("[sync]\n", "[sync]\nmachine_ids = true\n", 1)
    joiner = (
        ""
        if not current or current.endswith("\n\n")
        else ("\n" if current.endswith("\n") else "\n\n")
    )
    return f"{current}{joiner}[sync]\nmachine_ids = true   # session IDs carry this machine's tag\n"


def init_sync(workspace: Workspace, *, dry_run: bool = False) -> InitReport:
    root = workspace.root
    top = toplevel(root)
    try:
        prefix = root.resolve().relative_to(top.resolve()).as_posix()
    except ValueError:
        prefix = ""
    prefix = "" if prefix in ("", ".") else prefix + "/"
    report = InitReport(dry_run)
    store = Store(workspace)
    git_dir = common_dir(top)
    edits: list[tuple[Path, str]] = [
        (top / ".gitattributes", "attributes"),
        (top / ".gitignore", "ignore"),
        (git_dir / "info" / "exclude", "exclude"),
        (workspace.config_file, "settings"),
    ]
    for path, what in edits:
        current = store.read_text(path)
        text = current[0] if current else None
        if what == "attributes":
            wanted = with_block(text, attribute_lines(prefix))
        elif what == "ignore":
            wanted = with_lines(text, [f"{prefix}{IGNORE_LINE}"])
        elif what == "exclude":
            wanted = with_lines(text, [f"/{prefix}memory/", f"/{prefix}MEMORY.md"])
        else:
            wanted = _sync_table(text)
        shown = _shown(path, top)
        if wanted == (text or ""):
            report.unchanged.append(shown)
            continue
        report.changes.append(f"{shown}: {_what(what)}")
        if not dry_run:
            from .unsetup import remember

            remember(git_dir, path, store.read_bytes(path))
            store.update(path, _replace_with(wanted))
            remember(git_dir, path, store.read_bytes(path), after=True)
    command = driver_command()
    for kind, description in kinds.DESCRIPTIONS.items():
        name = f"merge.{DRIVER_PREFIX}{kind}"
        driver = f"{command} merge-driver {kind} %O %A %B %P"
        settings = ((f"{name}.name", f"workmem: {description}"), (f"{name}.driver", driver))
        if all(config_get(top, key) == value for key, value in settings):
            continue
        report.changes.append(f"git config {name}: {kind} merge driver")
        if not dry_run:
            for key, value in settings:
                git(top, "config", "--local", key, value)
    if not any(c.startswith("git config") for c in report.changes):
        report.unchanged.append("git config (merge drivers)")
    tracked = git(top, "ls-files", "--", f"{prefix}MEMORY.md", f"{prefix}memory", check=False)
    if tracked.out.strip():
        report.notes.append(
            "memory files are also tracked on the current branch; `workmem sync` keeps them on "
            "a branch of their own, so you may stop tracking them here with "
            f"`git rm -r --cached {prefix}memory {prefix}MEMORY.md`"
        )
    return report


def _replace_with(text: str) -> Callable[[str | None], str]:
    def change(_current: str | None) -> str:
        return text

    return change


def _what(kind: str) -> str:
    return {
        "attributes": "merge drivers for memory files",
        "ignore": f"ignore {IGNORE_LINE} (derived, local state)",
        "exclude": "memory files kept on their own branch (this clone)",
        "settings": "[sync] machine_ids = true (session IDs carry a machine tag)",
    }[kind]


def _shown(path: Path, top: Path) -> str:
    try:
        return path.relative_to(top).as_posix()
    except ValueError:
        return str(path)


def drivers_registered(top: Path) -> bool:
    return config_get(top, f"merge.{DRIVER_PREFIX}{kinds.BOARD}.driver") is not None
