"""Hook configuration for five platforms: merged, idempotent, removable, others kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from workmem.errors import FormatError
from workmem.files.store import Store
from workmem.hooks.events import PLATFORM_EVENTS, PLATFORMS, canonical_event
from workmem.hooks.install import codex_feature, install
from workmem.root import Workspace

CMD = "/opt/wm/bin/workmem"


def _store(root: Path) -> Store:
    return Store(Workspace(root))


@pytest.mark.parametrize("platform", [p for p in PLATFORMS if p != "openclaw"])
def test_install_twice_adds_once_and_uninstall_removes_only_ours(
    tmp_path: Path, platform: str
) -> None:
    project, home = tmp_path / "proj", tmp_path / "home"
    store = _store(project)
    first = install(store, platform, project=project, home=home, command=CMD)
    assert sorted(first.added) == sorted(PLATFORM_EVENTS[platform])
    path = Path(first.files[0])
    text = path.read_text()
    second = install(store, platform, project=project, home=home, command=CMD)
    assert second.unchanged and second.added == []
    assert path.read_text() == text
    data = json.loads(text)
    for event in PLATFORM_EVENTS[platform]:
        entries = data["hooks"][event]
        assert len(entries) == 1
        assert f"hook {event} --platform {platform}" in json.dumps(entries)
    removed = install(store, platform, project=project, home=home, command=CMD, remove=True)
    assert sorted(removed.removed) == sorted(PLATFORM_EVENTS[platform])
    assert json.loads(path.read_text())["hooks"] == {}


def test_claude_settings_keep_other_hooks_byte_for_byte(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    original: dict[str, Any] = {
        "permissions": {"allow": ["Bash(npm test)"]},
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}]}
            ],
            "SessionStart": [{"hooks": [{"type": "command", "command": "echo 你好"}]}],
        },
    }
    text = json.dumps(original, indent=2, ensure_ascii=False) + "\n"
    settings.write_text(text)
    install(_store(project), "claude-code", project=project, home=tmp_path, command=CMD)
    merged = settings.read_text()
    for line in json.dumps(original["hooks"]["PreToolUse"], indent=2).splitlines()[1:-1]:
        assert line in merged
    data = json.loads(merged)
    assert data["permissions"] == original["permissions"]
    assert data["hooks"]["PreToolUse"] == original["hooks"]["PreToolUse"]
    assert data["hooks"]["SessionStart"][0] == original["hooks"]["SessionStart"][0]
    assert len(data["hooks"]["SessionStart"]) == 2
    install(_store(project), "claude-code", project=project, home=tmp_path, remove=True)
    assert settings.read_text() == text


def test_four_space_indent_is_kept(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    path = project / ".cursor" / "hooks.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"version": 1, "hooks": {"stop": [{"command": "x"}]}}, indent=4))
    install(_store(project), "cursor", project=project, home=tmp_path, command=CMD)
    assert '\n    "version": 1' in path.read_text()
    assert json.loads(path.read_text())["hooks"]["stop"][0] == {"command": "x"}


def test_gemini_uses_milliseconds_and_enables_hooks(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    install(_store(project), "gemini", project=project, home=tmp_path, command=CMD)
    data = json.loads((project / ".gemini" / "settings.json").read_text())
    hook = data["hooks"]["PreCompress"][0]["hooks"][0]
    assert hook["timeout"] == 30_000
    assert data["hooksConfig"]["enabled"] is True


def test_codex_needs_no_feature_flag_and_the_deprecated_key_is_renamed(tmp_path: Path) -> None:
    # The feature key is `hooks`, on by default; `codex_hooks` is a deprecated alias.
    assert codex_feature(None) is None
    assert codex_feature('model = "o3"\n') is None
    old = 'model = "o3"\n\n[features]\ncodex_hooks = true\nweb_search = true\n'
    assert codex_feature(old) == 'model = "o3"\n\n[features]\nhooks = true\nweb_search = true\n'
    both = "[features]\nhooks = true\ncodex_hooks = true\n"
    assert codex_feature(both) == "[features]\nhooks = true\n"
    project = tmp_path / "proj"
    install(_store(project), "codex", project=project, home=tmp_path, command=CMD)
    assert not (project / ".codex" / "config.toml").exists()
    (project / ".codex" / "config.toml").write_text(old)
    install(_store(project), "codex", project=project, home=tmp_path, command=CMD)
    assert "codex_hooks" not in (project / ".codex" / "config.toml").read_text()


def test_user_scope_writes_under_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    report = install(
        _store(tmp_path), "claude-code", scope="user", project=tmp_path, home=home, command=CMD
    )
    assert report.files == [str(home / ".claude" / "settings.json")]


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    report = install(
        _store(project), "claude-code", project=project, home=tmp_path, dry_run=True, command=CMD
    )
    assert report.added and not (project / ".claude").exists()
    assert "SessionStart" in next(iter(report.preview.values()))


def test_broken_settings_are_refused_untouched(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    path = project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"hooks": {,}')
    with pytest.raises(FormatError, match="not valid JSON"):
        install(_store(project), "claude-code", project=project, home=tmp_path, command=CMD)
    assert path.read_text() == '{"hooks": {,}'


def test_openclaw_hook_folder(tmp_path: Path) -> None:
    project = tmp_path / "ws"
    report = install(_store(project), "openclaw", project=project, home=tmp_path, command=CMD)
    folder = project / "hooks" / "workmem"
    assert sorted(p.name for p in folder.iterdir()) == ["HOOK.md", "handler.ts"]
    assert '"agent:bootstrap"' in (folder / "HOOK.md").read_text()
    assert f'"{CMD}"' in (folder / "handler.ts").read_text()
    assert report.added
    again = install(_store(project), "openclaw", project=project, home=tmp_path, command=CMD)
    assert again.unchanged
    install(_store(project), "openclaw", project=project, home=tmp_path, remove=True)
    assert not folder.exists()


@pytest.mark.parametrize(
    "name, platform, expected",
    [
        ("SessionStart", "claude-code", "session-start"),
        ("session-start", "claude-code", "session-start"),
        ("user_prompt_submit", "codex", "user-prompt-submit"),
        ("beforeSubmitPrompt", "cursor", "user-prompt-submit"),
        ("PreCompress", "gemini", "pre-compact"),
        ("AfterAgent", "gemini", "stop"),
        ("agent:bootstrap", "openclaw", "session-start"),
        ("command:new", "openclaw", "session-end"),
    ],
)
def test_event_names(name: str, platform: str, expected: str) -> None:
    assert canonical_event(name, platform) == expected
