"""A real viewer on 127.0.0.1 (uvicorn in a background thread) and a urllib client for it.

httpx is not installed, so Starlette's TestClient is not an option; the viewer is served
for real on a free port and asked over HTTP, the way a browser would.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import Message
from pathlib import Path
from typing import Any

from workmem.board import Board
from workmem.journal import MemoryWriter
from workmem.root import Workspace

SID = "2026-05-25-1318-cursor-main-agent"
DOCS_SID = "2026-05-25-1318-codex-main-agent"
IDLE_SID = "2026-05-25-1318-gemini-main-agent"
OLD_SID = "2026-05-25-1318-claude-code-main-agent"
SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
NOTES = "# Session Title\n_A short title_\n\nRate limiting 限流 middleware <b>not bold</b>\n"


@dataclass(frozen=True)
class Reply:
    status: int
    headers: Message
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    def json(self) -> Any:
        return json.loads(self.body)


class Client:
    def __init__(self, base: str) -> None:
        self.base = base

    def get(
        self, path: str, *, method: str = "GET", headers: dict[str, str] | None = None
    ) -> Reply:
        request = urllib.request.Request(self.base + path, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return Reply(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            with error:
                return Reply(error.code, error.headers, error.read())


@contextmanager
def running(workspace: Workspace) -> Iterator[Client]:
    """Serve ``create_app(workspace)`` on a free loopback port until the block ends."""
    import uvicorn

    from workmem.web.app import create_app

    config = uvicorn.Config(
        create_app(workspace),
        host="127.0.0.1",
        port=0,
        log_config=None,  # leave the test process's logging alone
        access_log=False,
        lifespan="off",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="workmem-viewer", daemon=True)
    thread.start()
    deadline = time.monotonic() + 5
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the viewer did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield Client(f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(timeout=5)
        assert not thread.is_alive(), "the viewer did not stop"


def build_site(root: Path) -> dict[str, str]:
    """A small real workspace, written through the public core APIs.

    Returns the IDs the tests look for. The clock is pinned by the caller (2026-05-25 13:18).
    """
    board = Board(root)
    assert board.start().session_id == SID
    board.update(
        SID,
        topic=f"Login {SCRIPT}",
        summary="登入限流：每個 IP 每分鐘五次",
        sections={"Decisions": f"Use {IMG}\nLimit by IP", "Next Actions": "寫中介軟體"},
    )
    assert board.register(topic="Docs", context="Wrote the README", agent_name="codex-main-agent")
    board.continue_from(SID, as_id=DOCS_SID)
    assert board.start(agent_name="gemini-main-agent").session_id == IDLE_SID
    board.register(
        topic="Old work", context="Finished long ago", agent_name="claude-code-main-agent"
    )
    board.archive(OLD_SID)
    # The notes file belongs to the extractor; written here the way its tests do.
    (root / "memory" / "sessions" / f"{SID}.notes.md").write_text(NOTES, encoding="utf-8")

    writer = MemoryWriter(root)
    writer.note_decision("Chose SQLite over Postgres", "no server to run", thread="thread-storage")
    writer.note_event(
        event_type="purchase",
        text="I bought white Adidas sneakers on 3/15.",
        object_hint="white adidas sneakers",
    )
    writer.note_event(event_type="meeting", text="Met the design team on May 20.")
    writer.note_event(event_type="purchase", text="我昨天買了一台咖啡機")
    writer.note_event(event_type="trip", text="I once visited Kyoto.")
    writer.end_session(
        "Compared databases; the quokka benchmark won.",
        "Next I wire the FTS5 index.",
        thread_updates={
            "thread-storage": {
                "current_position": "SQLite chosen; FTS5 next.",
                "new_open_questions": ["Vacuum schedule?"],
            }
        },
    )
    return {"sid": SID, "docs": DOCS_SID, "idle": IDLE_SID, "old": OLD_SID}


def memory_files(root: Path) -> dict[str, bytes]:
    """Every memory file and its bytes (derived and runtime state in .workmem/ aside)."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and ".workmem" not in p.parts
    }
