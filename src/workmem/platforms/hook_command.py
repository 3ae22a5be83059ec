"""Which command an agent's hooks run, and whether the installed ones still work.

A hook command is written once into an agent's configuration and run on every prompt for
months. So it must name a ``workmem`` that will still be there: the one on ``PATH`` (a
``pipx``/``uv tool`` install puts a stable link there), or an absolute path the user chose.
A command inside a development virtualenv works today and breaks silently when the clone
moves or the virtualenv is rebuilt, so setup says so when that is what it found.

``doctor`` reads every installed hook back (project and user scope, each platform) and runs
its command's ``--version``: a hook that cannot start shows up there, not as an agent that
quietly stopped remembering.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError, WorkmemError
from ..hooks.events import PLATFORMS
from ..root import Workspace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..doctor import DoctorReport

#: Seconds a hook command's ``--version`` may take before doctor calls it broken.
VERSION_TIMEOUT = 20.0
#: The executable the generated OpenClaw handler starts (a JSON string literal in it).
_OPENCLAW_EXE = re.compile(r"WORKMEM(?:\s*:\s*\w+)?\s*=\s*(\"(?:[^\"\\]|\\.)*\")")


@dataclass(frozen=True)
class HookCommand:
    """The command hooks will run, and what a person should know about it."""

    #: shown to the user: the program as one shell word
    command: str
    path: Path | None
    #: why this command (on PATH, chosen, the running installation)
    source: str
    #: set when the command will not survive a moved clone or a rebuilt virtualenv
    warning: str | None = None
    #: what the hooks call: ``workmem`` (found on PATH by the agent) or an absolute path
    program: str = "workmem"

    @property
    def for_install(self) -> str:
        """What ``hooks.install`` takes: the program."""
        return self.program

    @property
    def personal(self) -> bool:
        """A path of this user's machine, not a command every teammate has on PATH."""
        return self.program != "workmem"


def shell_word(path: Path) -> str:
    """``path`` as one word for the shell that runs the hook."""
    text = str(path)
    if os.name == "nt":
        return f'"{text}"' if any(c in text for c in ' &()^%!"') else text
    return shlex.quote(text)


def _running_script() -> Path | None:
    """The ``workmem`` script of the installation that is running now, if there is one."""
    here = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if here is not None and here.name in ("workmem", "workmem.exe") and here.is_file():
        return here.absolute()
    for name in ("workmem", "workmem.exe"):
        beside = Path(sys.executable).with_name(name)
        if beside.is_file():
            return beside
    return None


def choose(explicit: str | None = None) -> HookCommand:
    """The command to write: ``explicit`` (checked), else ``workmem`` from PATH when the one
    found there lasts (a tool install), else the path of this installation (with a warning).

    ``workmem`` by name keeps shared configuration files free of anyone's home folder, and
    stays the same command line whoever runs setup or ``hooks install``, from wherever.
    """
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_absolute():
            raise UsageError(
                f"--command must be an absolute path (got {explicit!r}): hooks run from other "
                "folders; nothing was written"
            )
        if not path.is_file() or not os.access(path, os.X_OK):
            raise UsageError(f"--command {path} is not an executable file; nothing was written")
        return HookCommand(
            shell_word(path), path, "chosen with --command", development_venv(path), str(path)
        )
    found = shutil.which("workmem")
    if found:
        path = Path(found).absolute()
        warning = development_venv(path)
        if warning is None:
            return HookCommand("workmem", path, f"on your PATH: {path}", None, "workmem")
        return HookCommand(shell_word(path), path, "workmem on PATH", warning, str(path))
    running = _running_script()
    if running is not None:
        warning = development_venv(running) or (
            f"workmem is not on your PATH, so hooks call {running} directly"
        )
        return HookCommand(shell_word(running), running, "this installation", warning, str(running))
    raise UsageError(
        "cannot find a workmem command for the hooks to run: install workmem as a tool "
        "(pipx install …, uv tool install …) or name one with --command; nothing was written"
    )


def _venv_of(path: Path) -> Path | None:
    for folder in path.parents:
        if (folder / "pyvenv.cfg").is_file():
            return folder
    return None


