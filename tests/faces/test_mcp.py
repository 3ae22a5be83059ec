"""The MCP server, driven by the SDK's own client over stdio (a real subprocess): the board
workflows, one session per conversation shared with the hooks, search then get and
timeline, arguments checked, failures reported as failures, every CLI workflow a tool."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP extra is not installed (pip install 'workmem[mcp]')")

import anyio

from workmem.files.tables import TableDocument

from .mcp_util import error_text, payload, run_hook, server_env, stdio_session


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder with a memory root marker (a hook starts memory only in one)."""
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "workmem.toml").write_text("", encoding="utf-8")
    return folder


def board_ids(root: Path) -> list[str]:
    board = root / "memory" / "index.md"
    if not board.is_file():
        return []
    return [r["Session ID"] for r in TableDocument.parse(board.read_text()).records()]


# ---- the board ---------------------------------------------------------------------------


async def _session_flow(root: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with stdio_session(root, server_env(WORKMEM_PLATFORM="codex")) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        seen["tools"] = tools
        started = payload(await session.call_tool("session_start", {}))
        seen["started"] = started
        sid = started["session_id"]
        again = payload(await session.call_tool("session_start", {}))
        seen["again"] = again
        payload(
            await session.call_tool(
                "session_update", {"topic": "MCP", "sections": {"Decisions": "Use stdio"}}
            )
        )
        seen["list"] = payload(await session.call_tool("session_list", {}))
        seen["show"] = payload(await session.call_tool("session_show", {}))
        board = await session.read_resource("workmem://board")
        seen["board"] = board.contents[0].text
        doc = await session.read_resource(f"workmem://sessions/{sid}")
        seen["doc"] = doc.contents[0].text
        seen["intent"] = payload(await session.call_tool("which_workflow", {"text": "收工"}))
        seen["bad"] = await session.call_tool("session_update", {"session_id": "../escape"})
    return seen


def test_board_workflows_over_stdio(project: Path) -> None:
    seen = anyio.run(_session_flow, project)
    tools = seen["tools"]
    assert {"session_start", "session_update", "search", "get", "timeline", "wrap"} <= set(tools)
    assert tools["session_list"].annotations.read_only_hint is True
    assert tools["session_archive"].annotations.destructive_hint is True
    assert tools["session_update"].annotations.read_only_hint is False
    sid = seen["started"]["session_id"]
    assert sid == "2026-05-25-1318-codex-main-agent"
    assert seen["started"]["registered"] is True
    assert seen["started"]["message"] == f"Your Memory Session ID is: {sid}"
    # the same conversation asking again gets the same session, registered once
    assert seen["again"]["session_id"] == sid and seen["again"]["registered"] is False
    assert board_ids(project) == [sid]
    assert seen["list"][0]["status"] == "active"
    assert seen["show"]["session_id"] == sid  # session_id defaults to the conversation's
    assert sid in seen["board"]
    assert "- Use stdio" in seen["doc"]
    assert seen["intent"]["workflow"] == "wrap"
    assert "invalid session ID" in error_text(seen["bad"])
    assert (project / "memory" / "sessions" / f"{sid}.md").is_file()


# ---- arguments a tool does not take --------------------------------------------------------


async def _unknown_arguments(root: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with stdio_session(root, server_env()) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        seen["schemas"] = {name: t.input_schema for name, t in tools.items()}
        sid = payload(await session.call_tool("session_start", {}))["session_id"]
        payload(await session.call_tool("session_update", {"topic": "Before"}))
        snapshot = root / "memory" / "sessions" / f"{sid}.md"
        seen["before"] = (snapshot.read_bytes(), (root / "memory" / "index.md").read_bytes())
        seen["context"] = await session.call_tool(
            "session_update", {"session_id": sid, "context": "Wrote the parser"}
        )
        seen["typo"] = await session.call_tool("search", {"query": "x", "limit": 3})
        seen["after"] = (snapshot.read_bytes(), (root / "memory" / "index.md").read_bytes())
    return seen


def test_an_argument_a_tool_does_not_take_is_an_error_and_writes_nothing(project: Path) -> None:
    seen = anyio.run(_unknown_arguments, project)
    message = error_text(seen["context"])
    assert "session_update does not take context" in message
    assert "sections" in message and "nothing was done" in message
    assert "search does not take limit" in error_text(seen["typo"])
    assert seen["after"] == seen["before"]
    # and every tool's schema says so up front
    assert {s.get("additionalProperties") for s in seen["schemas"].values()} == {False}


# ---- one conversation, one session: the hooks' session ----------------------------------------


async def _after_the_hooks(root: Path, env: dict[str, str]) -> dict[str, Any]:
    async with stdio_session(root, env) as session:
        current = payload(await session.call_tool("session_current", {}))
        started = payload(await session.call_tool("session_start", {}))
        registered = payload(
            await session.call_tool("session_register", {"topic": "Parser", "context": "Wrote it"})
        )
        return {"current": current, "started": started, "registered": registered}


def test_the_server_uses_the_session_the_hooks_registered(project: Path, tmp_path: Path) -> None:
    env = server_env(tmp_path / "home", WORKMEM_PLATFORM="claude-code")
    out = run_hook(
        project, "claude-code", "SessionStart", {"session_id": "cc-1", "source": "startup"}, env
    )
    (hooked,) = board_ids(project)
    assert f"Your Memory Session ID is: {hooked}" in out
    seen = anyio.run(_after_the_hooks, project, env)
    # found through the agent process both were started by (this test's process)
    assert seen["current"] == {
        "session_id": hooked,
        "found_by": "agent",
        "platform": "claude-code",
        "transcript": None,
    }
    assert seen["started"]["session_id"] == hooked and seen["started"]["registered"] is False
    assert seen["registered"]["session_id"] == hooked  # filled in, not a second session
    assert board_ids(project) == [hooked]
    snapshot = (project / "memory" / "sessions" / f"{hooked}.md").read_text()
    assert "Wrote it" in snapshot and "| Topic | Parser |" in snapshot


def test_after_clear_the_newer_session_of_the_same_agent_is_used(
    project: Path, tmp_path: Path
) -> None:
    env = server_env(tmp_path / "home", WORKMEM_PLATFORM="claude-code")
    run_hook(
        project, "claude-code", "SessionStart", {"session_id": "cc-1", "source": "startup"}, env
    )
    env_later = {**env, "WORKMEM_NOW": "2026-05-25 14:02"}
    run_hook(
        project, "claude-code", "SessionStart", {"session_id": "cc-2", "source": "clear"}, env_later
    )
    first, second = sorted(board_ids(project))
    seen = anyio.run(_after_the_hooks, project, env_later)
    assert seen["current"]["session_id"] == second and first != second


def test_without_hooks_the_server_registers_one_session_and_keeps_it(project: Path) -> None:
    async def flow() -> list[Any]:
        async with stdio_session(project, server_env()) as session:
            assert payload(await session.call_tool("session_current", {})) is None
            no_session = await session.call_tool("notes_view", {})
            first = payload(await session.call_tool("session_register", {"topic": "Alone"}))
            current = payload(await session.call_tool("session_current", {}))
            return [no_session, first, current]

    no_session, first, current = anyio.run(flow)
    assert "no Memory Session ID is known for this conversation" in error_text(no_session)
    assert current["session_id"] == first["session_id"] and current["found_by"] == "registered"
    assert board_ids(project) == [first["session_id"]]


# ---- search, then open what it found -----------------------------------------------------------


async def _recall(root: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with stdio_session(root, server_env()) as session:
        payload(await session.call_tool("session_start", {}))
        payload(
            await session.call_tool(
                "end_session",
                {
                    "session_summary": "Compared databases; the quokka benchmark won.",
                    "resumption_note": "Next I wire the FTS5 index.",
                },
            )
        )
        payload(
            await session.call_tool(
                "note_decision", {"text": "Chose SQLite over Postgres", "why": "no server"}
            )
        )
        hits = payload(await session.call_tool("search", {"query": "quokka benchmark"}))
        seen["hits"] = hits
        seen["get"] = payload(await session.call_tool("get", {"id": hits[0]["id"]}))
        seen["timeline"] = payload(await session.call_tool("timeline", {"id": hits[0]["id"]}))
        seen["missing"] = await session.call_tool("get", {"id": "ffffffffffff"})
    return seen


def test_get_and_timeline_open_what_search_returns(project: Path) -> None:
    seen = anyio.run(_recall, project)
    hit = seen["hits"][0]
    assert "quokka" in hit["snippet"] and "text" not in hit  # compact hits
    whole = seen["get"]
    assert whole["id"] == hit["id"] and "the quokka benchmark won" in whole["text"]
    assert whole["path"] == hit["path"] and whole["line_start"] >= 1
    around = seen["timeline"]
    assert around["anchor"]["id"] == hit["id"] and "quokka" in around["anchor"]["text"]
    neighbours = around["before"] + around["after"]
    assert any("Next I wire the FTS5 index." in h["snippet"] for h in neighbours)
    assert error_text(seen["missing"])


# ---- a workflow that did nothing is not a success ----------------------------------------


async def _failures(root: Path) -> dict[str, Any]:
    async with stdio_session(root, server_env(HOME=str(root / "nohome"))) as session:
        sid = payload(await session.call_tool("session_start", {}))["session_id"]
        (root / "memory" / "project_broken.md").write_text("no frontmatter here\n")
        return {
            "no_workflow": await session.call_tool("run_workflow", {"text": "hello there"}),
            "no_transcript": await session.call_tool("notes_refresh", {"session_id": sid}),
            "runs": payload(await session.call_tool("run_workflow", {"text": "整理 memory"})),
            "maintain": await session.call_tool("maintain", {}),
        }


def test_workflows_that_do_nothing_fail(project: Path) -> None:
    seen = anyio.run(_failures, project)
    assert "asks for no workflow" in error_text(seen["no_workflow"])
    assert "no transcript found" in error_text(seen["no_transcript"])
    assert seen["runs"]["result"]["ok"] is True
    assert seen["runs"]["intent"]["workflow"] == "organize"
    broken = error_text(seen["maintain"])
    assert "project_broken.md" in broken and "left as they are" in broken


# ---- every workflow of the CLI is a tool, or says why not ---------------------------------


def _commands(parser: argparse.ArgumentParser, prefix: str = "") -> list[str]:
    """Every command path of the CLI (``session start``, ``sync``, ``sync init`` …)."""
    found = []
    for action in parser._actions:  # argparse keeps its subcommands nowhere public
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                path = f"{prefix} {name}".strip()
                inner = _commands(sub, path)
                required = any(
                    isinstance(a, argparse._SubParsersAction) and a.required for a in sub._actions
                )
                found += inner if required else [path, *inner]
    return found


def test_every_cli_command_is_a_tool_or_says_why_not(tmp_path: Path) -> None:
    from workmem.cli import build_parser
    from workmem.mcp_server import build_server
    from workmem.mcp_server.coverage import NOT_TOOLS, TOOLS

    commands = set(_commands(build_parser()))
    assert commands == set(TOOLS) | set(NOT_TOOLS), "a command with no decision, or a stale one"
    assert not set(TOOLS) & set(NOT_TOOLS)
    server = build_server(tmp_path)
    names = {t.name for t in anyio.run(server.list_tools)}
    named = {tool for tools in TOOLS.values() for tool in tools}
    assert named <= names, f"tools that do not exist: {named - names}"
    assert names <= named, f"tools no command lists: {names - named}"
    assert "relay_snapshot" in names and "relay_restore" in names


# ---- the handoff -------------------------------------------------------------------------


async def _handoff(root: Path) -> dict[str, Any]:
    from tests.continuity.hooks import touch
    from tests.continuity.sessions import hazardous_session

    home = root / "home"
    transcript = hazardous_session(root / "sess-a.jsonl", str(root))
    touch(transcript, "2026-05-25 13:05")  # the files' time and the memory's agree
    env = server_env(home, WORKMEM_NOW="2026-05-25 13:00")
    first: dict[str, object] = {
        "session_id": "sess-a",
        "transcript_path": str(transcript),
        "source": "startup",
    }
    run_hook(root, "claude-code", "SessionStart", first, env)
    seen: dict[str, Any] = {}
    # The next day, another agent's conversation with a session of its own (the hooks ran
    # under this test's process, which the server would otherwise take for the same agent).
    later = server_env(home, WORKMEM_NOW="2026-05-26 09:00", WORKMEM_PLATFORM="codex")
    started = subprocess.run(
        [sys.executable, "-m", "workmem", "--root", str(root), "session", "start"],
        capture_output=True,
        text=True,
        env=later,
        check=True,
    )
    later["WORKMEM_SESSION_ID"] = started.stdout.splitlines()[0].rsplit(" ", 1)[-1]
    async with stdio_session(root, later) as session:
        seen["mine"] = payload(await session.call_tool("session_start", {}))["session_id"]
        seen["read"] = payload(await session.call_tool("handoff", {}))
        seen["linked"] = payload(await session.call_tool("handoff", {"continue_it": True}))
        seen["missing"] = await session.call_tool("handoff", {"session": "no such topic here"})
        seen["extra"] = await session.call_tool("handoff", {"sesion": "typo"})
    return seen


def test_the_handoff_is_a_tool(project: Path) -> None:
    seen = anyio.run(_handoff, project)
    read = seen["read"]
    assert "[in progress] Handle CRLF line endings in the tokenizer" in read["text"]
    assert read["source"].endswith("claude-code-main-agent") and read["linked"] is False
    assert seen["linked"]["linked"] is True
    snapshot = (project / "memory" / "sessions" / f"{seen['mine']}.md").read_text()
    assert read["source"] in snapshot.split("## Continues From")[1]
    assert "no session 'no such topic here'" in error_text(seen["missing"])
    assert error_text(seen["extra"])  # an argument the tool does not take
