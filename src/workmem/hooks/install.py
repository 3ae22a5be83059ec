"""Writing each platform's hook configuration, merged with what is already there.

Running ``install`` twice adds nothing; ``uninstall`` removes only workmem's entries (those
carrying its marker, ``platforms.hook_line``). The file is edited as text
(``platforms.jsonc``): an entry is inserted after the last one of its list, and removing it
deletes exactly that piece, so install then uninstall leaves the file byte for byte as it
was, comments, one-line arrays and indentation included. Every write is read back.

What each platform reads, checked against its own source or documentation: Claude Code
and Gemini CLI ``hooks`` in ``settings.json`` (Gemini's timeout in milliseconds), Codex
``hooks.json`` beside its ``config.toml`` (user scope under ``$CODEX_HOME``), Cursor
``hooks.json`` with ``version: 1`` and a per-hook ``timeout`` in seconds, OpenClaw a hook
folder (``HOOK.md`` plus handler). A hook that names a path of one user (not ``workmem``
on PATH) goes to Claude Code's personal ``settings.local.json``, not the shared file. The
one step a platform still needs from the user (trust, enable) is in
``InstallReport.user_steps``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import FormatError, WriteError
from ..files.store import Store
from .events import PLATFORM_EVENTS, PLATFORMS, PRE_COMPACT, check_platform
from .install_json import gitignore_with, gitignore_without, merge_json, ours_in

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
    #: Codex: every workmem hook is trusted, as read back from Codex itself
    trusted: bool = False
    #: Codex: what Codex reported about each of workmem's hooks after ``trust`` (event: state)
    trust_state: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    #: the hooks name a path of this user's (kept in a personal file where there is one)
    personal: bool = False

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
            "trust_state": self.trust_state,
            "warnings": self.warnings,
        }


def is_personal(program: str) -> bool:
    """A program named by a path belongs to one user's machine; ``workmem`` (PATH) does not."""
    return any(sep in program for sep in "/\\")


def config_path(
    platform: str, scope: str, project: Path, home: Path, *, personal: bool = False
) -> Path:
    """The file that holds ``platform``'s hooks; ``personal``: Claude Code's local one."""
    from ..platforms.codex_trust import codex_home
    from ..platforms.steps import openclaw_state_dir

    base = project if scope == "project" else home
    if platform == "codex":
        folder = project / ".codex" if scope == "project" else codex_home(home)
        return folder / "hooks.json"
    if platform == "openclaw":
        folder = project / "hooks" if scope == "project" else openclaw_state_dir(home) / "hooks"
        return folder / "workmem" / "HOOK.md"
    if platform == "claude-code" and scope == "project" and personal:
        return project / ".claude" / "settings.local.json"
    return {
        "claude-code": base / ".claude" / "settings.json",
        "cursor": base / ".cursor" / "hooks.json",
        "gemini": base / ".gemini" / "settings.json",
    }[platform]


def config_paths(platform: str, scope: str, project: Path, home: Path) -> list[Path]:
    """Every file where ``platform``'s hooks may be (Claude Code: shared and personal)."""
    paths = [config_path(platform, scope, project, home)]
    local = config_path(platform, scope, project, home, personal=True)
    return paths if local in paths else [*paths, local]


def default_program() -> str:
    """The program hooks run when none is named: what ``setup`` would choose."""
    from ..platforms.hook_command import choose

    return choose().program


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
    """Write (or ``remove``) workmem's hooks for ``platform``. ``command`` is the program the
    hooks run (``workmem`` on PATH, or a path); ``trust`` (Codex only, with the user's
    consent) asks Codex itself to trust them. ``windows`` writes command lines for the
    shells the platforms use there (default: this machine's)."""
    from ..platforms.steps import user_steps

    check_platform(platform)
    on_windows = os.name == "nt" if windows is None else windows
    program = command or default_program()
    report = InstallReport(platform, scope, dry_run=dry_run, personal=is_personal(program))
    if platform == "openclaw":
        from ..platforms.openclaw_hook import write_folder

        path = config_path(platform, scope, project, home)
        write_folder(store, path.parent, program, report, remove=remove)
    else:
        _install_json(store, platform, program, report, project, home, on_windows, remove)
    if remove:
        return report
    if platform == "codex" and trust and not dry_run:
        _trust(report, project, home)
    report.user_steps = (
        user_steps(platform, scope, project, home, codex_trusted=report.trusted) + report.user_steps
    )
    if platform == "codex":
        from ..platforms.codex_trust import codex_hooks_off

        toml_path = config_path(platform, scope, project, home).with_name("config.toml")
        toml = store.read_text(toml_path)
        if codex_hooks_off(toml[0] if toml else None):
            report.user_steps.insert(
                0,
                f"Codex hooks are turned off in {toml_path}: remove the `hooks = false` line "
                "under [features].",
            )
    if platform == "gemini":
        from ..platforms.steps import gemini_hooks_off

        if gemini_hooks_off(store, config_path(platform, scope, project, home), home):
            report.user_steps.insert(
                0,
                "Gemini CLI's hooks are turned off (hooksConfig.enabled is false in its "
                "settings): set it to true, or remove it.",
            )
    return report


