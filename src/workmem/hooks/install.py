"""Writing each platform's hook configuration, merged with what is already there.

Running ``install`` twice adds nothing; ``uninstall`` removes only workmem's entries.
Other hooks are kept: JSON files are re-written with the indentation they had, so a
hand-written ``settings.json`` in the usual style keeps every other line byte for byte,
and the result is checked (other entries equal before and after) before it is written.

What each platform reads, checked against its own source or documentation: Claude Code
and Gemini CLI ``hooks`` in ``settings.json`` (Gemini's timeout in milliseconds), Codex
``hooks.json`` beside its ``config.toml`` (user scope under ``$CODEX_HOME``), Cursor
``hooks.json`` with ``version: 1`` and a per-hook ``timeout`` in seconds, OpenClaw a hook
folder (``HOOK.md`` plus handler). The one step a platform still needs from the user
(trust, enable) is reported in ``InstallReport.user_steps``.
"""

from __future__ import annotations

import json
import os
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
from .events import PLATFORM_EVENTS, PLATFORMS, PRE_COMPACT, SESSION_END, check_platform

_OURS = re.compile(r"workmem(?:\.exe)?[\"']?\s+hook\s")
#: Seconds each canonical event may take; pre-compact saves notes and snapshots.
TIMEOUTS = {PRE_COMPACT: 30, SESSION_END: 20}
DEFAULT_TIMEOUT = 10
#: Codex clamps a SessionEnd hook to 3 s (and warns on every run when more is written);
#: workmem's session end hands its work to a detached process within that.
CODEX_SESSION_END_TIMEOUT = 3
CURSOR_RULES_IGNORE = "/.cursor/rules/workmem.mdc"


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
    #: what the user still has to do before the platform runs the hooks (trust, enable)
    user_steps: list[str] = field(default_factory=list)
    #: Codex: the hooks were trusted through Codex's own app server
    trusted: bool = False
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "platform": self.platform,
            "scope": self.scope,
            "files": self.files,
            "added": self.added,
            "removed": self.removed,
            "unchanged": self.unchanged,
            "dry_run": self.dry_run,
            "user_steps": self.user_steps,
            "trusted": self.trusted,
            "warnings": self.warnings,
        }


def workmem_program() -> str:
    """This installation's own ``workmem`` executable when it can be found, else the name."""
    here = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    if here is not None and here.stem == "workmem" and here.is_file():
        return str(here)
    for name in ("workmem", "workmem.exe"):
        beside = Path(sys.executable).with_name(name)
        if beside.is_file():
            return str(beside)
    return shutil.which("workmem") or "workmem"


def workmem_command() -> str:
    """How a POSIX shell should call workmem (the program, quoted)."""
    return shlex.quote(workmem_program())


def is_ours(command: object) -> bool:
    return isinstance(command, str) and _OURS.search(command + " ") is not None


def config_path(platform: str, scope: str, project: Path, home: Path) -> Path:
    from ..platforms.codex_trust import codex_home
    from ..platforms.steps import openclaw_state_dir

    base = project if scope == "project" else home
    if platform == "codex":
        folder = project / ".codex" if scope == "project" else codex_home(home)
        return folder / "hooks.json"
    if platform == "openclaw":
        folder = project / "hooks" if scope == "project" else openclaw_state_dir(home) / "hooks"
        return folder / "workmem" / "HOOK.md"
    return {
        "claude-code": base / ".claude" / "settings.json",
        "cursor": base / ".cursor" / "hooks.json",
        "gemini": base / ".gemini" / "settings.json",
    }[platform]


def _indent_of(text: str) -> int | str:
    match = re.search(r"\n([ \t]+)\S", text)
    if match is None:
        return 2
    lead = match.group(1)
    return "\t" if lead.startswith("\t") else len(lead)


def hook_command(platform: str, own_event: str, command: str, *, windows: bool) -> str:
    """The command line for one event: POSIX ``command`` as given, or on Windows the
    program quoted for the shell that platform runs hooks with."""
    args = ["hook", own_event, "--platform", platform]
    if not windows:
        return f"{command} {' '.join(shlex.quote(a) for a in args)}"
    from ..platforms.shell import WINDOWS_SHELL, command_line

    return command_line(command, args, WINDOWS_SHELL[platform])


def _entry(
    platform: str, own_event: str, canonical: str, command: str, *, windows: bool = False
) -> dict[str, Any]:
    seconds = TIMEOUTS.get(canonical, DEFAULT_TIMEOUT)
    if platform == "codex" and canonical == SESSION_END:
        seconds = CODEX_SESSION_END_TIMEOUT
    full = hook_command(platform, own_event, command, windows=windows)
    if platform == "cursor":
        return {"command": full, "timeout": seconds}
    hook: dict[str, Any] = {"type": "command", "command": full}
    if platform == "gemini":
        hook.update({"name": f"workmem-{canonical}", "timeout": seconds * 1000})
    else:
        hook["timeout"] = seconds
    if platform == "claude-code" and windows:
        hook["shell"] = "powershell"
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
    text: str | None,
    platform: str,
    command: str,
    *,
    remove: bool,
    path: str,
    windows: bool = False,
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
        wanted = _entry(platform, own_event, canonical, command, windows=windows)
        if wanted in current and count == 1:
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


def _gitignore_without(text: str | None, line: str) -> str | None:
    """``text`` without ``line``; None when it is not there, "" when nothing else is."""
    lines = (text or "").splitlines()
    if line not in lines:
        return None
    kept = [x for x in lines if x != line]
    return "\n".join(kept) + "\n" if any(x.strip() for x in kept) else ""


