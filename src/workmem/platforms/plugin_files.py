"""The plugin and extension folders of the repository, made from the same code as setup.

The repository is a Claude Code plugin marketplace (``.claude-plugin/marketplace.json``,
which Codex reads too: codex-rs/core-plugins/src/marketplace.rs looks for it after
``.agents/plugins/marketplace.json``), with one plugin folder, ``plugins/workmem``, that
carries a manifest for each (``.claude-plugin/plugin.json``, ``.codex-plugin/plugin.json``,
each naming its own hooks file); a Gemini CLI extension (``plugins/workmem-gemini``, its
``gemini-extension.json`` and ``hooks/hooks.json``); and an OpenClaw hook pack
(``plugins/workmem-openclaw``, a ``package.json`` declaring ``openclaw.hooks``).

Every hook runs ``workmem hook EVENT --platform P``, the same arguments setup writes
(``hook_line``), through the folder's ``scripts/workmem``: the ``workmem`` on PATH, else
``uvx``/``pipx run`` from ``$WORKMEM_SOURCE``, else nothing but one line at session start
saying what to install. The files are written by ``make plugins`` and a test checks that
the repository holds exactly what this module makes.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

from ..hooks.events import PLATFORM_EVENTS
from .hook_line import TIMEOUTS, entry
from .openclaw_hook import files as openclaw_files

NAME = "workmem"
VERSION = "0.1.0"
DESCRIPTION = (
    "Working memory for coding agents: registers each session, gives it back what it was "
    "doing after a compaction or a restart, saves notes, snapshots and daily logs in plain "
    "files."
)
MISSING = (
    "workmem is not installed, so its plugin does nothing yet: install it (pipx install "
    "<the workmem repository or a clone>, or uv tool install ...), then start a new session."
)
#: What each client substitutes for the plugin's own folder in a hook command.
ROOT_VARIABLE = {
    "claude-code": "${CLAUDE_PLUGIN_ROOT}",
    "codex": "${PLUGIN_ROOT}",
    "gemini": "${extensionPath}",
}

LAUNCHER = """#!/bin/sh
# workmem for this plugin: the `workmem` on PATH; else, when WORKMEM_SOURCE names where
# to get it (a clone, a git URL, a wheel), through uvx or pipx run. With none of them a hook
# exits 0 without a word, and the session start says in one line what to install.
if command -v workmem >/dev/null 2>&1; then
  exec workmem "$@"
fi
if [ -n "${WORKMEM_SOURCE:-}" ]; then
  if command -v uvx >/dev/null 2>&1; then
    if [ "$1" = mcp ]; then
      exec uvx --quiet --from "$WORKMEM_SOURCE" --with 'mcp>=2.3' workmem "$@"
    fi
    exec uvx --quiet --from "$WORKMEM_SOURCE" workmem "$@"
  fi
  if command -v pipx >/dev/null 2>&1; then
    exec pipx run --spec "$WORKMEM_SOURCE" workmem "$@"
  fi
fi
if [ "$1" = hook ]; then
  case "$2" in
    SessionStart|sessionStart) printf '%s\\n' __MESSAGE__ ;;
  esac
  exit 0
