"""Which agent platform launched this process, from its environment alone.

This is the cheap check a hook or CLI call can afford on every run (no file system
walk); it names the default agent (``<platform>-main-agent``, DESIGN.md).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

PLATFORM_ENV = "WORKMEM_PLATFORM"
#: Also the fallback row's key in ``detect`` (FALLBACK_KEY): the same name everywhere.
FALLBACK = "universal"

# Variables the agents set in the environment of the commands and hooks they run.
_SIGNALS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("claude-code", ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_PROJECT_DIR")),
    ("codex", ("CODEX_SANDBOX", "CODEX_MANAGED_BY_NPM", "CODEX_THREAD_ID")),
    ("cursor", ("CURSOR_AGENT", "CURSOR_TRACE_ID")),
    ("gemini", ("GEMINI_CLI", "GEMINI_PROJECT_DIR")),
    ("openclaw", ("OPENCLAW_STATE_DIR", "OPENCLAW_WORKSPACE", "OPENCLAW_SESSION_KEY")),
)


def running_platform(env: Mapping[str, str] | None = None, configured: str | None = None) -> str:
    environ = os.environ if env is None else env
    explicit = environ.get(PLATFORM_ENV) or configured
    if explicit:
        return explicit.strip().lower()
    for platform, names in _SIGNALS:
        if any(environ.get(name) for name in names):
            return platform
    return FALLBACK


def default_agent_name(platform: str) -> str:
    return f"{platform}-main-agent"
