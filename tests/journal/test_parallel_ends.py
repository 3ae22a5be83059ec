"""Parallel session ends through every face (CLI ``end``, the session-end hook, MCP
``end_session``): every end that reported success has its daily-log entry.

All of them share the open-session record of the key ``default``; each end owns its own
reservation in it (``journal.reservation``), so none takes over or removes another's entry.
``WORKMEM_ENDS_ROUNDS`` raises the rounds (``make ends-soak``); ``make test`` runs one round
of nine ends at once.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from workmem.demo_transcript import claude_code

ROUNDS = int(os.environ.get("WORKMEM_ENDS_ROUNDS", "1"))
PER_FACE = 3


def _env(root: Path) -> dict[str, str]:
    env = {**os.environ, "WORKMEM_ROOT": str(root), "WORKMEM_PLATFORM": "claude-code"}
    env["WORKMEM_HOOK_FOREGROUND"] = "1"  # the hook's save runs before it exits
    env.pop("WORKMEM_SESSION_ID", None)
    return env


def _cli_end(root: Path, tag: str, results: list[tuple[str, str, bool]]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "workmem", "end", "--summary", tag, "--resumption", f"go on {tag}"],
        env=_env(root),
        capture_output=True,
        text=True,
        timeout=120,
    )
    results.append(("cli", tag, done.returncode == 0))


def _hook_end(root: Path, tag: str, results: list[tuple[str, str, bool]]) -> None:
    transcript = claude_code(root.parent / f"{tag}.jsonl", session=tag, cwd=str(root))
    base = {"session_id": tag, "transcript_path": str(transcript), "cwd": str(root)}
    for event, extra in (
        ("SessionStart", {"source": "startup"}),
        ("SessionEnd", {"reason": "exit"}),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "workmem", "hook", event, "--platform", "claude-code"],
            input=json.dumps({**base, **extra}),
            env=_env(root),
            capture_output=True,
            text=True,
            timeout=120,
        )
    results.append(("hook", tag, done.returncode == 0))


async def _mcp_ends(root: Path, tags: list[str]) -> list[tuple[str, str, bool]]:
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "workmem", "mcp", "--root", str(root)], env=_env(root)
    )
    found: list[tuple[str, str, bool]] = []
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()

        async def one(tag: str) -> None:
            result: Any = await session.call_tool(
                "end_session", {"session_summary": tag, "resumption_note": f"go on {tag}"}
            )
            found.append(("mcp", tag, not result.is_error))

        async with anyio.create_task_group() as group:
            for tag in tags:
                group.start_soon(one, tag)
    return found


def test_parallel_ends_through_every_face_lose_no_entry(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("mcp", reason="the MCP extra is not installed")
    import anyio

    monkeypatch.delenv("WORKMEM_NOW")  # real time: the processes run together
    assert (
        subprocess.run(
            [sys.executable, "-m", "workmem", "init"], env=_env(root), capture_output=True
        ).returncode
        == 0
    )
    results: list[tuple[str, str, bool]] = []
    for number in range(ROUNDS):
        threads = [
            threading.Thread(target=face, args=(root, f"{name}-{number}-{i}", results))
            for name, face in (("cli-end", _cli_end), ("hook-end", _hook_end))
            for i in range(PER_FACE)
        ]
        for thread in threads:
            thread.start()
        tags = [f"mcp-end-{number}-{i}" for i in range(PER_FACE)]
        results += anyio.run(_mcp_ends, root, tags)
        for thread in threads:
            thread.join(timeout=300)
    logs = "\n".join(p.read_text() for p in sorted((root / "memory").glob("20*.md")))
    reported = [(face, tag) for face, tag, ok in results if ok]
    assert len(results) == ROUNDS * PER_FACE * 3
    lost = [tag for face, tag in reported if face != "hook" and tag not in logs]
    assert lost == [], f"ends that reported success but have no daily-log entry: {lost}"
    ended = set(re.findall(r"Session (\S+) ended", logs))
    hooks = [tag for face, tag in reported if face == "hook"]
    board = (root / "memory" / "index.md").read_text()
    sessions = re.findall(r"^\| (\d{4}-\S+) \|", board, re.MULTILINE)
    assert len(sessions) == len(hooks)  # one memory session per hook session
    assert set(sessions) <= ended, f"hook sessions without an entry: {set(sessions) - ended}"
    failed = [tag for face, tag, ok in results if not ok]
    assert failed == [], f"ends that failed: {failed}"
    assert not (root / "memory" / ".workmem" / "hook.log").exists()
    state = json.loads((root / "memory" / "state.json").read_text())
    assert state["session_count"] == len(results)
    assert not state.get("open_sessions"), state.get("open_sessions")


def _reserve_for(root: Path, owner: dict[str, Any] | None, number: int = 7) -> None:
    """A reservation as another end left it in ``state.json`` (its entry not written)."""
    from workmem.journal.writer import MemoryWriter

    MemoryWriter(root).note_decision("a decision its end was writing")
    path = root / "memory" / "state.json"
    state = json.loads(path.read_text())
    record = state["open_sessions"]["default"]
    held = {"token": "0123456789abcdef", "number": number, "day": "2026-05-25"}
    held["claimed"] = [n["id"] for n in record["notes"]]
    if owner is None:
        record["ending"] = held  # the form written before ends had owners
    else:
        record["endings"] = {str(owner["attempt"]): {**held, "owner": owner}}
    state["session_count"] = max(state.get("session_count", 0), number)
    path.write_text(json.dumps(state))


def test_a_running_end_is_never_taken_over(root: Path) -> None:
    import socket
    import time

    from workmem.journal.writer import MemoryWriter

    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        owner = {"attempt": "other", "pid": sleeper.pid, "host": socket.gethostname()}
        _reserve_for(root, {**owner, "at": time.time()})
        report = MemoryWriter(root).end_session("mine", "r")
        assert report.session == 8 and not report.resumed  # its own number, nothing taken
        assert report.notes == 0  # the running end's notes stay the running end's
        state = json.loads((root / "memory" / "state.json").read_text())
        assert list(state["open_sessions"]["default"]["endings"]) == ["other"]
    finally:
        sleeper.kill()
        sleeper.wait()
    # its owner is gone now: the next end finishes it (its number, its notes)
    report = MemoryWriter(root).end_session("the retry", "r")
    assert report.session == 7 and report.resumed and report.notes == 1
    state = json.loads((root / "memory" / "state.json").read_text())
    assert "open_sessions" not in state


@pytest.mark.parametrize("owner", [None, {"attempt": "x", "pid": 1, "host": "elsewhere", "at": 0}])
def test_an_old_or_ownerless_reservation_is_finished(
    root: Path, owner: dict[str, Any] | None
) -> None:
    from workmem.doctor import run
    from workmem.journal.writer import MemoryWriter
    from workmem.root import Workspace

    _reserve_for(root, owner)
    assert [f.kind for f in run(Workspace(root)).findings] == ["unfinished-session-end"]
    report = MemoryWriter(root).end_session("finishing it", "r")
    assert report.session == 7 and report.resumed
    assert run(Workspace(root)).findings == []


def test_a_recent_end_on_another_machine_is_left_to_it(root: Path) -> None:
    import time

    from workmem.journal.writer import MemoryWriter

    _reserve_for(root, {"attempt": "far", "pid": 1, "host": "elsewhere", "at": time.time()})
    report = MemoryWriter(root).end_session("mine", "r")
    assert report.session == 8 and not report.resumed
