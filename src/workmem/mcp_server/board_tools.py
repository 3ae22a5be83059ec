"""The session board over MCP: this conversation's session, its updates, links and archive.

One conversation is one memory session. The hooks register it when the conversation
starts; ``session_start`` returns that session (found the hooks' way, ``hooks.
conversation``) and registers one only when the hooks did not, and ``session_register``
fills in this conversation's session rather than adding a second one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import Kinds, Served, friendly

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer


def register(server: MCPServer, served: Served, kinds: Kinds) -> None:
    @server.tool(annotations=kinds.write)
    @friendly
    def session_start(agent_name: str | None = None) -> dict[str, Any]:
        """This conversation's Memory Session ID: the session workmem's hooks registered for
        it when they did (nothing new is registered then), else a new idle session."""
        from ..hooks.conversation import start_conversation

        found = served.conversation()
        registered = False
        if found is None:
            env, agent = served.clues()
            found, registered = start_conversation(served.workspace(), agent_name, env, agent=agent)
            if served.one_conversation:
                served.registered = found.session_id
        return {
            **found.to_dict(),
            "registered": registered,
            "message": f"Your Memory Session ID is: {found.session_id}",
        }

    @server.tool(annotations=kinds.read)
    @friendly
    def session_current() -> dict[str, Any] | None:
        """This conversation's Memory Session ID and how it was found, or null when none is
        registered yet (session_start registers one). Registers nothing."""
        found = served.conversation()
        return found.to_dict() if found is not None else None

    @server.tool(annotations=kinds.write)
    @friendly
    def session_register(
        topic: str | None = None,
        summary: str | None = None,
        keywords: str | None = None,
        context: str | None = None,
        sections: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """Record this conversation's session as active, with a snapshot of what happened so
        far. When the hooks already registered the conversation, that session is filled in
        (one conversation, one session); otherwise a new active session is registered."""
        found = served.conversation()
        if found is None:
            result = served.board().register(
                topic=topic, summary=summary, keywords=keywords, context=context, sections=sections
            )
            if served.one_conversation:
                served.registered = result.session_id
            return dict(result.to_dict())
        parts = dict(sections or {})
        if context:
            parts["Current Context"] = context
        updated = served.board().update(
            found.session_id, topic=topic, summary=summary, keywords=keywords, sections=parts
        )
        return dict(updated.to_dict())

    @server.tool(annotations=kinds.write)
    @friendly
    def session_update(
        session_id: str | None = None,
        topic: str | None = None,
        summary: str | None = None,
        keywords: str | None = None,
        status: str | None = None,
        sections: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """Merge into a session's snapshot (never overwriting) and update its board row;
        ``session_id`` defaults to this conversation's session.

        ``sections`` maps a snapshot section (Current Context, Decisions, Files / Artifacts,
        Open Questions, Next Actions, Superseded / Resolved) to text, one item per line;
        prefix an existing item with [done], [resolved] or [superseded] to mark it.
        """
        result = served.board().update(
            served.session(session_id),
            topic=topic,
            summary=summary,
            keywords=keywords,
            status=status,
            sections=sections,
        )
        return dict(result.to_dict())

    @server.tool(annotations=kinds.write)
    @friendly
    def session_continue(
        source_id: str, as_id: str | None = None, context: str | None = None
    ) -> dict[str, Any]:
        """Continue from another session: Continues From on this conversation's session (or
        ``as_id``), Referenced By on the source."""
        found = served.conversation() if as_id is None else None
        chosen = as_id or (found.session_id if found is not None else None)
        result = served.board().continue_from(source_id, as_id=chosen, context=context)
        return dict(result.to_dict())

    @server.tool(annotations=kinds.write)
    @friendly
    def session_release(source_id: str, as_id: str | None = None) -> dict[str, Any]:
        """Stop depending on a source session (both sides of the link are updated);
        ``as_id`` defaults to this conversation's session."""
        result = served.board().release(source_id, as_id=served.session(as_id))
        return dict(result.to_dict())

    @server.tool(annotations=kinds.delete)
    @friendly
    def session_archive(session_id: str) -> dict[str, Any]:
        """Archive a finished session (removes its board row; refused while referenced)."""
        return dict(served.board().archive(session_id).to_dict())

    @server.tool(annotations=kinds.delete)
    @friendly
    def organize(
        stale_days: int | None = None,
        archive_stale_after_days: int | None = None,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """Delete idle placeholder rows, mark overdue active sessions stale (and archive
        long-stale ones when asked); ``dry_run`` reports without writing."""
        report = served.board().organize(
            stale_days, archive_after_days=archive_stale_after_days, dry_run=dry_run
        )
        return dict(report.to_dict())

    @server.tool(annotations=kinds.read)
    @friendly
    def session_list(status: str | None = None) -> list[dict[str, str]]:
        """Sessions on the board, meaningful ones first, idle placeholders last."""
        rows = served.board().list([status] if status else None)
        return [row.to_dict() for row in rows]

    @server.tool(annotations=kinds.read)
    @friendly
    def session_show(session_id: str | None = None) -> dict[str, Any]:
        """A session's board row, snapshot (or archive), and what it did and what is next;
        ``session_id`` defaults to this conversation's session."""
        from ..board.digest import session_digest

        sid = served.session(session_id)
        board = served.board()
        view = board.show(sid)
        digest = session_digest(board.ctx.store, view)
        return {**view.to_dict(), "digest": digest.to_dict()}

    @server.tool(annotations=kinds.read)
    @friendly
    def doctor() -> dict[str, Any]:
        """Inconsistencies between the memory files (board, snapshots, archive, links, hooks,
        conflict copies). Changes nothing; doctor_fix repairs."""
        from ..doctor import run

        return dict(run(served.workspace()).to_dict())

    @server.tool(annotations=kinds.write)
    @friendly
    def doctor_fix() -> dict[str, Any]:
        """What doctor finds, repaired where a repair is safe; the report lists each one."""
        from ..doctor import run

        return dict(run(served.workspace(), fix=True).to_dict())

    # ---- resources ---------------------------------------------------------------------
    @server.resource("workmem://board", name="board", mime_type="text/markdown")
    def board_resource() -> str:
        """memory/index.md, the session board."""
        from ..files.store import Store

        workspace = served.workspace()
        current = Store(workspace).read_text(workspace.board_file)
        return current[0] if current else ""

    @server.resource("workmem://sessions/{session_id}", name="session", mime_type="text/markdown")
    def session_resource(session_id: str) -> str:
        """A session's snapshot document."""
        return str(served.board().show(session_id).snapshot or "")