def _cursor_leftovers(rules: Path) -> list[Path]:
    """The rules file workmem keeps for Cursor (derived; its removal loses no memory)."""
    return [rules] if rules.is_file() and not rules.is_symlink() else []


def _gitignore_with(text: str | None, line: str) -> str | None:
    current = text or ""
    if line in current.splitlines():
        return None
    return current + ("" if not current or current.endswith("\n") else "\n") + line + "\n"


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
    trust: bool = False,
    windows: bool | None = None,
) -> InstallReport:
    """Write (or ``remove``) workmem's hooks for ``platform``; ``trust`` (Codex only, with the
    user's consent) asks Codex itself to trust them. ``windows`` writes command lines for
    the shells the platforms use there (default: this machine's)."""
    from ..platforms.steps import user_steps

    check_platform(platform)
    on_windows = os.name == "nt" if windows is None else windows
    if command is None:
        command = workmem_program() if on_windows else workmem_command()
    report = InstallReport(platform, scope, dry_run=dry_run)
    path = config_path(platform, scope, project, home)
    if platform == "openclaw":
        from ..platforms.openclaw_hook import write_folder

        program = command if on_windows else shlex.split(command)[0]
        write_folder(store, path.parent, program, report, remove=remove)
    else:
        _install_json(store, path, platform, command, report, remove=remove, windows=on_windows)
    if remove:
        return report
    if platform == "codex" and trust and not dry_run:
        from ..platforms.codex_trust import CodexUnavailableError, trust_ours

        try:
            trust_ours(project, home)
            report.trusted = True
        except CodexUnavailableError as exc:
            report.warnings.append(f"Codex could not trust the hooks: {exc}")
    report.user_steps = user_steps(platform, scope, project, home, codex_trusted=report.trusted)
    if platform == "codex":
        from ..platforms.codex_trust import codex_hooks_off

        toml = store.read_text(path.with_name("config.toml"))
        if codex_hooks_off(toml[0] if toml else None):
            report.user_steps.insert(
                0,
                f"Codex hooks are turned off in {path.with_name('config.toml')}: remove "
                "the `hooks = false` line under [features].",
            )
    return report


def _install_json(
    store: Store,
    path: Path,
    platform: str,
    command: str,
    report: InstallReport,
    *,
    remove: bool,
    windows: bool,
) -> None:
    shown = str(path)
    current = store.read_text(path)
    new_text, added, removed = merge_json(
        current[0] if current else None,
        platform,
        command,
        remove=remove,
        path=shown,
        windows=windows,
    )
    report.added, report.removed = added, removed
    writes: dict[Path, str] = {}
    if new_text is not None:
        writes[path] = new_text
    if platform == "codex" and not remove:
        from ..platforms.codex_trust import codex_feature

        toml_path = path.with_name("config.toml")
        toml = store.read_text(toml_path)
        renamed = codex_feature(toml[0] if toml else None)
        if renamed is not None:
            writes[toml_path] = renamed
    removals: list[Path] = []
    if platform == "cursor" and report.scope == "project":
        ignore = path.parent.parent / ".gitignore"
        old = store.read_text(ignore)
        if not remove:
            ignored = _gitignore_with(old[0] if old else None, CURSOR_RULES_IGNORE)
            if ignored is not None:
                writes[ignore] = ignored
        else:
            removals += _cursor_leftovers(path.parent / "rules" / "workmem.mdc")
            kept = _gitignore_without(old[0] if old else None, CURSOR_RULES_IGNORE)
            if kept == "":
                removals.append(ignore)
            elif kept is not None:
                writes[ignore] = kept
    report.unchanged = not writes and not removals
    report.files = [str(p) for p in [*writes, *removals]]
    report.preview = {str(p): t for p, t in writes.items()}
    if report.dry_run:
        return
    for target, text in writes.items():
        store.update(target, _replace_with(text))
    for target in removals:
        target.unlink(missing_ok=True)
    _verify(store, path, platform, remove)


def _replace_with(text: str) -> Callable[[str | None], str]:
    return lambda _old: text


def _ours_in(text: str | None, path: Path) -> set[str]:
    """Events of a platform's JSON hook config (``text`` of ``path``) that run workmem."""
    data = parse_json_object(text, str(path), fix="fix it first")
    hooks = data.get("hooks", {}) if isinstance(data.get("hooks"), dict) else {}
    return {
        event
        for event, entries in hooks.items()
        if isinstance(entries, list) and any(is_ours(c) for e in entries for c in _commands(e))
    }


def _verify(store: Store, path: Path, platform: str, removed: bool) -> None:
    current = store.read_text(path)
    present = _ours_in(current[0] if current else None, path)
    expected = set() if removed else set(PLATFORM_EVENTS[platform])
    if present != expected:
        raise WriteError(
            f"{path}: workmem hooks are {sorted(present)}, expected {sorted(expected)}"
        )


def installed_platforms(project: Path, home: Path) -> list[tuple[str, str]]:
    """(platform, scope) pairs whose configuration runs workmem's hooks."""
    found: list[tuple[str, str]] = []
    for platform in PLATFORMS:
        for scope in ("project", "user"):
            path = config_path(platform, scope, project, home)
            if platform == "openclaw":
                if path.is_file():
                    found.append((platform, scope))
                continue
            try:
                if path.is_file() and _ours_in(path.read_text(encoding="utf-8"), path):
                    found.append((platform, scope))
            except (FormatError, OSError, UnicodeDecodeError):
                continue
    return found


__all__ = [
    "PRE_COMPACT",
    "InstallReport",
    "config_path",
    "install",
    "installed_platforms",
    "is_ours",
    "merge_json",
]
