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
        sections={
            "Decisions": f"Use {IMG}\nLimit by IP",
            "Next Actions": "寫中介軟體\nWrite the API docs",
        },
    )
    board.update(SID, sections={"Next Actions": "[done] Write the API docs"})
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


#: Markup a memory file might hold, each calling ``pwned(label)`` if it ever ran as script.
ATTACKS = {
    "script": "<script>pwned('script')</script>",
    "img": "<img src=x onerror=\"pwned('img')\">",
    "svg": "<svg onload=pwned('svg')></svg>",
    "link": "<a href=\"javascript:pwned('link')\">open me</a>",
    "md-link": "[open me too](javascript:pwned('md-link'))",
    "close": "</pre></td></tr></table></main></body></html><script>pwned('close')</script>",
    "attribute": "\"><script>pwned('attribute')</script><i x=\"",
    "raw-text": "</textarea></title></style><script>pwned('raw-text')</script>",
    "iframe": "<iframe srcdoc=\"<script>parent.pwned('iframe')</script>\"></iframe>",
    "meta": '<meta http-equiv="refresh" content="0;url=javascript:pwned(\'meta\')">',
    "base": '<base href="/hijacked/">',
    "style": "<style>main{display:none}</style>",
    "comment": "<!-- --><script>pwned('comment')</script>",
}
HOSTILE_BLOCK = "\n".join(ATTACKS.values())
HOSTILE_LINE = " ".join(ATTACKS.values())


def build_hostile_site(root: Path) -> str:
    """A workspace whose every free-text place holds ``ATTACKS``, written the ways memory
    files get written: through the core (board, snapshot, journal) and by hand (notes, a
    daily log edited in an editor). Returns the session ID. Clock pinned by the caller."""
    board = Board(root)
    sid = board.start().session_id
    board.update(
        sid,
        topic=f"Hostile {ATTACKS['script']}",
        summary=HOSTILE_LINE,
        keywords=ATTACKS["img"],
        sections={"Decisions": HOSTILE_BLOCK, "Next Actions": "## Continues From\n- forged"},
    )
    notes = root / "memory" / "sessions" / f"{sid}.notes.md"
    notes.write_text(f"# Session Title\n\n{HOSTILE_BLOCK}\n", encoding="utf-8")
    writer = MemoryWriter(root)
    writer.note_decision(HOSTILE_LINE, ATTACKS["close"], thread="thread-hostile")
    writer.note_event(event_type="purchase", text=HOSTILE_LINE, object_hint=ATTACKS["img"])
    writer.end_session(
        HOSTILE_LINE,
        HOSTILE_BLOCK,
        thread_updates={"thread-hostile": {"current_position": HOSTILE_LINE}},
    )
    day = root / "memory" / "2026-05-24.md"
    day.write_text(f"# 2026-05-24\n\n## Edited by hand\n\n{HOSTILE_BLOCK}\n", encoding="utf-8")
    # long-term memory edited by hand too: MEMORY.md and a typed memory
    (root / "MEMORY.md").write_text(
        f"# Long-term memory\n\n## Active\n\n### Project\n\n"
        f"- [hostile](memory/project_hostile.md) {HOSTILE_LINE}\n\n{HOSTILE_BLOCK}\n",
        encoding="utf-8",
    )
    (root / "memory" / "project_hostile.md").write_text(
        "---\nname: hostile\ndescription: markup in a memory\ntype: project\n"
        f"updated: 2026-05-25\n---\n{HOSTILE_BLOCK}\n",
        encoding="utf-8",
    )
    return sid


BOARD_TOP = (
    "# Memory Index\n\n| Session ID | Agent Name | Topic | Summary | Keywords | Status "
    "| Referenced By | Started At | Updated At |\n|---|---|---|---|---|---|---|---|---|\n"
)


def big_session_id(number: int) -> str:
    return f"2026-04-{1 + number % 28:02d}-{number // 60 % 24:02d}{number % 60:02d}-a{number}-agent"


def write_big_board(root: Path, rows: int) -> None:
    """A board of ``rows`` sessions in the board's own format (as a year of work leaves it).

    Row ``n`` was updated at minute ``n`` of a long run, so the board's order (newest first)
    is row ``rows - 1`` down to row 0.
    """
    lines = []
    for n in range(rows):
        updated = f"2026-04-{1 + n // 1440 % 28:02d} {n // 60 % 24:02d}:{n % 60:02d}"
        lines.append(
            f"| {big_session_id(n)} | a{n}-agent | Topic {n} 主題 | Work {n}，完成 | kw{n} "
            f"| active | - | 2026-04-01 00:00 | {updated} |\n"
        )
    memory = root / "memory"
    memory.mkdir(parents=True, exist_ok=True)
    (memory / "index.md").write_text(BOARD_TOP + "".join(lines), encoding="utf-8")


def write_big_ledger(root: Path, count: int) -> None:
    """An events ledger of ``count`` dated events, one a day back from 2026-05-24."""
    from datetime import date, timedelta

    events = []
    for n in range(count):
        day = (date(2026, 5, 24) - timedelta(days=n)).isoformat()
        events.append(
            {
                "id": f"evt-{n + 1:05d}",
                "type": "note",
                "text": f"Event number {n} 事件",
                "normalized_date": day,
                "date_text": day,
                "session_date": day,
                "recorded_at": f"{day} 10:00",
                "source": f"memory/{day}.md",
            }
        )
    memory = root / "memory"
    memory.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"version": 1, "events": events}, ensure_ascii=False, indent=2)
    (memory / "events.json").write_text(text + "\n", encoding="utf-8")
