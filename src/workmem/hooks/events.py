"""Hook event names: each platform's own spelling mapped to five canonical events."""

from __future__ import annotations

import re

from ..errors import UsageError

SESSION_START = "session-start"
USER_PROMPT = "user-prompt-submit"
PRE_COMPACT = "pre-compact"
STOP = "stop"
SESSION_END = "session-end"
CANONICAL = (SESSION_START, USER_PROMPT, PRE_COMPACT, STOP, SESSION_END)

PLATFORMS = ("claude-code", "codex", "cursor", "gemini", "openclaw")

#: platform -> {the platform's event name: canonical event}; the order is install order.
PLATFORM_EVENTS: dict[str, dict[str, str]] = {
    "claude-code": {
        "SessionStart": SESSION_START,
        "UserPromptSubmit": USER_PROMPT,
        "PreCompact": PRE_COMPACT,
        "Stop": STOP,
        "SessionEnd": SESSION_END,
    },
    # Codex 0.171: SessionStart (startup|resume|clear|compact), UserPromptSubmit, PreCompact,
    # Stop and SessionEnd (codex-rs/hooks/src/events/session_start.rs, `codex app-server`
    # hooks/list); it clamps a SessionEnd hook's timeout to 3 s.
    "codex": {
        "SessionStart": SESSION_START,
        "UserPromptSubmit": USER_PROMPT,
        "PreCompact": PRE_COMPACT,
        "Stop": STOP,
        "SessionEnd": SESSION_END,
    },
    "cursor": {
        "sessionStart": SESSION_START,
        "beforeSubmitPrompt": USER_PROMPT,
        "preCompact": PRE_COMPACT,
        "stop": STOP,
        "sessionEnd": SESSION_END,
    },
    "gemini": {
        "SessionStart": SESSION_START,
        "BeforeAgent": USER_PROMPT,
        "PreCompress": PRE_COMPACT,
        "AfterAgent": STOP,
        "SessionEnd": SESSION_END,
    },
    "openclaw": {
        "agent:bootstrap": SESSION_START,
        "message:received": USER_PROMPT,
        "session:compact:before": PRE_COMPACT,
        "command:stop": STOP,
        # a reply sent on a chat channel: the end of a turn (its save runs detached)
        "message:sent": STOP,
        "command:new": SESSION_END,
        "command:reset": SESSION_END,
    },
}

_ALIASES = {
    "sessionstart": SESSION_START,
    "start": SESSION_START,
    "userpromptsubmit": USER_PROMPT,
    "beforesubmitprompt": USER_PROMPT,
    "beforeagent": USER_PROMPT,
    "prompt": USER_PROMPT,
    "precompact": PRE_COMPACT,
    "precompress": PRE_COMPACT,
    "stop": STOP,
    "afteragent": STOP,
    "sessionend": SESSION_END,
    "end": SESSION_END,
}


#: Events whose answer the platform shows the model (the others' context must travel another
#: way, see ``workmem.platforms.delivery``).
CONTEXT_EVENTS: dict[str, frozenset[str]] = {
    "claude-code": frozenset({SESSION_START, USER_PROMPT}),
    "codex": frozenset({SESSION_START, USER_PROMPT}),
    # beforeSubmitPrompt answers only {continue, user_message}
    "cursor": frozenset({SESSION_START}),
    "gemini": frozenset({SESSION_START, USER_PROMPT}),
    # agent:bootstrap adds a bootstrap file; other events' answers reach no model
    "openclaw": frozenset({SESSION_START}),
}


def check_platform(platform: str) -> str:
    if platform not in PLATFORMS:
        raise UsageError(f"unknown platform {platform!r}: use one of {', '.join(PLATFORMS)}")
    return platform


def canonical_event(name: str, platform: str) -> str:
    """``SessionStart``, ``session-start``, ``session_start``, ``agent:bootstrap`` -> canonical."""
    own = PLATFORM_EVENTS[check_platform(platform)].get(name)
    if own is not None:
        return own
    kebab = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name).replace("_", "-").lower()
    if kebab in CANONICAL:
        return kebab
    squashed = kebab.replace("-", "").replace(":", "")
    if squashed in _ALIASES:
        return _ALIASES[squashed]
    raise UsageError(
        f"unknown hook event {name!r} for {platform}: use one of "
        + ", ".join(PLATFORM_EVENTS[platform])
    )


def platform_event_name(canonical: str, platform: str) -> str:
    """The platform's own spelling of a canonical event (first one when several map to it)."""
    for own, mapped in PLATFORM_EVENTS[check_platform(platform)].items():
        if mapped == canonical:
            return own
    raise UsageError(f"{platform} has no {canonical} hook")
