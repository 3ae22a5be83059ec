"""Reads create nothing: no lock file, no folder, no memory root. The web viewer and the MCP
server's read-only tools change nothing but the derived search index. A write where no memory
root exists says where and asks for ``workmem init``; hooks and ``init`` may start one."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from workmem.cli import main

from ..web.util import SID, build_site, running
from .util import DERIVED_INDEX, changes, snapshot, workmem

#: Every command that only reads (or previews), with arguments that make it do real work.
READS: list[list[str]] = [
    ["session", "list"],
    ["session", "list", "--json"],
    ["session", "show", SID],
    ["doctor"],
    ["memory", "list"],
    ["platform"],
    ["load", "what did we decide about the database?"],
    ["event", "find", "what did I buy in March?"],
    ["transcripts", "list"],
    ["relay", "status"],
    ["relay", "inherit"],
    ["notes", "--view", "--session", SID],
    ["search", "quokka benchmark"],
    ["wrap", "--state"],
    ["say", "整理這個 session"],
    ["bootstrap", "--dry-run"],
    ["curate", "--dry-run"],
    ["maintain", "--dry-run"],
    ["migrate", "--dry-run"],
    ["context"],
    ["hooks", "install", "--platform", "claude-code", "--dry-run"],
]


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home and cache of our own (the token cache and agents' folders live there)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("WORKMEM_EMBEDDER", "none")
    return home


def _run(argv: list[str]) -> int:
    """One command in this process; a traceback would fail the test."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        return main(argv)


@pytest.mark.parametrize("place", ["current folder", "git subfolder", "named empty root"])
def test_reads_where_there_is_no_memory_create_nothing(
    place: str, tmp_path: Path, isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    for name in ("WORKMEM_ROOT", "WORKMEM_SESSION_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 13:18")
    if place == "git subfolder":
        subprocess.run(["git", "init", "-q", str(project)], check=True)
    if place == "named empty root":
        monkeypatch.setenv("WORKMEM_ROOT", str(project))
    monkeypatch.chdir(project / "src")
    before = snapshot(project)
    for argv in READS:
        _run(argv)
        assert changes(before, snapshot(project)) == [], argv


def test_reads_of_a_real_root_change_nothing_but_the_index(root: Path, isolated: Path) -> None:
    """The derived search index is the one exception: a search (also the loader's) first
    brings it up to date, as DESIGN.md promises."""
    build_site(root)
    for argv in READS:
        before = snapshot(root, skip=DERIVED_INDEX)
        _run(argv)
        assert changes(before, snapshot(root, skip=DERIVED_INDEX)) == [], argv


def test_every_web_page_changes_nothing_but_the_index(root: Path) -> None:
    for name in ("starlette", "uvicorn"):
        pytest.importorskip(name, reason="the web extra is not installed")
    from workmem.root import Workspace

    ids = build_site(root)
    before = snapshot(root, skip=DERIVED_INDEX)
    with running(Workspace(root)) as client:
        hits = client.get("/api/search?q=quokka").json()["hits"]
        assert hits
        for url in (
            "/",
            "/?status=idle",
            "/api/board",
            f"/sessions/{ids['sid']}",
            f"/api/sessions/{ids['sid']}",
            f"/sessions/{ids['old']}",
            "/threads",
            "/api/threads",
            "/events",
            "/api/events",
            "/search?q=quokka",
            f"/chunks/{hits[0]['id']}",
            f"/api/chunks/{hits[0]['id']}",
            "/sessions/2026-01-01-0000-nobody-agent",
        ):
            client.get(url)
    assert changes(before, snapshot(root, skip=DERIVED_INDEX)) == []


def test_the_web_viewer_on_an_empty_folder_creates_nothing(tmp_path: Path) -> None:
    for name in ("starlette", "uvicorn"):
        pytest.importorskip(name, reason="the web extra is not installed")
    from workmem.root import Workspace

    empty = tmp_path / "empty"
    empty.mkdir()
    with running(Workspace(empty)) as client:
        for url in ("/", "/threads", "/events", "/search?q=anything", "/api/search?q=x"):
            assert client.get(url).status == 200, url
    assert list(empty.iterdir()) == []


# -- MCP: every tool annotated read-only, and the resources ---------------------------------

MCP_READ_ARGS: dict[str, dict[str, Any]] = {
    "session_list": {},
    "session_show": {"session_id": SID},
    "doctor": {},
    "notes_view": {"session_id": SID},
    "event_find": {"query": "what did I buy in March?"},
    "load_context": {"user_message": "what were we doing?"},
    "search": {"query": "quokka"},
    "which_workflow": {"text": "收工"},
    "session_current": {},
    "notes_seed": {"session_id": SID},
    "memory_list": {},
    "memory_show": {"name": "project_none"},
    "wrap_state": {},
    "context_usage": {},
    "platform": {},
    "get": {"id": "0123456789ab"},
    "timeline": {"id": "0123456789ab"},
    "relay_inherit": {},
    "relay_status": {},
    "transcripts_list": {},
    "transcript_history": {"id": "no-such-session"},
    "transcript_status": {"id": "no-such-session"},
}


async def _mcp_reads(root: Path, with_session: bool = True) -> list[str]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "workmem", "mcp", "--root", str(root)],
        env={**os.environ, "WORKMEM_NOW": "2026-05-25 13:18", "WORKMEM_EMBEDDER": "none"},
    )
    called = []
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for tool in (await session.list_tools()).tools:
            if tool.annotations is None or not tool.annotations.read_only_hint:
                continue
            assert tool.name in MCP_READ_ARGS, f"new read-only tool {tool.name}: add it here"
            await session.call_tool(tool.name, MCP_READ_ARGS[tool.name])
            called.append(tool.name)
        await session.read_resource("workmem://board")
        if with_session:
            await session.read_resource(f"workmem://sessions/{SID}")
    return called


