"""Which memory session a process's conversation belongs to (``hooks.conversation``): the
environment, the agent process that ran the hooks, the platform's session id; and the
agent process itself (``oscompat.agent_process``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from workmem.board import Board
from workmem.files.oscompat import agent_process
from workmem.files.store import Store
from workmem.hooks.conversation import find_conversation, start_conversation
from workmem.hooks.session_map import by_agent, remember
from workmem.root import Workspace


def _board(root: Path) -> tuple[Workspace, Store]:
    workspace = Workspace(root)
    return workspace, Store(workspace)


def test_each_way_of_finding_the_conversation(root: Path) -> None:
    workspace, store = _board(root)
    board = Board(root)
    first = board.start().session_id
    second = board.start(agent_name="other-agent").session_id
    remember(store, "claude-code", "cc-1", first, None)
    # nothing to go by: no conversation
    assert find_conversation(workspace, {}, agent="1:1") is None
    # the platform's own session id, as Claude Code puts it in its children's environment
    found = find_conversation(workspace, {"CLAUDE_CODE_SESSION_ID": "cc-1"}, agent="1:1")
    assert found is not None and (found.session_id, found.found_by) == (first, "platform session")
    # the agent that ran the hook (remember recorded this process's agent)
    mine = agent_process()
    if mine is not None:
        found = find_conversation(workspace, {}, agent=mine)
        assert found is not None and (found.session_id, found.found_by) == (first, "agent")
    # WORKMEM_SESSION_ID comes first, when the board has it
    env = {"WORKMEM_SESSION_ID": second, "CLAUDE_CODE_SESSION_ID": "cc-1"}
    found = find_conversation(workspace, env, agent="1:1")
    assert found is not None and (found.session_id, found.found_by) == (second, "environment")
    gone = {"WORKMEM_SESSION_ID": "2020-01-01-0000-gone-agent", "CLAUDE_CODE_SESSION_ID": "cc-1"}
    found = find_conversation(workspace, gone, agent="1:1")
    assert found is not None and found.session_id == first
    # a session no longer on the board is no answer
    board.update(first, topic="Done")
    board.archive(first)
    assert find_conversation(workspace, {"CLAUDE_CODE_SESSION_ID": "cc-1"}, agent="1:1") is None


def test_the_latest_session_of_one_agent_wins(root: Path) -> None:
    _, store = _board(root)
    board = Board(root)
    older, newer = board.start().session_id, board.start().session_id
    remember(store, "codex", "t-1", older, None)
    remember(store, "codex", "t-2", newer, None)
    mapped = by_agent(store, agent_process())
    if agent_process() is None:
        assert mapped is None
    else:
        assert mapped is not None and mapped.memory_session_id == newer


def test_start_registers_once_and_records_the_platform_session(root: Path) -> None:
    workspace, _ = _board(root)
    env = {"CLAUDE_CODE_SESSION_ID": "cc-9"}
    first, registered = start_conversation(workspace, env=env, agent="1:1")
    assert registered and first.found_by == "registered" and first.platform == "claude-code"
    again, registered = start_conversation(workspace, env=env, agent="1:1")
    assert not registered and again.session_id == first.session_id
    assert [r.session_id for r in Board(root).list()] == [first.session_id]


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="no /proc on this system")
def test_the_agent_process_passes_over_shells_and_launchers(tmp_path: Path) -> None:
    probe = "from workmem.files.oscompat import agent_process; print(agent_process())"
    direct = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    # the same program under `sh -c` (as hooks run) finds the same agent: this process
    shell = subprocess.run(
        ["sh", "-c", f'"{sys.executable}" -c "{probe}"; true'],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert direct == shell
    assert direct.split(":")[0] == str(os.getpid())
    assert agent_process() != direct  # this process's own agent is another


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="no /proc on this system")
def test_a_resumed_session_is_found_from_its_new_agent_process(tmp_path: Path) -> None:
    """The session-start hook of a resumed platform session records the new agent process,
    so the MCP server that agent starts finds the session registered before."""
    import json

    from .mcp_util import run_hook, server_env

    project = tmp_path / "project"
    project.mkdir()
    (project / "workmem.toml").write_text("", encoding="utf-8")
    env = server_env(tmp_path / "home")
    data = {"cwd": str(project), "session_id": "cx-1", "source": "startup"}
    hook = [sys.executable, "-m", "workmem", "hook", "SessionStart", "--platform", "codex"]
    # the first run: under another agent process (an intermediate Python)
    launcher = "import subprocess, sys; subprocess.run(sys.argv[1:], check=True)"
    subprocess.run(
        [sys.executable, "-c", launcher, *hook],
        input=json.dumps(data),
        text=True,
        env=env,
        cwd=project,
        check=True,
        capture_output=True,
        timeout=60,
    )
    workspace = Workspace(project)
    probe = "from workmem.files.oscompat import agent_process; print(agent_process())"
    this = subprocess.run(  # this process, as the agent of the processes it starts
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert find_conversation(workspace, {}, agent=this) is None  # another agent's session
    run_hook(project, "codex", "SessionStart", {**data, "source": "resume"}, env)
    found = find_conversation(workspace, {}, agent=this)
    assert found is not None and found.found_by == "agent"
    assert [r.session_id for r in Board(project).list()] == [found.session_id]
