"""Questions that gather several answers: spread over sessions, heading matches at a floor."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest

from workmem.retrieval.gathering import SPREAD_DEPTH, asks_for_several, spread_over_files
from workmem.retrieval.ranking import Candidate, Weights
from workmem.retrieval.search import search
from workmem.root import Workspace


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def log(day: str, *entries: tuple[str, str]) -> str:
    return f"# {day}\n\n" + "".join(f"### {title}\n\n{body}\n\n" for title, body in entries)


@pytest.fixture
def ws(root: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    monkeypatch.setenv("WORKMEM_EMBEDDER", "none")
    return Workspace(root)


@pytest.mark.parametrize(
    "question",
    [
        "What pets does Nate have?",
        "Which cities has Jon visited?",
        "What board games has Nate played?",
        "How many times has Joanna found new hiking trails?",
        "What do Jon and Gina both have in common?",
        "What are Joanna's hobbies?",
        "Have we ever changed the parser?",
    ],
)
def test_questions_asking_for_several_things(question: str) -> None:
    assert asks_for_several(question)


@pytest.mark.parametrize(
    "question",
    [
        "What did Caroline research?",
        "When did Nate get Tilly for Joanna?",
        "What is Joanna allergic to?",
        "which database did we decide on?",
        "What does Melanie do to destress?",
        "我們上週決定了哪些事？",
        "",
    ],
)
def test_questions_asking_for_one_fact(question: str) -> None:
    assert not asks_for_several(question)


def test_hostile_questions_are_read_in_linear_time() -> None:
    # A long run of letters ending in s, the plural pattern's worst case, and markup.
    for text in ("what " + "s" * 200_000, "### |" * 50_000, "what " + "ab " * 80_000):
        started = time.perf_counter()
        assert not asks_for_several(text)
        # generous on a busy machine (1.2 s seen at load 13): what it guards against,
        # backtracking over 200,000 characters, takes minutes
        assert time.perf_counter() - started < 10.0
    assert asks_for_several("| how many | rows |")


def candidate(chunk: int, path: str, score: float) -> Candidate:
    return Candidate(chunk, "daily", path, None, None, score=score)


def test_spreading_reorders_only_the_head_and_loses_nothing() -> None:
    ranked = [candidate(i, "a.md" if i < 20 else f"{i}.md", 100.0 - i) for i in range(40)]
    spread = spread_over_files(ranked, 0.15)
    assert sorted(c.chunk for c in spread) == list(range(40))
    assert all(c.score == 100.0 - c.chunk for c in spread)  # scores untouched: the order
    # changes. The second entry of a.md (99 - one step of 0.15 * 100 = 84) still beats the
    # best of another file (80); a third (98 - 30 = 68) no longer does, nor the ten others
    # of the head (80 .. 71), each file once.
    assert [c.chunk for c in spread[:13]] == [0, 1, *range(20, 30), 2]
    assert spread[SPREAD_DEPTH:] == ranked[SPREAD_DEPTH:]


def test_spreading_degenerate_inputs() -> None:
    assert spread_over_files([], 0.15) == []
    one = [candidate(1, "a.md", 0.0)]
    assert spread_over_files(one, 0.15) == one
    zeros = [candidate(i, "a.md", 0.0) for i in range(3)]
    assert [c.chunk for c in spread_over_files(zeros, 0.15)] == [0, 1, 2]
    ranked = [candidate(i, f"{i % 2}.md", 10.0 - i) for i in range(6)]
    assert spread_over_files(ranked, 0.0) == ranked


def _pets_memory(ws: Workspace) -> None:
    # One session talks about the turtles at length; the dog is in another session.
    write(
        ws.memory_dir / "2026-03-02.md",
        log(
            "2026-03-02",
            ("Nate [D1:1]", "My pets are two turtles, pets that need little care."),
            ("Nate [D1:2]", "The turtles are the calmest pets; they eat lettuce."),
            ("Nate [D1:3]", "Turtles make good pets when you have little room."),
        ),
    )
    write(
        ws.memory_dir / "2026-04-10.md",
        log(
            "2026-04-10",
            ("Nate [D2:1]", "A new pet joined the family: a dog named Max."),
            ("Joanna [D2:2]", "I bought a new notebook for the screenplay."),
        ),
    )


def test_a_question_for_several_things_reaches_another_session(ws: Workspace) -> None:
    _pets_memory(ws)
    question = "What pets does Nate have?"
    before = search(ws, question, k=2, weights=replace(Weights(), spread=0.0))
    after = search(ws, question, k=2)
    assert [h.path for h in before] == ["memory/2026-03-02.md"] * 2  # the turtles only
    assert {h.path for h in after} == {"memory/2026-03-02.md", "memory/2026-04-10.md"}
    assert "Max" in after[1].text


def test_a_one_fact_question_keeps_its_order(ws: Workspace) -> None:
    _pets_memory(ws)
    question = "What do Nate's pets eat?"
    assert not asks_for_several(question)
    plain = search(ws, question, k=5, weights=replace(Weights(), spread=0.0))
    assert [h.id for h in search(ws, question, k=5)] == [h.id for h in plain]


def test_a_heading_match_counts_however_long_the_question(ws: Workspace) -> None:
    filler = [
        (f"Joanna [D1:{i}]", f"Note {i}: the weather, lunch, a walk, a film.") for i in range(12)
    ]
    write(ws.memory_dir / "2026-04-01.md", log("2026-04-01", *filler))
    write(
        ws.memory_dir / "2026-05-01.md",
        log("2026-05-01", ("Nate [D3:1]", "Played Catan at home.")),
    )
    write(
        ws.memory_dir / "2026-05-03.md",
        log(
            "2026-05-03",
            ("Joanna [D4:1]", "Nate said board games at home are fun, and chess is played a lot."),
        ),
    )
    question = "What board games has Nate played at home with friends recently?"
    off = replace(Weights(), title_floor=0.0, spread=0.0)
    # Nate's heading is one word of seven: at its bare share, Joanna's entry, which holds
    # more of the words, wins; counted at the floor, the entry Nate wrote does.
    assert search(ws, question, k=1, weights=off)[0].title == "Joanna [D4:1]"
    on = replace(Weights(), title_floor=0.75, spread=0.0)
    assert search(ws, question, k=1, weights=on)[0].title == "Nate [D3:1]"


def test_the_floor_lifts_heading_matches_only() -> None:
    from workmem.retrieval.ranking import fuse

    def scores(floor: float) -> dict[int, float]:
        found = [
            Candidate(1, "daily", "a.md", None, None, lexical=1.0, title=0.0),
            Candidate(2, "daily", "b.md", None, None, lexical=1.0, title=0.1),
            Candidate(3, "daily", "c.md", None, None, lexical=1.0, title=1.0),
        ]
        weights = replace(Weights(), title_floor=floor, group=0.0)
        return {c.chunk: c.score for c in fuse(found, weights)}

    assert scores(0.0) == {1: 1.0, 2: pytest.approx(1.2), 3: 3.0}
    assert scores(0.75) == {1: 1.0, 2: 2.5, 3: 3.0}


def test_a_time_the_question_names_outweighs_the_default_heading_floor(ws: Workspace) -> None:
    # In a year of memory headings name topics: a long question naming a time must still
    # bring that time's decision first, though a later entry's heading holds its topic.
    write(
        ws.memory_dir / "2026-01-15.md",
        log("2026-01-15", ("Session 0900", "Decided: recursive descent for the parser.")),
    )
    write(
        ws.memory_dir / "2026-06-10.md",
        log("2026-06-10", ("parser", "Decided: keep the parser table driven for now.")),
    )
    question = "what did we decide about the parser in January 2026?"
    assert search(ws, question, k=1)[0].path == "memory/2026-01-15.md"
    floor = replace(Weights(), title_floor=0.75)
    assert search(ws, question, k=1, weights=floor)[0].path == "memory/2026-06-10.md"