def _editable_source(venv: Path) -> str | None:
    """Where an editable install of workmem in ``venv`` points (its clone), if it is one."""
    site_dirs = [*venv.glob("lib/python*/site-packages"), venv / "Lib" / "site-packages"]
    for site in site_dirs:
        for info in site.glob("workmem-*.dist-info/direct_url.json"):
            try:
                data = json.loads(info.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(data, dict) and (data.get("dir_info") or {}).get("editable"):
                url = str(data.get("url") or "")
                return url.removeprefix("file://") or str(venv.parent)
    return None


def development_venv(command: Path) -> str | None:
    """A warning when ``command`` lives in a virtualenv tied to a source folder."""
    for candidate in dict.fromkeys((command, command.resolve())):
        venv = _venv_of(candidate)
        if venv is None:
            continue
        clone = _editable_source(venv)
        if clone is not None:
            why = f"an editable install of the source folder {clone}"
        elif (venv.parent / "pyproject.toml").is_file() or (venv.parent / ".git").exists():
            why = f"the virtualenv of the project {venv.parent}"
        else:
            continue
        return (
            f"the hooks call {command}, which is inside {venv} ({why}): they stop working if "
            "that folder moves or the virtualenv is rebuilt. Install workmem as a tool "
            "(pipx install …, or uv tool install …) and run `workmem setup` again, or name a "
            "lasting command with --command"
        )
    return None


# ---- reading installed hooks back ---------------------------------------------------------
def _config_file(platform: str, scope: str, project: Path, home: Path) -> Path:
    from ..hooks.install import config_path

    return config_path(platform, scope, project, home)


def installed_commands(platform: str, scope: str, project: Path, home: Path) -> list[str]:
    """workmem's hook command lines in one platform's configuration (empty when none).

    Read-only and tolerant: a configuration that cannot be read has no workmem hooks as
    far as this is concerned; ``hooks install`` reports the damage when it is asked to write.
    """
    return [c for found in commands_by_file(platform, scope, project, home).values() for c in found]


def commands_by_file(platform: str, scope: str, project: Path, home: Path) -> dict[Path, list[str]]:
    """Each configuration file of ``platform`` -> workmem's hook command lines in it."""
    from ..hooks.install import config_paths
    from .hook_line import is_ours
    from .jsonc import load_object

    path = _config_file(platform, scope, project, home)
    if platform == "openclaw":
        handler = path.with_name("handler.ts")
        try:
            text = handler.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return {}
        match = _OPENCLAW_EXE.search(text)
        if match is None:
            return {path: [f"(a hook in {handler} whose command could not be read)"]}
        program = shell_word(Path(json.loads(match.group(1))))
        return {path: [f"{program} hook agent:bootstrap --platform openclaw"]}
    found: dict[Path, list[str]] = {}
    for each in config_paths(platform, scope, project, home):
        try:
            data = load_object(each.read_text(encoding="utf-8-sig"), str(each))
        except (OSError, UnicodeDecodeError, ValueError, WorkmemError):
            continue
        lines = [
            str(h["command"])
            for h in _hooks_under(data)
            if is_ours(h, platform) and isinstance(h.get("command"), str)
        ]
        if lines:
            found[each] = lines
    return found


def _hooks_under(value: object) -> Iterator[dict[str, object]]:
    """Every object holding a ``command`` key, however deep the format nests it."""
    if isinstance(value, dict):
        if "command" in value:
            yield value
        for item in value.values():
            yield from _hooks_under(item)
    elif isinstance(value, list):
        for item in value:
            yield from _hooks_under(item)


def executable_of(command: str) -> str | None:
    """The program a hook command line starts."""
    from .hook_line import program_of

    found = program_of(command)
    if found is not None:
        return found
    try:
        words = shlex.split(command, posix=os.name != "nt")
    except ValueError:
        return None
    return words[0].strip('"') if words else None


def runs(executable: str) -> str | None:
    """None when ``executable --version`` answers as workmem; else what went wrong."""
    found = shutil.which(executable)
    if found is None and executable == "workmem":
        return (
            "they call `workmem` from PATH and there is none here, so they do nothing "
            "(install it again, e.g. pipx install …)"
        )
    if found is None:
        return f"{executable} does not exist or is not executable"
    try:
        done = subprocess.run(
            [found, "--version"],
            capture_output=True,
            text=True,
            timeout=VERSION_TIMEOUT,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{executable} could not be run: {exc}"
    if done.returncode != 0 or not done.stdout.startswith("workmem"):
        said = (done.stderr or done.stdout).strip().splitlines()
        tail = said[-1] if said else f"exit code {done.returncode}"
        return f"{executable} --version failed: {tail}"
    return None


def check_hook_commands(workspace: Workspace, report: DoctorReport) -> None:
    """Doctor: every installed hook's command exists and runs (project and user scope)."""
    home = Path(os.environ.get("HOME") or Path.home())
    verdicts: dict[str, str | None] = {}
    for platform in PLATFORMS:
        for scope in ("project", "user"):
            for where, commands in commands_by_file(platform, scope, workspace.root, home).items():
                problems: dict[str, None] = {}
                for command in commands:
                    exe = None if command.startswith("(") else executable_of(command)
                    if exe is None:
                        problems[f"cannot read the command {command!r}"] = None
                        continue
                    if exe not in verdicts:
                        verdicts[exe] = runs(exe)
                    if verdicts[exe] is not None:
                        problems[str(verdicts[exe])] = None
                for problem in problems:
                    report.add(
                        "hook-command",
                        None,
                        f"{platform} hooks in {where} are broken: {problem}; run `workmem "
                        "setup` again to rewrite them",
                    )
