"""Writing each platform's hook configuration, merged with what is already there.

Running ``install`` twice adds nothing; ``uninstall`` removes only workmem's entries.
Other hooks are kept: JSON files are re-written with the indentation they had, so a
hand-written ``settings.json`` in the usual style keeps every other line byte for byte,
and the result is checked (other entries equal before and after) before it is written.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import FormatError, WriteError
from ..files.jsondoc import parse_json_object
from ..files.store import Store
from .events import PLATFORM_EVENTS, PRE_COMPACT, check_platform

_OURS = re.compile(r"workmem[\"']?\s+hook\s")
#: Seconds each canonical event may take; pre-compact saves notes and snapshots.
TIMEOUTS = {"pre-compact": 30, "session-end": 20}
DEFAULT_TIMEOUT = 10
OPENCLAW_EVENTS = ("agent:bootstrap", "session:compact:before", "command:new", "command:reset")


@dataclass
class InstallReport:
    platform: str
    scope: str
    files: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: bool = False
    dry_run: bool = False
    preview: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "platform": self.platform,
            "scope": self.scope,
            "files": self.files,
            "added": self.added,
            "removed": self.removed,
            "unchanged": self.unchanged,
            "dry_run": self.dry_run,
        }


def workmem_command() -> str:
    """How hooks should call workmem: this installation's own script when it can be found."""
    here = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    if here is not None and here.name == "workmem" and here.is_file():
        return shlex.quote(str(here))
    beside = Path(sys.executable).with_name("workmem")
    if beside.is_file():
        return shlex.quote(str(beside))
    found = shutil.which("workmem")
    return shlex.quote(found) if found else "workmem"


def is_ours(command: object) -> bool:
    return isinstance(command, str) and _OURS.search(command + " ") is not None


def config_path(platform: str, scope: str, project: Path, home: Path) -> Path:
    base = project if scope == "project" else home
    return {
        "claude-code": base / ".claude" / "settings.json",
        "codex": base / ".codex" / "hooks.json",
        "cursor": base / ".cursor" / "hooks.json",
        "gemini": base / ".gemini" / "settings.json",
        "openclaw": (project / "hooks" if scope == "project" else home / ".openclaw" / "hooks")
        / "workmem"
        / "HOOK.md",
    }[platform]


def _indent_of(text: str) -> int | str:
    match = re.search(r"\n([ \t]+)\S", text)
    if match is None:
        return 2
    lead = match.group(1)
    return "\t" if lead.startswith("\t") else len(lead)


def _entry(platform: str, own_event: str, canonical: str, command: str) -> dict[str, Any]:
    seconds = TIMEOUTS.get(canonical, DEFAULT_TIMEOUT)
    full = f"{command} hook {own_event} --platform {platform}"
    if platform == "cursor":
        return {"command": full}
    hook: dict[str, Any] = {"type": "command", "command": full}
    if platform == "gemini":
        hook.update({"name": f"workmem-{canonical}", "timeout": seconds * 1000})
    else:
        hook["timeout"] = seconds
    return {"hooks": [hook]}


def _commands(entry: object) -> list[object]:
    if not isinstance(entry, dict):
        return []
    if "command" in entry:
        return [entry.get("command")]
    inner = entry.get("hooks")
    return (
        [h.get("command") for h in inner if isinstance(h, dict)] if isinstance(inner, list) else []
    )


def _strip_ours(entries: list[Any]) -> tuple[list[Any], int]:
    """Entries without workmem's commands; groups left empty by that are dropped."""
    kept: list[Any] = []
    removed = 0
    for entry in entries:
        commands = _commands(entry)
        if not any(is_ours(c) for c in commands):
            kept.append(entry)
            continue
        if "command" in entry:
            removed += 1
            continue
        inner = [
            h for h in entry["hooks"] if not (isinstance(h, dict) and is_ours(h.get("command")))
        ]
        removed += len(entry["hooks"]) - len(inner)
        if inner:
            kept.append({**entry, "hooks": inner})
    return kept, removed


