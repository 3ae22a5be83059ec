"""When the extractor may run: ``[session_memory]`` in workmem.toml and per-session counters.

``enabled`` (true), ``minimum_tokens_to_init`` (10,000: the first extraction waits until
the context holds that much) and ``minimum_tokens_between_updates`` (5,000 of growth
since the last extraction). After a compaction the context shrinks below the last figure;
growth then counts from zero, so the notes catch up with the compacted session instead of
waiting for the old figure to be passed again.
Counters live in ``memory/.workmem/notes/<session>.json`` (derived state).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from ..errors import FormatError
from ..files.store import Store
from ..root import Workspace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class NotesSettings:
    enabled: bool = True
    minimum_tokens_to_init: int = 10_000
    minimum_tokens_between_updates: int = 5_000
    extractor: str = "heuristic"


def load_notes_settings(workspace: Workspace) -> NotesSettings:
    from ..config import load_settings

    table = load_settings(workspace).section("session_memory")
    defaults = NotesSettings()
    values: dict[str, Any] = {}
    for key, kind in (
        ("enabled", bool),
        ("minimum_tokens_to_init", int),
        ("minimum_tokens_between_updates", int),
        ("extractor", str),
    ):
        if key not in table:
            continue
        value = table[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise FormatError(
                f"[session_memory] {key} must be {kind.__name__}, got {value!r}",
                path=str(workspace.config_file),
            )
        values[key] = value
    settings = NotesSettings(**{**asdict(defaults), **values})
    if settings.extractor not in ("heuristic", "llm"):
        raise FormatError(
            f"[session_memory] extractor must be 'heuristic' or 'llm', got {settings.extractor!r}",
            path=str(workspace.config_file),
        )
    return settings


@dataclass
class GateState:
    last_tokens: int = 0
    extractions: int = 0
    last_run: str | None = None


@dataclass(frozen=True)
class GateDecision:
    run: bool
    reason: str
    tokens: int


def state_path(workspace: Workspace, session_id: str) -> Path:
    return workspace.state_dir / "notes" / f"{session_id}.json"


def load_state(workspace: Workspace, session_id: str) -> GateState:
    try:
        data = json.loads(Store(workspace).read_derived(state_path(workspace, session_id)) or b"")
    except ValueError:
        return GateState()
    if not isinstance(data, dict):
        return GateState()
    return GateState(
        last_tokens=int(data.get("last_tokens", 0) or 0),
        extractions=int(data.get("extractions", 0) or 0),
        last_run=data.get("last_run") if isinstance(data.get("last_run"), str) else None,
    )


def save_state(store: Store, session_id: str, state: GateState) -> None:
    text = json.dumps(asdict(state)) + "\n"
    store.update(state_path(store.workspace, session_id), lambda _old: text)


def decide(settings: NotesSettings, state: GateState, tokens: int) -> GateDecision:
    if not settings.enabled:
        return GateDecision(False, "session notes are disabled ([session_memory] enabled)", tokens)
    if state.extractions == 0:
        if tokens < settings.minimum_tokens_to_init:
            return GateDecision(
                False,
                f"context {tokens:,} tokens < minimum_tokens_to_init "
                f"{settings.minimum_tokens_to_init:,}",
                tokens,
            )
        return GateDecision(True, "first extraction", tokens)
    growth = tokens - state.last_tokens if tokens >= state.last_tokens else tokens
    if growth < settings.minimum_tokens_between_updates:
        return GateDecision(
            False,
            f"context grew {growth:,} tokens < minimum_tokens_between_updates "
            f"{settings.minimum_tokens_between_updates:,}",
            tokens,
        )
    return GateDecision(True, f"context grew {growth:,} tokens", tokens)
