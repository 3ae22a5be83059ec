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

import re
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
Status = Literal[
    "added", "present", "would-add", "skipped", "manual", "removed", "would-remove", "absent"
]

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


def _paste_where(key: str, name: str) -> str:
    """Where a person pastes the directive for a platform without an instructions file."""
    if key == "universal":
        return (
            "no agent was detected, so there is no instructions file to add it to; paste it "
            "into your agent's own instructions"
        )
    where = row_for(key).instructions
    return f"{name} keeps its instructions in {where}; paste it there"


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


#: aider's ``read:`` as a flow list on one line: ``read: [CONVENTIONS.md, "docs/x.md"]``
_FLOW_READ = re.compile(
    r"^(?P<head>read:[ \t]*\[)(?P<items>[^\[\]#\n]*)\](?P<rest>[ \t]*(?:#.*)?)$"
)
#: the same line once ``_aider`` added MEMORY.md to it (what it was is kept verbatim, so
#: taking the directive out gives the line back byte for byte)
_FLOW_ADDED = re.compile(
    r"^(?P<head>read:[ \t]*\[)(?P<items>[^\[\]#\n]*?)(?:, )?MEMORY\.md\]"
    r"(?P<rest>[ \t]*(?:#.*?)?)  # " + re.escape(MARKER) + r"$",
    re.MULTILINE,
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
    if read is None:
        return _append(current, _aider_block())
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith("read:")), None)
    flow = _FLOW_READ.match(lines[start]) if start is not None else None
    if start is not None and flow is not None and isinstance(read, list):
        # ``read: [A, B]`` (a flow list on one line): the entry goes inside the brackets
        items = flow.group("items")
        joined = f"{items}, MEMORY.md" if items.strip() else f"{items}MEMORY.md"
        lines[start] = f"{flow.group('head')}{joined}]{flow.group('rest')}  # {MARKER}"
        return "\n".join(lines)
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


def with_directive(text: str | None, platform: str) -> str:
    """The instructions file ``text`` (None: absent) with ``platform``'s directive added once."""
    key = row_for(platform).key
    name, kind = TARGETS[key]
    if text is not None and has_marker(text):
        return text
    if kind == "aider":
        return _aider(text, name)
    if kind == "cursor":
        return _cursor_rule(text, directive_for(key))
    return _append(text, directive_for(key))


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
        return BootstrapResult(key, "manual", None, block, _paste_where(row.key, row.name))
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
        return with_directive(latest, key)

    result = store.update(path, change, verify=_verify(old, kind, name))
    status: Status = "added" if result.changed else "present"
    return BootstrapResult(key, status, name, block)


def _aider_block() -> str:
    return f"# {MARKER}: long-term memory for every session\nread:\n  - MEMORY.md\n"


def _without_directive(text: str, key: str, kind: str) -> str | None:
    """``text`` with the directive this module added taken out; None if it is not there as
    written (edited by hand, or never added)."""
    if kind == "aider":
        block = _aider_block()
        line = re.compile(rf"(?m)^[ \t]*- MEMORY\.md  # {re.escape(MARKER)}\n?")
        for added in ("\n" + block, block):  # appended after a blank line, or the whole file
            if added in text:
                return text.replace(added, "", 1)
        flow = _FLOW_ADDED.search(text)
        if flow is not None:  # MEMORY.md added to a flow list: the line as it was
            original = f"{flow.group('head')}{flow.group('items')}]{flow.group('rest')}"
            return text[: flow.start()] + original + text[flow.end() :]
        return line.sub("", text, count=1) if line.search(text) else None
    block = directive_for(key)
    if "\n\n" + block in text:
        return text.replace("\n\n" + block, "\n", 1)
    if text.startswith(block):
        return text[len(block) :]
    if kind == "cursor" and text.endswith(block):
        return text[: -len(block)]
    return None


def without_directive(text: str, platform: str) -> str | None:
    """``text`` without the directive ``with_directive`` adds for ``platform``; None when it
    is not there as written."""
    key = row_for(platform).key
    return _without_directive(text, key, TARGETS[key][1]) if key in TARGETS else None


def _belongs_to_another(text: str, key: str, name: str) -> bool:
    """Another platform's directive in a file they share (AGENTS.md: Codex and OpenClaw)."""
    return any(
        other != key and file == name and _without_directive(text, other, kind) is not None
        for other, (file, kind) in TARGETS.items()
    )


def _only_ours(rest: str, kind: str) -> bool:
    """Nothing but what this module wrote when it created the file is left."""
    if kind == "cursor":
        return rest == _cursor_rule(None, "")
    return not rest.strip()


def remove_directive(
    workspace: Workspace,
    platform: str,
    *,
    store: Store | None = None,
    dry_run: bool = False,
) -> BootstrapResult:
    """Take out the directive ``bootstrap`` added; a file that held nothing else is deleted.

    Everything else in the file stays byte for byte. A directive edited by hand is left for
    the person to remove (status ``manual``), since what they changed may matter to them.
    """
    row = row_for(platform)
    key = row.key
    block = directive_for(key)
    target = TARGETS.get(key)
    if target is None or key in NATIVE:
        return BootstrapResult(key, "absent", None, block, "no instructions file of ours")
    name, kind = target
    store = store or Store(workspace)
    path = workspace.root / name
    current = store.read_text(path) if path.is_file() else None
    if current is None or not has_marker(current[0]):
        return BootstrapResult(key, "absent", name, block)
    if _without_directive(current[0], key, kind) is None:
        if _belongs_to_another(current[0], key, name):
            return BootstrapResult(key, "absent", name, block)
        return BootstrapResult(
            key, "manual", name, block, f"the directive in {name} was edited; remove it by hand"
        )
    if dry_run:
        return BootstrapResult(key, "would-remove", name, block)
    with store.lock(path):
        latest = store.read_text(path)
        rest = _without_directive(latest[0], key, kind) if latest else None
        if latest is None or rest is None:
            return BootstrapResult(key, "absent", name, block, "changed while removing")
        if _only_ours(rest, kind):
            path.unlink()
            if path.exists():
                raise WriteError(f"{name}: could not be removed")
        else:
            store.write_text(path, rest, latest[1])  # verified byte for byte by the store
    return BootstrapResult(key, "removed", name, block)
