"""Every writer of text a user reads takes it from the catalogue, in the language decided:
the wrap-up's table, the workflows' confirmations, the relay's notes, a save's account."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.cli import main
from workmem.continuity.save import state_text
from workmem.demo_transcript import claude_code
from workmem.dispatch import RunContext, run_intent
from workmem.i18n import LANGUAGES, text
from workmem.phrases import detect
from workmem.relay.template import SnapshotNotes
from workmem.relay.workflows import snapshot
from workmem.relay.zones import critical_footer, zone_for, zone_message
from workmem.root import Workspace
from workmem.transcripts.read import read_transcript

MEMORY = (
    '[{"type": "feedback", "topic": "tests", "description": "real DB", '
    '"content": "Integration tests need a real DB."}]'
)
CHINESE_MEMORY = (
    '[{"type": "feedback", "topic": "testing", "description": "整合測試用 real DB", '
    '"content": "整合測試需要真實資料庫，不要用 mock。"}]'
)


def _speak(root: Path, language: str) -> None:
    (root / "workmem.toml").write_text(f'[workmem]\nlanguage = "{language}"\n', encoding="utf-8")


def _wrap(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    home: Path,
    memories: str,
    *flags: str,
) -> list[str]:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO(memories))
    argv = ["wrap", "--platform", "codex", "--home", str(home), "--no-bootstrap", *flags]
    assert main(argv) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_wrap_table_speaks_the_setting(
    root: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    language: str,
) -> None:
    _speak(root, language)
    lines = _wrap(capsys, monkeypatch, tmp_path, MEMORY)
    assert lines[0] == text(language, "wrap.title")
    head = [text(language, f"wrap.{k}") for k in ("file", "action", "content")]
    assert lines[1] == f"| {' | '.join(head)} |"
    assert f"| feedback_tests.md | {text(language, 'wrap.created')} | real DB |" in lines
    assert lines[-1] == text(language, "wrap.next")


def test_wrap_lang_overrides_the_setting_and_auto_reads_the_memories(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _speak(root, "ja")
    lines = _wrap(capsys, monkeypatch, tmp_path, MEMORY, "--lang", "en")
    assert lines[0] == "Memory updated:"
    lines = _wrap(capsys, monkeypatch, tmp_path, CHINESE_MEMORY, "--lang", "auto")
    assert lines[0] == "記憶已更新："  # no user words seen: the memories' own words
    lines = _wrap(capsys, monkeypatch, tmp_path, "[]", "--lang", "zh")  # the old spelling
    assert lines == ["本次 session 沒有需要持久化的新資訊"]
    lines = _wrap(capsys, monkeypatch, tmp_path, "[]")
    assert lines == ["このセッションには保存すべき新しい情報はありません"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_workflow_confirmations_speak_the_setting(root: Path, language: str) -> None:
    _speak(root, language)
    intent = detect("organize memory")
    assert intent is not None
    result = run_intent(intent, RunContext(Workspace(root), "claude-code"))
    assert result.ok
    none = text(language, "flow.none")
    assert result.text.splitlines() == [
        text(language, "flow.organized"),
        text(language, "flow.deleted_idle", ids=none),
        text(language, "flow.marked_stale", ids=none),
        text(language, "flow.kept_active", ids=none),
        text(language, "flow.protected", ids=none),
    ]


@pytest.mark.parametrize(
    ("phrase", "head"),
    [
        ("收工", "收工：已自動保存："),
        ("收工了", "收工：已自動保存："),
        ("今日はここまで", "終了処理: 自動保存しました:"),
        ("오늘은 여기까지", "마무리: 자동 저장했습니다:"),
        ("wrap up", "Wrap-up: saved automatically:"),
    ],
)
def test_a_trigger_phrase_answers_in_its_own_language(
    root: Path, monkeypatch: pytest.MonkeyPatch, phrase: str, head: str
) -> None:
    monkeypatch.setenv("LANG", "ko_KR.UTF-8")  # the phrase's words come before the locale
    intent = detect(phrase)
    assert intent is not None and intent.workflow == "wrap"
    result = run_intent(intent, RunContext(Workspace(root), "claude-code"))
    assert result.text.startswith(head)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_relay_notes_speak_the_setting(root: Path, tmp_path: Path, language: str) -> None:
    _speak(root, language)
    transcript = claude_code(tmp_path / "t.jsonl", cwd=str(root))
    result = snapshot(
        Workspace(root), SnapshotNotes(), transcript=transcript, platform="claude-code", force=True
    )
    assert result.written and result.daily_log is not None
    log = result.daily_log.read_text(encoding="utf-8")
    assert "### Session Relay Auto-Save (13:18)" in log  # the heading is the seed's marker
    assert text(language, "relay.context_at", pct="") in log
    assert text(language, "relay.active", text="") in log


def test_the_relay_warning_and_the_zone_announcements() -> None:
    assert critical_footer(91.4, "zh-CN") == (
        "---\n⚠️ 上下文 91%，建议 /compact 或 /new 开新会话。当前进度已自动保存。"
    )
    assert "⚠️ 上下文 91%，建議 /compact 或 /new 開新會話。" in critical_footer(91.4, "zh-TW")
    assert critical_footer(91.4).startswith("---\n⚠️ Context at 91%")
    checkpoint = zone_message(zone_for(52, "wrap"), "zh-TW")
    assert checkpoint.endswith('Tell the user: "上下文已過半，先存個記憶檢查點。"')
    full = zone_message(zone_for(78, "wrap"), "ja")
    assert "コンテキストがもうすぐいっぱいです" in full
    assert zone_message(zone_for(30, "wrap"), "ja") == zone_for(30, "wrap").message


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_saves_account_of_the_session(tmp_path: Path, language: str) -> None:
    transcript = read_transcript(claude_code(tmp_path / "t.jsonl"), "claude-code")
    said = state_text(transcript, language)
    request = "Add rate limiting to the login endpoint"
    # No plan and no closing words: what was worked on, then what the transcript shows
    # came of it (the tests it ran), in the user's language.
    assert said.startswith(text(language, "account.worked_on", text=request))
    assert text(language, "account.tests_passed", figures=" (3 passed)") in said
