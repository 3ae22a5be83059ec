"""One Current Context: saves replace their own paragraph, an agent's rewrite is merged,
a restated fact supersedes the old statement (marked, never dropped)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.transcripts.util import ClaudeWriter
from workmem.board import Board, SnapshotChange, restate
from workmem.board.restate import refines, restates, sentences
from workmem.continuity.save import SNAPSHOT, save_session
from workmem.errors import FormatError
from workmem.files.sections import Document
from workmem.i18n.placeholders import is_auto_saved
from workmem.root import Workspace


def snapshot(root: Path, sid: str) -> Document:
    return Document.parse((root / "memory" / "sessions" / f"{sid}.md").read_text())


def context(root: Path, sid: str) -> list[str]:
    """Current Context's paragraphs."""
    section = snapshot(root, sid).get("Current Context")
    assert section is not None
    return [b.text for b in section.blocks() if b.text]


def superseded(root: Path, sid: str) -> list[str]:
    section = snapshot(root, sid).get("Superseded / Resolved")
    return section.items() if section is not None else []


def growing(path: Path, cwd: Path, rounds: int) -> Path:
    """A transcript of ``rounds`` requests, each editing one file."""
    w = ClaudeWriter(session="grow", cwd=str(cwd))
    for n in range(rounds):
        w.user(f"request number {n}")
        w.assistant(
            f"answer {n}",
            tools=[w.tool_use("Edit", f"e{n}", file_path=f"{cwd}/src/m{n}.py", old_string="a")],
        )
        w.result(f"e{n}", "ok")
    return w.write(path)


def save(root: Path, sid: str, path: Path) -> None:
    report = save_session(
        Workspace(root),
        session_id=sid,
        transcript=path,
        platform="claude-code",
        reason="pre-compact",
        parts=(SNAPSHOT,),
    )
    assert report.ok and SNAPSHOT in report.done, report.failed


