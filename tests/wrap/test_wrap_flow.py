"""The wrap-up over a real git repository: Steps 1-8, checkpoint, nothing new, publish."""

from __future__ import annotations

import json
import subprocess
from datetime import datetime
from pathlib import Path

import pytest

from workmem.facts.memory_md import read_tiers
from workmem.facts.write import MemoryInput
from workmem.root import Workspace
from workmem.wrap.confirm import render
from workmem.wrap.gather import clean_remote, gather_state
from workmem.wrap.publish import BEGIN, END
from workmem.wrap.run import pick_language, wrap

NOW = datetime(2026, 5, 25, 13, 18)
TOKEN = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(root: Path) -> Path:
    _git(root, "init", "-q", "-b", "main")
    (root / "pyproject.toml").write_text("[project]\nname='x'\n")
    (root / "AGENTS.md").write_text("# Rules\n\n- run tests\n")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "first commit")
    _git(root, "remote", "add", "origin", f"https://bob:{TOKEN}@github.com/x/y.git")
    (root / "new.txt").write_text("x")
    return root


def _items(*extra: dict[str, str]) -> list[MemoryInput]:
    base = [
        {
            "type": "project",
            "topic": "myapp",
            "description": "v2.1 完成，auth 重構進行中",
            "content": "## Status\n\nv2.1 已發佈，auth 重構在 feat/auth。",
        },
        {
            "type": "feedback",
            "topic": "testing",
            "description": "整合測試用 real DB",
            "content": "整合測試需要真實資料庫，不要用 mock。",
        },
    ]
    return [MemoryInput.from_mapping(d) for d in [*base, *extra]]


def test_gather_state(repo: Path) -> None:
    state = gather_state(Workspace(repo))
    assert state.is_git and state.branch == "main"
    assert state.recent_commits[0].endswith("first commit")
    assert "?? new.txt" in state.status
    assert all(TOKEN not in r and "bob" not in r for r in state.remotes)
    assert state.remotes[0].startswith("origin\thttps://github.com/x/y.git")
    assert "pyproject.toml" in state.artifacts
    assert clean_remote("o\tssh://git@host/x (fetch)") == "o\tssh://host/x (fetch)"


def test_gather_without_git(root: Path) -> None:
    (root / "notes.txt").write_text("x")
    state = gather_state(Workspace(root))
    assert not state.is_git
    assert any(line.endswith("notes.txt") for line in state.listing)


def test_full_wrap_in_chinese(repo: Path, tmp_path: Path) -> None:
    report = wrap(Workspace(repo), _items(), now=NOW, home=tmp_path / "home", platform="codex")
    assert report.language == "zh-TW"
    assert [s.action for s in report.saved] == ["created", "created"]
    text = render(report)
    lines = text.splitlines()
    assert lines[0] == "記憶已更新："
    assert lines[1] == "| 檔案 | 動作 | 內容 |"
    assert "| project_myapp.md | 新增 | v2.1 完成，auth 重構進行中 |" in lines
    assert "| feedback_testing.md | 新增 | 整合測試用 real DB |" in lines
    assert "維護: 壓縮 0 檔 | 過期 0 檔 | 合併 0 檔" in lines
    assert "平台: Codex (OpenAI) | 記憶路徑: memory/ + MEMORY.md" in lines
    assert "啟動指令: 已加入 AGENTS.md" in lines
    assert lines[-1] == "下次開新對話會自動載入這些上下文。"
    assert lines[-2].startswith("首次使用：已建立 MEMORY.md")
    memory = read_tiers((repo / "MEMORY.md").read_text())
    assert "(memory/project_myapp.md)" in memory.active["Project"]
    assert "(memory/feedback_testing.md)" in memory.active["Feedback"]
    agents = (repo / "AGENTS.md").read_text()
    assert agents.startswith("# Rules\n\n- run tests\n") and "Auto-Memory (session-wrap)" in agents
    data = report.to_dict()
    assert data["nothing_new"] is False and data["state"]["branch"] == "main"
    json.dumps(data)  # serialisable for --json


