"""How full the context window is, from the transcript's own numbers where it has them.

Claude Code records each response's usage: what fills the window is the last main-chain
response's input plus cache creation plus cache read. Codex records ``last_token_usage``
and the model's ``model_context_window``; Gemini CLI and OpenClaw record per-message
tokens. Cursor records nothing, so we estimate from the text since the last compaction
and say so (``source="estimated"``). The window comes from the transcript when recorded,
else from the model's known window, else from ``[relay] context_window`` in workmem.toml,
else 200,000.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

    from ..files.store import Store
    from ..transcripts.model import Transcript

DEFAULT_WINDOW = 200_000
#: bytes of a session's last entries read from OpenClaw's database for its usage
STORE_TAIL_BYTES = 1024 * 1024
ONE_MILLION = 1_000_000

# (prefix of the model name, window); the first match wins, so longer prefixes go first
_WINDOWS: tuple[tuple[str, int], ...] = (
    ("claude-sonnet-4-5[1m]", ONE_MILLION),
    ("claude-sonnet-4[1m]", ONE_MILLION),
    ("claude-opus-4-6[1m]", ONE_MILLION),
    ("claude-", 200_000),
    ("gpt-5", 272_000),
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
    ("o3", 200_000),
    ("o4", 200_000),
    ("codex-", 272_000),
    ("gemini-1.5-pro", 2_097_152),
    ("gemini-", 1_048_576),
)
_PLATFORM_DEFAULTS = {
    "claude-code": 200_000,
    "codex": 272_000,
    "gemini": 1_048_576,
    "cursor": 200_000,
    "openclaw": 200_000,
}


@dataclass(frozen=True)
class ContextUsage:
    """How full the window is, and whether the figure was recorded or estimated."""

    used_tokens: int
    window: int
    percent: float
    source: str  # "recorded" or "estimated"
    model: str | None = None
    platform: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def model_window(model: str | None, platform: str | None = None) -> int | None:
    """The known context window of a model (or of a platform's usual model)."""
    if model:
        name = model.strip().lower()
        if name.endswith("[1m]") or "-1m" in name:
            return ONE_MILLION
        for prefix, window in _WINDOWS:
            if name.startswith(prefix):
                return window
    return _PLATFORM_DEFAULTS.get(platform or "")


def _finish(
    used: int,
    recorded_window: int | None,
    model: str | None,
    platform: str | None,
    source: str,
    window: int | None,
) -> ContextUsage:
    size = window or recorded_window or model_window(model, platform) or DEFAULT_WINDOW
    if used > size and not window and (model or "").startswith("claude-"):
        size = ONE_MILLION  # the 1M-context beta does not show in the model name
    percent = round(100.0 * used / size, 1) if size > 0 else 0.0
    return ContextUsage(used, size, percent, source, model, platform)


def usage_of(transcript: Transcript, window: int | None = None) -> ContextUsage:
    """Context usage of an already-read transcript."""
    from ..transcripts.incremental import message_tokens, since_last_compaction

    if transcript.last_usage is not None and not transcript.last_usage.is_empty:
        used, source = transcript.last_usage.context_tokens, "recorded"
    else:
        recent, _ = since_last_compaction(transcript.messages)
        used, source = message_tokens(recent), "estimated"
    return _finish(
        used, transcript.context_window, transcript.model, transcript.platform, source, window
    )


def context_usage(
    transcript: Path,
    platform: str | None = None,
    *,
    store: Store | None = None,
    window: int | None = None,
) -> ContextUsage:
    """Context usage of a transcript file.

    With ``store`` the transcript is read incrementally (only the lines added since the
    last call, offsets kept in the workspace's state folder): the form hooks use.
    """
    from ..transcripts.openclaw_paths import is_store_session

    if store is None or is_store_session(Path(transcript)):
        # A session in OpenClaw's database has no byte offsets to resume from: its last
        # entries are read instead (the latest usage is at the end).
        from ..transcripts.read import read_transcript

        tail = None if store is None else STORE_TAIL_BYTES
        return usage_of(read_transcript(Path(transcript), platform, max_bytes=tail), window)
    from ..transcripts.incremental import TranscriptTail

    summary = TranscriptTail(store).update(Path(transcript), platform).summary
    if summary.context_tokens:
        used, source = summary.context_tokens, "recorded"
    else:
        used, source = summary.estimated_tokens, "estimated"
    return _finish(used, summary.context_window, summary.model, summary.platform, source, window)
