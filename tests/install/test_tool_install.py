"""The README's install line: workmem installed as a tool straight from the repository.

``pipx install <repository>`` (and ``uv tool install <repository>`` where uv is on PATH)
into a temporary tool home; then ``workmem setup`` in a temporary project must write hooks
that call the tool's own link on PATH, with nothing to warn about, and the hook must answer.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .util import answer_context, fire, run_ok, tool_env

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _install(tool: str, base: Path) -> tuple[Path, dict[str, str]]:
    """Install the repository with ``tool``; the bin folder of its links and the env used."""
    bin_dir = base / "bin"
    env = tool_env(bin_dir, base / "home")
    if tool == "pipx":
        env |= {"PIPX_HOME": str(base / "pipx"), "PIPX_BIN_DIR": str(bin_dir)}
        env["PIPX_MAN_DIR"] = str(base / "man")
        run_ok([sys.executable, "-m", "pipx", "install", str(REPO)], env=env)
    else:
        uv = shutil.which("uv")
        if uv is None:
            pytest.skip("uv is not on PATH (pip install uv to run this check)")
        env |= {"UV_TOOL_DIR": str(base / "uv"), "UV_TOOL_BIN_DIR": str(bin_dir)}
        run_ok([uv, "tool", "install", str(REPO)], env=env)
    return bin_dir, env


@pytest.mark.parametrize("tool", ["pipx", "uv"])
def test_tool_install_from_the_repository_then_setup(tmp_path: Path, tool: str) -> None:
    bin_dir, env = _install(tool, tmp_path)
    link = bin_dir / "workmem"
    assert link.is_file()
    assert run_ok([str(link), "--version"], env=env).stdout.startswith("workmem ")
    project = tmp_path / "project"
    project.mkdir()
    (tmp_path / "home").mkdir(exist_ok=True)
    done = run_ok(["workmem", "setup", "--platform", "codex"], cwd=project, env=env)
    assert f"hooks run: workmem (on your PATH: {link})" in done.stdout
    assert "Note:" not in done.stdout  # the link lasts: nothing to warn about
    hooks = json.loads((project / ".codex" / "hooks.json").read_text())["hooks"]
    command = hooks["SessionStart"][0]["hooks"][0]["command"]
    assert command == (
        "command -v workmem >/dev/null 2>&1 && workmem hook SessionStart --platform codex || true"
    )
    out = fire(command, {"session_id": "c-1", "cwd": str(project)}, project, env)
    assert answer_context("codex", out).startswith("Your Memory Session ID is: ")
    # a missing extra names this install's own route
    hint = "pipx inject workmem 'mcp>=2.3'" if tool == "pipx" else "uv tool install --force"
    mcp = subprocess.run(
        ["workmem", "mcp"], capture_output=True, text=True, cwd=project, env=env, check=False
    )
    assert mcp.returncode == 2 and hint in mcp.stderr, mcp.stderr
    # the way out, in the README's order: uninstall, then remove the tool; then a hook left
    # behind in another project does nothing and says nothing
    run_ok(["workmem", "setup", "--uninstall"], cwd=project, env=env)
    assert not (project / ".codex").exists()
    other = tmp_path / "other"
    other.mkdir()
    run_ok(["workmem", "setup", "--platform", "codex"], cwd=other, env=env)
    left = json.loads((other / ".codex" / "hooks.json").read_text())["hooks"]
    if tool == "pipx":
        run_ok([sys.executable, "-m", "pipx", "uninstall", "workmem"], env=env)
    else:
        run_ok([str(shutil.which("uv")), "tool", "uninstall", "workmem"], env=env)
    assert not link.exists()
    after = fire(left["Stop"][0]["hooks"][0]["command"], {"session_id": "c-2"}, other, env)
    assert after == ""