def _trust(report: InstallReport, project: Path, home: Path) -> None:
    """Ask Codex to trust the hooks, then report what Codex itself says about them."""
    from ..platforms.codex_trust import CodexUnavailableError, trust_ours

    try:
        after = trust_ours(project, home, scope=report.scope)
    except CodexUnavailableError as exc:
        report.warnings.append(f"Codex did not trust the hooks: {exc}")
        return
    report.trust_state = {h.event: h.trust for h in after}
    report.trusted = bool(after) and all(h.trust in ("trusted", "managed") for h in after)


def _install_json(
    store: Store,
    platform: str,
    program: str,
    report: InstallReport,
    project: Path,
    home: Path,
    windows: bool,
    remove: bool,
) -> None:
    from ..platforms.config_file import writable_target

    scope = report.scope
    target = config_path(platform, scope, project, home, personal=report.personal)
    writes: dict[Path, str] = {}
    for path in config_paths(platform, scope, project, home):
        current = store.read_text(path)
        drop = remove or path != target
        new_text, added, removed = merge_json(
            current[0] if current else None,
            platform,
            program,
            remove=drop,
            path=str(path),
            windows=windows,
        )
        report.added += added
        report.removed += removed
        if new_text is not None:
            writes[path] = new_text
    if platform == "codex" and not remove:
        from ..platforms.codex_trust import codex_feature

        toml_path = target.with_name("config.toml")
        toml = store.read_text(toml_path)
        renamed = codex_feature(toml[0] if toml else None)
        if renamed is not None:
            writes[toml_path] = renamed
    removals: list[Path] = []
    if platform == "cursor" and scope == "project":
        ignore = target.parent.parent / ".gitignore"
        old = store.read_text(ignore)
        if not remove:
            ignored = gitignore_with(old[0] if old else None, CURSOR_RULES_IGNORE)
            if ignored is not None:
                writes[ignore] = ignored
        else:
            rules = target.parent / "rules" / "workmem.mdc"
            if rules.is_file() and not rules.is_symlink():
                removals.append(rules)
            kept = gitignore_without(old[0] if old else None, CURSOR_RULES_IGNORE)
            if kept == "":
                removals.append(ignore)
            elif kept is not None:
                writes[ignore] = kept
    real = {path: writable_target(store, path) for path in writes}  # refused before any write
    report.unchanged = not writes and not removals
    report.files = [str(p) for p in [*writes, *removals]]
    report.preview = {str(p): t for p, t in writes.items()}
    if report.dry_run:
        return
    for path, text in writes.items():
        store.update(real[path], _replace_with(text))
    for path in removals:
        path.unlink(missing_ok=True)
    for path in config_paths(platform, scope, project, home):
        wanted = not remove and path == target
        _verify(store, path, platform, wanted)


def _replace_with(text: str) -> Callable[[str | None], str]:
    return lambda _old: text


def _verify(store: Store, path: Path, platform: str, wanted: bool) -> None:
    current = store.read_text(path)
    present = set(ours_in(current[0] if current else None, platform, str(path)))
    expected = set(PLATFORM_EVENTS[platform]) if wanted else set()
    if present != expected:
        raise WriteError(
            f"{path}: workmem hooks are {sorted(present)}, expected {sorted(expected)}"
        )


def installed_platforms(project: Path, home: Path) -> list[tuple[str, str]]:
    """(platform, scope) pairs whose configuration runs workmem's hooks."""
    found: list[tuple[str, str]] = []
    for platform in PLATFORMS:
        for scope in ("project", "user"):
            if platform == "openclaw":
                if config_path(platform, scope, project, home).is_file():
                    found.append((platform, scope))
                continue
            for path in config_paths(platform, scope, project, home):
                try:
                    if path.is_file() and ours_in(path.read_text(encoding="utf-8"), platform, ""):
                        found.append((platform, scope))
                        break
                except (FormatError, OSError, UnicodeDecodeError):
                    continue
    return found


__all__ = [
    "PRE_COMPACT",
    "InstallReport",
    "config_path",
    "config_paths",
    "install",
    "installed_platforms",
    "is_personal",
    "merge_json",
]
