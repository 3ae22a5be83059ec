"""Hook command lines each platform's shell runs as written, on POSIX and on Windows.

The platforms hand the configured command string to a shell: ``/bin/sh -c`` (or ``$SHELL
-lc``) on POSIX everywhere; on Windows Codex uses ``cmd.exe /C`` (codex-rs/hooks/src/
engine/command_runner.rs), Gemini CLI ``powershell -Command`` (packages/core/src/utils/
shell-utils.ts, getShellConfiguration), Claude Code Git Bash or, with ``"shell":
"powershell"`` in the hook, PowerShell. A path to workmem can hold spaces, parentheses,
quotes or CJK folder names (``G:\\我的雲端硬碟``); each shell needs its own quoting.
"""

from __future__ import annotations

import re
import shlex

from ..errors import UsageError

POSIX, CMD, POWERSHELL = "posix", "cmd", "powershell"
#: The shell each platform runs hook commands with on Windows.
WINDOWS_SHELL = {
    "claude-code": POWERSHELL,  # written with "shell": "powershell", so no Git Bash needed
    "codex": CMD,
    "cursor": POWERSHELL,
    "gemini": POWERSHELL,
}
_PLAIN = re.compile(r"[A-Za-z0-9_./:=-]+")
_CMD_SPECIAL = re.compile(r"[\s&|<>^(),;=!@]")


def quote(word: str, shell: str) -> str:
    """``word`` as one argument for ``shell``."""
    if shell == POSIX:
        return shlex.quote(word)
    if shell == POWERSHELL:
        if _PLAIN.fullmatch(word):
            return word
        return "'" + word.replace("'", "''") + "'"
    if shell == CMD:
        if '"' in word or "%" in word:
            raise UsageError(
                f'{word!r} holds a character cmd.exe cannot quote (" or %): '
                "install workmem in a folder without it"
            )
        return f'"{word}"' if _CMD_SPECIAL.search(word) or not word else word
    raise UsageError(f"unknown shell {shell!r}")


def command_line(program: str, args: list[str], shell: str) -> str:
    """A command line that runs ``program`` with ``args`` in ``shell``."""
    words = " ".join(quote(a, shell) for a in args)
    # the program is always quoted in PowerShell: '&' then calls the string as a command
    head = "'" + program.replace("'", "''") + "'" if shell == POWERSHELL else quote(program, shell)
    if shell == POWERSHELL:
        # a quoted string alone is only a value in PowerShell: '&' makes it a command
        return f"& {head} {words}".rstrip()
    if shell == CMD and head.startswith('"'):
        # cmd /C keeps a leading quote only when nothing special stands between the two;
        # one more pair around the whole line makes the result the same in every case
        return f'"{head} {words}"'
    return f"{head} {words}".rstrip()
