"""Every trigger phrase of the five designs maps to its workflow; ordinary talk does not."""

from __future__ import annotations

import pytest

from workmem.phrases import detect

SID = "2026-05-25-1318-cursor-main-agent"


@pytest.mark.parametrize(
    "text, workflow",
    [
        # seed 000, every language of its keyword table
        ("收工", "wrap"),
        ("結束", "wrap"),
        ("结束", "wrap"),
        ("整理記憶", "wrap"),
        ("整理记忆", "wrap"),
        ("先到這", "wrap"),
        ("先到这吧", "wrap"),
        ("今天先這樣", "wrap"),
        ("今天先这样", "wrap"),
        ("下次繼續", "wrap"),
        ("下次继续", "wrap"),
        ("保存上下文", "wrap"),
        ("開新對話", "wrap"),
        ("开新对话", "wrap"),
        ("resume準備", "wrap"),
        ("wrap up", "wrap"),
        ("OK, let's wrap up.", "wrap"),
        ("Done for now, thanks!", "wrap"),
        ("save context", "wrap"),
        ("end session", "wrap"),
        ("Let's call it a day", "wrap"),
        ("let's stop here", "wrap"),
        ("終了", "wrap"),
        ("今日はここまで", "wrap"),
        ("保存して", "wrap"),
        ("마무리", "wrap"),
        ("오늘은 여기까지", "wrap"),
        ("저장해줘", "wrap"),
        # seed 001
        ("註冊 memory session", "session.register"),
        ("补注册 memory", "session.register"),
        ("手動註冊 memory", "session.register"),
        ("狀態更新", "session.update"),
        ("状态更新", "session.update"),
        ("memory session 狀態更新", "session.update"),
        ("更新 memory session", "session.update"),
        ("更新 memory 狀態", "session.update"),
        ("整理這個 session", "session.update"),
        ("整理这个 session", "session.update"),
        ("整理 memory", "organize"),
        ("清理 memory", "organize"),
        # seed 002
        ("continue from last session", "relay.restore"),
        ("What were we working on?", "relay.restore"),
        ("fresh start", "relay.archive"),
        # seed 003
        ("/notes", "notes.refresh"),
        ("/notes --view", "notes.view"),
        # seed 004
        ("migrate memory", "migrate"),
    ],
)
def test_phrases_map_to_their_workflow(text: str, workflow: str) -> None:
    intent = detect(text)
    assert intent is not None, text
    assert intent.workflow == workflow


@pytest.mark.parametrize(
    "text, workflow",
    [
        (f"接續 memory {SID}", "session.continue"),
        (f"接续 memory session {SID}", "session.continue"),
        (f"引用 memory {SID}", "session.continue"),
        (f"沿用 memory {SID}", "session.continue"),
        (f"解除引用 memory {SID}", "session.release"),
        (f"解除 memory 引用 {SID}", "session.release"),
        (f"release memory reference {SID}", "session.release"),
        (f"封存 memory session {SID}", "session.archive"),
        (f"請幫我 接續 memory {SID} 然後繼續寫測試", "session.continue"),
    ],
)
def test_phrases_with_a_session_id(text: str, workflow: str) -> None:
    intent = detect(text)
    assert intent is not None
    assert intent.workflow == workflow
    assert intent.args == {"session_id": SID}


@pytest.mark.parametrize(
    "text",
    [
        "任務結束了嗎？我們還要改哪裡",
        "Please wrap up the parser refactor by adding tests for the tokenizer and the lexer first",
        "the end session handler has a bug in line 40 that we should look at before lunch today",
        "這個函式什麼時候會結束迴圈",
        "引用 memory 的格式是什麼",
        "",
        "   ",
    ],
)
def test_ordinary_messages_trigger_nothing(text: str) -> None:
    assert detect(text) is None


def test_full_width_and_spacing_are_normalised() -> None:
    intent = detect("整理　ｍｅｍｏｒｙ")
    assert intent is not None and intent.workflow == "organize"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("今天先這樣，明天再說", "wrap"),
        ("收工了", "wrap"),
        ("OK I think we can wrap up", "wrap"),
        ("let's wrap up the day's work on the parser and the lexer tomorrow morning", None),
    ],
)
def test_clause_rules(text: str, expected: str | None) -> None:
    intent = detect(text)
    assert (intent.workflow if intent else None) == expected
