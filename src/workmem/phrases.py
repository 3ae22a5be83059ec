"""Trigger phrases of the five source designs -> the workflow they ask for.

The designs tell an LLM to react to phrases such as 收工, 整理 memory or "wrap up", and to
"any session-ending intent in any language". ``detect`` is the intent matcher
(``workmem.intents``): it understands those phrases and the everyday forms around them
(今天到此為止, "I'm done for today", 오늘은 여기까지만, 狀態更新一下, 接續記憶 <id> …) in
English, Chinese, Japanese and Korean, and leaves alone what only shares their words
(不要收工, "are we done for now?", "before we wrap up, fix the test").

``SEED_PHRASES`` lists the designs' own phrases, as written there, with the workflow each
asks for: the matcher must understand every one of them (a test checks), and the README
quotes them.
"""

from __future__ import annotations

from .intents import SESSION_ID, Intent, match_intent

#: (workflow, phrase) as the designs write them; ``<id>`` stands for a memory session ID
SEED_PHRASES: tuple[tuple[str, str], ...] = (
    # Session Wrap: its keyword table, every language
    *(
        ("wrap", phrase)
        for phrase in (
            "收工",
            "結束",
            "整理記憶",
            "先到這",
            "今天先這樣",
            "下次繼續",
            "保存上下文",
            "開新對話",
            "resume準備",
            "wrap up",
            "done for now",
            "save context",
            "end session",
            "call it a day",
            "let's stop here",
            "終了",
            "今日はここまで",
            "保存して",
            "마무리",
            "오늘은 여기까지",
            "저장해줘",
        )
    ),
    # Agent Memory (the session board)
    ("session.register", "註冊 memory session"),
    ("session.register", "補註冊 memory"),
    ("session.register", "手動註冊 memory"),
    ("session.continue", "接續 memory <id>"),
    ("session.continue", "接續 memory session <id>"),
    ("session.continue", "引用 memory <id>"),
    ("session.continue", "沿用 memory <id>"),
    ("session.release", "解除引用 memory <id>"),
    ("session.release", "解除 memory 引用 <id>"),
    ("session.release", "release memory reference <id>"),
    ("session.update", "狀態更新"),
    ("session.update", "memory session 狀態更新"),
    ("session.update", "更新 memory session"),
    ("session.update", "更新 memory 狀態"),
    ("session.update", "整理這個 session"),
    ("organize", "整理 memory"),
    ("organize", "清理 memory"),
    ("session.archive", "封存 memory session <id>"),
    # Session Relay
    ("relay.restore", "continue from last session"),
    ("relay.restore", "what were we working on"),
    ("relay.archive", "fresh start"),
    ("relay.archive", "don't restore"),
    # Session Notes
    ("notes.refresh", "/notes"),
    ("notes.view", "/notes --view"),
    # Working Memory
    ("migrate", "migrate memory"),
)


def detect(text: str) -> Intent | None:
    """The workflow a message asks for, or ``None`` for an ordinary message."""
    return match_intent(text)


__all__ = ["SEED_PHRASES", "SESSION_ID", "Intent", "detect"]
