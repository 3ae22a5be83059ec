"""Boards written in any language, or several, are read the same way: every reader knows
every language's placeholders (the board model, organize, archive, session list and
doctor, a save, search and the loader, the snapshot merge, the resume)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.model import BoardRow
from workmem.cli import main
from workmem.continuity.resume import build_resume_context
from workmem.continuity.save import SNAPSHOT, save_session
from workmem.demo_transcript import claude_code
from workmem.files.tables import TableDocument
from workmem.i18n import LANGUAGES, placeholders
from workmem.journal.loader import MemoryLoader
from workmem.retrieval.search import search
from workmem.root import Workspace

#: one board per language, and one mixing them all
BOARDS = [pytest.param([lang], id=lang) for lang in LANGUAGES]
BOARDS.append(pytest.param(list(LANGUAGES), id="mixed"))


def _agent(language: str) -> str:
    return f"{language.lower()}-agent"


def _speak(root: Path, language: str) -> None:
    (root / "workmem.toml").write_text(f'[workmem]\nlanguage = "{language}"\n', encoding="utf-8")


def write_board(root: Path, languages: list[str]) -> dict[str, tuple[str, str]]:
    """For each language, an idle row from a session start and an active row registered
    by hand with nothing to say (its snapshot holds the template's hint); -> language:
    (idle ID, active ID). Written the way workmem writes them, setting by setting."""
    ids = {}
    for language in languages:
        _speak(root, language)
        board = Board(root)
        idle = board.start(agent_name=_agent(language)).session_id
        active = board.register(agent_name=_agent(language)).session_id
        ids[language] = (idle, active)
    (root / "workmem.toml").unlink()
    return ids


def rows(root: Path) -> dict[str, dict[str, str]]:
    doc = TableDocument.parse((root / "memory" / "index.md").read_text(encoding="utf-8"))
    return {r["Session ID"]: r for r in doc.records()}


@pytest.mark.parametrize("languages", BOARDS)
def test_the_board_holds_each_languages_texts(root: Path, languages: list[str]) -> None:
    ids = write_board(root, languages)
    on_board = rows(root)
    for language, (idle, active) in ids.items():
        assert on_board[idle]["Topic"] == placeholders.TOPIC[language]
        assert on_board[idle]["Summary"] == placeholders.START_SUMMARY[language]
        assert on_board[active]["Summary"] == placeholders.MANUAL_SUMMARY[language]
        snapshot = (root / "memory" / "sessions" / f"{active}.md").read_text(encoding="utf-8")
        assert placeholders.CONTEXT_HINT[language] in snapshot
        assert f"## Decisions\n\n{placeholders.NONE[language]}\n" in snapshot


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_row_model_knows_every_placeholder(language: str) -> None:
    def row(topic: str, summary: str, status: str = "idle") -> BoardRow:
        values = ["2026-05-25-1318-a", "a", topic, summary, "k", status, "-", "t", "t"]
        return BoardRow.from_values(values)

    topic, start = placeholders.TOPIC[language], placeholders.START_SUMMARY[language]
    manual = placeholders.MANUAL_SUMMARY[language]
    assert row(topic, start).is_placeholder and not row(topic, start).has_content
    assert not row(f" {topic} ", manual).has_content  # spacing aside
    assert row("Rate limiting", start).has_content
    assert row(topic, "Chose SQLite").has_meaningful_summary
    assert not row(topic, start, "active").is_placeholder


@pytest.mark.parametrize("languages", BOARDS)
def test_organize_deletes_every_idle_placeholder_row(
    root: Path, languages: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = write_board(root, languages)
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 18:00")  # hours later: none is running
    report = Board(root).organize()
    assert sorted(report.deleted_idle) == sorted(idle for idle, _ in ids.values())
    assert sorted(report.kept_active) == sorted(active for _, active in ids.values())


@pytest.mark.parametrize("languages", BOARDS)
def test_rows_with_only_default_texts_are_never_archived_as_content(
    root: Path, languages: list[str]
) -> None:
    ids = write_board(root, languages)
    # Each language's idle placeholder, archived by hand: nothing to keep, so deleted.
    for idle, _ in ids.values():
        assert Board(root).archive(idle).action == "delete"
    assert not (root / "memory" / "archive").exists()
    # Stale rows past retention with only default texts and no snapshot: left for a person.
    text = (root / "memory" / "index.md").read_text(encoding="utf-8")
    for _, active in ids.values():
        (root / "memory" / "sessions" / f"{active}.md").unlink()
        line = next(x for x in text.splitlines() if x.startswith(f"| {active} |"))
        old = line.replace("| active |", "| stale |").replace(
            "2026-05-25 13:18", "2026-01-01 09:00"
        )
        text = text.replace(line, old)
    (root / "memory" / "index.md").write_text(text, encoding="utf-8")
    report = Board(root).organize(archive_after_days=30)
    assert sorted(report.inconsistent) == sorted(active for _, active in ids.values())
    assert not report.archived


def test_session_list_and_doctor_put_placeholders_last_in_any_language(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = write_board(root, list(LANGUAGES))
    Board(root).update(ids["ja"][0], topic="認証の実装", status="active")
    listed = [row.session_id for row in Board(root).list()]
    actives = {active for _, active in ids.values()} | {ids["ja"][0]}
    assert set(listed[: len(actives)]) == actives  # every idle placeholder comes after
    assert main(["doctor"]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_save_fills_in_a_placeholder_topic_of_any_language(
    root: Path, tmp_path: Path, language: str
) -> None:
    ids = write_board(root, [language])
    idle, _ = ids[language]
    transcript = claude_code(tmp_path / "t.jsonl", cwd=str(root))
    report = save_session(
        Workspace(root),
        session_id=idle,
        transcript=transcript,
        platform="claude-code",
        reason="test",
        parts=(SNAPSHOT,),
    )
    assert report.ok, report.failed
    row = rows(root)[idle]
    assert row["Topic"] == "Add rate limiting to the login endpoint"
    assert not placeholders.is_summary(row["Summary"])  # the state replaced the default


@pytest.mark.parametrize("languages", BOARDS)
def test_search_and_the_loader_never_return_a_placeholder(root: Path, languages: list[str]) -> None:
    ids = write_board(root, languages)
    board = Board(root)
    for language, (idle, _) in ids.items():
        # An archived row with a real summary keeps its placeholder topic in the archive.
        board.update(idle, summary=f"Quokka cache for {language}", status="active")
        board.archive(idle)
    workspace = Workspace(root)
    for language in languages:
        for text in (
            placeholders.TOPIC[language],
            placeholders.START_SUMMARY[language],
            placeholders.MANUAL_SUMMARY[language],
            placeholders.CONTEXT_HINT[language],
        ):
            for hit in search(workspace, text, k=20):
                assert text not in hit.text, (language, text, hit.path)
        found = MemoryLoader(root).phase_4_search(f"Quokka cache for {language}", budget_tokens=400)
        assert f"Quokka cache for {language}" in found.text
        assert placeholders.TOPIC[language] not in found.text
    # The rows themselves are still found by what they do say.
    hits = search(workspace, _agent(languages[0]), k=20)
    assert any(hit.path == "memory/index.md" for hit in hits)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_snapshots_hint_and_none_give_way_to_content_in_any_language(
    root: Path, language: str
) -> None:
    ids = write_board(root, [language])
    _, active = ids[language]
    Board(root).update(
        active, sections={"Current Context": "Wired the limiter", "Decisions": "Use Redis"}
    )
    text = (root / "memory" / "sessions" / f"{active}.md").read_text(encoding="utf-8")
    assert "Wired the limiter" in text and placeholders.CONTEXT_HINT[language] not in text
    assert "## Decisions\n\n- Use Redis\n" in text


def test_a_snapshot_mixing_every_languages_hint_merges(root: Path) -> None:
    ids = write_board(root, ["en"])
    _, active = ids["en"]
    path = root / "memory" / "sessions" / f"{active}.md"
    hints = "\n\n".join(placeholders.CONTEXT_HINT.values())
    nones = "\n".join(f"- {word}" for word in placeholders.NONE.values())
    text = path.read_text(encoding="utf-8")
    text = text.replace(placeholders.CONTEXT_HINT["en"], hints)
    text = text.replace("## Next Actions\n\nNone\n", f"## Next Actions\n\n{nones}\n")
    path.write_text(text, encoding="utf-8")
    Board(root).update(active, sections={"Current Context": "Wired it", "Next Actions": "Ship"})
    merged = path.read_text(encoding="utf-8")
    assert all(hint not in merged for hint in placeholders.CONTEXT_HINT.values())
    assert "## Next Actions\n\n- Ship\n" in merged


def test_the_resume_skips_what_saves_wrote_in_any_language(root: Path) -> None:
    ids = write_board(root, ["en"])
    _, active = ids["en"]
    path = root / "memory" / "sessions" / f"{active}.md"
    saved = "\n\n".join(
        f"{word} (2026-05-25 13:00): last request: step {n}"
        for n, word in enumerate(placeholders.AUTO_SAVED.values())
    )
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        placeholders.CONTEXT_HINT["en"],
        f"{placeholders.CONTEXT_HINT['ko']}\n\nThe limiter waits on the Redis decision.\n\n{saved}",
    )
    path.write_text(text, encoding="utf-8")
    resumed = build_resume_context(Workspace(root), session_id=active, transcript=None)
    assert "The limiter waits on the Redis decision." in resumed.text
    assert "last request: step" not in resumed.text
    assert placeholders.CONTEXT_HINT["ko"] not in resumed.text