fi
echo __LINE__ >&2
exit 127
"""

#: What users say -> the skill (Claude Code and Codex) or command (Gemini CLI) for it.
SKILLS: dict[str, tuple[str, str]] = {
    "handoff": (
        "Hand the work over to the next session or another agent with workmem: when the "
        "user says to hand over, wrap up, stop for today, or to continue tomorrow.",
        "1. Take your Memory Session ID from the line `Your Memory Session ID is: ...` in "
        "your context.\n"
        '2. Run `workmem say "wrap up" --run --as <ID>`: it saves this session\'s snapshot '
        "and tells you what else to write.\n"
        "3. Do what it says: record decisions and next actions with `workmem session "
        'update <ID> --section "Decisions=..." --section "Next Actions=..."`, and the '
        "memories worth keeping with `workmem wrap --from-file -`.\n"
        "4. Tell the user in one sentence what the next session will find.",
    ),
    "continue": (
        "Pick up the work of the last session, in this agent or another, with workmem: "
        "when the user says to continue, to go on where things were left, or names an "
        "earlier session.",
        "1. Take your Memory Session ID from the line `Your Memory Session ID is: ...` in "
        "your context.\n"
        "2. Run `workmem handoff --continue --as <ID>` (or `workmem handoff <session ID or "
        "topic words> --continue --as <ID>` for a named one): it shows that session's plan, "
        "request, files, decisions and errors, whether the repository moved since, and "
        "records that this session continues it.\n"
        "3. If it says the session still looks active in another window, ask the user "
        "before taking its work over.\n"
        "4. Go on from its open plan step; tell the user in one sentence where you start.",
    ),
    "save": (
        "Save where this session stands into workmem's memory now: when the user asks to "
        "save, checkpoint or update the memory session.",
        "1. Take your Memory Session ID from the line `Your Memory Session ID is: ...` in "
        "your context.\n"
        '2. Run `workmem say "update memory session" --run --as <ID>`.\n'
        '3. Add what it asks for: `workmem session update <ID> --topic "..." --section '
        '"Decisions=..." --section "Next Actions=..."` (mark finished items "[done] ...").\n'
        "4. Say what was saved, in one sentence.",
    ),
    "notes": (
        "Show or refresh this session's running notes kept by workmem: when the user asks "
        "for the notes or what has been decided so far.",
        "1. Take your Memory Session ID from the line `Your Memory Session ID is: ...` in "
        "your context.\n"
        "2. To refresh them from the transcript: `workmem notes --session <ID>`.\n"
        "3. To show them: `workmem notes --view --session <ID>`, then summarise what matters "
        "for the user's question.",
    ),
    "search": (
        "Search workmem's memory of earlier sessions, decisions and daily logs: when the "
        "user asks what was done or decided before, or where something was left.",
        '1. Run `workmem search "<the user\'s question>"` (add `--since YYYY-MM-DD` when '
        "they name a time).\n"
        "2. Open the hits that matter with `workmem get <hit id>`, and the entries around "
        "one with `workmem timeline <hit id>`.\n"
        "3. Answer from what you found, naming the session or day it came from.",
    ),
}
_MISSING_TOOL = (
    "If the `workmem` command is not found, tell the user that workmem is not installed "
    "and how to install it (pipx install <the workmem repository or a clone>)."
)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def launcher() -> str:
    message = json.dumps({"systemMessage": MISSING}, ensure_ascii=False)
    return LAUNCHER.replace("__MESSAGE__", shlex.quote(message)).replace(
        "__LINE__", shlex.quote(MISSING)
    )


def hooks(platform: str) -> dict[str, Any]:
    """A plugin's hooks file: workmem's entries, run through the plugin's launcher."""
    program = ROOT_VARIABLE[platform] + "/scripts/workmem"
    events: dict[str, Any] = {}
    for own, canonical in PLATFORM_EVENTS[platform].items():
        made = entry(platform, own, canonical, "workmem")
        hook = made["hooks"][0]
        hook["command"] = f'"{program}" hook {own} --platform {platform}'
        hook.pop("workmem", None)  # the plugin owns its hooks; nothing to tell apart
        events[own] = [made]
    return {"hooks": events}


def _skill(name: str) -> str:
    description, steps = SKILLS[name]
    return (
        f"---\nname: {name}\ndescription: {description}\n---\n\n"
        f"# {name.capitalize()} with workmem\n\n{steps}\n\n{_MISSING_TOOL}\n"
    )


def _gemini_command(name: str) -> str:
    description, steps = SKILLS[name]
    prompt = f"{steps}\n\n{_MISSING_TOOL}\n\nThe user asked: {{{{args}}}}"
    return f"description = {json.dumps(description)}\nprompt = {json.dumps(prompt)}\n"


def _readme(title: str, install: str) -> str:
    return (
        f"# workmem {title}\n\n{DESCRIPTION}\n\nThe hooks and tools call the `workmem` "
        "command. Install it first (see the repository's README: `pipx install` or `uv tool "
        "install` from a clone or its git URL); without it the plugin does nothing but say "
        "so once at session start. Or set `WORKMEM_SOURCE` to a clone or git URL and keep "
        f"`uvx` or `pipx` on PATH: they run workmem from there.\n\n{install}\n"
    )


