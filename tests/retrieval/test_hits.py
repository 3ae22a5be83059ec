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
    "Decisions · Session 1 · 13:18 · claude-code",
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
        "also",
    ]
    assert data["score"] == 1.234568 and data["snippet"] == hit.snippet
    assert "text" not in hit.to_dict(compact=True) and "needles" not in data


def test_a_hit_is_shown_under_its_label_and_keeps_its_other_places() -> None:
    hit = make_hit(ROW, 1.0, [], ("memory/sessions/x.md:4",))
    assert hit.title == "Decisions · Session 1 · 13:18 · claude-code"
    assert hit.to_dict()["also"] == ("memory/sessions/x.md:4",)


def test_copies_of_a_text_on_one_day_are_one_hit_with_both_places() -> None:
    from workmem.retrieval.hits import one_per_text

    def row(rowid: int, path: str, line: int, day: str | None, text: str) -> tuple[object, ...]:
        return (rowid, f"c{rowid}", "notes", path, line, line, day, None, "T", text, 3, "T")

    rows = [
        row(1, "memory/sessions/s.notes.md", 12, "2026-05-25", "- `src/lib.rs` — created"),
        row(2, "memory/sessions/s.md", 30, "2026-05-25", "- **`src/lib.rs`** — created"),
        row(3, "memory/2026-05-26.md", 5, "2026-05-26", "- `src/lib.rs` — created"),
        row(4, "memory/sessions/s.notes.md", 14, "2026-05-25", "- `src/main.rs` — created"),
        row(5, "memory/relay-snapshot.md", 9, "2026-05-25", "`src/lib.rs` — created"),
    ]
    kept = one_per_text(rows)
    # the same words on the same day, whatever marks set them apart: one hit, both places
    assert [(r[0], also) for r, also in kept] == [
        (1, ("memory/sessions/s.md:30", "memory/relay-snapshot.md:9")),
        (3, ()),  # another day: another entry
        (4, ()),
    ]