def _others(data: dict[str, Any]) -> dict[str, list[Any]]:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return {}
    others = {k: _strip_ours(v)[0] for k, v in hooks.items() if isinstance(v, list)}
    return {k: v for k, v in others.items() if v}


def merge_json(
    text: str | None, platform: str, command: str, *, remove: bool, path: str
) -> tuple[str | None, list[str], list[str]]:
    """New file text (None when nothing changes), events added, events removed."""
    data = parse_json_object(text, path, fix="fix it first")
    before_others = _others(data)
    hooks = data.get("hooks")
    if hooks is None:
        if remove:
            return None, [], []
        hooks = data["hooks"] = {}
    if not isinstance(hooks, dict):
        raise FormatError("'hooks' is not an object; nothing was written", path=path)
    if platform == "cursor" and not remove:
        data.setdefault("version", 1)
    if platform == "gemini" and not remove:
        config = data.setdefault("hooksConfig", {})
        if isinstance(config, dict):
            config.setdefault("enabled", True)
    added: list[str] = []
    removed: list[str] = []
    for own_event, canonical in PLATFORM_EVENTS[platform].items():
        if platform == "openclaw":
            continue
        current = hooks.get(own_event, [])
        if not isinstance(current, list):
            raise FormatError(f"hooks.{own_event} is not a list; nothing was written", path=path)
        kept, count = _strip_ours(current)
        if remove:
            if count:
                removed.append(own_event)
                if kept:
                    hooks[own_event] = kept
                else:
                    del hooks[own_event]
            continue
        wanted = _entry(platform, own_event, canonical, command)
        if wanted in current:
            continue
        hooks[own_event] = [*kept, wanted]
        added.append(own_event)
    if not added and not removed:
        return None, [], []
    if _others(data) != before_others:
        raise WriteError(f"{path}: merging would change other hooks; nothing was written")
    indent = _indent_of(text or "")
    rendered = json.dumps(data, indent=indent, ensure_ascii=False)
    return rendered + "\n", added, removed


def _openclaw_files(command: str) -> dict[str, str]:
    events = json.dumps(list(OPENCLAW_EVENTS))
    hook_md = (
        "---\n"
        "name: workmem\n"
        'description: "Working memory: registers the session, injects memory at bootstrap, '
        'saves notes and snapshots before compaction"\n'
        f'metadata: {{"openclaw": {{"emoji": "🧠", "events": {events}}}}}\n'
        "---\n\n# workmem\n\nForwards OpenClaw hook events to `workmem hook EVENT --platform "
        "openclaw` and adds what it returns to the session. Generated by `workmem hooks "
        "install`; `workmem hooks uninstall` removes it.\n"
    )
    handler = f"""// Generated by `workmem hooks install --platform openclaw`; do not edit.
import {{ spawnSync }} from "node:child_process";

const WORKMEM = {json.dumps(shlex.split(command)[0])};

const handler = async (event: any) => {{
  const name = `${{event.type}}:${{event.action}}`;
  const input = JSON.stringify({{ ...(event.context ?? {{}}), sessionKey: event.sessionKey }});
  const result = spawnSync(WORKMEM, ["hook", name, "--platform", "openclaw"], {{
    input,
    encoding: "utf8",
    timeout: 10000,
  }});
  if (result.status !== 0 || !result.stdout) return;
  try {{
    const out = JSON.parse(result.stdout);
    for (const message of out.messages ?? []) event.messages.push(message);
    const files = event.context?.bootstrapFiles;
    if (out.context && Array.isArray(files)) {{
      const content = out.context;
      files.push({{ name: "WORKMEM.md", path: "WORKMEM.md", content, missing: false }});
    }}
  }} catch {{
    // workmem fails open: a bad answer never breaks the session
  }}
}};

export default handler;
"""
    return {"HOOK.md": hook_md, "handler.ts": handler}


