"""What the conversation says in so many words: how the code works, lessons, results, and
keywords from a topic (the session notes design's sections the hooks cannot see)."""

from __future__ import annotations

from pathlib import Path

from workmem.transcripts.facts import FileTouch, TranscriptFacts
from workmem.transcripts.model import Message, Transcript
from workmem.transcripts.statements import (
    codebase_notes,
    key_results,
    learnings,
    sentences,
    topic_keywords,
)


def chat(*turns: tuple[str, str]) -> Transcript:
    messages = [Message(role=role, text=text) for role, text in turns]
    return Transcript(platform="claude-code", path=Path("t.jsonl"), messages=messages)


def test_codebase_notes_are_the_agents_explanations_of_named_code() -> None:
    transcript = chat(
        ("user", "how does saving work?"),
        (
            "assistant",
            "`Store.update` takes the file's lock, re-reads it and replaces it atomically. "
            "I'll add a test for it now. The retry helper lives in src/http/retry.py and "
            "wraps every request.\n\n```python\ndef update(): ...\n```",
        ),
        ("assistant", "Let me check `save_session` next."),
    )
    notes = codebase_notes(transcript)
    assert notes == [
        "`Store.update` takes the file's lock, re-reads it and replaces it atomically.",
        "The retry helper lives in src/http/retry.py and wraps every request.",
    ]


def test_learnings_are_lessons_and_the_users_standing_rules() -> None:
    transcript = chat(
        ("user", "Always run the linter before committing. Can you fix the build?"),
        (
            "assistant",
            "It turns out the CI runners have no IPv6, so the test server binds 127.0.0.1.",
        ),
        ("assistant", "The build is green again."),
        ("user", "以後都用 pnpm，不要用 npm"),
        ("user", "never mind, what is next?"),
    )
    assert learnings(transcript) == [
        "User: Always run the linter before committing.",
        "It turns out the CI runners have no IPv6, so the test server binds 127.0.0.1.",
        "User: 以後都用 pnpm，不要用 npm",
    ]


def test_key_results_are_tables_figures_and_answers_not_any_sentence() -> None:
    table = "| run | p95 |\n|---|---|\n| before | 210 ms |\n| after | 40 ms |"
    transcript = chat(
        ("user", "Speed up the search"),
        ("assistant", f"I'll look into the parser now.\n\n{table}\n\nAll 212 tests passed."),
        ("user", "Which database do we use for sessions?"),
        ("assistant", "Redis, with a 15-minute TTL.\n\nIt is configured in settings.py."),
        ("user", "thanks"),
        ("assistant", "You're welcome, anything else?"),
    )
    results = key_results(transcript)
    assert table in results
    assert "All 212 tests passed." in results
    assert "Q: Which database do we use for sessions?\nA: Redis, with a 15-minute TTL." in results
    assert not any("I'll look into the parser" in r or "welcome" in r for r in results)


def test_topic_keywords_are_its_phrases_and_the_files_worked_on() -> None:
    facts = TranscriptFacts(
        files=[
            FileTouch("src/auth/limit.py", edits=3),
            FileTouch("README.md", reads=2),
            FileTouch("tests/test_limit.py", edits=1),
        ]
    )
    assert topic_keywords("Add rate limiting to the login endpoint", facts) == [
        "rate limiting",
        "login endpoint",
        "limit.py",
        "test_limit.py",
    ]
    assert topic_keywords("幫我修登入頁面的 bug") == ["幫我修登入頁面的 bug"]
    assert topic_keywords("") == []


def test_sentences_leave_code_and_tables_out() -> None:
    text = "First point here.\n```\nnot prose at all\n```\n| a | b |\n- Second point, listed."
    assert sentences(text) == ["First point here.", "Second point, listed."]
