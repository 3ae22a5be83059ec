"""The catalogue itself: every language complete, the seeds' texts unchanged, the setting's
values checked with a clear error."""

from __future__ import annotations

import re
from pathlib import Path
from string import Formatter

import pytest

from workmem import i18n
from workmem.errors import UsageError
from workmem.i18n import detect, placeholders


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name is not None}


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_language_has_every_text_with_the_same_fields(language: str) -> None:
    english = i18n._table("en")
    table = i18n._table(language)
    assert set(table) == set(english), set(table) ^ set(english)
    for key, template in table.items():
        assert _fields(template) == _fields(english[key]), (language, key)
        assert template.strip(), (language, key)
        # Filled in, a text keeps no field; only the wrap-up's YAML shape has braces.
        filled = i18n.text(language, key, **dict.fromkeys(_fields(template), "X"))
        literal = "{type: project|feedback|user|reference, topic, description, content}"
        assert "{" not in filled.replace(literal, ""), (language, key)


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_language_has_every_placeholder(language: str) -> None:
    for table in (
        placeholders.TOPIC,
        placeholders.START_SUMMARY,
        placeholders.MANUAL_SUMMARY,
        placeholders.CONTEXT_HINT,
        placeholders.NONE,
        placeholders.AUTO_SAVED,
    ):
        assert table[language].strip()


def test_no_user_text_names_internal_parts() -> None:
    # What a user reads speaks of what the user does: no design or step numbers, no rooms.
    internal = re.compile(r"\bseed\b|\broom\b|\bStep \d|\bSteps \d", re.IGNORECASE)
    for language in i18n.LANGUAGES:
        for key, template in i18n._table(language).items():
            assert not internal.search(template), (language, key, template)


def test_the_zh_tw_texts_are_the_seeds_own(shared_dir: Path) -> None:
    seeds = shared_dir / "seeds"
    board = next(seeds.glob("001_*.txt")).read_text(encoding="utf-8")
    wrap = next(seeds.glob("000_*.txt")).read_text(encoding="utf-8")
    relay = next(seeds.glob("002_*.txt")).read_text(encoding="utf-8")
    assert f"Topic: {placeholders.TOPIC['zh-TW']}" in board
    assert f"Summary: {placeholders.START_SUMMARY['zh-TW']}" in board
    assert f"Use {placeholders.MANUAL_SUMMARY['zh-TW']} only as a fallback" in board
    zh = i18n._table("zh-TW")
    for key in ("wrap.title", "wrap.next", "wrap.nothing", "zone.checkpoint", "zone.full_save"):
        assert zh[key] in wrap, key
    header = f"| {zh['wrap.file']} | {zh['wrap.action']} | {zh['wrap.content']} |"
    assert header in wrap
    assert i18n.text("zh-TW", "wrap.maintenance", c=1, s=0, m=0) in wrap
    assert i18n.text("zh-TW", "wrap.platform", name="Codex", path=".ai-memory/") in wrap
    # Seed 002 writes its warning line in Simplified Chinese: that is the zh-CN text.
    footer = i18n.text("zh-CN", "relay.footer", pct="{pct}")
    assert footer.split("\n")[1] in relay


def test_traditional_and_simplified_tables_are_aligned_pairs() -> None:
    assert len(detect._TRADITIONAL) == len(detect._SIMPLIFIED)
    assert not detect.TRADITIONAL_ONLY & detect.SIMPLIFIED_ONLY
    assert all(a != b for a, b in zip(detect._TRADITIONAL, detect._SIMPLIFIED, strict=True))
    assert not detect.JAPANESE_ONLY & (detect.TRADITIONAL_ONLY | detect.SIMPLIFIED_ONLY)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("auto", "auto"),
        ("en", "en"),
        ("zh-TW", "zh-TW"),
        ("zh_tw", "zh-TW"),
        ("ZH-CN", "zh-CN"),
        ("ja", "ja"),
        (" ko ", "ko"),
        ("zh", "zh-TW"),  # the seeds' Chinese, as the wrap-up's old --lang zh meant
        ("zh-Hans", "zh-CN"),
    ],
)
def test_setting_values_people_write(value: str, expected: str) -> None:
    assert i18n.check_setting(value) == expected


@pytest.mark.parametrize("value", ["fr", "", "english", "zh-SG", 3, None, ["en"]])
def test_an_unknown_setting_is_a_usage_error_naming_the_choices(value: object) -> None:
    with pytest.raises(UsageError) as caught:
        i18n.check_setting(value)
    assert caught.value.exit_code == 2
    assert "auto, en, zh-TW, zh-CN, ja, ko" in str(caught.value)


def test_text_falls_back_to_english_for_a_language_it_does_not_know() -> None:
    assert i18n.text("fr", "flow.none") == "none"
    assert i18n.text("ja", "flow.none") == "なし"
