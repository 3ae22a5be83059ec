"""The intent matcher: requests in any of the five languages, and not their look-alikes.

The dev phrase set (``data/intents_dev.tsv``) is checked whole here; the held-out part
(``bench/intents/heldout.tsv``) is only reported by ``bench/intents.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from workmem.intents import continue_request, match_intent
from workmem.intents.text import _SIMPLIFIED, _TRADITIONAL, Message
from workmem.phrases import SEED_PHRASES, detect

DEV = Path(__file__).parent / "data" / "intents_dev.tsv"
SID = "2026-05-25-1318-cursor-main-agent"


def _dev_cases() -> list[tuple[str, str, str, str]]:
    cases = []
    for line in DEV.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            language, expected, argument, text = line.split("\t")
            cases.append((language, expected, argument, text))
    return cases


def _args(found: object) -> str:
    args = getattr(found, "args", {}) or {}
    return ";".join(f"{k}={v}" for k, v in sorted(args.items())) or "-"


@pytest.mark.parametrize(("language", "expected", "argument", "text"), _dev_cases())
def test_dev_phrase_set(language: str, expected: str, argument: str, text: str) -> None:
    found = match_intent(text)
    assert (found.workflow if found else "-") == expected, (language, text, found)
    if argument != "-":
        assert _args(found) == argument, (language, text)


def test_the_dev_set_covers_every_language_both_ways() -> None:
    seen: dict[str, set[str]] = {}
    for language, expected, _argument, _text in _dev_cases():
        seen.setdefault(language, set()).add("none" if expected == "-" else "some")
    assert set(seen) == {"en", "zh-TW", "zh-CN", "ja", "ko"}
    assert all(kinds == {"none", "some"} for kinds in seen.values()), seen


@pytest.mark.parametrize(("workflow", "phrase"), SEED_PHRASES)
def test_every_phrase_of_the_designs_is_understood(workflow: str, phrase: str) -> None:
    found = detect(phrase.replace("<id>", SID))
    assert found is not None and found.workflow == workflow, (phrase, found)
    if "<id>" in phrase:
        assert found.args == {"session_id": SID}


@pytest.mark.parametrize(
    "text",
    [
        "不要收工",
        "先別收工，還有一個 bug",
        "收工了嗎？",
        "Are we done for now?",
        "please don't end session",
        "Before we wrap up, fix the test",
        "終了？",
        "마무리?",
        "the build is done, now run the linter",
    ],
)
def test_the_issue_s_false_wrap_ups_start_nothing(text: str) -> None:
    assert detect(text) is None


@pytest.mark.parametrize(
    ("text", "workflow"),
    [
        ("今天到此為止", "wrap"),
        ("先這樣", "wrap"),
        ("先到這裡", "wrap"),
        ("今日はこれで終わり", "wrap"),
        ("오늘은 여기까지만", "wrap"),
        ("that's all for today", "wrap"),
        ("I'm done for today", "wrap"),
        ("what were we doing", "relay.restore"),
        ("where did we leave off", "relay.restore"),
        ("上次做到哪", "relay.restore"),
        ("organize the memory index", "organize"),
        (f"接續記憶 {SID}", "session.continue"),
        ("狀態更新一下", "session.update"),
        (f"封存 {SID}", "session.archive"),
    ],
)
def test_the_issue_s_missed_requests_are_understood(text: str, workflow: str) -> None:
    found = detect(text)
    assert found is not None and found.workflow == workflow


def test_a_negation_anywhere_keeps_that_workflow_off() -> None:
    assert detect("wrap up? no, don't wrap up yet") is None
    # another workflow in the same message still runs
    found = detect("不要收工，先整理 memory")
    assert found is not None and found.workflow == "organize"


def test_a_request_after_another_task_or_contradicted_waits() -> None:
    assert detect("fix the test, then wrap up") is None
    assert detect("let's stop here, but first fix the flaky test") is None
    assert detect("Alright, then let's call it a day") is not None  # "then" as filler


def test_quoted_and_fenced_phrases_are_talk_about_them() -> None:
    assert detect("why does `wrap up` not trigger?") is None
    assert detect("「收工」這個指令壞了") is None
    assert detect("see this log:\n```\nwrap up\n```\nwhat failed?") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("continue the Parser Refactor from last time", {"topic": "Parser Refactor"}),
        ("繼續上次的 parser 重構", {"topic": "parser 重構"}),
        ("继续上次的登录页面", {"topic": "登录页面"}),
        ("前回のログイン画面の続きをやろう", {"topic": "ログイン画面"}),
        ("지난번 결제 모듈 이어서 하자", {"topic": "결제 모듈"}),
        ("where did we leave off?", {}),
        (f"continue session {SID}", {"session_id": SID}),
    ],
)
def test_continue_requests_carry_their_topic_or_session(
    text: str, expected: dict[str, str]
) -> None:
    found = continue_request(text)
    assert found is not None
    assert found.args == expected


def test_continue_request_ignores_other_workflows() -> None:
    assert continue_request("收工") is None
    assert continue_request("continue") is None
    assert continue_request("") is None


def test_the_phrase_is_the_clause_as_written() -> None:
    found = detect("Thanks!  Let's CALL it a day.")
    assert found is not None
    assert found.phrase == "Let's CALL it a day"
    assert found.language == "en"
    simplified = detect("好的，今天就到这里")
    assert simplified is not None and simplified.phrase == "今天就到这里"


def test_full_width_forms_and_spacing_are_one_spelling() -> None:
    for text in ("整理　ｍｅｍｏｒｙ", "整理memory", "整理   memory"):
        found = detect(text)
        assert found is not None and found.workflow == "organize", text
    assert detect("저장해 줘") == detect("저장해줘") or (
        detect("저장해 줘") is not None and detect("저장해줘") is not None
    )


def test_the_fold_pairs_characters_one_for_one() -> None:
    assert len(_SIMPLIFIED) == len(_TRADITIONAL)
    assert len(set(_SIMPLIFIED)) == len(_SIMPLIFIED)
    assert not set(_SIMPLIFIED) & set(_TRADITIONAL)


def test_positions_map_back_to_the_words_as_written() -> None:
    message = Message("ＡＢ  Straße\r\n\n繼續 上次的 x")
    assert message._map(), "the character map disagrees with the plain form"
    assert message.original(0, len(message.plain)) == "AB  Straße\r\n\n繼續 上次的 x"


@pytest.mark.parametrize(
    "text",
    ["", "   ", "\n\n", "?", "。", "```", "`", "\x00", "收" * 50_000, "wrap up " * 20_000],
)
def test_odd_and_huge_input_is_answered(text: str) -> None:
    found = detect(text)
    assert found is None or found.workflow == "wrap"


def test_only_the_ends_of_a_long_message_are_read() -> None:
    middle = "x " * 5_000
    assert detect(f"{middle}\nwrap up") is not None
    assert detect(f"wrap up.\n{middle}") is not None
    assert detect(f"{middle}\nwrap up\n{middle}") is None


_PROBE = """
import json, sys
before = set(sys.modules)
from workmem.phrases import detect
detect("please look at the failing test in auth")
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_an_ordinary_prompt_loads_only_the_matcher_and_english() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True
    ).stdout
    loaded = [m for m in json.loads(out) if m.startswith("workmem")]
    assert sorted(loaded) == [
        "workmem",
        "workmem.intents",
        "workmem.intents.grammar",
        "workmem.intents.lexicon_en",
        "workmem.intents.matcher",
        "workmem.intents.model",
        "workmem.intents.text",
        "workmem.phrases",
    ]
