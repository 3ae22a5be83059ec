"""Running hooks in-process as an agent would, with the memory's clock and the files' times
kept in step (a session's transcript was last written when the clock says)."""

from __future__ import annotations

import io
import json
import os
import sys
from datetime import datetime
from pathlib import Path

import pytest

from workmem.cli import main


def hook(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    event: str,
    payload: dict[str, str],
    platform: str = "claude-code",
    *,
    at: str | None = None,
) -> str:
    """The hook's stdout; ``at`` (``YYYY-MM-DD HH:MM``) pins the clock for this call and
    dates the transcript's last write to it."""
    if at is not None:
        monkeypatch.setenv("WORKMEM_NOW", at)
        touch(payload.get("transcript_path"), at)
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(payload)))
    assert main(["hook", event, "--platform", platform]) == 0
    return capsys.readouterr().out


def touch(path: str | Path | None, at: str) -> None:
    """Set a file's modification time to ``at`` (local time), when the file exists."""
    if not path or not Path(path).is_file():
        return
    stamp = datetime.strptime(at, "%Y-%m-%d %H:%M").timestamp()
    os.utime(path, (stamp, stamp))


def context_of(out: str, platform: str = "claude-code") -> str:
    if not out.strip():
        return ""
    data = json.loads(out)
    if platform in ("claude-code", "codex", "gemini"):
        specific = data.get("hookSpecificOutput") or {}
        return str(specific.get("additionalContext") or "")
    if platform == "openclaw":
        return str(data.get("context") or "")
    return str(data.get("additional_context") or data.get("additionalContext") or "")


def sid_of(context: str) -> str:
    return context.splitlines()[0].removeprefix("Your Memory Session ID is: ")
