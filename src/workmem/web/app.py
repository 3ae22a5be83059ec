"""The viewer's HTTP side: routes, status codes and the server (Starlette + uvicorn).

Each route asks ``MemoryReader`` for one thing and hands it to a page or to JSON; there is
no memory logic here. Errors are where a face earns its keep: a ``WorkmemError`` from the
core becomes a page (or JSON) with its message and a fitting status, an unknown route a
404 page, anything unexpected a 500 page with no traceback (the traceback goes to the
server's log), and the server keeps answering whatever one file looks like.

Only ``GET`` (and ``HEAD``) is routed: the viewer has nothing to post. Responses carry a
strict Content-Security-Policy (no script at all, inline style only) as a second guard
behind the escaping in ``pages``, and on loopback the ``Host`` header must name this
machine so a hostile web page cannot read the memory through DNS rebinding.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..errors import (
    ConflictError,
    FormatError,
    LockTimeoutError,
    NotFoundError,
    UsageError,
    WorkmemError,
)
from ..root import Workspace
from . import LOOPBACK_NAMES, html, memory_pages, pages, search_pages
from .memory_reader import MemoryFilesReader
from .reader import MAX_HITS, MAX_PER_PAGE, PER_PAGE, MemoryReader, SearchRequest

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; "
        "base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

#: error class -> (HTTP status, page title); the first match in this order wins
_STATUS: tuple[tuple[type[WorkmemError], int, str], ...] = (
    (NotFoundError, 404, "Not found"),
    (UsageError, 400, "Bad request"),
    (ConflictError, 409, "Refused"),
    (FormatError, 500, "A memory file could not be read"),
    (LockTimeoutError, 503, "Busy, try again"),
    (WorkmemError, 500, "workmem could not answer"),
)

Endpoint = Callable[[Request], Response]


def status_of(exc: WorkmemError) -> tuple[int, str]:
    for cls, status, title in _STATUS:
        if isinstance(exc, cls):
            return status, title
    return 500, "workmem could not answer"  # pragma: no cover - WorkmemError matches last


class Viewer:
    """The routes of one workspace; a method per page, each one core read."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.reader = MemoryReader(workspace)
        self.files = MemoryFilesReader(workspace)

    # ---- responses --------------------------------------------------------------------
    def html(self, page: html.Page, status: int = 200, query: str = "") -> HTMLResponse:
        text = html.layout(page, root=str(self.workspace.root), query=query)
        return HTMLResponse(text, status_code=status, headers=HEADERS)

    def error(self, request: Request, status: int, title: str, message: str, kind: str) -> Response:
        """An error page, or ``{"ok": false, "error", "kind"}`` under ``/api/`` (as the CLI's
        ``--json`` reports errors)."""
        if request.url.path.startswith("/api/"):
            payload = {"ok": False, "error": message, "kind": kind}
            return JSONResponse(payload, status_code=status, headers=HEADERS)
        return self.html(html.error_page(status, title, message), status)

    def guarded(self, endpoint: Endpoint) -> Endpoint:
        """Run a (synchronous) endpoint; a ``WorkmemError`` becomes an error response.

        Starlette runs plain functions in its thread pool, so a slow file or index refresh
        never blocks the other requests.
        """

        def run(request: Request) -> Response:
            try:
                return endpoint(request)
            except WorkmemError as exc:
                status, title = status_of(exc)
                return self.error(request, status, title, str(exc), type(exc).__name__)

        run.__name__ = endpoint.__name__
        return run

    # ---- request parameters ------------------------------------------------------------
    @staticmethod
    def query(request: Request) -> str:
        return request.query_params.get("q", "").strip()

    @staticmethod
    def kinds(request: Request) -> list[str]:
        values = request.query_params.getlist("kind")
        return [k.strip() for v in values for k in v.split(",") if k.strip()]

    @staticmethod
    def number(request: Request, name: str, default: int, what: str, most: int) -> int:
        """A whole-number parameter from 1 to ``most``; anything else is a bad request."""
        raw = request.query_params.get(name, "").strip() or str(default)
        shown = raw if len(raw) <= 20 else raw[:20] + "…"
        try:
            value = int(raw)
        except ValueError:
            raise UsageError(
                f"{name} takes a number of {what} (1 to {most}), got {shown!r}"
            ) from None
        if not 1 <= value <= most:
            raise UsageError(f"{name} takes a number of {what} (1 to {most}), got {value}")
        return value

    def k(self, request: Request) -> int:
        return self.number(request, "k", 10, "hits", MAX_HITS)

    def paging(self, request: Request) -> tuple[int, int]:
        """``page`` (from 1) and ``per_page`` of a long list."""
        page = self.number(request, "page", 1, "the page", 10**9)
        per_page = self.number(request, "per_page", PER_PAGE, "rows", MAX_PER_PAGE)
        return page, per_page

    def search_request(self, request: Request) -> SearchRequest:
        """The search form's fields; a bad date is refused here with the core's message."""
        from ..retrieval.search import filter_day

        params = request.query_params
        session = params.get("session", "").strip() or None
        return SearchRequest(
            self.query(request),
            self.kinds(request),
            self.k(request),
            filter_day(params.get("since"), "since"),
            filter_day(params.get("until"), "until"),
            session,
        )

    @staticmethod
    def statuses(request: Request) -> list[str]:
        return [s for v in request.query_params.getlist("status") for s in v.split(",") if s]

    # ---- pages -------------------------------------------------------------------------
    def board(self, request: Request) -> Response:
        page = self.reader.board(self.statuses(request), *self.paging(request))
        return self.html(pages.board_page(page))

    def session(self, request: Request) -> Response:
        page = self.reader.session(request.path_params["session_id"])
        return self.html(pages.session_page(page))

    def threads(self, request: Request) -> Response:
        return self.html(pages.threads_page(self.reader.threads()))

    def events(self, request: Request) -> Response:
        return self.html(pages.events_page(self.reader.events(*self.paging(request))))

    def search(self, request: Request) -> Response:
        from ..retrieval.kinds import KINDS

        asked = self.search_request(request)
        hits = self.reader.search(asked) if asked.query else None
        return self.html(search_pages.search_page(asked, hits, KINDS), query=asked.query)

    def chunk(self, request: Request) -> Response:
        view = self.reader.chunk(request.path_params["chunk_id"])
        return self.html(search_pages.chunk_page(view))

    def long_term(self, request: Request) -> Response:
        return self.html(memory_pages.long_term_page(self.files.long_term()))

    def typed(self, request: Request) -> Response:
        page = self.files.typed(request.path_params["name"])
        return self.html(memory_pages.typed_page(page))

    def days(self, request: Request) -> Response:
        return self.html(memory_pages.days_page(self.files.days(*self.paging(request))))

    def day(self, request: Request) -> Response:
        return self.html(memory_pages.day_page(self.files.day(request.path_params["day"])))

    def timeline(self, request: Request) -> Response:
        page = self.files.timeline(*self.paging(request))
        return self.html(memory_pages.timeline_page(page))

    # ---- JSON (the same reads, as the core's own dictionaries) ---------------------------
    @staticmethod
    def json(payload: dict[str, Any]) -> JSONResponse:
        return JSONResponse({"ok": True, **payload}, headers=HEADERS)

    def api_board(self, request: Request) -> Response:
        page = self.reader.board(self.statuses(request), *self.paging(request))
        return self.json(page.to_dict())

    def api_session(self, request: Request) -> Response:
        return self.json(self.reader.session(request.path_params["session_id"]).to_dict())

    def api_threads(self, request: Request) -> Response:
        return self.json(self.reader.threads().to_dict())

    def api_events(self, request: Request) -> Response:
        return self.json(self.reader.events(*self.paging(request)).to_dict())

    def api_search(self, request: Request) -> Response:
        asked = self.search_request(request)
        if not asked.query:
            raise UsageError("say what to search for: /api/search?q=...")
        hits = self.reader.search(asked)
        return self.json({"query": asked.query, "hits": [h.to_dict(compact=True) for h in hits]})

    def api_chunk(self, request: Request) -> Response:
        return self.json(self.reader.chunk(request.path_params["chunk_id"]).to_dict())

    def api_long_term(self, request: Request) -> Response:
        return self.json(self.files.long_term().to_dict())

    def api_typed(self, request: Request) -> Response:
        return self.json(self.files.typed(request.path_params["name"]).to_dict())

    def api_days(self, request: Request) -> Response:
        return self.json(self.files.days(*self.paging(request)).to_dict())

    def api_day(self, request: Request) -> Response:
        return self.json(self.files.day(request.path_params["day"]).to_dict())

    def api_timeline(self, request: Request) -> Response:
        return self.json(self.files.timeline(*self.paging(request)).to_dict())

    # ---- routing -----------------------------------------------------------------------
    def routes(self) -> list[Route]:
        table: list[tuple[str, Endpoint]] = [
            ("/", self.board),
            ("/sessions/{session_id:path}", self.session),
            ("/threads", self.threads),
            ("/events", self.events),
            ("/search", self.search),
            ("/chunks/{chunk_id:path}", self.chunk),
            ("/memory", self.long_term),
            ("/memory/{name:path}", self.typed),
            ("/days", self.days),
            ("/days/{day:path}", self.day),
            ("/timeline", self.timeline),
            ("/api/board", self.api_board),
            ("/api/sessions/{session_id:path}", self.api_session),
            ("/api/threads", self.api_threads),
            ("/api/events", self.api_events),
            ("/api/search", self.api_search),
            ("/api/chunks/{chunk_id:path}", self.api_chunk),
            ("/api/memory", self.api_long_term),
            ("/api/memory/{name:path}", self.api_typed),
            ("/api/days", self.api_days),
            ("/api/days/{day:path}", self.api_day),
            ("/api/timeline", self.api_timeline),
        ]
        # The ``:path`` convertor hands IDs such as ``../x`` to the core's own check, which
        # refuses them with a clear message, instead of a bare "not found" from the router.
        return [Route(path, self.guarded(fn), methods=["GET"]) for path, fn in table]

    async def http_error(self, request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        if status == 404:
            message = f"nothing is at {request.url.path}"
            return self.error(request, 404, "Not found", message, "NotFound")
        if status == 405:
            message = "the viewer only reads: use GET to look at a page"
            return self.error(request, 405, "Read-only", message, "MethodNotAllowed")
        detail = exc.detail if isinstance(exc, HTTPException) else "unexpected error"
        return self.error(request, status, "Request failed", str(detail), "HTTPError")

    async def crash(self, request: Request, exc: Exception) -> Response:
        """Anything unexpected: a page, not a traceback. Starlette re-raises the exception
        after this response is sent, so the server's log still gets the traceback."""
        message = f"an unexpected {type(exc).__name__} occurred; the server log has details"
        return self.error(request, 500, "Internal error", message, "InternalError")


def create_app(workspace: Workspace, *, hosts: list[str] | None = None) -> Starlette:
    """The viewer for one workspace; ``hosts`` are the accepted ``Host`` names.

    By default only this machine's names (``localhost``, ``127.0.0.1``, ``[::1]``) are
    accepted: the right choice for a viewer on loopback. ``workmem serve`` passes
    ``["*"]`` when it listens on another address.
    """
    viewer = Viewer(workspace)
    return Starlette(
        routes=viewer.routes(),
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts or [*LOOPBACK_NAMES])],
        exception_handlers={HTTPException: viewer.http_error, Exception: viewer.crash},
    )


def serve(workspace: Workspace, *, host: str, port: int) -> None:
    """Listen until interrupted; a port that cannot be opened is a ``WorkmemError``."""
    import uvicorn

    from . import allowed_hosts

    app = create_app(workspace, hosts=allowed_hosts(host))
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        lifespan="off",
        server_header=False,
    )
    server = uvicorn.Server(config)
    try:
        server.run()
    except SystemExit:
        if server.started:
            raise
        raise WorkmemError(
            f"could not listen on {host}:{port} (is the port taken? the message above says)"
        ) from None
