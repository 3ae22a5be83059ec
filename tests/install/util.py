"""Helpers for the set-up tests: a project and home of their own, a real hook command."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

# The context a hook's answer gives the model, in the platform's own format.
from ..faces.test_hooks_e2e import _context as answer_context

__all__ = ["answer_context", "fire", "run_ok", "tool_env", "tree", "workmem_script"]


def tree(folder: Path, *, skip_locks: bool = True) -> dict[str, bytes]:
    """Every file under ``folder`` (links as their target text) -> content, for comparing."""
    found: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if rel.startswith(".git/") or (skip_locks and "/.workmem/locks/" in f"/{rel}"):
            continue
        if path.is_symlink():
            found[rel] = f"-> {path.readlink()}".encode()
        elif path.is_file():
            found[rel] = path.read_bytes()
    return found


def workmem_script(folder: Path, name: str = "workmem") -> Path:
    """An executable ``workmem`` that runs this checkout's workmem: a real hook command."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / name
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m workmem "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return script


def run_ok(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, capture_output=True, text=True, check=False, **kwargs)
    assert done.returncode == 0, f"{argv} failed:\n{done.stdout}\n{done.stderr}"
    return done


#: Variables of the test's own process that would tell workmem where it runs or which agent.
_NOT_A_USERS = ("WORKMEM_", "CLAUDE", "CODEX_", "CURSOR_", "GEMINI_", "OPENCLAW_", "VIRTUAL_ENV")


def tool_env(bin_dir: Path, home: Path) -> dict[str, str]:
    """A user's shell: this machine's environment (certificates, proxies, locale) with a
    home of its own, the tool's bin first on PATH, and nothing of the test or an agent."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith(_NOT_A_USERS)}
    return {
        **keep,
        "HOME": str(home),
        "PATH": f"{bin_dir}:/usr/local/bin:/usr/bin:/bin",
        "WORKMEM_NOW": "2026-05-25 13:18",
    }


def fire(command: str, payload: dict[str, Any], project: Path, env: dict[str, str]) -> str:
    """Run one hook command as an agent does: a shell, its JSON on stdin, the project as cwd."""
    done = subprocess.run(
        command,
        shell=True,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, f"{command}: exit {done.returncode}\n{done.stderr}"
    assert done.stderr == "", done.stderr
    return done.stdout
