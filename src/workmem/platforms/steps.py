"""The one step a platform still needs from the user before workmem's hooks run, and the
check ``workmem doctor`` makes where the platform lets a program see it.

- Codex runs a hook from a ``hooks.json`` only once the user has trusted it (``/hooks``),
  and a project's ``.codex/`` only in a trusted project (codex-rs/hooks/src/engine/
  discovery.rs). ``workmem hooks install --trust`` asks Codex itself to trust them.
- Gemini CLI skips every hook, user-level ones too, in a folder that is not trusted
  (packages/core/src/hooks/hookRegistry.ts, processHooksFromConfig); trust lives in
  ``~/.gemini/trustedFolders.json`` (packages/core/src/utils/trust.ts).
- OpenClaw loads a hook folder only once it is enabled (``openclaw hooks enable workmem``,
  ``hooks.internal.entries.workmem.enabled`` in ``~/.openclaw/openclaw.json``); a
  workspace's ``hooks/`` folder only when it is the agent's workspace
  (docs/automation/hooks/configuration.md in the ``openclaw`` package).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..doctor import DoctorReport
    from ..files.store import Store
    from ..root import Workspace

CODEX_TRUST = (
    "Trust workmem's hooks in Codex: run `codex`, type /hooks and trust the workmem "
    "entries (or run `workmem hooks install --platform codex --trust`). Codex runs no "
    "untrusted hook, and asks again whenever the command changes."
)
CODEX_PROJECT = (
    "Codex reads this project's .codex/ folder only after you trust the project (Codex "
    "asks the first time you start it here)."
)
GEMINI_TRUST = (
    "Trust this folder in Gemini CLI: start `gemini` here and choose 'Trust folder' (or "
    "/permissions). Until then Gemini CLI skips every hook in it."
)
OPENCLAW_ENABLE = (
    "Enable the hook in OpenClaw: `openclaw hooks enable workmem` (then `openclaw gateway "
    "restart` if the Gateway does not reload its config by itself)."
)
OPENCLAW_WORKSPACE = (
    "OpenClaw loads hooks/ of this folder only when it is the agent's workspace; otherwise "
    "install with --scope user."
)


def _read_json(path: Path) -> Any:
    """A settings file's value (JSON with comments, as Gemini CLI reads it); None if unreadable."""
    from ..errors import WorkmemError
    from .jsonc import parse

    try:
        return parse(path.read_text(encoding="utf-8-sig"), str(path)).to_python()
    except (OSError, ValueError, WorkmemError):
        return None


def gemini_hooks_off(store: Store, settings: Path, home: Path) -> bool:
    """Whether Gemini CLI's settings (the one workmem wrote to, or the user's) turn every
    hook off with ``hooksConfig.enabled: false`` (it is on by default)."""
    for path in dict.fromkeys((settings, home / ".gemini" / "settings.json")):
        data = _read_json(path)
        config = data.get("hooksConfig") if isinstance(data, dict) else None
        if isinstance(config, dict) and config.get("enabled") is False:
            return True
    return False


# -- Gemini --------------------------------------------------------------------------------
def gemini_folder_trusted(
    folder: Path, home: Path, env: Mapping[str, str] | None = None
) -> bool | None:
    """True/False as Gemini CLI would decide for ``folder``; None when no rule says."""
    environ = os.environ if env is None else env
    forced = environ.get("GEMINI_CLI_TRUST_WORKSPACE")
    if forced in ("true", "false"):
        return forced == "true"
    settings = _read_json(home / ".gemini" / "settings.json")
    security = settings.get("security") if isinstance(settings, dict) else None
    trust_setting = security.get("folderTrust") if isinstance(security, dict) else None
    if isinstance(trust_setting, dict) and trust_setting.get("enabled") is False:
        return True
    path = environ.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH") or str(
        home / ".gemini" / "trustedFolders.json"
    )
    rules = _read_json(Path(path))
    if not isinstance(rules, dict):
        return None
    target = folder.resolve()
    best: tuple[int, str] | None = None
    for rule, level in rules.items():
        if not isinstance(rule, str) or not isinstance(level, str):
            continue
        base = Path(rule).parent if level == "TRUST_PARENT" else Path(rule)
        try:
            target.relative_to(base.resolve())
        except ValueError:
            continue
        if best is None or len(rule) > best[0]:
            best = (len(rule), level)
    if best is None:
        return None
    return best[1] in ("TRUST_FOLDER", "TRUST_PARENT")


# -- OpenClaw ------------------------------------------------------------------------------
def openclaw_state_dir(home: Path, env: Mapping[str, str] | None = None) -> Path:
    environ = os.environ if env is None else env
    value = environ.get("OPENCLAW_STATE_DIR")
    return Path(value).expanduser() if value else home / ".openclaw"


