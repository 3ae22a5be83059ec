"""A query's work is bounded in the core: a 60 KB date-heavy query costs what its start costs.

The bounds are checked as work done (characters the date engine reads, terms FTS5 gets),
not as seconds: ``bench/web.py`` prints the time.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from workmem.journal.dates import ResolvedDate, find_dates
from workmem.retrieval import analyze, bounds
from workmem.retrieval import dates as retrieval_dates
from workmem.retrieval.dates import DateRange, query_range
from workmem.retrieval.search import search
from workmem.root import Workspace

TODAY = date(2026, 5, 25)
DATES = "on May 8, 2023 and last Tuesday 上週二 三天前 2024-03-15 between March 3 and March 10 "
HUGE = (DATES * (60_000 // len(DATES) + 1))[:60_000]


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Lengths of the texts the date engine is asked to read."""
    lengths: list[int] = []
    real = find_dates

    def spy(text: str, reference: date) -> list[ResolvedDate]:
        lengths.append(len(text))
        return real(text, reference)

    monkeypatch.setattr(retrieval_dates, "find_dates", spy)
    return lengths


def test_prefix_ends_at_a_space_and_keeps_short_text() -> None:
    assert bounds.prefix("short query", 100) == "short query"
    cut = bounds.prefix("word " * 1000, 2000)
    assert len(cut) <= 2000 and cut.endswith("word") and not cut.endswith(" ")
    unbroken = bounds.prefix("x" * 5000, 2000)  # no space near the end: cut where it is
    assert unbroken == "x" * 2000
    assert bounds.was_cut("x" * 2001) and not bounds.was_cut("x" * 2000)


def test_the_date_engine_reads_a_bounded_start(parsed: list[int]) -> None:
    named = query_range(HUGE, TODAY)
    assert parsed and max(parsed) <= bounds.MAX_DATE_CHARS
    # the range is the one the start of the query names
    assert named == query_range(bounds.prefix(HUGE, bounds.MAX_DATE_CHARS), TODAY)
    assert named == DateRange(date(2023, 5, 8), date(2024, 3, 15))


def test_only_the_first_times_named_decide_the_range() -> None:
    """Times past the first ``MAX_DATES`` do not widen the range."""
    early = " ".join(f"on 2026-05-{day:02d}" for day in range(1, bounds.MAX_DATES + 1))
    assert query_range(early + " and on 2020-01-01", TODAY) == DateRange(
        date(2026, 5, 1), date(2026, 5, bounds.MAX_DATES)
    )


def test_a_short_question_is_read_whole(parsed: list[int]) -> None:
    question = "what did we decide last Tuesday about the 限流 middleware?"
    assert bounds.bound_query(question) == question
    query_range(question, TODAY)
    assert max(parsed) == len(question)


def test_terms_are_bounded() -> None:
    many = " ".join(f"word{n}" for n in range(1000))
    atoms = analyze.query_terms(many)
    assert len(atoms) == bounds.MAX_TERMS and atoms[0] == '"word0"'
    chinese = "".join(chr(0x4E00 + n) for n in range(500))  # 499 distinct bigrams
    assert len(analyze.query_terms(chinese)) == bounds.MAX_TERMS
    assert len(analyze.highlight_terms(many + " " + chinese)) == bounds.MAX_TERMS


def test_search_with_a_60_kb_date_heavy_query(
    root: Path, parsed: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole path: every step sees a bounded query, and the search still answers."""
    (root / "memory").mkdir()
    (root / "memory" / "2023-05-08.md").write_text(
        "# 2023-05-08\n\n### 10:00 Planning\n\nWe planned the March release on May 8.\n",
        encoding="utf-8",
    )
    seen: list[int] = []
    real_terms = analyze.query_terms

    def terms_spy(query: str) -> list[str]:
        seen.append(len(query))
        return real_terms(query)

    monkeypatch.setattr(analyze, "query_terms", terms_spy)
    hits = search(Workspace(root), HUGE, k=5, embedder="none")
    assert hits and hits[0].path == "memory/2023-05-08.md"
    assert seen and max(seen) <= bounds.MAX_QUERY_CHARS
    assert parsed and max(parsed) <= bounds.MAX_DATE_CHARS


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--since", "2026-02-30"),
        ("--until", "2026-13-01"),
        ("--since", "2026-5-1"),
        ("--until", "yesterday"),
        ("--since", "2026-05-01T10:00"),
        ("--since", "<script>" + "9" * 5000),
    ],
)
def test_the_cli_refuses_a_bad_since_or_until(
    root: Path, option: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from workmem.cli import main

    (root / "memory").mkdir()
    assert main(["search", "x", option, value]) == 2
    err = capsys.readouterr().err
    assert f"{option} takes a date YYYY-MM-DD, got" in err
    assert len(err) < 300  # a huge value is not echoed whole
    assert "Traceback" not in err


def test_the_cli_answers_a_60_kb_query(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from workmem.cli import main

    (root / "memory").mkdir()
    (root / "memory" / "2024-03-15.md").write_text(
        "# 2024-03-15\n\n### 10:00 Release\n\nShipped between March 3 and March 10.\n",
        encoding="utf-8",
    )
    assert main(["search", HUGE, "--since", "2024-01-01", "--until", "2024-12-31"]) == 0
    out = capsys.readouterr().out
    assert "2024-03-15" in out and "Shipped between March 3 and March 10." in out