def files() -> dict[str, str]:
    """Repository path -> content, for every plugin and extension file."""
    out: dict[str, str] = {}
    out[".claude-plugin/marketplace.json"] = _json(
        {
            "name": NAME,
            "description": "workmem: working memory for coding agents, in plain files.",
            "owner": {"name": "workmem developers"},
            "plugins": [
                {
                    "name": NAME,
                    "source": "./plugins/workmem",
                    "description": DESCRIPTION,
                    "version": VERSION,
                }
            ],
        }
    )
    base = "plugins/workmem/"
    manifest = {
        "name": NAME,
        "version": VERSION,
        "description": DESCRIPTION,
        "author": {"name": "workmem developers"},
        "license": "MIT",
        "keywords": ["memory", "handoff", "session", "notes"],
    }
    out[base + ".claude-plugin/plugin.json"] = _json(
        {**manifest, "hooks": "./hooks/claude-code.json", "mcpServers": "./.mcp.json"}
    )
    codex_mcp = {NAME: {"command": NAME, "args": ["mcp"]}}  # a bare name, as Codex asks
    out[base + ".codex-plugin/plugin.json"] = _json(
        {**manifest, "hooks": "./hooks/codex.json", "mcpServers": codex_mcp}
    )
    out[base + "hooks/claude-code.json"] = _json(hooks("claude-code"))
    out[base + "hooks/codex.json"] = _json(hooks("codex"))
    out[base + ".mcp.json"] = _json(
        {
            "mcpServers": {
                NAME: {"command": "${CLAUDE_PLUGIN_ROOT}/scripts/workmem", "args": ["mcp"]}
            }
        }
    )
    out[base + "scripts/workmem"] = launcher()
    for name in SKILLS:
        out[base + f"skills/{name}/SKILL.md"] = _skill(name)
    out[base + "README.md"] = _readme(
        "plugin for Claude Code and Codex",
        "Claude Code: `claude plugin marketplace add <clone or git URL>`, then `claude "
        "plugin install workmem@workmem`.\nCodex: `codex plugin marketplace add <clone or "
        "git URL>`, then `codex plugin add workmem@workmem`.",
    )

    gemini = "plugins/workmem-gemini/"
    out[gemini + "gemini-extension.json"] = _json(
        {
            "name": NAME,
            "version": VERSION,
            "description": DESCRIPTION,
            "mcpServers": {
                NAME: {"command": "${extensionPath}${/}scripts${/}workmem", "args": ["mcp"]}
            },
        }
    )
    out[gemini + "hooks/hooks.json"] = _json(hooks("gemini"))
    out[gemini + "scripts/workmem"] = launcher()
    for name in SKILLS:
        out[gemini + f"commands/workmem/{name}.toml"] = _gemini_command(name)
    out[gemini + "README.md"] = _readme(
        "extension for Gemini CLI",
        "`gemini extensions install <clone>/plugins/workmem-gemini` (or `gemini extensions "
        "link` it), then trust your project folder: Gemini CLI runs no hook in an untrusted "
        "one. Commands: /workmem:handoff, /workmem:continue, /workmem:save, /workmem:notes, "
        "/workmem:search.",
    )

    pack = "plugins/workmem-openclaw/"
    out[pack + "package.json"] = _json(
        {
            "name": "workmem-openclaw",
            "version": VERSION,
            "description": DESCRIPTION,
            "license": "MIT",
            "openclaw": {"hooks": ["./workmem"]},
        }
    )
    for name, text in openclaw_files("workmem", MISSING.replace("its plugin", "its hook")).items():
        out[pack + "workmem/" + name] = text
    out[pack + "README.md"] = _readme(
        "hook pack for OpenClaw",
        "`openclaw plugins install <clone>/plugins/workmem-openclaw`; the hook is enabled "
        "by the install. `openclaw plugins uninstall workmem-openclaw` removes it.",
    )
    return out


EXECUTABLE = ("/scripts/workmem",)
__all__ = ["TIMEOUTS", "files", "hooks", "launcher", "write"]


def write(root: Path) -> list[str]:
    """Write every file under ``root`` (the repository); the paths that changed."""
    changed = []
    for rel, text in files().items():
        path = root / rel
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed.append(rel)
        if rel.endswith(EXECUTABLE):
            path.chmod(0o755)
    return changed


if __name__ == "__main__":  # `make plugins`
    for name in write(Path(sys.argv[1] if len(sys.argv) > 1 else ".")):
        print(f"wrote {name}")
