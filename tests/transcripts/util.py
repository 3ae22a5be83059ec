"""Helpers for the transcript, relay and notes tests: writing transcripts, running the CLI."""

from __future__ import annotations

import argparse
import importlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from workmem.cli import common_options
from workmem.cli.output import run_handler


def write_jsonl(path: Path, records: list[dict[str, Any]], tail: bytes = b"") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = b"".join(json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in records)
    path.write_bytes(data + tail)
    return path


def claude_project(home: Path, workspace: Path) -> Path:
    """The folder where Claude Code keeps this workspace's transcripts under ``home``."""
    folder = home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(workspace))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def run_cli(capsys: pytest.CaptureFixture[str], module: str, *argv: str) -> tuple[int, str, str]:
    """Run one command module's parser the way ``workmem`` would, before it is registered."""
    common = common_options()
    parser = argparse.ArgumentParser(prog="workmem", parents=[common])
    importlib.import_module(module).register(parser.add_subparsers(), common)
    args = parser.parse_args(list(argv))
    code = run_handler(args.handler, args)
    out, err = capsys.readouterr()
    return code, out, err


class ClaudeWriter:
    """Builds a Claude Code transcript record by record, chaining ``parentUuid``."""

    def __init__(self, session: str = "sess-1", cwd: str = "/work/proj"):
        self.session = session
        self.cwd = cwd
        self.records: list[dict[str, Any]] = []
        self.last: str | None = None
        self.counter = 0
        self.minute = 0

    def _base(self, kind: str, parent: str | None = "auto") -> dict[str, Any]:
        self.counter += 1
        self.minute += 1
        uid = f"u{self.counter}"
        record = {
            "type": kind,
            "uuid": uid,
            "parentUuid": self.last if parent == "auto" else parent,
            "isSidechain": False,
            "sessionId": self.session,
            "cwd": self.cwd,
            "gitBranch": "main",
            "timestamp": f"2026-05-25T10:{self.minute:02d}:00.000Z",
        }
        self.last = uid
        return record

    def user(self, text: str, parent: str | None = "auto", **extra: Any) -> str:
        record = self._base("user", parent)
        record["message"] = {"role": "user", "content": text}
        record.update(extra)
        self.records.append(record)
        return str(record["uuid"])

    def assistant(
        self,
        text: str = "",
        *,
        tools: list[dict[str, Any]] | None = None,
        msg_id: str | None = None,
        usage: dict[str, int] | None = None,
        model: str = "claude-sonnet-4-5-20250929",
        parent: str | None = "auto",
    ) -> str:
        record = self._base("assistant", parent)
        content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        content += tools or []
        record["requestId"] = f"req-{msg_id or record['uuid']}"
        record["message"] = {
            "id": msg_id or f"msg-{record['uuid']}",
            "role": "assistant",
            "model": model,
            "content": content,
            "usage": usage
            or {
                "input_tokens": 10,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
                "output_tokens": 5,
            },
        }
        self.records.append(record)
        return str(record["uuid"])

    def tool_use(self, name: str, tool_id: str, **tool_input: Any) -> dict[str, Any]:
        return {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}

    def result(self, tool_id: str, output: str, is_error: bool = False, detail: Any = None) -> str:
        """A tool's answer; ``detail`` is Claude Code's structured ``toolUseResult``."""
        record = self._base("user")
        if detail is not None:
            record["toolUseResult"] = detail
        record["message"] = {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": tool_id,
                    "content": output,
                    "is_error": is_error,
                }
            ],
        }
        self.records.append(record)
        return str(record["uuid"])

    def write(self, path: Path) -> Path:
        return write_jsonl(path, self.records)
