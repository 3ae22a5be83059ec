"""Which language a call writes in: the setting, else the user's words a hook or a trigger
phrase shows, else the system locale, else English; a bad setting is a clear error."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from workmem.cli import main
from workmem.demo_transcript import claude_code
from workmem.files.tables import TableDocument
from workmem.i18n import language_for, speaking
from workmem.root import Workspace

REQUEST_EN = "Add rate limiting to the login endpoint"
REQUEST_ZH = "請幫登入端點加上限流，每個 IP 每分鐘五次"


def chinese_transcript(path: Path, cwd: Path) -> Path:
    """The demo session, its request written in Traditional Chinese."""
    claude_code(path, cwd=str(cwd))
    path.write_text(path.read_text(encoding="utf-8").replace(REQUEST_EN, REQUEST_ZH))
    return path


def hook(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    event: str,
    payload: dict[str, object],
) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(payload)))
    assert main(["hook", event, "--platform", "claude-code"]) == 0
    out = capsys.readouterr().out
    if not out.strip():
        return ""
    answer = json.loads(out).get("hookSpecificOutput", {})
    return str(answer.get("additionalContext", ""))


def rows(root: Path) -> list[dict[str, str]]:
    return list(TableDocument.parse((root / "memory" / "index.md").read_text()).records())


def settings(root: Path, text: str) -> None:
    (root / "workmem.toml").write_text(text, encoding="utf-8")


def test_a_chinese_prompt_in_a_hook_makes_the_call_speak_chinese(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = chinese_transcript(tmp_path / "s.jsonl", root)
    base = {"session_id": "s-zh", "transcript_path": str(transcript), "cwd": str(root)}
    # No words yet and the C locale: the new row's placeholders are English.
    context = hook(capsys, monkeypatch, "SessionStart", {**base, "source": "startup"})
    sid = context.splitlines()[0].removeprefix("Your Memory Session ID is: ")
    assert [(r["Topic"], r["Summary"]) for r in rows(root)] == [
        ("Not set", "Registered when the session started; no topic yet.")
    ]
    # A Chinese prompt: the workflow it asks for answers in Chinese.
    said = hook(capsys, monkeypatch, "UserPromptSubmit", {**base, "prompt": "好，整理 memory 吧"})
    assert "[workmem: 整理 memory]" in said and "已整理 memory/index.md：" in said
    assert "Organized" not in said
    # A save reads the user's words from the transcript: the session's texts are Chinese.
    context = hook(capsys, monkeypatch, "SessionStart", {**base, "source": "startup"})
    sid = context.splitlines()[0].removeprefix("Your Memory Session ID is: ")
    hook(capsys, monkeypatch, "SessionEnd", {**base, "reason": "exit"})
    row = next(r for r in rows(root) if r["Session ID"] == sid)
    assert row["Topic"] == REQUEST_ZH  # the placeholder topic was filled in
    assert row["Summary"].startswith("處理：")  # the account, in the prompt's language
    snapshot = (root / "memory" / "sessions" / f"{sid}.md").read_text(encoding="utf-8")
    assert "自動保存 (2026-05-25 13:18): 處理：" in snapshot
    log = (root / "memory" / "2026-05-25.md").read_text(encoding="utf-8")
    assert f"Session {sid} 結束：" in log
    assert "- 上下文用量" in log and "- 進行中：" in log
    resumption = (root / "memory" / "resumption.md").read_text(encoding="utf-8")
    assert f"我在記憶 session {sid} 中工作。" in resumption


@pytest.mark.parametrize(
    ("name", "said", "unsaid"),
    [
        # the user wrote English: the save writes English, whatever the machine is set to
        ("ccviewer-agent-test-hash-123.jsonl", "Auto-saved (", "自動保存"),
        # the user only typed /init: nothing said, so the locale's language
        ("ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl", "自動保存 (", "Auto-saved"),
    ],
)
def test_a_real_transcript_under_a_chinese_locale(
    root: Path,
    fixtures: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    said: str,
    unsaid: str,
) -> None:
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    source = fixtures / "claude-code" / name
    base = {"session_id": "s-real", "transcript_path": str(source), "cwd": str(root)}
    context = hook(capsys, monkeypatch, "SessionStart", {**base, "source": "startup"})
    sid = context.splitlines()[0].removeprefix("Your Memory Session ID is: ")
    assert rows(root)[0]["Topic"] == "未設定"  # nothing said yet: the locale's language
    hook(capsys, monkeypatch, "PreCompact", {**base, "trigger": "auto"})
    snapshot = (root / "memory" / "sessions" / f"{sid}.md").read_text(encoding="utf-8")
    assert f"{said}2026-05-25 13:18): " in snapshot and unsaid not in snapshot


def test_the_locale_speaks_when_no_words_are_seen(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    base = {"session_id": "s-ja", "transcript_path": str(tmp_path / "none.jsonl"), "cwd": str(root)}
    hook(capsys, monkeypatch, "SessionStart", {**base, "source": "startup"})
    assert [(r["Topic"], r["Summary"]) for r in rows(root)] == [
        ("未設定", "セッション開始時に自動登録。トピックは未整理。")
    ]
    assert main(["session", "register"]) == 0  # a command sees no words: the locale too
    manual = [r for r in rows(root) if r["Status"] == "active"]
    assert manual[0]["Summary"] == "手動で登録し、セッションスナップショットを作成。"
    snapshot = next((root / "memory" / "sessions").glob("*.md")).read_text(encoding="utf-8")
    assert "## Decisions\n\nなし\n" in snapshot


def test_the_setting_overrides_the_prompt_and_the_locale(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    settings(root, '[workmem]\nlanguage = "ko"\n')
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    transcript = chinese_transcript(tmp_path / "s.jsonl", root)
    base = {"session_id": "s-ko", "transcript_path": str(transcript), "cwd": str(root)}
    hook(capsys, monkeypatch, "SessionStart", {**base, "source": "startup"})
    assert rows(root)[0]["Topic"] == "미설정"
    said = hook(capsys, monkeypatch, "UserPromptSubmit", {**base, "prompt": "整理 memory"})
    assert "memory/index.md를 정리했습니다:" in said


def test_a_top_level_language_beside_agent_name_is_read_too(root: Path) -> None:
    settings(root, 'agent_name = "cursor-main-agent"\nlanguage = "zh-CN"\n')
    assert language_for(Workspace(root)) == "zh-CN"
    with speaking("Please refactor the parser module"):
        assert language_for(Workspace(root)) == "zh-CN"


def test_auto_decides_once_per_call(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = Workspace(root)
    assert language_for(workspace) == "en"  # the C locale
    with speaking("請幫我看這個錯誤"):
        assert language_for(workspace) == "zh-TW"
        settings(root, '[workmem]\nlanguage = "ja"\n')  # changed mid-call: not read again
        assert language_for(workspace) == "zh-TW"
        with speaking("Please look at this error"):  # a workflow inside keeps the call's
            assert language_for(workspace) == "zh-TW"
    assert language_for(workspace) == "ja"
    with speaking(None), speaking("이 오류 좀 봐 줘"):
        # no words outside, words inside: the inner call speaks them (setting aside)
        settings(root, "")
        assert language_for(workspace) == "ko"


@pytest.mark.parametrize(
    "text",
    ['[workmem]\nlanguage = "fr"\n', 'language = "klingon"\n', "[workmem]\nlanguage = 3\n"],
)
def test_an_unknown_setting_stops_a_command_with_exit_2_naming_the_choices(
    root: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    settings(root, text)
    assert main(["session", "list"]) == 2
    err = capsys.readouterr().err
    assert "workmem.toml" in err and "is not a language workmem speaks" in err
    assert "auto, en, zh-TW, zh-CN, ja, ko" in err


def test_workmem_not_a_table_is_a_format_error(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings(root, 'workmem = "ja"\n')
    assert main(["session", "list"]) == 5
    assert "[workmem] must be a table" in capsys.readouterr().err


def test_a_hook_with_a_bad_setting_fails_open_and_logs_why(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    settings(root, '[workmem]\nlanguage = "fr"\n')
    base = {"session_id": "s", "transcript_path": str(tmp_path / "x.jsonl"), "cwd": str(root)}
    assert hook(capsys, monkeypatch, "UserPromptSubmit", {**base, "prompt": "整理 memory"}) == ""
    log = (root / "memory" / ".workmem" / "hook.log").read_text(encoding="utf-8")
    assert "is not a language workmem speaks" in log


def test_wrap_lang_takes_the_settings_values(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["wrap", "--lang", "fr"])
    assert stopped.value.code == 2
    assert "auto, en, zh-TW, zh-CN, ja, ko" in capsys.readouterr().err
