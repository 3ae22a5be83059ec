"""What every tool module shares: the server that checks arguments strictly, errors told in
words, and the memory root with this conversation's session.

The SDK builds each tool's arguments from its signature and quietly drops any it does not
know, so ``session_update(context=…)`` used to report success and write nothing. The
server here refuses a call that carries an argument the tool does not take, before the
tool runs, and says which ones it takes; each tool's schema says the same
(``additionalProperties: false``) so a client can know it in advance.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer
    from mcp.types import ToolAnnotations

    from ..board import Board
    from ..hooks.conversation import Conversation
    from ..root import Workspace

P = ParamSpec("P")
R = TypeVar("R")


def friendly(fn: Callable[P, R]) -> Callable[P, R]:
    """Report a ``WorkmemError`` to the client with its message (the SDK hides other errors)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        from mcp.server.mcpserver.exceptions import ToolError

        from ..errors import WorkmemError

        try:
            return fn(*args, **kwargs)
        except WorkmemError as exc:
            raise ToolError(str(exc)) from exc

    return wrapper


def failed(message: str) -> Exception:
    """An error the client sees as a failed call, with ``message``: for a workflow whose own
    result says it did not do what was asked (nothing is reported as success)."""
    from mcp.server.mcpserver.exceptions import ToolError

    return ToolError(message)


@dataclass(frozen=True)
class Kinds:
    """The annotations a client reads before calling: reads, writes, deletes."""

    read: ToolAnnotations
    write: ToolAnnotations
    delete: ToolAnnotations

    @classmethod
    def make(cls) -> Kinds:
        from mcp.types import ToolAnnotations

        return cls(
            ToolAnnotations(read_only_hint=True, destructive_hint=False),
            ToolAnnotations(read_only_hint=False, destructive_hint=False),
            ToolAnnotations(read_only_hint=False, destructive_hint=True),
        )


@dataclass
class Served:
    """The memory root one server works on, and the conversation it serves.

    ``one_conversation``: the server serves one conversation (stdio: the agent that started
    it), so a session it registers is remembered for the next calls. Over HTTP several
    clients share the server, and each names its session.
    """

    root: Path
    one_conversation: bool
    registered: str | None = None

    def workspace(self) -> Workspace:
        from ..root import Workspace

        return Workspace(self.root)

    def board(self) -> Board:
        from ..board import Board

        return Board(self.root)

    def clues(self) -> tuple[dict[str, str], str | None]:
        """(environment, agent process) to find the conversation by. A server several
        clients share (HTTP) serves no one conversation: only ``WORKMEM_SESSION_ID`` counts
        there, never the process or the session that happened to start the server."""
        import os

        from ..hooks.conversation import SESSION_ENV

        if self.one_conversation:
            return dict(os.environ), None
        named = os.environ.get(SESSION_ENV)
        return ({SESSION_ENV: named} if named else {}), ""

    def conversation(self) -> Conversation | None:
        """This conversation's memory session: the one the hooks registered, else the one
        this server registered over stdio, else None."""
        from ..hooks.conversation import Conversation, find_conversation

        env, agent = self.clues()
        found = find_conversation(self.workspace(), env, agent=agent)
        if found is None and self.registered:
            return Conversation(self.registered, "registered")
        return found

    def session(self, explicit: str | None) -> str:
        """``explicit``, else this conversation's session; a clear error when neither."""
        from ..errors import UsageError

        if explicit:
            return explicit
        found = self.conversation()
        if found is None:
            raise UsageError(
                "say which session (session_id): no Memory Session ID is known for this "
                "conversation yet; session_start gives it"
            )
        return found.session_id

    def transcript(self, text: str | None) -> Path | None:
        """A transcript path a client named, when it may be read (``transcripts.places``)."""
        if text is None or not text.strip():
            return None
        from ..transcripts.places import confine_transcript

        return confine_transcript(self.workspace(), text)


def strict_server(*, name: str, version: str, instructions: str) -> MCPServer:
    """An ``MCPServer`` that refuses arguments a tool does not take (see the module)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    class StrictServer(MCPServer):
        _taken: dict[str, frozenset[str]] | None = None

        async def _arguments(self, tool: str) -> frozenset[str] | None:
            if self._taken is None:
                self._taken = {
                    t.name: frozenset((t.input_schema or {}).get("properties", {}))
                    for t in await super().list_tools()
                }
            return self._taken.get(tool)

        async def list_tools(self) -> Any:
            return [
                t.model_copy(
                    update={"input_schema": {**t.input_schema, "additionalProperties": False}}
                )
                for t in await super().list_tools()
            ]

        async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
            taken = await self._arguments(name)
            unknown = sorted(set(arguments) - taken) if taken is not None else []
            if unknown:
                listed = ", ".join(sorted(taken or ())) or "no arguments"
                raise ToolError(
                    f"{name} does not take {', '.join(unknown)} (it takes {listed}); "
                    "nothing was done"
                )
            return await super().call_tool(name, arguments, context)

    return StrictServer(name=name, version=version, instructions=instructions)
