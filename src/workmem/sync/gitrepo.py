"""Running git: one helper, errors as messages a person can act on."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError, WorkmemError

#: git must never stop to ask (an editor for a merge message, a password prompt).
_QUIET_ENV = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_EDITOR": "true",
    "GIT_MERGE_AUTOEDIT": "no",
    "LC_ALL": "C",
}


class GitError(WorkmemError):
    """A git command failed; the message carries git's own words."""


@dataclass(frozen=True)
class GitResult:
    code: int
    out: str
    err: str

    @property
    def ok(self) -> bool:
        return self.code == 0


def git(
    cwd: Path,
    *args: str,
    check: bool = True,
    timeout: float = 120.0,
    extra_env: dict[str, str] | None = None,
) -> GitResult:
    env = {**os.environ, **_QUIET_ENV, **(extra_env or {})}
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="surrogateescape",
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except FileNotFoundError:
        raise UsageError("git is not installed or not on PATH") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {' '.join(args[:2])} took longer than {timeout:.0f} s") from None
    result = GitResult(done.returncode, done.stdout, done.stderr)
    if check and not result.ok:
        detail = (result.err or result.out).strip().splitlines()
        raise GitError(f"git {' '.join(args[:2])} failed: {detail[-1] if detail else result.code}")
    return result


def git_bytes(cwd: Path, *args: str) -> bytes | None:
    """A command's raw output (a file's content at a revision), None when it fails."""
    env = {**os.environ, **_QUIET_ENV}
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, stdin=subprocess.DEVNULL
    )
    return done.stdout if done.returncode == 0 else None


def toplevel(path: Path) -> Path:
    """The work tree holding ``path``, or a clear error when it is not in one."""
    found = git(path, "rev-parse", "--show-toplevel", check=False)
    if not found.ok:
        raise UsageError(
            f"{path} is not inside a git repository. For a folder synced by a cloud service "
            "there is nothing to set up: `workmem sync --merge-copies` merges its conflict copies"
        )
    return Path(found.out.strip())


def common_dir(top: Path) -> Path:
    found = git(top, "rev-parse", "--git-common-dir").out.strip()
    path = Path(found)
    return path if path.is_absolute() else (top / path).resolve()


def config_get(top: Path, key: str) -> str | None:
    found = git(top, "config", "--local", "--get", key, check=False)
    return found.out.strip() if found.ok else None
