"""The natural-question benchmark: its question file, its scoring, and a memory built
through the hooks and the CLI (a small one of our own; the real one needs ../shared)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.errors import FormatError
from workmem.retrieval.bench_questions import (
    Answer,
    Asked,
    Question,
    load,
    rank_of,
    run,
    summarize,
)
from workmem.retrieval.hits import make_hit

REPO = Path(__file__).resolve().parents[2]

SPEC = """
asked_at = "2026-05-26 10:00"

[[session]]
name = "own-session.jsonl"
start = "2026-05-25 09:00"

[[write]]
at = "2026-05-25 11:00"
args = ["note", "decision", "Chose SQLite over Postgres — single-user app"]

[[question]]
text = "which database did we choose"
part = "tune"
about = "decision"
lang = "en"
answers = [{contains = "Chose SQLite over Postgres"}]

[[question]]
text = "what did we do yesterday"
part = "held"
about = "day"
lang = "en"
answers = [{date = "2026-05-25"}]

[[question]]
text = "where is the login rate limiter"
part = "held"
about = "file"
lang = "en"
answers = [{contains = "src/auth/limit.py"}]

[[question]]
text = "which queue did we pick"
part = "held"
about = "decision"
lang = "en"
answers = [{contains = "Chose RabbitMQ over Kafka"}]
"""


def hit(text: str, kind: str = "daily", day: str | None = "2026-05-25", title: str = "T") -> object:
    row = (1, "c", kind, "memory/x.md", 1, 1, day, None, title, text, 3, title)
    return make_hit(row, 1.0, [])


def test_an_answer_matches_by_text_kind_and_date() -> None:
    answer = Answer("chose  SQLITE over", ("daily",), "2026-05-25")
    assert answer.matches("We chose SQLite over Postgres", "T", "daily", "2026-05-25")
    assert not answer.matches("We chose SQLite over Postgres", "T", "notes", "2026-05-25")
    assert not answer.matches("We chose SQLite over Postgres", "T", "daily", "2026-05-24")
    assert Answer(None, (), "2026-05-25").matches("anything", "T", "board", "2026-05-25")
    assert Answer("Decisions").matches("text", "Decisions · Session 1", "daily", None)


def test_the_rank_is_that_of_the_first_answering_hit() -> None:
    question = Question("q", "tune", "decision", "en", (Answer("SQLite"), Answer("sqlite3")))
    hits = [hit("nothing"), hit("the sqlite3 module"), hit("SQLite it is")]
    assert rank_of(question, hits) == 2
    assert rank_of(question, [hit("nothing")]) == 0


def test_the_report_counts_by_part_and_lists_only_tuning_misses() -> None:
    def asked(part: str, rank: int, text: str) -> Asked:
        return Asked(Question(text, part, "decision", "en", (Answer("x"),)), rank, 5.0, 4.0)

    report = summarize(
        [asked("tune", 1, "a"), asked("tune", 7, "b"), asked("held", 3, "c"), asked("held", 0, "d")]
    )
    assert report["tune"]["hit@1"] == 0.5 and report["tune"]["hit@5"] == 0.5
    assert report["held"]["hit@1"] == 0.0 and report["held"]["hit@5"] == 0.5
    assert report["all"]["hit@10"] == 0.75
    assert [miss["question"] for miss in report["tune_misses"]] == ["b"]  # never a held one
    assert report["tune"]["not_in_memory"] == 0 and report["tune_misses"][0]["in_memory"]


def test_a_question_no_entry_answers_is_counted_apart() -> None:
    def asked(rank: int, answerable: bool) -> Asked:
        question = Question(str(rank), "held", "decision", "en", (Answer("x"),))
        return Asked(question, rank, 5.0, 4.0, answerable=answerable)

    report = summarize([asked(1, True), asked(0, True), asked(0, False), asked(0, False)])
    assert report["held"]["hit@5"] == 0.25 and report["held"]["not_in_memory"] == 2
    assert report["held"]["answerable_hit@5"] == 0.5


@pytest.mark.parametrize(
    "text, problem",
    [
        ("not toml = [", "cannot read"),
        ('asked_at = "x"\n[[session]]\nname = "a"\nstart = "b"\n', "needs"),
        (SPEC.replace('part = "tune"', 'part = "train"'), "tune or held"),
        (SPEC.replace('answers = [{date = "2026-05-25"}]', "answers = [{}]"), "text or a date"),
    ],
)
def test_a_bad_question_file_is_a_format_error_saying_what_is_wrong(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "q.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=problem):
        load(path)


def test_the_shipped_question_file_is_complete_and_split(tmp_path: Path) -> None:
    spec = load(REPO / "bench" / "natural_questions.toml")
    parts = [q.part for q in spec.questions]
    assert len(parts) >= 60 and parts.count("tune") >= 30 and parts.count("held") >= 30
    assert {q.lang for q in spec.questions} == {"en", "zh"}
    assert len({q.text for q in spec.questions}) == len(spec.questions)


def test_a_memory_built_through_the_hooks_and_the_cli_answers_its_questions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.demo_transcript import claude_code

    data = tmp_path / "data"
    (data / "claude-code").mkdir(parents=True)
    claude_code(data / "claude-code" / "own-session.jsonl")
    spec_path = tmp_path / "q.toml"
    spec_path.write_text(SPEC, encoding="utf-8")
    monkeypatch.delenv("WORKMEM_ROOT", raising=False)
    report = run(load(spec_path), data, tmp_path / "memory" / "project", embedders=["none"])
    lexical = report["none"]
    assert lexical["all"]["questions"] == 4
    assert lexical["all"]["hit@5"] == 0.75, lexical  # the queue was never written down
    assert lexical["held"]["not_in_memory"] == 1 and lexical["all"]["answerable_hit@5"] == 1.0
    assert (tmp_path / "memory" / "project" / "memory" / "2026-05-25.md").is_file()
