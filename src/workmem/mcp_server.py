"""``workmem mcp``: the library as MCP tools and resources, over stdio or streamable HTTP.

A thin face (DESIGN.md principle 5): every tool is one call into a core room and returns
that room's own result dictionary. Read-only tools say so, and so do the ones that delete
(archive, organize), so a client can ask before running them. The ``mcp`` SDK is an
optional extra imported only here.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

INSTRUCTIONS = (
    "workmem keeps this workspace's working memory in plain files: a session board "
    "(memory/index.md), session snapshots, daily logs, typed long-term memories and an event "
    "ledger. Call session_start once per conversation and keep the returned Memory Session "
    "ID; record progress with session_update; search before asking the user to repeat "
    "themselves; call wrap at the end with the memories worth keeping."
)


P = ParamSpec("P")
R = TypeVar("R")


def _friendly(fn: Callable[P, R]) -> Callable[P, R]:
    """Report a ``WorkmemError`` to the client with its message (the SDK hides other errors)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        from mcp.server.mcpserver.exceptions import ToolError

        from .errors import WorkmemError

        try:
            return fn(*args, **kwargs)
        except WorkmemError as exc:
            raise ToolError(str(exc)) from exc

    return wrapper


def build_server(root: str | Path | None = None) -> MCPServer:
    """An MCP server bound to one memory root (discovered the usual way when ``None``)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.types import ToolAnnotations

    from .root import find_root

    workspace_root = find_root(root)
    from . import __version__

    server: MCPServer = MCPServer(name="workmem", version=__version__, instructions=INSTRUCTIONS)
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False)
    writes = ToolAnnotations(read_only_hint=False, destructive_hint=False)
    deletes = ToolAnnotations(read_only_hint=False, destructive_hint=True)

    def board() -> Any:
        from .board import Board

        return Board(workspace_root)

    # ---- the session board (seed 001) ---------------------------------------------
    @server.tool(annotations=writes)
    @_friendly
    def session_start(agent_name: str | None = None) -> dict[str, Any]:
        """Register this conversation as an idle session; returns its Memory Session ID."""
        result: dict[str, Any] = board().start(agent_name).to_dict()
        return result

    @server.tool(annotations=writes)
    @_friendly
    def session_register(
        topic: str | None = None,
        summary: str | None = None,
        keywords: str | None = None,
        context: str | None = None,
        sections: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """Manual registration: an active session with a snapshot of what happened so far."""
        result: dict[str, Any] = (
            board()
            .register(
                topic=topic, summary=summary, keywords=keywords, context=context, sections=sections
            )
            .to_dict()
        )
        return result

    @server.tool(annotations=writes)
    @_friendly
    def session_update(
        session_id: str,
        topic: str | None = None,
        summary: str | None = None,
        keywords: str | None = None,
        status: str | None = None,
        sections: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """Merge into the session snapshot (never overwriting) and update its board row.

        ``sections`` maps a snapshot section (Current Context, Decisions, Files / Artifacts,
        Open Questions, Next Actions, Superseded / Resolved) to text, one item per line;
        prefix an existing item with [done], [resolved] or [superseded] to mark it.
        """
        result: dict[str, Any] = (
            board()
            .update(
                session_id,
                topic=topic,
                summary=summary,
                keywords=keywords,
                status=status,
                sections=sections,
            )
            .to_dict()
        )
        return result

    @server.tool(annotations=writes)
    @_friendly
    def session_continue(source_id: str, as_id: str | None = None) -> dict[str, Any]:
        """Continue from another session: Continues From here, Referenced By on the source."""
        result: dict[str, Any] = board().continue_from(source_id, as_id=as_id).to_dict()
        return result

    @server.tool(annotations=writes)
    @_friendly
    def session_release(source_id: str, as_id: str) -> dict[str, Any]:
        """Stop depending on a source session (both sides of the link are updated)."""
        result: dict[str, Any] = board().release(source_id, as_id=as_id).to_dict()
        return result

    @server.tool(annotations=deletes)
    @_friendly
    def session_archive(session_id: str) -> dict[str, Any]:
        """Archive a finished session (removes its board row; refused while referenced)."""
        result: dict[str, Any] = board().archive(session_id).to_dict()
        return result

    @server.tool(annotations=deletes)
    @_friendly
    def organize(stale_days: int | None = None) -> dict[str, Any]:
        """Delete idle placeholder rows and mark overdue active sessions stale."""
        result: dict[str, Any] = board().organize(stale_days).to_dict()
        return result

    @server.tool(annotations=read_only)
    @_friendly
    def session_list(status: str | None = None) -> list[dict[str, str]]:
        """Sessions on the board, meaningful ones first, idle placeholders last."""
        rows = board().list([status] if status else None)
        return [row.to_dict() for row in rows]

    @server.tool(annotations=read_only)
    @_friendly
    def session_show(session_id: str) -> dict[str, Any]:
        """A session's board row and snapshot (or its archive)."""
        result: dict[str, Any] = board().show(session_id).to_dict()
        return result

    @server.tool(annotations=read_only)
    @_friendly
    def doctor() -> dict[str, Any]:
        """Inconsistencies between the memory files (board, snapshots, archive, …)."""
        from .doctor import run

        result: dict[str, Any] = run(board().ctx.workspace).to_dict()
        return result

    # ---- notes, wrap-up, journal ----------------------------------------------------
    @server.tool(annotations=writes)
    @_friendly
    def notes_refresh(session_id: str, transcript: str) -> dict[str, Any]:
        """Extract the session notes from a transcript now (what /notes does)."""
        from .notes.workflow import update_notes
        from .root import Workspace

        result = update_notes(
            Workspace(workspace_root), session_id=session_id, transcript=Path(transcript)
        )
        return result.to_dict()

    @server.tool(annotations=read_only)
    @_friendly
    def notes_view(session_id: str) -> str:
        """The session notes as they are (what /notes --view shows)."""
        from .notes.workflow import view_notes
        from .root import Workspace

        return view_notes(Workspace(workspace_root), session_id)[1]

    @server.tool(annotations=writes)
    @_friendly
    def wrap(memories: list[dict[str, Any]], checkpoint: bool = False) -> dict[str, Any]:
        """Session wrap-up: save typed memories {type, topic, description,
        content}, maintain them, update MEMORY.md's index and report what changed."""
        from .root import Workspace
        from .wrap.inputs import parse_items
        from .wrap.run import wrap as run_wrap

        items = parse_items(json.dumps(memories), "<mcp>")
        report = run_wrap(Workspace(workspace_root), items, checkpoint=checkpoint)
        result: dict[str, Any] = report.to_dict()
        return result

    @server.tool(annotations=writes)
    @_friendly
    def event_add(
        event_type: str,
        text: str,
        action: str | None = None,
        object_hint: str | None = None,
        normalized_date: str | None = None,
    ) -> dict[str, Any]:
        """Record a dated event; relative dates are resolved against today."""
        from .journal.writer import MemoryWriter

        event = MemoryWriter(workspace_root).note_event(
            event_type, text, action, object_hint, normalized_date
        )
        result: dict[str, Any] = event.to_json()
        return result

    @server.tool(annotations=read_only)
    @_friendly
    def event_find(query: str) -> dict[str, Any]:
        """Events for a question, ranked by the dates it names, then by words."""
        from .journal.loader import MemoryLoader

        found = MemoryLoader(workspace_root).phase_4_event_lookup(query)
        return {"text": found.text, "items": found.items, "metadata": found.metadata}

    @server.tool(annotations=writes)
    @_friendly
    def end_session(
        session_summary: str,
        resumption_note: str,
        thread_updates: dict[str, dict[str, Any]] | None = None,
        mood: str | None = None,
    ) -> dict[str, Any]:
        """End the session: daily log, threads, resumption note, state."""
        from .journal.writer import MemoryWriter

        report = MemoryWriter(workspace_root).end_session(
            session_summary, resumption_note, thread_updates, mood
        )
        result: dict[str, Any] = report.to_dict()
        return result

    @server.tool(annotations=read_only)
    @_friendly
    def load_context(user_message: str = "", total_tokens: int | None = None) -> dict[str, Any]:
        """The 4-phase memory context for a message, within a token budget."""
        from .journal.budget import BudgetConfig
        from .journal.loader import MemoryLoader

        budget = BudgetConfig(total=total_tokens) if total_tokens else None
        context = MemoryLoader(workspace_root).load_session_context(user_message, budget=budget)
        return {"text": context.text, "total_tokens": context.total_tokens, **context.metadata}

    @server.tool(annotations=read_only)
    @_friendly
    def search(query: str, k: int = 10, kind: str | None = None) -> list[dict[str, Any]]:
        """Search every memory file (lexical, CJK-aware); compact hits with their IDs."""
        from .retrieval.search import search as run_search
        from .root import Workspace

        hits = run_search(Workspace(workspace_root), query, k=k, kinds=[kind] if kind else None)
        return [
            {
                "id": h.id,
                "kind": h.kind,
                "path": h.path,
                "date": h.date,
                "title": h.title,
                "snippet": h.snippet,
                "tokens": h.tokens,
            }
            for h in hits
        ]

    @server.tool(annotations=read_only)
    @_friendly
    def which_workflow(text: str) -> dict[str, Any] | None:
        """Which workflow a user's message asks for (trigger phrases in any language)."""
        from .phrases import detect

        intent = detect(text)
        return intent.to_dict() if intent else None

    # ---- resources -------------------------------------------------------------------
    @server.resource("workmem://board", name="board", mime_type="text/markdown")
    def board_resource() -> str:
        """memory/index.md, the session board."""
        from .files.store import Store
        from .root import Workspace

        workspace = Workspace(workspace_root)
        current = Store(workspace).read_text(workspace.board_file)
        return current[0] if current else ""

    @server.resource("workmem://sessions/{session_id}", name="session", mime_type="text/markdown")
    def session_resource(session_id: str) -> str:
        """A session's snapshot document."""
        view = board().show(session_id)
        return str(view.snapshot or "")

    return server


def serve(root: str | Path | None = None, *, http: bool = False, port: int = 8765) -> None:
    """Run over stdio, or streamable HTTP bound to 127.0.0.1 only."""
    server = build_server(root)
    if http:
        import anyio

        anyio.run(lambda: server.run_streamable_http_async(host="127.0.0.1", port=port))
    else:
        server.run("stdio")
