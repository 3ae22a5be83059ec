"""The stand-ins workmem writes for "nothing yet", in every language, for every reader.

A board written in Japanese last month and read by an English install today must still
show its idle rows as placeholders: organize deletes them, doctor and ``session list`` sort
them last, search does not index them, a save fills their topic in. So readers never ask
which language wrote a file: they ask ``is_topic``, ``is_summary`` or ``is_context_hint``,
which know every language's text. The zh-TW texts are the seed's own.
"""

from __future__ import annotations

#: the board's Topic of a session nobody has described yet
TOPIC = {
    "en": "Not set",
    "zh-TW": "未設定",
    "zh-CN": "未设定",
    "ja": "未設定",
    "ko": "미설정",
}
#: the board's Summary of a row registered when a session starts
START_SUMMARY = {
    "en": "Registered when the session started; no topic yet.",
    "zh-TW": "sessionStart 自動註冊，尚未整理主題。",
    "zh-CN": "sessionStart 自动注册，尚未整理主题。",
    "ja": "セッション開始時に自動登録。トピックは未整理。",
    "ko": "세션 시작 시 자동 등록됨. 아직 주제를 정리하지 않음.",
}
#: the board's Summary of a manual registration nothing could be said about
MANUAL_SUMMARY = {
    "en": "Registered by hand; session snapshot created.",
    "zh-TW": "手動補註冊，已建立 session snapshot。",
    "zh-CN": "手动补注册，已建立 session snapshot。",
    "ja": "手動で登録し、セッションスナップショットを作成。",
    "ko": "수동으로 등록하고 세션 스냅샷을 만듦.",
}
#: a new session snapshot's Current Context, until the first context is merged in
CONTEXT_HINT = {
    "en": "Summarize what has happened in this agent session so far.",
    "zh-TW": "摘要這個 agent session 到目前為止做了什麼。",
    "zh-CN": "摘要这个 agent session 到目前为止做了什么。",
    "ja": "このセッションでここまでに行ったことを要約してください。",
    "ko": "이 세션에서 지금까지 한 일을 요약하세요.",
}
#: an empty list section of a template ("None")
NONE = {"en": "None", "zh-TW": "無", "zh-CN": "无", "ja": "なし", "ko": "없음"}
#: how a paragraph a save wrote (not the agent) begins, before ``(stamp): …``
AUTO_SAVED = {
    "en": "Auto-saved",
    "zh-TW": "自動保存",
    "zh-CN": "自动保存",
    "ja": "自動保存",
    "ko": "자동 저장",
}


def _key(text: str) -> str:
    return " ".join(text.split()).rstrip(".。").casefold()


_TOPICS = frozenset(_key(t) for t in TOPIC.values())
_SUMMARIES = frozenset(_key(t) for t in (*START_SUMMARY.values(), *MANUAL_SUMMARY.values()))
_HINTS = frozenset(_key(t) for t in CONTEXT_HINT.values())
NONE_WORDS = frozenset(w.casefold() for w in NONE.values())


def is_topic(text: str) -> bool:
    """An empty Topic or the placeholder of any language (``未設定``, ``Not set`` …)."""
    return _key(text) in _TOPICS or not text.strip()


def is_summary(text: str) -> bool:
    """An empty Summary or a default one of any language (start or manual registration)."""
    return _key(text) in _SUMMARIES or not text.strip()


def is_default(text: str) -> bool:
    """Any board placeholder: what search leaves out of a row it indexes."""
    key = _key(text)
    return key in _TOPICS or key in _SUMMARIES


def is_context_hint(text: str) -> bool:
    """The template's Current Context hint, in any language."""
    return _key(text) in _HINTS


def is_auto_saved(text: str) -> bool:
    """A paragraph a save wrote (``Auto-saved (2026-05-25 13:18): …``), in any language."""
    head = text.lstrip()
    return any(head.startswith(f"{word} (") for word in AUTO_SAVED.values())
