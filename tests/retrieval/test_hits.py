"""A hit's snippet is made when read, and a hit still describes itself as before."""

from __future__ import annotations

import pytest

from workmem.retrieval import analyze
from workmem.retrieval.hits import make_hit

ROW = (
    7,
    "3f9a1c2b7e04",
    "daily",
    "memory/2026-05-25.md",
    3,
    9,
    "2026-05-25",
    "2026-05-25-1318-claude-code",
    "Session 1 · 13:18 · claude-code",
    "We chose **Redis** for the rate limiter because counters must be shared.",
    21,
)


def test_the_snippet_is_made_when_first_read_and_then_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = analyze.snippet

    def counting(text: str, needles: list[str]) -> str:
        calls.append(text)
        return real(text, needles)

    monkeypatch.setattr(analyze, "snippet", counting)
    hit = make_hit(ROW, 1.23456789, ["redis"])
    assert calls == []  # packing hits into a context never pays for snippets
    assert "Redis" in hit.snippet and "**" not in hit.snippet
    assert hit.snippet == hit.snippet and len(calls) == 1


def test_a_hit_as_a_dict_keeps_its_fields_in_order_with_the_snippet_after_the_title() -> None:
    hit = make_hit(ROW, 1.23456789, ["redis"])
    data = hit.to_dict()
    assert list(data) == [
        "id",
        "kind",
        "path",
        "line_start",
        "line_end",
        "date",
        "session_id",
        "title",
        "snippet",
        "text",
        "score",
        "tokens",
    ]
    assert data["score"] == 1.234568 and data["snippet"] == hit.snippet
    assert "text" not in hit.to_dict(compact=True) and "needles" not in data
