"""Which workflow a message asks for, in the words people use, in five languages.

The designs list trigger phrases (收工, 整理 memory, "wrap up", 今日はここまで, 마무리 …)
and ask for "any session-ending intent in any language". A table of exact phrases
cannot meet that: people say 今天到此為止, "I'm done for today", 오늘은 여기까지만, and they
also say 不要收工, "are we done for now?" and "before we wrap up, fix the test", which must
start nothing. The matcher here understands the common forms of each request in English,
Chinese (Traditional and Simplified), Japanese and Korean: the verbs and their variants,
polite and casual endings, particles, the objects people name, negation and questions
around them, and ordinary coding requests that share a word.

``match_intent(text) -> Intent | None`` is the one entry point (``phrases.detect`` is the
same). For continuing earlier work it answers ``session.continue`` with ``session_id``
when the message names a memory session, else ``relay.restore``, with ``topic`` when it
names what to continue ("continue the parser refactor from last time", 繼續上次的登入頁面).

Cheap on purpose: it runs on every prompt. A language's rules load only when the message
holds its letters, and a rule's expression is compiled only when one of its anchor words
occurs; an ordinary prompt costs a few substring tests.
"""

from __future__ import annotations

from .model import CONTINUE_WORKFLOWS, SESSION_ID, WORKFLOWS, Intent


def match_intent(text: str) -> Intent | None:
    """The workflow ``text`` asks for and its arguments, or ``None`` for anything else."""
    from .matcher import match_intent as match

    return match(text)


def continue_request(text: str) -> Intent | None:
    """``match_intent`` when the message asks to carry on earlier work (with a session ID,
    a topic, or neither), else ``None``: what a session's first prompt is checked for."""
    intent = match_intent(text)
    return intent if intent is not None and intent.workflow in CONTINUE_WORKFLOWS else None


__all__ = [
    "CONTINUE_WORKFLOWS",
    "SESSION_ID",
    "WORKFLOWS",
    "Intent",
    "continue_request",
    "match_intent",
]
