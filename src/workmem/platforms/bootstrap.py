"""Boot directives (seed 000, Step 7): tell agents without native memory to read ours.

The directive is appended once to the platform's instruction file, under the seed's
marker ``# Auto-Memory (session-wrap)``; the marker is checked first so a second run adds
nothing. What was in the file stays byte for byte (newline style and BOM included: the
write goes through ``Store``), and the write is verified to have only appended. Claude
Code and Windsurf have native memory and are never touched. Platforms whose instructions
live in an IDE or web UI get the text to paste instead of a file edit.

The directive points at MEMORY.md and the files it links to, because that is where
workmem keeps long-term memory (DESIGN.md); ``wrap --publish`` mirrors them to a
platform's own path when it has one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import ConflictError, FormatError, WriteError
from ..files.store import Store
from ..root import Workspace
from .detect import row_for

MARKER = "Auto-Memory (session-wrap)"
HEADING = f"# {MARKER}"
READ_LINE = "On start, read MEMORY.md and the memory/*.md files it links to for prior context."
OPENCLAW_LINE = "On start, read MEMORY.md and memory/*.md in workspace."
Status = Literal["added", "present", "would-add", "skipped", "manual"]

#: platform -> (instruction file, kind). Kinds: append markdown, new rule file, aider yaml.
TARGETS: dict[str, tuple[str, str]] = {
    "codex": ("AGENTS.md", "append"),
    "gemini": ("GEMINI.md", "append"),
    "amp": ("AGENT.md", "append"),
    "copilot": (".github/copilot-instructions.md", "append"),
    "aider": (".aider.conf.yml", "aider"),
    "cursor": (".cursor/rules/memory.mdc", "cursor"),
    "continue": (".continuerules", "append"),
    "openclaw": ("AGENTS.md", "append"),
    # The seed names .openhands/config.toml, which has no place for instructions; OpenHands
    # loads the repository microagent .openhands/microagents/repo.md into every session.
    "openhands": (".openhands/microagents/repo.md", "append"),
    "amazon-q": (".amazonq/rules/memory.md", "append"),
    "cline": (".cline/rules/memory.md", "append"),
    "roo": (".roo/rules/memory.md", "append"),
}
NATIVE = ("claude-code", "windsurf")


@dataclass(frozen=True)
class BootstrapResult:
    platform: str
    status: Status
    file: str | None
    directive: str
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "platform": self.platform,
            "status": self.status,
            "file": self.file,
            "directive": self.directive,
            "reason": self.reason,
        }


def directive_for(platform: str) -> str:
    line = OPENCLAW_LINE if platform == "openclaw" else READ_LINE
    return f"{HEADING}\n{line}\n"


def has_marker(text: str) -> bool:
    return MARKER in text


def _append(current: str | None, block: str) -> str:
    if current is None or not current.strip():
        return block
    base = current if current.endswith("\n") else current + "\n"
    return base + "\n" + block


def _cursor_rule(current: str | None, block: str) -> str:
    if current is not None:
        return _append(current, block)
    return (
        "---\ndescription: Load long-term memory (workmem) at session start\n"
        "globs:\nalwaysApply: true\n---\n" + block
    )


def _aider(current: str | None, path: str) -> str:
    """Add ``MEMORY.md`` to aider's ``read:`` list, editing the YAML as text."""
    import yaml

    text = current or ""
    try:
        data = yaml.safe_load(text) if text.strip() else {}
    except yaml.YAMLError as exc:
        raise FormatError(f"not valid YAML ({exc}); nothing was written", path=path) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FormatError("expected a mapping of aider options; nothing was written", path=path)
    read = data.get("read")
    comment = f"# {MARKER}: long-term memory for every session"
    if read is None:
        return _append(current, f"{comment}\nread:\n  - MEMORY.md\n")
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith("read:")), None)
    if start is None or not isinstance(read, list) or lines[start].strip() != "read:":
        raise ConflictError(
            f"{path} already has a 'read:' value in a form we do not edit; add MEMORY.md to it "
            "by hand"
        )
    end = start + 1
    indent = "  "
    while end < len(lines) and (lines[end].startswith((" ", "-")) or not lines[end].strip()):
        if lines[end].lstrip().startswith("- "):
            indent = lines[end][: len(lines[end]) - len(lines[end].lstrip())]
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    lines[end:end] = [f"{indent}- MEMORY.md  # {MARKER}"]
    return "\n".join(lines)


def _verify(old: str | None, kind: str, path: str) -> Callable[[str], None]:
    def check(text: str) -> None:
        if text.count(MARKER) < 1:
            raise WriteError(f"{path}: directive not found after writing")
        if old is None:
            return
        if kind == "aider":
            import yaml

            before, after = yaml.safe_load(old) or {}, yaml.safe_load(text) or {}
            rest_same = {k: v for k, v in before.items() if k != "read"} == {
                k: v for k, v in after.items() if k != "read"
            }
            if not rest_same or "MEMORY.md" not in (after.get("read") or []):
                raise WriteError(f"{path}: aider options changed beyond 'read'")
        elif not text.startswith(old.rstrip("\n")):
            raise WriteError(f"{path}: existing instructions were altered")

    return check


def bootstrap(
    workspace: Workspace,
    platform: str,
    *,
    store: Store | None = None,
    dry_run: bool = False,
) -> BootstrapResult:
    """Append the boot directive for ``platform`` once; explain when it does not apply."""
    row = row_for(platform)
    key = row.key
    block = directive_for(key)
    if key in NATIVE:
        return BootstrapResult(key, "skipped", None, block, f"{row.name} has native memory")
    target = TARGETS.get(key)
    if target is None:
        where = row.instructions if row.instructions != "—" else "its instructions"
        return BootstrapResult(
            key, "manual", None, block, f"{row.name} keeps instructions in {where}; paste it there"
        )
    name, kind = target
    store = store or Store(workspace)
    path = workspace.root / name
    if path.is_dir():
        raise ConflictError(f"{name} is a folder, expected the instructions file")
    current = store.read_text(path)
    old = current[0] if current else None
    if old is not None and (has_marker(old) or (key == "openclaw" and "# Auto-Memory" in old)):
        return BootstrapResult(key, "present", name, block, "marker already there")
    if dry_run:
        return BootstrapResult(key, "would-add", name, block)

    def change(latest: str | None) -> str:
        if latest is not None and has_marker(latest):
            return latest
        if kind == "aider":
            return _aider(latest, name)
        if kind == "cursor":
            return _cursor_rule(latest, block)
        return _append(latest, block)

    result = store.update(path, change, verify=_verify(old, kind, name))
    status: Status = "added" if result.changed else "present"
    return BootstrapResult(key, status, name, block)