def test_second_wrap_updates_and_english_table(repo: Path, tmp_path: Path) -> None:
    wrap(Workspace(repo), _items(), now=NOW, home=tmp_path, platform="codex")
    update = MemoryInput.from_mapping(
        {
            "type": "project",
            "topic": "MyApp",  # same topic, other spelling: updates project_myapp.md
            "description": "v2.2 released",
            "content": "## Status\n\nv2.2 released, auth merged.",
            "reason": "checked git log",
        }
    )
    report = wrap(Workspace(repo), [update], now=NOW, home=tmp_path, platform="codex", lang="en")
    assert [(s.filename, s.action) for s in report.saved] == [("project_myapp.md", "updated")]
    assert not (repo / "memory" / "project_MyApp.md").exists()
    text = render(report)
    assert text.splitlines()[0] == "Memory updated:"
    assert "| project_myapp.md | updated | v2.2 released |" in text
    assert "Maintenance: compressed 0 | stale 0 | merged 0" in text
    assert "First wrap-up here" not in text  # only the first time
    body = (repo / "memory" / "project_myapp.md").read_text()
    assert "> Updated 2026-05-25: checked git log" in body
    assert "v2.1 已發佈" in body  # kept under History
    assert report.bootstrap is not None and report.bootstrap.status == "present"


def test_nothing_to_save_touches_nothing(repo: Path, tmp_path: Path) -> None:
    before = sorted(p.name for p in repo.iterdir())
    report = wrap(Workspace(repo), [], now=NOW, home=tmp_path, platform="codex", lang="zh")
    assert report.nothing_new
    assert render(report) == "本次 session 沒有需要持久化的新資訊"
    assert sorted(p.name for p in repo.iterdir()) == before
    assert (repo / "AGENTS.md").read_text() == "# Rules\n\n- run tests\n"
    english = wrap(Workspace(repo), [], now=NOW, home=tmp_path, platform="codex", lang="en")
    assert render(english) == "Nothing new to persist from this session."


def test_same_memories_again_is_nothing_new(repo: Path, tmp_path: Path) -> None:
    wrap(Workspace(repo), _items(), now=NOW, home=tmp_path, platform="codex")
    snapshot = (repo / "MEMORY.md").read_bytes()
    report = wrap(Workspace(repo), _items(), now=NOW, home=tmp_path, platform="codex")
    assert report.nothing_new
    assert (repo / "MEMORY.md").read_bytes() == snapshot


def test_checkpoint_mode(repo: Path, tmp_path: Path) -> None:
    long_item = {
        "type": "reference",
        "topic": "apis",
        "description": "API list",
        "content": "\n".join(f"- api {i}" for i in range(70)),
    }
    report = wrap(
        Workspace(repo),
        _items(long_item),
        now=NOW,
        home=tmp_path,
        platform="codex",
        checkpoint=True,
        lang="zh",
    )
    assert report.maintenance is None  # Step 5 skipped: the 70-line file is not compressed
    assert len((repo / "memory" / "reference_apis.md").read_text().splitlines()) > 70
    body = (repo / "memory" / "project_myapp.md").read_text()
    assert "> Checkpoint: 2026-05-25 13:18 (mid-session save)" in body
    text = render(report)
    assert text.splitlines()[0] == "記憶檢查點已保存（2026-05-25 13:18，mid-session save）："
    assert "維護: 檢查點模式，略過" in text
    assert "(memory/reference_apis.md)" in (repo / "MEMORY.md").read_text()
    # A later checkpoint replaces the line rather than adding one.
    later = datetime(2026, 5, 25, 15, 0)
    wrap(Workspace(repo), _items(), now=later, home=tmp_path, platform="codex", checkpoint=True)
    body = (repo / "memory" / "project_myapp.md").read_text()
    assert body.count("> Checkpoint:") == 1 and "2026-05-25 15:00" in body


