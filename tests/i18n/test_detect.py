"""Which language a message is in, and which one the system is set to."""

from __future__ import annotations

import sys

import pytest

from workmem.files import oscompat
from workmem.i18n.detect import SAMPLE, from_locale, from_text, system_language


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("請幫我把這個函式改成非同步的，然後補上測試", "zh-TW"),
        ("请帮我把这个函数改成异步的，然后补上测试", "zh-CN"),
        ("收工", "zh-TW"),  # characters both scripts share: the seeds' Chinese
        ("整理 memory", "zh-TW"),
        ("幫我 fix 一下 parser 的 bug", "zh-TW"),
        ("用 SQLite 和 FTS5 做 search index，这样比较快", "zh-CN"),
        ("この関数を非同期に書き換えてください", "ja"),
        ("認証機能の実装完了", "ja"),  # kanji and one の: the Japanese forms tell
        ("今日はここまで", "ja"),
        ("이 함수를 비동기로 바꿔 줘", "ko"),
        ("오늘은 여기까지", "ko"),
        ("Please refactor the parser module", "en"),
        ("wrap up", "en"),
        ("what does 收工 mean in this project?", "en"),  # an English question quoting it
        ("接續 memory 2026-05-25-1318-cursor-main-agent", "zh-TW"),  # an ID is no English
        ("continue memory 2026-05-25-1318-cursor-main-agent", "en"),
    ],
)
def test_the_language_of_a_message(text: str, expected: str) -> None:
    assert from_text(text) == expected


@pytest.mark.parametrize("text", ["", "ok", "y", "1234 5678", "  ", "/notes", "🙂🙂", "`收工`"])
def test_a_message_too_short_to_say_gives_none(text: str) -> None:
    assert from_text(text) is None


def test_code_is_not_the_users_language() -> None:
    code = "```python\n" + "def handler(request):\n    return limiter.check(request)\n" * 50
    assert from_text(f"幫我看這段為什麼錯\n{code}```\n") == "zh-TW"
    assert from_text("請看 `def handler(request): return limiter.check(request)` 這行") == "zh-TW"


def test_a_question_after_a_long_paste_is_read_from_the_end() -> None:
    log = "ERROR connection refused while contacting the upstream service\n" * 200
    assert len(log) > 4 * SAMPLE
    assert from_text(f"{log}這個錯誤是什麼意思？要怎麼修？") == "zh-TW"
    fenced = "```\n" + log + "```\n"
    assert from_text(f"看一下\n{fenced}為什麼會這樣？請修正") == "zh-TW"


def test_the_phrase_language_settles_kanji_alone() -> None:
    assert from_text("終了", hint="ja") == "ja"
    assert from_text("終了") == "zh-TW"
    assert from_text("ok", hint="en") == "en"


def test_chinese_that_could_be_either_follows_the_locales_chinese() -> None:
    assert from_text("收工", locale_chinese="zh-CN") == "zh-CN"
    assert from_text("收工", locale_chinese="zh-TW") == "zh-TW"
    assert from_text("這個收工", locale_chinese="zh-CN") == "zh-TW"  # 這 is Traditional


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("ja_JP.UTF-8", "ja"),
        ("ja_JP.eucJP", "ja"),
        ("ko_KR.UTF-8", "ko"),
        ("zh_TW.UTF-8", "zh-TW"),
        ("zh_TW.Big5", "zh-TW"),
        ("zh_HK.UTF-8", "zh-TW"),
        ("zh-Hant-TW", "zh-TW"),
        ("zh_CN.UTF-8", "zh-CN"),
        ("zh_SG.GB2312", "zh-CN"),
        ("zh_Hans_CN", "zh-CN"),
        ("en_US.UTF-8", "en"),
        ("en_GB@euro", "en"),
        ("C", None),
        ("C.UTF-8", None),
        ("POSIX", None),
        ("de_DE.UTF-8", None),  # a language the catalogue does not speak: English then
        ("", None),
    ],
)
def test_locale_names(value: str, expected: str | None) -> None:
    assert from_locale(value) == expected


def test_the_locale_variables_in_posix_order() -> None:
    env = {"LANG": "ko_KR.UTF-8", "LC_MESSAGES": "zh_TW.UTF-8", "LC_ALL": "ja_JP.UTF-8"}
    assert system_language(env) == "ja"
    del env["LC_ALL"]
    assert system_language(env) == "zh-TW"
    del env["LC_MESSAGES"]
    assert system_language(env) == "ko"
    assert system_language({"LC_ALL": "", "LANG": "zh_CN.UTF-8"}) == "zh-CN"
    assert system_language({}) is None


def test_windows_uses_the_display_language_when_no_variable_is_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(oscompat, "windows_ui_locale", lambda: "ja_JP")
    assert system_language() == "ja"
    monkeypatch.setenv("LANG", "ko_KR.UTF-8")  # a variable set by hand still wins
    assert system_language() == "ko"


def test_windows_locale_is_none_elsewhere() -> None:
    if sys.platform != "win32":
        assert oscompat.windows_ui_locale() is None
