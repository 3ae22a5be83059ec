"""The one hook entry every entry point writes, and how workmem knows its own entries.

``workmem setup``, ``workmem hooks install`` and the plugins all write the same command line
for an event, made here, so a rerun of either rewrites nothing (Codex drops its trust in a
hook whose command changed). The line calls ``workmem`` only when it is there: after the
tool is removed, a hook left behind exits 0 without a word instead of failing on every
event (``command -v``, PowerShell's ``Get-Command``, cmd's ``where``/``if exist``).

An entry is workmem's when it carries the marker workmem wrote into it: the key
``"workmem": true`` beside the command (Claude Code, Codex, Cursor accept keys they do not
know), or for Gemini CLI, whose hook entries have a ``name``, one of workmem's names. A
user's own hook that merely mentions ``workmem hook`` is never taken for one. Entries that
earlier versions wrote, without a marker, are recognised by their exact whole form only.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from ..errors import UsageError
from ..hooks.events import PLATFORM_EVENTS, PRE_COMPACT, SESSION_END
from .shell import CMD, POSIX, POWERSHELL, WINDOWS_SHELL, quote

#: The key that marks a hook entry as workmem's (Claude Code, Codex, Cursor).
MARKER = "workmem"
#: Seconds each canonical event may take; pre-compact saves notes and snapshots.
TIMEOUTS = {PRE_COMPACT: 30, SESSION_END: 20}
DEFAULT_TIMEOUT = 10
#: Codex clamps a SessionEnd hook to 3 s (and warns on every run when more is written);
#: workmem's session end hands its work to a detached process within that.
CODEX_SESSION_END_TIMEOUT = 3
_PROGRAM_NAMES = ("workmem", "workmem.exe")


def _is_bare(program: str) -> bool:
    return not any(sep in program for sep in "/\\:")


def command_line(program: str, args: list[str], shell: str) -> str:
    """``program args`` for ``shell``, run only when the program exists (else exit 0)."""
    words = " ".join(quote(a, shell) for a in args)
    if shell == POSIX:
        word = shlex.quote(program)
        return f"command -v {word} >/dev/null 2>&1 && {word} {words} || true"
    if shell == POWERSHELL:
        head = "'" + program.replace("'", "''") + "'"
        return f"if (Get-Command {head} -ErrorAction SilentlyContinue) {{ & {head} {words} }}"
    head = quote(program, CMD)
    if _is_bare(program):
        return f"where /q {head} && {head} {words}"
    return f"if exist {head} {head} {words}"


def hook_command(platform: str, own_event: str, program: str, *, windows: bool) -> str:
    """The command line of one event's hook."""
    shell = WINDOWS_SHELL[platform] if windows else POSIX
    return command_line(program, ["hook", own_event, "--platform", platform], shell)


def gemini_name(canonical: str) -> str:
    return f"workmem-{canonical}"


def entry(
    platform: str, own_event: str, canonical: str, program: str, *, windows: bool = False
) -> dict[str, Any]:
    """One event's entry in the platform's hook list, marked as workmem's."""
    seconds = TIMEOUTS.get(canonical, DEFAULT_TIMEOUT)
    if platform == "codex" and canonical == SESSION_END:
        seconds = CODEX_SESSION_END_TIMEOUT
    full = hook_command(platform, own_event, program, windows=windows)
    if platform == "cursor":
        return {"command": full, "timeout": seconds, MARKER: True}
    hook: dict[str, Any] = {"type": "command", "command": full}
    if platform == "gemini":
        hook.update({"name": gemini_name(canonical), "timeout": seconds * 1000})
    else:
        hook.update({"timeout": seconds, MARKER: True})
    if platform == "claude-code" and windows:
        hook["shell"] = "powershell"
    return {"hooks": [hook]}


# ---- recognising workmem's entries ---------------------------------------------------------
_LEGACY = re.compile(
    r"^(?:& )?(?P<q>['\"]?)(?P<prog>.+?)(?P=q) hook (?P<event>\S+) --platform (?P<platform>\S+)$"
)


def _program_name(program: str) -> str:
    return re.split(r"[\\/]", program)[-1].casefold()


def legacy_command(command: str, platform: str) -> bool:
    """A command line an earlier workmem wrote (no marker then): exactly ``PROGRAM hook
    EVENT --platform P`` (quoted for its shell), PROGRAM named workmem, EVENT one of P's."""
    line = command.strip()
    if line.startswith('""') and line.endswith('"'):
        line = line[1:-1]  # cmd.exe's extra outer pair
    match = _LEGACY.match(line)
    if match is None or match.group("platform") != platform:
        return False
    return _program_name(match.group("prog").replace("''", "'")) in _PROGRAM_NAMES and match.group(
        "event"
    ) in PLATFORM_EVENTS.get(platform, {})


def is_ours(hook: object, platform: str) -> bool:
    """Whether one hook (a dict with ``command``) is an entry workmem wrote."""
    if not isinstance(hook, dict):
        return False
    if platform == "gemini":
        names = {gemini_name(c) for c in PLATFORM_EVENTS["gemini"].values()}
        if hook.get("name") in names:
            return True
    elif hook.get(MARKER) is True:
        return True
    command = hook.get("command")
    return isinstance(command, str) and legacy_command(command, platform)


def is_our_command(command: str, platform: str) -> bool:
    """A command line exactly as workmem writes it for ``platform`` (any program, any
    event, either system's shells), or as an earlier workmem wrote it: for readers that see
    the command only (Codex's app server)."""
    program = program_of(command)
    if program is None:
        return False
    if legacy_command(command, platform):
        return True
    for event in PLATFORM_EVENTS.get(platform, {}):
        for windows in (False, True):
            try:
                if hook_command(platform, event, program, windows=windows) == command:
                    return True
            except UsageError:
                continue  # a path cmd.exe cannot quote: never written for Windows
    return False


def program_of(command: str) -> str | None:
    """The program a hook command line written by workmem starts (any of its forms)."""
    line = command.strip()
    for pattern in (
        r"^command -v (?P<w>'(?:[^']|'\\'')*'|\S+) >/dev/null",
        r"^if \(Get-Command '(?P<w>(?:[^']|'')*)'",
        r'^where /q (?P<w>"[^"]*"|\S+) ',
        r'^if exist (?P<w>"[^"]*"|\S+) ',
    ):
        match = re.match(pattern, line)
        if match:
            word = match.group("w")
            if word.startswith("'") and pattern.startswith("^command"):
                return shlex.split(word)[0]
            return word.replace("''", "'").strip('"')
    if line.startswith('""') and line.endswith('"'):
        line = line[1:-1]
    legacy = _LEGACY.match(line)
    return legacy.group("prog").replace("''", "'") if legacy else None


__all__ = [
    "MARKER",
    "command_line",
    "entry",
    "hook_command",
    "is_our_command",
    "is_ours",
    "legacy_command",
    "program_of",
]