def test_mcp_read_only_tools_change_nothing_but_the_index(root: Path, isolated: Path) -> None:
    pytest.importorskip("mcp", reason="the MCP extra is not installed")
    import anyio

    build_site(root)
    before = snapshot(root, skip=DERIVED_INDEX)
    called = anyio.run(_mcp_reads, root)
    assert sorted(called) == sorted(MCP_READ_ARGS)
    assert changes(before, snapshot(root, skip=DERIVED_INDEX)) == []


def test_mcp_reads_on_an_empty_folder_create_nothing(tmp_path: Path, isolated: Path) -> None:
    pytest.importorskip("mcp", reason="the MCP extra is not installed")
    import anyio

    empty = tmp_path / "empty"
    empty.mkdir()
    anyio.run(_mcp_reads, empty, False)
    assert list(empty.iterdir()) == []


# -- writes where no memory root exists -----------------------------------------------------


def test_a_write_in_a_git_subfolder_asks_for_init_and_creates_nothing(
    tmp_path: Path, isolated: Path
) -> None:
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    before = snapshot(repo, skip=(".git",))
    env = {"HOME": str(isolated)}

    for argv in (
        ["session", "start"],
        ["note", "decision", "Use SQLite"],
        ["memory", "add", "--type", "user", "--topic", "x", "--description", "d", "--content", "c"],
    ):
        done = workmem(*argv, cwd=repo / "pkg", env=env)
        assert done.returncode == 3, (argv, done.stderr)
        assert f"{repo} (the git top-level)" in done.stderr, done.stderr
        assert "workmem init" in done.stderr and "Traceback" not in done.stderr
    assert changes(before, snapshot(repo, skip=(".git",))) == []

    # init is how a memory root is started; after it the same command goes ahead.
    assert workmem("init", cwd=repo / "pkg", env=env).returncode == 0
    done = workmem("session", "start", cwd=repo / "pkg", env=env)
    assert done.returncode == 0, done.stderr
    assert (repo / "memory" / "index.md").is_file()
    assert not (repo / "pkg" / "memory").exists()


def test_the_state_folder_is_ignored_by_git_without_editing_gitignore(
    tmp_path: Path, isolated: Path
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    assert workmem("init", cwd=repo).returncode == 0
    assert workmem("session", "start", cwd=repo, env={"HOME": str(isolated)}).returncode == 0
    assert (repo / "memory" / ".workmem" / "locks").is_dir()
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "memory/index.md" in status
    assert ".workmem" not in status
    assert not (repo / ".gitignore").exists()


def test_a_hook_may_start_a_memory_root_in_a_project(tmp_path: Path, isolated: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    payload = json.dumps({"session_id": "s1", "cwd": str(project / "src")})
    (project / "src").mkdir()
    done = workmem("hook", "SessionStart", "--platform", "claude-code", stdin=payload, cwd=tmp_path)
    assert done.returncode == 0
    assert "Your Memory Session ID is" in done.stdout
    assert (project / "memory" / "index.md").is_file()
    assert (project / "memory" / ".workmem" / ".gitignore").read_text().endswith("*\n")


def test_a_hook_whose_cwd_does_not_exist_creates_nothing(tmp_path: Path, isolated: Path) -> None:
    gone = tmp_path / "deleted-project"
    payload = json.dumps({"session_id": "s1", "cwd": str(gone), "prompt": "hi"})
    before = snapshot(tmp_path)
    for event in ("SessionStart", "UserPromptSubmit", "PreCompact", "SessionEnd"):
        done = workmem("hook", event, "--platform", "claude-code", stdin=payload, cwd=tmp_path)
        assert done.returncode == 0 and done.stdout == "", (event, done.stderr)
    assert not gone.exists()
    assert changes(before, snapshot(tmp_path)) == []
