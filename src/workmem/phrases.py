"""Trigger phrases of the five source designs -> the workflow they ask for.

The designs tell an LLM to react to phrases such as 收工, 整理 memory or "wrap up". Here
the mapping is a table, so a hook can run the workflow deterministically. Close phrases
are told apart by trying the longer, more specific patterns first (整理這個 session is an
update, 整理 memory an organize, 整理記憶 a wrap-up). Short one-word triggers such as 結束
only count when they are the whole message, so "結束了嗎" in a question does not end a
session. Traditional and Simplified Chinese, Japanese, Korean and English are covered.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache

SESSION_ID = r"(?P<id>\d{4}-\d{2}-\d{2}-\d{4}-[a-z0-9]+(?:-[a-z0-9]+)*)"
_TRAILING = " \t\r\n.,!?;:~。，！？；：、…」』）)\"'"


@dataclass(frozen=True)
class Intent:
    """A recognised request: which workflow, its arguments, and the phrase that matched."""

    workflow: str
    phrase: str
    language: str
    args: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "workflow": self.workflow,
            "phrase": self.phrase,
            "language": self.language,
            "args": self.args,
        }


class _Rule:
    """One trigger phrase. A plain class: the table builds ~80 of them on every prompt, and
    a frozen dataclass costs that in generated methods and ``object.__setattr__`` calls."""

    __slots__ = ("language", "phrase", "whole", "workflow")

    def __init__(self, workflow: str, language: str, phrase: str, whole: bool) -> None:
        self.workflow = workflow
        self.language = language
        self.phrase = phrase
        self.whole = whole  # only when the phrase is (nearly) the whole message

    @property
    def anchor(self) -> str:
        """Literal text every match contains, spaces and case aside: a cheap pre-filter."""
        return _squash(self.phrase.split("{id}")[0])

    @property
    def pattern(self) -> re.Pattern[str]:
        return _compiled(self.phrase)


def _squash(text: str) -> str:
    return "".join(text.split()).casefold()


@cache
def _compiled(phrase: str) -> re.Pattern[str]:
    """``phrase`` is literal text; ``{id}`` marks a session ID argument; spaces are flexible.

    Compiled on first use only: a hook sees mostly ordinary prompts, which the anchor
    check rejects without compiling any of the ~80 patterns.
    """
    parts = [re.escape(p) for p in phrase.split("{id}")]
    body = SESSION_ID.join(parts).replace(r"\ ", r"\s*")
    return re.compile(body, re.IGNORECASE)


def _rule(workflow: str, language: str, phrase: str, *, whole: bool = False) -> _Rule:
    return _Rule(workflow, language, phrase, whole)


# Order matters: the first matching rule wins, so specific phrases come before general ones.
_RULES: tuple[_Rule, ...] = (
    # Seed 001 — release before continue (解除引用 contains 引用).
    _rule("session.release", "zh", "解除引用 memory {id}"),
    _rule("session.release", "zh", "解除 memory 引用 {id}"),
    _rule("session.release", "en", "release memory reference {id}"),
    _rule("session.archive", "zh", "封存 memory session {id}"),
    _rule("session.archive", "zh", "封存 memory {id}"),
    _rule("session.continue", "zh", "接續 memory session {id}"),
    _rule("session.continue", "zh", "接续 memory session {id}"),
    _rule("session.continue", "zh", "接續 memory {id}"),
    _rule("session.continue", "zh", "接续 memory {id}"),
    _rule("session.continue", "zh", "引用 memory {id}"),
    _rule("session.continue", "zh", "沿用 memory {id}"),
    _rule("session.continue", "en", "continue memory {id}"),
    _rule("session.register", "zh", "手動註冊 memory"),
    _rule("session.register", "zh", "手动注册 memory"),
    _rule("session.register", "zh", "補註冊 memory"),
    _rule("session.register", "zh", "补注册 memory"),
    _rule("session.register", "zh", "註冊 memory session"),
    _rule("session.register", "zh", "注册 memory session"),
    _rule("session.register", "en", "register memory session"),
    # 整理這個 session (update) before 整理 memory (organize) before 整理記憶 (wrap).
    _rule("session.update", "zh", "整理這個 session"),
    _rule("session.update", "zh", "整理这个 session"),
    _rule("session.update", "zh", "memory session 狀態更新"),
    _rule("session.update", "zh", "memory session 状态更新"),
    _rule("session.update", "zh", "更新 memory session"),
    _rule("session.update", "zh", "更新 memory 狀態"),
    _rule("session.update", "zh", "更新 memory 状态"),
    _rule("session.update", "zh", "狀態更新", whole=True),
    _rule("session.update", "zh", "状态更新", whole=True),
    _rule("session.update", "en", "update memory session"),
    _rule("organize", "zh", "整理 memory"),
    _rule("organize", "zh", "清理 memory"),
    _rule("organize", "en", "organize memory"),
    _rule("organize", "en", "clean up memory"),
    # Seed 003.
    _rule("notes.view", "en", "/notes --view"),
    _rule("notes.refresh", "en", "/notes", whole=True),
    # Seed 002.
    _rule("relay.restore", "en", "continue from last session"),
    _rule("relay.restore", "en", "continue from the last session"),
    _rule("relay.restore", "en", "what were we working on"),
    _rule("relay.restore", "zh", "接續上次"),
    _rule("relay.restore", "zh", "接续上次"),
    _rule("relay.restore", "zh", "我們上次做到哪"),
    _rule("relay.restore", "zh", "我们上次做到哪"),
    # Picking the last session's work up: the handoff (continuity.handoff).
    _rule("relay.restore", "en", "continue where we left off"),
    _rule("relay.restore", "en", "continue where you left off"),
    _rule("relay.restore", "en", "pick up where we left off"),
    _rule("relay.restore", "en", "pick up where you left off"),
    _rule("relay.restore", "en", "where did we leave off"),
    _rule("relay.restore", "en", "continue the last session"),
    _rule("relay.restore", "zh", "續上次"),
    _rule("relay.restore", "zh", "续上次"),
    _rule("relay.restore", "zh", "接著上次"),
    _rule("relay.restore", "zh", "接着上次"),
    _rule("relay.restore", "ja", "前回の続き"),
    _rule("relay.restore", "ko", "지난번에 이어서"),
    _rule("relay.archive", "en", "fresh start"),
    _rule("relay.archive", "en", "don't restore"),
    _rule("relay.archive", "en", "do not restore"),
    # Seed 004.
    _rule("migrate", "en", "migrate memory"),
    _rule("migrate", "en", "migrate my memory"),
    # Seed 000: wrap-up, in every language it lists. Long phrases first.
    _rule("wrap", "zh", "整理記憶"),
    _rule("wrap", "zh", "整理记忆"),
    _rule("wrap", "zh", "保存上下文"),
    _rule("wrap", "zh", "今天先這樣"),
    _rule("wrap", "zh", "今天先这样"),
    _rule("wrap", "zh", "下次繼續"),
    _rule("wrap", "zh", "下次继续"),
    _rule("wrap", "zh", "開新對話"),
    _rule("wrap", "zh", "开新对话"),
    _rule("wrap", "zh", "resume準備"),
    _rule("wrap", "zh", "resume准备"),
    _rule("wrap", "zh", "先到這"),
    _rule("wrap", "zh", "先到这"),
    _rule("wrap", "zh", "收工"),
    _rule("wrap", "zh", "結束", whole=True),
    _rule("wrap", "zh", "结束", whole=True),
    _rule("wrap", "en", "wrap up"),
    _rule("wrap", "en", "wrap it up"),
    _rule("wrap", "en", "done for now"),
    _rule("wrap", "en", "save context"),
    _rule("wrap", "en", "end session"),
    _rule("wrap", "en", "end the session"),
    _rule("wrap", "en", "call it a day"),
    _rule("wrap", "en", "let's stop here"),
    _rule("wrap", "en", "lets stop here"),
    _rule("wrap", "ja", "今日はここまで"),
    _rule("wrap", "ja", "保存して"),
    _rule("wrap", "ja", "終了", whole=True),
    _rule("wrap", "ko", "오늘은 여기까지"),
    _rule("wrap", "ko", "저장해줘"),
    _rule("wrap", "ko", "저장해 줘"),
    _rule("wrap", "ko", "마무리", whole=True),
    _rule("wrap", "ko", "마무리하자"),
)

#: Words around a trigger that do not change its meaning ("ok, wrap up please").
_FILLER = (
    r"^(?:ok(?:ay)?|alright|please|pls|thanks|thank you|好|好的|那|那就|請|请|麻煩|麻烦|"
    r"let'?s|we can|we're|i'm|i am|kk|嗯|じゃあ|では|それでは|자|그럼)?[\s,，、。.!！]*"
)


def normalize(text: str) -> str:
    """NFKC (full-width to half-width), single spaces, trimmed."""
    flat = unicodedata.normalize("NFKC", text)
    return " ".join(flat.split())


_POLITE_TAIL = (
    r"^(?:\s*(?:please|pls|now|for now|for today|today|then|吧|了|啦|嗎|吗|です|ます|요|합시다))+"
)


@cache
def _pattern(source: str) -> re.Pattern[str]:
    """Filler and polite-tail patterns, compiled when a trigger's anchor first matches:
    case-insensitive Unicode patterns take milliseconds to compile, on every prompt."""
    return re.compile(source, re.IGNORECASE)


def _after(text: str, match: re.Match[str]) -> str:
    return _pattern(_POLITE_TAIL).sub("", text[match.end() :])


def _stands_alone(text: str, match: re.Match[str]) -> bool:
    """A whole-message trigger: nothing but filler words and punctuation around it."""
    before = _pattern(_FILLER).sub("", text[: match.start()]).strip(_TRAILING)
    return not before and not _after(text, match).strip(_TRAILING)


def _ends_a_clause(text: str, match: re.Match[str]) -> bool:
    """The phrase is a request of its own: it ends the message or its clause, and it opens
    the message (after filler) or the message is short.

    So "OK, let's wrap up." and "今天先這樣，明天再說" trigger, while "wrap up the parser
    refactor" or "the end session handler" (the phrase used as words) do not.
    """
    after = _after(text, match)
    if after and after[0] not in _TRAILING.replace(" ", ""):
        return False
    before = _pattern(_FILLER).sub("", text[: match.start()]).strip()
    return not before or before[-1] in _TRAILING or len(text) <= 40


def detect(text: str) -> Intent | None:
    """The workflow a message asks for, or ``None`` for an ordinary message."""
    message = normalize(text)
    if not message:
        return None
    squashed = _squash(message)
    for rule in _RULES:
        if rule.anchor not in squashed:
            continue
        match = rule.pattern.search(message)
        if match is None:
            continue
        has_id = "id" in rule.pattern.groupindex
        if rule.whole and not _stands_alone(message, match):
            continue
        if not rule.whole and not has_id and not _ends_a_clause(message, match):
            continue
        args = {"session_id": match.group("id").lower()} if has_id else {}
        return Intent(rule.workflow, match.group(0), rule.language, args)
    return None