def openclaw_enabled(home: Path, env: Mapping[str, str] | None = None) -> bool | None:
    """Whether OpenClaw's config enables the workmem hook; None when it cannot be read."""
    environ = os.environ if env is None else env
    config_path = environ.get("OPENCLAW_CONFIG_PATH")
    path = (
        Path(config_path).expanduser()
        if config_path
        else openclaw_state_dir(home, environ) / "openclaw.json"
    )
    data = _read_json(path)
    if not isinstance(data, dict):
        return None
    hooks = data.get("hooks")
    internal = hooks.get("internal") if isinstance(hooks, dict) else None
    if not isinstance(internal, dict) or internal.get("enabled") is False:
        return False
    entries = internal.get("entries")
    entry = entries.get("workmem") if isinstance(entries, dict) else None
    return isinstance(entry, dict) and entry.get("enabled") is True


# -- the steps ------------------------------------------------------------------------------
def user_steps(
    platform: str, scope: str, project: Path, home: Path, *, codex_trusted: bool = False
) -> list[str]:
    """What the user still has to do for ``platform`` after the hooks were written."""
    steps: list[str] = []
    if platform == "codex":
        if not codex_trusted:
            steps.append(CODEX_TRUST)
        if scope == "project":
            from .codex_trust import project_trusted

            if project_trusted(project, home) is not True:
                steps.append(CODEX_PROJECT)
    elif platform == "gemini":
        if scope == "user" or gemini_folder_trusted(project, home) is not True:
            steps.append(GEMINI_TRUST)
    elif platform == "openclaw":
        if openclaw_enabled(home) is not True:
            steps.append(OPENCLAW_ENABLE)
        if scope == "project":
            steps.append(OPENCLAW_WORKSPACE)
    return steps


def check_platform_steps(workspace: Workspace, report: DoctorReport) -> None:
    """doctor: installed hooks that their platform will not run yet, and why."""
    from ..hooks.install import installed_platforms

    home = Path.home()
    for platform, scope in installed_platforms(workspace.root, home):
        if platform == "codex":
            from .codex_trust import (
                CodexUnavailableError,
                find_codex,
                list_ours,
                project_trusted,
                untrusted_project_reason,
            )

            if scope == "project" and project_trusted(workspace.root, home) is False:
                report.add(
                    "hook-trust",
                    None,
                    f"codex (project): {untrusted_project_reason(workspace.root)}.",
                )
                continue
            if find_codex() is None:
                continue  # Codex is not installed here: nothing can tell the trust
            try:
                hooks = list_ours(workspace.root, home)
            except CodexUnavailableError as exc:
                report.add("hook-trust", None, f"codex: could not ask Codex ({exc})")
                continue
            untrusted = sorted({h.event for h in hooks if h.trust not in ("trusted", "managed")})
            if untrusted:
                report.add(
                    "hook-trust",
                    None,
                    f"codex ({scope}): hooks not trusted yet: {', '.join(untrusted)}. "
                    + CODEX_TRUST,
                )
        elif platform == "gemini" and gemini_folder_trusted(workspace.root, home) is not True:
            report.add("hook-trust", None, f"gemini ({scope}): {GEMINI_TRUST}")
        elif platform == "openclaw" and openclaw_enabled(home) is not True:
            report.add("hook-trust", None, f"openclaw ({scope}): {OPENCLAW_ENABLE}")


# -- the plugin installed as well ------------------------------------------------------------
def plugin_installed(platform: str, home: Path, env: Mapping[str, str] | None = None) -> str | None:
    """Where workmem's plugin (or extension, or hook pack) is installed for ``platform``, if
    it is: its hooks run beside any that setup writes, so setup says so."""
    if platform == "claude-code":
        data = _read_json(home / ".claude" / "settings.json")
        enabled = data.get("enabledPlugins") if isinstance(data, dict) else None
        if isinstance(enabled, dict) and any(
            k.split("@")[0] == "workmem" and v for k, v in enabled.items()
        ):
            return "the workmem plugin is enabled in Claude Code (~/.claude/settings.json)"
    elif platform == "codex":
        import re

        from .codex_trust import codex_home

        path = codex_home(home, env) / "config.toml"
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        if re.search(r'(?m)^\[plugins\."workmem@[^"]*"\]', text):
            return f"the workmem plugin is installed in Codex ({path})"
    elif platform == "gemini":
        extension = home / ".gemini" / "extensions" / "workmem"
        if (extension / "gemini-extension.json").is_file():
            return f"the workmem extension is installed in Gemini CLI ({extension})"
    elif platform == "openclaw":
        pack = openclaw_state_dir(home, env) / "hooks" / "workmem-openclaw"
        if pack.is_dir():
            return f"the workmem hook pack is installed in OpenClaw ({pack})"
    return None