def enable_codex_feature(text: str | None) -> str | None:
    """``[features] codex_hooks = true`` in config.toml, edited as text; None if already on."""
    current = text or ""
    if re.search(r"(?m)^\s*codex_hooks\s*=\s*true\b", current):
        return None
    if re.search(r"(?m)^\s*codex_hooks\s*=", current):
        return re.sub(r"(?m)^(\s*codex_hooks\s*=\s*).*$", r"\1true", current)
    header = re.search(r"(?m)^\[features\]\s*$", current)
    if header:
        return current[: header.end()] + "\ncodex_hooks = true" + current[header.end() :]
    sep = (
        ""
        if not current or current.endswith("\n\n")
        else ("\n" if current.endswith("\n") else "\n\n")
    )
    return f"{current}{sep}[features]\ncodex_hooks = true\n"


def install(
    store: Store,
    platform: str,
    *,
    scope: str = "project",
    project: Path,
    home: Path,
    remove: bool = False,
    dry_run: bool = False,
    command: str | None = None,
) -> InstallReport:
    check_platform(platform)
    command = command or workmem_command()
    report = InstallReport(platform, scope, dry_run=dry_run)
    path = config_path(platform, scope, project, home)
    if platform == "openclaw":
        return _install_openclaw(store, path, command, report, remove=remove)
    shown = str(path)
    current = store.read_text(path)
    new_text, added, removed = merge_json(
        current[0] if current else None, platform, command, remove=remove, path=shown
    )
    report.added, report.removed = added, removed
    writes: dict[Path, str] = {}
    if new_text is not None:
        writes[path] = new_text
    if platform == "codex" and not remove:
        toml_path = path.with_name("config.toml")
        toml = store.read_text(toml_path)
        enabled = enable_codex_feature(toml[0] if toml else None)
        if enabled is not None:
            writes[toml_path] = enabled
    report.unchanged = not writes
    report.files = [str(p) for p in writes]
    report.preview = {str(p): t for p, t in writes.items()}
    if dry_run:
        return report
    for target, text in writes.items():
        store.update(target, _replace_with(text))
    _verify(store, path, platform, remove)
    return report


def _replace_with(text: str) -> Callable[[str | None], str]:
    return lambda _old: text


def _verify(store: Store, path: Path, platform: str, removed: bool) -> None:
    current = store.read_text(path)
    data = parse_json_object(current[0] if current else None, str(path), fix="fix it first")
    hooks = data.get("hooks", {}) if isinstance(data.get("hooks"), dict) else {}
    present = {
        event
        for event, entries in hooks.items()
        if isinstance(entries, list) and any(is_ours(c) for e in entries for c in _commands(e))
    }
    expected = set() if removed else set(PLATFORM_EVENTS[platform])
    if present != expected:
        raise WriteError(
            f"{path}: workmem hooks are {sorted(present)}, expected {sorted(expected)}"
        )


def _install_openclaw(
    store: Store, hook_md: Path, command: str, report: InstallReport, *, remove: bool
) -> InstallReport:
    folder = hook_md.parent
    if remove:
        if folder.is_dir():
            report.files = [str(p) for p in sorted(folder.iterdir())]
            report.removed = list(OPENCLAW_EVENTS)
            if not report.dry_run:
                shutil.rmtree(folder)
        report.unchanged = not report.removed
        return report
    files = _openclaw_files(command)
    changed = {
        name: text
        for name, text in files.items()
        if (store.read_text(folder / name) or ("",))[0] != text
    }
    report.unchanged = not changed
    report.files = [str(folder / n) for n in changed]
    report.added = list(OPENCLAW_EVENTS) if changed else []
    report.preview = {str(folder / n): t for n, t in changed.items()}
    if not report.dry_run:
        for name, text in changed.items():
            store.update(folder / name, _replace_with(text))
    return report


__all__ = ["PRE_COMPACT", "InstallReport", "config_path", "install", "is_ours", "merge_json"]