def test_secrets_redacted_and_reported(repo: Path, tmp_path: Path) -> None:
    secret = {
        "type": "reference",
        "topic": "deploy",
        "description": "deploy notes",
        "content": f"Deploy with token {TOKEN} from CI.",
    }
    report = wrap(Workspace(repo), [MemoryInput.from_mapping(secret)], now=NOW, home=tmp_path)
    assert report.redactions >= 1
    assert TOKEN not in (repo / "memory" / "reference_deploy.md").read_text()
    assert f"Secrets redacted: {report.redactions}" in render(report)


def test_publish_to_claude_code_native_path(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    report = wrap(
        Workspace(repo),
        _items(),
        now=NOW,
        home=home,
        platform="claude-code",
        publish_to_platform=True,
    )
    assert report.bootstrap is not None and report.bootstrap.status == "skipped"
    target = report.platform.memory_path
    assert target.parent.parent == home / ".claude" / "projects"
    assert (target / "project_myapp.md").read_bytes() == (
        repo / "memory" / "project_myapp.md"
    ).read_bytes()
    index = (target / "MEMORY.md").read_text()
    assert "- [myapp](project_myapp.md) — v2.1 完成" in index
    assert BEGIN in index and END in index
    assert report.published is not None and "MEMORY.md" in report.published.written


def test_publish_never_clobbers_their_edits(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    kw = {"now": NOW, "home": home, "platform": "claude-code", "publish_to_platform": True}
    first = wrap(Workspace(repo), _items(), **kw)  # type: ignore[arg-type]
    target = first.platform.memory_path
    index = target / "MEMORY.md"
    index.write_text("# My own notes\n\n- keep me\n\n" + index.read_text())
    (target / "feedback_testing.md").write_text("edited by Claude itself\n")
    update = {
        "type": "feedback",
        "topic": "testing",
        "description": "tests",
        "content": "Use the docker DB.",
    }
    second = wrap(Workspace(repo), [MemoryInput.from_mapping(update)], **kw)  # type: ignore[arg-type]
    assert second.published is not None
    assert ("feedback_testing.md", "changed there since the last publish") in (
        second.published.skipped
    )
    assert (target / "feedback_testing.md").read_text() == "edited by Claude itself\n"
    text = index.read_text()
    assert text.startswith("# My own notes\n\n- keep me\n")
    assert text.count(BEGIN) == 1
    assert "Not mirrored feedback_testing.md" in render(second)


def test_language_choice() -> None:
    english = [MemoryInput.from_mapping({"type": "user", "topic": "t", "content": "Prefers TDD"})]
    assert pick_language(english, None) == "en"
    assert pick_language(_items(), None) == "zh-TW"
    assert pick_language(_items(), "en") == "en"


def test_ten_or_more_memory_files_are_warned_about(root: Path) -> None:
    """Seed 000: "3-5 memory files is typical, 10+ is too many"."""
    items = [
        MemoryInput.from_mapping(
            {"type": "project", "topic": f"area {n}", "description": f"d{n}", "content": f"c{n}"}
        )
        for n in range(9)
    ]
    report = wrap(Workspace(root), items, now=NOW, gather=False, run_bootstrap=False, lang="en")
    assert report.memory_files == 9 and not report.too_many
    assert "10 or more is too many" not in render(report)
    more = [MemoryInput.from_mapping({"type": "user", "topic": "style", "content": "terse"})]
    report = wrap(Workspace(root), more, now=NOW, gather=False, run_bootstrap=False, lang="en")
    assert report.memory_files == 10 and report.too_many
    assert "Warning: 10 memory files; 3-5 is typical and 10 or more is too many" in render(report)
    assert report.to_dict()["too_many_files"] is True


def test_commit_lists_and_api_signatures_are_flagged(root: Path) -> None:
    items = [
        MemoryInput.from_mapping(
            {
                "type": "project",
                "topic": "history",
                "content": "- a1b2c3d Fix the retry budget\n- 9f8e7d6 Add the limiter\n"
                "- 0c1d2e3 Bump dependencies\n",
            }
        ),
        MemoryInput.from_mapping(
            {
                "type": "reference",
                "topic": "api",
                "content": "`save(path: str, data: bytes) -> None` writes atomically and "
                "`load(path: str) -> bytes` reads it back.",
            }
        ),
        MemoryInput.from_mapping(
            {"type": "feedback", "topic": "db", "content": "Integration tests need a real DB."}
        ),
    ]
    report = wrap(Workspace(root), items, now=NOW, gather=False, run_bootstrap=False, lang="en")
    kinds = {(w.file, w.kind) for w in report.warnings}
    assert kinds == {
        ("project_history.md", "commit-history"),
        ("reference_api.md", "api-signatures"),
    }
    text = render(report)
    assert "commit history belongs to git log" in text and "API signatures" in text
    with pytest.raises(Exception, match="refused"):
        wrap(Workspace(root), items, now=NOW, gather=False, run_bootstrap=False, strict=True)


def test_a_memory_whose_write_fails_is_given_back_whole(root: Path) -> None:
    """Seed 000: an agent that cannot write outputs the memory as text; nothing is lost."""
    blocked = root / "memory" / "feedback_testing.md"
    blocked.mkdir(parents=True)  # a folder where the file must go: the write fails
    secret = "ghp_" + "0123456789abcdefghijklmnopqrstuvwxyzAB"
    items = [
        MemoryInput.from_mapping(
            {
                "type": "feedback",
                "topic": "testing",
                "description": "integration tests",
                "content": f"Use a real DB.\n\n```\nmake db-test TOKEN={secret}\n```",
            }
        ),
        MemoryInput.from_mapping({"type": "user", "topic": "style", "content": "terse replies"}),
    ]
    report = wrap(Workspace(root), items, now=NOW, gather=False, run_bootstrap=False, lang="en")
    assert [u.filename for u in report.unsaved] == ["feedback_testing.md"]
    assert [s.filename for s in report.saved] == ["user_style.md"]  # the other one is saved
    given = report.unsaved[0].text
    assert "Use a real DB." in given and "make db-test" in given
    assert "type: feedback" in given and "description: integration tests" in given
    assert secret not in given  # redacted like a write would be
    text = render(report)
    assert "Could not save feedback_testing.md" in text and "Nothing is lost" in text
    assert "````markdown" in text  # a longer fence than the one inside
    assert report.to_dict()["ok"] is False


def test_the_cli_exits_non_zero_and_prints_the_text_when_a_write_fails(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    from workmem.cli import main

    (root / "memory" / "project_app.md").mkdir(parents=True)
    payload = [{"type": "project", "topic": "app", "description": "v2", "content": "v2 shipped"}]
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(payload)))
    assert main(["wrap", "--no-bootstrap", "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert "Could not save project_app.md" in out and "v2 shipped" in out


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "lists commits: commit history belongs to git log"),
        ("zh-TW", "列出 commit：commit 歷史請看 git log"),
        ("ja", "コミットを列挙しています"),
        ("ko", "커밋을 나열합니다"),
    ],
)
def test_anti_pattern_warnings_speak_the_readers_language(root: Path, lang: str, said: str) -> None:
    item = MemoryInput.from_mapping(
        {
            "type": "project",
            "topic": "history",
            "content": "- a1b2c3d Fix retry\n- 9f8e7d6 Add limiter\n- 0c1d2e3 Bump deps\n",
        }
    )
    report = wrap(Workspace(root), [item], now=NOW, gather=False, run_bootstrap=False, lang=lang)
    assert "project_history.md" in render(report) and said in render(report)
