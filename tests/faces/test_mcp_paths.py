"""A transcript a client names is read only from the memory root or the agents' own
transcript folders, and only when it is a regular file of this user: ``transcripts.places``,
and the MCP tools that take a transcript going through it."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from workmem.demo_transcript import claude_code
from workmem.errors import NotFoundError, OutsideRootError, UsageError
from workmem.root import Workspace
from workmem.transcripts.places import confine_transcript

NOBODY = 65534


@pytest.fixture
def layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Workspace, Path]:
    """A memory root and a home folder with Claude Code's and Codex's transcript folders."""
    home = tmp_path / "home"
    for folder in (".claude/projects/-proj", ".codex/sessions/2026/05/25"):
        (home / folder).mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "OPENCLAW_STATE_DIR"):
        monkeypatch.delenv(name, raising=False)
    root = tmp_path / "project"
    (root / "memory").mkdir(parents=True)
    return Workspace(root), home


def test_the_root_and_the_agents_folders_are_accepted(layout: tuple[Workspace, Path]) -> None:
    workspace, home = layout
    claude = claude_code(home / ".claude" / "projects" / "-proj" / "s1.jsonl")
    assert confine_transcript(workspace, str(claude)) == claude.resolve()
    assert confine_transcript(workspace, "~/.claude/projects/-proj/s1.jsonl") == claude.resolve()
    copy = claude_code(workspace.root / "t.jsonl")
    assert confine_transcript(workspace, "t.jsonl") == copy.resolve()  # relative: to the root
    assert confine_transcript(workspace, f"file://{claude}") == claude.resolve()
    # a link inside an agent's folder to another transcript there is followed
    link = home / ".claude" / "projects" / "-proj" / "again.jsonl"
    link.symlink_to(claude)
    assert confine_transcript(workspace, str(link)) == claude.resolve()


def test_anything_else_is_refused_before_it_is_opened(
    layout: tuple[Workspace, Path], tmp_path: Path
) -> None:
    workspace, home = layout
    outside = tmp_path / "elsewhere" / "secret.txt"
    outside.parent.mkdir()
    outside.write_text("password = hunter2\n")
    with pytest.raises(OutsideRootError, match="only read from the memory root or an agent"):
        confine_transcript(workspace, str(outside))
    with pytest.raises(OutsideRootError):
        confine_transcript(workspace, "/etc/passwd")
    # a link in an agent's folder (or in the root) that leads out is judged where it leads
    planted = home / ".claude" / "projects" / "-proj" / "planted.jsonl"
    planted.symlink_to(outside)
    with pytest.raises(OutsideRootError):
        confine_transcript(workspace, str(planted))
    (workspace.root / "memory" / "t.jsonl").symlink_to(outside)
    with pytest.raises(OutsideRootError, match="leads outside the memory root"):
        confine_transcript(workspace, "memory/t.jsonl")
    with pytest.raises(OutsideRootError, match="leads outside the memory root"):
        confine_transcript(workspace, f"{workspace.root}/memory/../../elsewhere/secret.txt")
    # not a file: a FIFO is refused by its type, at once (opening it would wait forever)
    fifo = home / ".codex" / "sessions" / "2026" / "05" / "25" / "rollout-x.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(UsageError, match="not a regular file"):
        confine_transcript(workspace, str(fifo))
    with pytest.raises(OutsideRootError):
        confine_transcript(workspace, "/dev/zero")  # refused by its place, never read
    with pytest.raises(NotFoundError):
        confine_transcript(workspace, str(home / ".claude" / "projects" / "-proj" / "none.jsonl"))
    with pytest.raises(UsageError):
        confine_transcript(workspace, "  ")


def test_another_users_file_is_refused_even_in_an_agents_folder(
    layout: tuple[Workspace, Path],
) -> None:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("giving a file to another account needs root (CI runs the tests as root)")
    workspace, home = layout
    theirs = claude_code(home / ".claude" / "projects" / "-proj" / "theirs.jsonl")
    theirs.chmod(0o600)
    os.chown(theirs, NOBODY, NOBODY)
    with pytest.raises(OutsideRootError, match="belongs to another user"):
        confine_transcript(workspace, str(theirs))


# ---- through the MCP tools --------------------------------------------------------------------


def test_notes_refresh_reads_no_file_of_another_user_or_place(
    layout: tuple[Workspace, Path], tmp_path: Path
) -> None:
    pytest.importorskip("mcp", reason="the MCP extra is not installed")
    import anyio

    from .mcp_util import error_text, payload, server_env, stdio_session

    workspace, home = layout
    root = workspace.root
    (root / "workmem.toml").write_text("", encoding="utf-8")
    secret = "quokka-secret-7731 the launch codes"
    elsewhere = tmp_path / "other-user" / "private.jsonl"
    elsewhere.parent.mkdir()
    theirs = home / ".claude" / "projects" / "-proj" / "theirs.jsonl"
    for path in (elsewhere, theirs):
        claude_code(path)
        path.write_text(path.read_text().replace("rate limiting", secret))
        assert secret in path.read_text()
        path.chmod(0o600)
        if os.geteuid() == 0:
            os.chown(path, NOBODY, NOBODY)
    mine = claude_code(home / ".claude" / "projects" / "-proj" / "mine.jsonl")

    async def flow() -> dict[str, Any]:
        async with stdio_session(root, server_env(home)) as session:
            sid = payload(await session.call_tool("session_start", {}))["session_id"]
            seen: dict[str, Any] = {"sid": sid}
            for name, path in (("elsewhere", elsewhere), ("theirs", theirs), ("fifo", "/dev/zero")):
                seen[name] = await session.call_tool(
                    "notes_refresh", {"session_id": sid, "transcript": str(path)}
                )
            seen["history"] = await session.call_tool("transcript_history", {"id": str(elsewhere)})
            seen["hits"] = payload(
                await session.call_tool("search", {"query": "quokka-secret-7731"})
            )
            seen["mine"] = payload(
                await session.call_tool(
                    "notes_refresh", {"session_id": sid, "transcript": str(mine)}
                )
            )
            return seen

    seen = anyio.run(flow)
    assert "only read from the memory root or an agent" in error_text(seen["elsewhere"])
    assert "only read from the memory root or an agent" in error_text(seen["fifo"])
    assert "only read from the memory root or an agent" in error_text(seen["history"])
    if os.geteuid() == 0:
        assert "belongs to another user" in error_text(seen["theirs"])
    assert seen["hits"] == []
    assert seen["mine"]["ran"] is True  # the user's own transcript in Claude Code's folder
    notes = (root / "memory" / "sessions" / f"{seen['sid']}.notes.md").read_text()
    assert secret not in notes and "rate limit" in notes.lower()
    assert not any(secret in p.read_text(errors="replace") for p in root.rglob("*") if p.is_file())


def test_a_bare_name_is_a_session_id_never_a_file_where_the_server_runs(
    layout: tuple[Workspace, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("mcp", reason="the MCP extra is not installed")
    import anyio

    from .mcp_util import error_text, payload, server_env, stdio_session

    workspace, home = layout
    (workspace.root / "workmem.toml").write_text("", encoding="utf-8")
    # a file named like a session id in the folder the server was started from
    claude_code(workspace.root.parent / "private-notes")
    folder = re.sub(r"[^A-Za-z0-9]", "-", str(workspace.root))  # Claude Code's name for it
    (home / ".claude" / "projects" / folder).mkdir()
    claude_code(home / ".claude" / "projects" / folder / "sess-9.jsonl", session="sess-9")

    async def flow() -> tuple[Any, Any]:
        async with stdio_session(workspace.root, server_env(home)) as session:
            bare = await session.call_tool("transcript_status", {"id": "private-notes"})
            found = await session.call_tool("transcript_status", {"id": "sess-9"})
            return bare, found

    monkeypatch.chdir(workspace.root.parent)
    bare, found = anyio.run(flow)
    assert "no such transcript" in error_text(bare)  # judged as a path in the root: none
    assert payload(found)["summary"]["session_id"] == "sess-9"
