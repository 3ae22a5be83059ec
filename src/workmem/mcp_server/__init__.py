"""``workmem mcp``: the library as MCP tools and resources, over stdio or streamable HTTP.

A thin face (DESIGN.md principle 5): every tool is one call into a core room and returns
that room's own result. Read-only tools say so, and so do the ones that delete (archive,
organize), so a client can ask before running them. A call with an argument the tool does
not take is refused (``base``), and a workflow whose result says it did nothing fails the
call instead of reporting success.

The tools, by concern: ``board_tools`` (this conversation's session, the board),
``journal_tools`` (notes, the journal, events, the end of a session), ``facts_tools``
(typed memories, MEMORY.md, the wrap-up, the context guardian), ``recall_tools`` (search,
get, timeline), ``relay_tools`` (the handoff, transcripts, trigger phrases). ``coverage``
lists which CLI command each tool runs; ``http`` and ``token`` keep the HTTP server to its
user. The ``mcp`` SDK is an optional extra, imported only when the server is built.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

INSTRUCTIONS = (
    "workmem keeps this workspace's working memory in plain files: a session board "
    "(memory/index.md), session snapshots and notes, daily logs, typed long-term memories "
    "and an event ledger. Each conversation has one Memory Session ID: workmem's hooks give "
    "it at the start ('Your Memory Session ID is: …'), and session_start returns that same "
    "session (it registers one only when the hooks did not). Tools that take a session_id "
    "default to it. Record progress with session_update; search before asking the user to "
    "repeat themselves, then open a hit with get and what surrounds it with timeline; save "
    "a handoff with relay_snapshot; call wrap at the end with the memories worth keeping."
)


def build_server(root: str | Path | None = None, *, one_conversation: bool = True) -> MCPServer:
    """An MCP server bound to one memory root (discovered the usual way when ``None``).

    ``one_conversation``: the server serves one agent's conversation (stdio), so a session
    it registers stays this conversation's for the next calls.
    """
    from .. import __version__
    from ..root import find_root
    from . import board_tools, facts_tools, journal_tools, recall_tools, relay_tools
    from .base import Kinds, Served, strict_server

    served = Served(Path(find_root(root)), one_conversation)
    server = strict_server(name="workmem", version=__version__, instructions=INSTRUCTIONS)
    kinds = Kinds.make()
    for tools in (board_tools, journal_tools, facts_tools, recall_tools, relay_tools):
        tools.register(server, served, kinds)
    return server


def serve(
    root: str | Path | None = None,
    *,
    http: bool = False,
    port: int = 8765,
    socket_path: Path | None = None,
) -> None:
    """Run over stdio, or streamable HTTP: on 127.0.0.1 with the user's token, or on a Unix
    socket only the user can open (``http``)."""
    if not http and socket_path is None:
        build_server(root).run("stdio")
        return
    import anyio

    from .http import run_http

    server = build_server(root, one_conversation=False)
    anyio.run(lambda: run_http(server, port=port, socket_path=socket_path))
