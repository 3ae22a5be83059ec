"""Recall over MCP: search, then open what it finds (``get``) and what surrounds it in time
(``timeline``), as ``workmem search | get | timeline`` do; and a refresh of the index."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import Kinds, Served, failed, friendly

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer


def register(server: MCPServer, served: Served, kinds: Kinds) -> None:
    @server.tool(annotations=kinds.read)
    @friendly
    def search(
        query: str,
        k: int = 10,
        kind: str | None = None,
        since: str | None = None,
        until: str | None = None,
        session: str | None = None,
    ) -> list[dict[str, Any]]:
        """Search every memory file (lexical, CJK-aware; dense when configured): compact hits
        with their IDs and token costs. Open one whole with get, its neighbours in time with
        timeline. ``since``/``until`` are days (YYYY-MM-DD); ``session`` keeps one
        session's chunks."""
        from ..retrieval.search import filter_day
        from ..retrieval.search import search as run_search

        hits = run_search(
            served.workspace(),
            query,
            k=k,
            kinds=[kind] if kind else None,
            since=filter_day(since, "since"),
            until=filter_day(until, "until"),
            session=session,
        )
        return [h.to_dict(compact=True) for h in hits]

    @server.tool(annotations=kinds.read)
    @friendly
    def get(id: str) -> dict[str, Any]:
        """One search hit whole: its text, file, lines, date and session."""
        from ..retrieval.search import get as run_get

        return dict(run_get(served.workspace(), id).to_dict())

    @server.tool(annotations=kinds.read)
    @friendly
    def timeline(
        id: str,
        before: int = 5,
        after: int = 5,
        kind: str | None = None,
    ) -> dict[str, Any]:
        """The memory entries just before and after a search hit in time, the hit whole."""
        from ..retrieval.search import timeline as run_timeline

        view = run_timeline(
            served.workspace(), id, before=before, after=after, kinds=[kind] if kind else None
        )
        return dict(view.to_dict())

    @server.tool(annotations=kinds.write)
    @friendly
    def reindex(full: bool = False) -> dict[str, Any]:
        """Refresh the derived search index (``full``: rebuild it and swap). Writes only
        under memory/.workmem/; a file that could not be indexed fails the call."""
        from ..retrieval.search import reindex as run_reindex

        report = run_reindex(served.workspace(), full=full)
        if report.problems:
            listed = "; ".join(f"{path}: {problem}" for path, problem in report.problems.items())
            raise failed(f"not indexed: {listed}")
        return dict(report.to_dict())
