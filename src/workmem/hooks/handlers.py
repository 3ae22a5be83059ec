"""What workmem does at each hook event; every step is a call into a core room.

session start   register (idle) or find this platform session's memory session;
                inject its ID and a budgeted context; after a compaction or on
                resume, inject the notes (the compaction seed), the snapshot and
                the relay restore
user prompt     trigger phrases run their workflow; context-usage zones save and warn
pre-compact     notes extracted, snapshot merged, relay snapshot written, all verified
stop            gated notes extraction started detached
session end     relay snapshot with daily-log sync; resumption note from the notes

The handlers live in ``on_start``, ``on_prompt`` and ``on_save``, imported when their event
fires: a hook process compiles only its own event's module, and the prompt hook, which runs
on every prompt, none of the session-start or save code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..files.store import Store
from ..root import Workspace
from .events import PRE_COMPACT, SESSION_END, SESSION_START, STOP, USER_PROMPT
from .io import HookInput

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from .session_map import MappedSession


@dataclass
class Reply:
    """What a handler answers: context for the model, a notice for the person."""

    context: str | None = None
    notice: str | None = None


@dataclass
class HookRun:
    """One hook call: its parsed input and the workspace it acts on."""

    inp: HookInput
    workspace: Workspace
    store: Store
    home: Path | None = None

    @property
    def transcript(self) -> Path | None:
        from ..transcripts.openclaw_paths import transcript_exists

        path = self.inp.transcript
        return path if path is not None and transcript_exists(path) else None


def memory_session(run: HookRun, *, register: bool) -> str | None:
    """This platform session's memory session ID; registered (idle) when ``register``.

    Registering is one step under the board lock: look the platform session up, start a
    session if it has none on the board, record the pair. Hooks installed at user and
    project scope fire SessionStart two or three times at once for one platform session;
    the first registers, the others wait for the lock and find its ID.
    """
    from .session_map import lookup, remember

    if not register:
        # Later hooks only read the map: cheap, no lock (the map is replaced atomically).
        mapped = lookup(run.store, run.inp.platform, run.inp.session_id)
        return mapped.memory_session_id if mapped else None
    from ..board.context import BoardContext
    from ..board.start import start_session

    ctx = BoardContext.open(run.workspace.root, platform=run.inp.platform)
    with ctx.index.locked():
        mapped = lookup(ctx.store, run.inp.platform, run.inp.session_id)
        if mapped is not None and ctx.index.read().get(mapped.memory_session_id) is not None:
            _same_agent(ctx.store, run, mapped)
            return mapped.memory_session_id
        result = start_session(ctx)
        if run.inp.session_id:
            remember(
                ctx.store, run.inp.platform, run.inp.session_id, result.session_id, run.transcript
            )
    return result.session_id


def adopter(run: HookRun) -> Callable[[str], None] | None:
    """What a workflow run from this hook calls when it registers a memory session for the
    conversation (补註冊, 接續 memory <id> where the session-start hook never ran): the
    platform session's pair is recorded, so every later hook, and the next save, finds
    that session instead of registering another."""
    platform_session = run.inp.session_id
    if not platform_session:
        return None

    def adopt(memory_session_id: str) -> None:
        from .session_map import remember

        remember(run.store, run.inp.platform, platform_session, memory_session_id, run.transcript)

    return adopt


def _same_agent(store: Store, run: HookRun, mapped: MappedSession) -> None:
    """A resumed platform session runs in a new agent process: record it, so the MCP server
    that agent starts finds this session (``session_map.by_agent``) rather than none."""
    from ..files.oscompat import agent_process
    from .session_map import remember

    if run.inp.session_id and mapped.agent != agent_process():
        transcript = run.transcript or (Path(mapped.transcript) if mapped.transcript else None)
        remember(store, run.inp.platform, run.inp.session_id, mapped.memory_session_id, transcript)


Handler = Callable[[HookRun], Reply]


def _deferred(module: str, name: str) -> Handler:
    """A handler whose module is imported when its event fires, not when this one is."""

    def call(run: HookRun) -> Reply:
        handler: Handler = getattr(importlib.import_module(module, __package__), name)
        return handler(run)

    call.__name__ = call.__qualname__ = name
    return call


HANDLERS: dict[str, Handler] = {
    SESSION_START: _deferred(".on_start", "on_session_start"),
    USER_PROMPT: _deferred(".on_prompt", "on_user_prompt"),
    PRE_COMPACT: _deferred(".on_save", "on_pre_compact"),
    STOP: _deferred(".on_save", "on_stop"),
    SESSION_END: _deferred(".on_save", "on_session_end"),
}


def handle(run: HookRun) -> Reply:
    """Answer one event; what it writes for the user speaks the language of the prompt it
    carries (``[workmem] language = "auto"``), decided once for the whole call."""
    from ..i18n import speaking

    with speaking(run.inp.prompt):
        return HANDLERS[run.inp.event](run)