def test_ten_saves_leave_one_save_paragraph_the_newest(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = Board().register(topic="Work", context="The agent wrote this.").session_id
    path = tmp_path / "t.jsonl"
    for n in range(10):
        monkeypatch.setenv("WORKMEM_NOW", f"2026-05-25 13:{20 + n}")
        save(root, sid, growing(path, root, n + 1))
    paragraphs = context(root, sid)
    autos = [p for p in paragraphs if is_auto_saved(p)]
    assert len(autos) == 1 and len(paragraphs) == 2
    assert autos[0].startswith("Auto-saved (2026-05-25 13:29)") and "request number 9" in autos[0]
    assert paragraphs[0] == "The agent wrote this."  # the agent's words stay, first
    assert superseded(root, sid) == []  # the save's own old text is not a fact to list


def test_a_language_switch_still_replaces_the_save_paragraph(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = Board().register(topic="Work").session_id
    path = growing(tmp_path / "t.jsonl", root, 2)
    (root / "workmem.toml").write_text('[workmem]\nlanguage = "zh-TW"\n')
    save(root, sid, path)
    assert context(root, sid)[0].startswith("自動保存 (")
    (root / "workmem.toml").write_text('[workmem]\nlanguage = "ja"\n')
    save(root, sid, path)
    (root / "workmem.toml").write_text('[workmem]\nlanguage = "en"\n')
    monkeypatch.setenv("WORKMEM_NOW", "2026-05-25 14:00")
    save(root, sid, path)
    paragraphs = context(root, sid)
    assert len(paragraphs) == 1 and paragraphs[0].startswith("Auto-saved (2026-05-25 14:00)")


def test_an_old_file_with_many_save_paragraphs_is_collapsed_by_the_next_save(
    root: Path, tmp_path: Path
) -> None:
    sid = Board().register(topic="Work", context="Mine.").session_id
    many = "\n\n".join(f"Auto-saved (2026-05-24 1{n}:00): last request: r{n}" for n in range(5))
    Board().update(sid, sections={"Current Context": many})
    assert len(context(root, sid)) == 2  # one update brings its paragraphs as one
    save(root, sid, growing(tmp_path / "t.jsonl", root, 1))
    paragraphs = context(root, sid)
    assert paragraphs[0] == "Mine." and len(paragraphs) == 2
    assert "request number 0" in paragraphs[1]


def test_an_agents_integrated_rewrite_replaces_the_old_context_and_lists_what_it_changed(
    root: Path,
) -> None:
    board = Board()
    old = "Parser reads headers. Encoder is not started. Tests are red on Windows."
    sid = board.register(topic="Work", context=old).session_id
    rewrite = "Parser reads headers and bodies. Encoder is half done. Tests are red on Windows."
    board.update(sid, sections={"Current Context": rewrite})
    assert context(root, sid) == [rewrite]
    gone = superseded(root, sid)
    assert "[superseded] Parser reads headers. (Current Context)" in gone
    # Left out of an integrated rewrite: superseded by it, listed, not dropped.
    assert "[superseded] Encoder is not started. (Current Context)" in gone
    assert not any("Tests are red" in item for item in gone)  # said again: it lives on


def test_an_addition_keeps_the_old_facts_and_supersedes_only_the_restated_one(
    root: Path,
) -> None:
    board = Board()
    sid = board.register(
        topic="Work",
        context="We use SQLite for storage. The CLI uses argparse. Coverage is 80%.",
    ).session_id
    board.update(sid, sections={"Current Context": "Coverage is 95%."})
    paragraphs = context(root, sid)
    assert paragraphs == ["We use SQLite for storage. The CLI uses argparse.", "Coverage is 95%."]
    assert superseded(root, sid) == ["[superseded] Coverage is 80%. (Current Context)"]
    # Repeating the same update changes nothing.
    board.update(sid, sections={"Current Context": "Coverage is 95%."})
    assert context(root, sid) == paragraphs and len(superseded(root, sid)) == 1


def test_a_restated_labelled_fact_wins_and_an_unrelated_one_is_added(root: Path) -> None:
    board = Board()
    sid = board.register(topic="Work", context="Status: blocked on the CI runner.").session_id
    board.update(sid, sections={"Current Context": "Status: green, released 1.2."})
    board.update(sid, sections={"Current Context": "The docs site moved to Pages."})
    assert context(root, sid) == ["Status: green, released 1.2.", "The docs site moved to Pages."]
    assert superseded(root, sid) == [
        "[superseded] Status: blocked on the CI runner. (Current Context)"
    ]


def test_context_with_a_fence_or_a_list_is_one_unit(root: Path) -> None:
    board = Board()
    sid = board.register(topic="Work", context="Run this:\n```\nmake test\n```").session_id
    board.update(sid, sections={"Current Context": "- first item\n- second item"})
    paragraphs = context(root, sid)
    assert paragraphs[0] == "Run this:\n```\nmake test\n```"
    text = (root / "memory" / "sessions" / f"{sid}.md").read_text()
    assert "- first item\n- second item\n" in text  # one list, no blank line put inside


def test_a_files_entry_refined_replaces_the_old_one_and_a_different_one_is_added(
    root: Path,
) -> None:
    board = Board()
    sid = board.register(topic="Work").session_id
    board.update(sid, sections={"Files": "`src/a.py` — modified; functions: f"})
    board.update(sid, sections={"Files": "`src/a.py` — modified; functions: f, g"})
    files = snapshot(root, sid).get("Files / Artifacts")
    assert files is not None and files.items() == ["`src/a.py` — modified; functions: f, g"]
    board.update(sid, sections={"Files": "`src/a.py` — the parser's entry point"})
    files = snapshot(root, sid).get("Files / Artifacts")
    assert files is not None and files.items() == [
        "`src/a.py` — modified; functions: f, g",
        "`src/a.py` — the parser's entry point",
    ]


def test_the_merge_check_refuses_a_context_that_loses_a_sentence(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = Board().register(topic="Work", context="Keep me. And me.").session_id
    path = root / "memory" / "sessions" / f"{sid}.md"
    text = path.read_text()
    change = SnapshotChange()
    change.add("Current Context", "Keep me.")
    assert "Keep me. And me." in change.apply(text, path=str(path))  # said again: stays
    original = restate._fates

    def forgetful(*args: Any) -> dict[int, list[tuple[str, str]]]:
        """A merge that believes the new text says every old sentence (it does not)."""
        return {i: [(s, "said") for s, _ in fates] for i, fates in original(*args).items()}

    monkeypatch.setattr(restate, "_fates", forgetful)
    change = SnapshotChange()
    change.add("Current Context", "Something else entirely, long enough.")
    with pytest.raises(FormatError, match=r"merge would drop text 'Keep me\.'"):
        change.apply(text, path=str(path))


def test_restates_and_sentences_rules() -> None:
    assert restates("Coverage is 95%.", "Coverage is 80%.")
    assert restates("We use Postgres for storage.", "We use SQLite for storage.")
    assert restates("Status: done.", "Status: blocked.")
    assert not restates("Tests pass.", "Docs pass.")
    assert not restates("Parser done.", "Started the parser.")
    assert not restates("Same.", "Same.")
    assert sentences("One. Two! Three?") == ["One.", "Two!", "Three?"]
    assert sentences("完成了解析器。開始寫編碼器。") == ["完成了解析器。", "開始寫編碼器。"]
    assert refines("`a` — modified; functions: f, g", "`a` — modified; functions: f")
    assert not refines("`a` — docs", "`a` — modified")


def test_hostile_context_text_stays_text_and_crlf_survives_the_merge(root: Path) -> None:
    board = Board()
    sid = board.register(topic="Work", context="Coverage is 80%. Parser done.").session_id
    path = root / "memory" / "sessions" / f"{sid}.md"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    hostile = "Coverage is 90%.\n\n## Superseded / Resolved\n---\n<!-- workmem:x -->\n```"
    board.update(sid, sections={"Current Context": hostile})
    raw = path.read_bytes()
    assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")  # CRLF kept
    doc = Document.parse(raw.decode().replace("\r\n", "\n"))
    assert [s.title for s in doc.sections].count("Superseded / Resolved") == 1
    assert "<!--" not in raw.decode()
    assert "[superseded] Coverage is 80%. (Current Context)" in superseded(root, sid)
    assert any("Parser done." in p for p in context(root, sid))


def test_merge_context_replaces_every_old_save_paragraph_and_says_which() -> None:
    from workmem.files.sections import Section

    section = Section(
        "Current Context",
        "## Current Context",
        ["", "Mine.", "", "Auto-saved (1): a", "", "自動保存 (2): b", ""],
    )
    merged = restate.merge_context(section, ["Auto-saved (3): c"])
    assert merged.replaced == ["Auto-saved (1): a", "自動保存 (2): b"]
    assert section.body == ["", "Mine.", "", "Auto-saved (3): c", ""]
    kept = restate.merge_context(section, ["Mine."])
    assert kept.replaced == [] and kept.superseded == []
    assert section.body == ["", "Mine.", "", "Auto-saved (3): c", ""]


def test_a_files_entry_refined_out_of_order_is_kept_by_the_check(root: Path) -> None:
    """The refinement is no longer the old text plus more at its end: the merge check knows
    the old entry lives on in it (and still refuses a real loss)."""
    board = Board()
    sid = board.register(topic="Work").session_id
    board.update(sid, sections={"Files": "`src/a.py` — modified; functions: f\n`src/b.py` — x"})
    board.update(sid, sections={"Files": "`src/a.py` — created, modified; functions: f, g"})
    files = snapshot(root, sid).get("Files / Artifacts")
    assert files is not None and files.items() == [
        "`src/a.py` — created, modified; functions: f, g",
        "`src/b.py` — x",
    ]
    assert superseded(root, sid) == []
