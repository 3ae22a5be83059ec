"""Where each agent keeps a session's transcript under a HOME, and what a new one holds.

The benchmarks replay recorded sessions in a fresh HOME; the hooks (and whatever workmem
discovers on its own, such as the other sessions of a project) must find each transcript
exactly where the platform itself would have written it:

- claude-code: ``~/.claude/projects/<project path, non-alphanumerics as ->/<id>.jsonl``
- codex: ``~/.codex/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDTHH-MM-SS-<id>.jsonl``
- gemini: ``~/.gemini/tmp/<sha256 of the project path>/chats/session-<time>-<id8>.json[l]``
- cursor: ``~/.cursor/projects/<project path as dashes>/agent-transcripts/<id>/<id>.jsonl``
- openclaw: ``~/.openclaw/agents/<agent>/sessions/<id>.jsonl``

A recorded session was made in another folder: its own path is replaced by the replay's
project wherever the file names it, so the session reads as made in this project.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .truth import Recording

#: the platforms workmem has hooks for (``hooks.events.PLATFORMS``), in report order
TARGETS = ("claude-code", "codex", "gemini", "cursor", "openclaw")
OPENCLAW_AGENT = "main"
_NON_ALNUM = re.compile(r"[^A-Za-z0-9]")


def _local(moment: float | None) -> datetime:
    return datetime.fromtimestamp(moment) if moment is not None else datetime(2026, 1, 1)


def transcript_path(
    platform: str,
    home: Path,
    root: Path,
    session_id: str,
    started: float | None,
    *,
    json_doc: bool = False,
) -> Path:
    """Where ``platform`` keeps session ``session_id`` of project ``root``."""
    when = _local(started)
    if platform == "codex":
        folder = home / ".codex" / "sessions" / when.strftime("%Y/%m/%d")
        return folder / f"rollout-{when.strftime('%Y-%m-%dT%H-%M-%S')}-{session_id}.jsonl"
    if platform == "gemini":
        project = hashlib.sha256(str(root).encode()).hexdigest()
        name = f"session-{when.strftime('%Y-%m-%dT%H-%M')}-{session_id[:8]}"
        suffix = ".json" if json_doc else ".jsonl"
        return home / ".gemini" / "tmp" / project / "chats" / (name + suffix)
    if platform == "cursor":
        folder = home / ".cursor" / "projects" / _NON_ALNUM.sub("-", str(root)).strip("-")
        return folder / "agent-transcripts" / session_id / f"{session_id}.jsonl"
    if platform == "openclaw":
        return home / ".openclaw" / "agents" / OPENCLAW_AGENT / "sessions" / f"{session_id}.jsonl"
    return home / ".claude" / "projects" / _NON_ALNUM.sub("-", str(root)) / f"{session_id}.jsonl"


class Placed:
    """A recording as it sits in the replay's HOME: its path, and its prefix at any cut."""

    def __init__(self, rec: Recording, home: Path, root: Path) -> None:
        self.rec = rec
        self.path = transcript_path(
            rec.platform,
            home,
            root,
            rec.session_id,
            rec.time_at(0),
            json_doc=rec.layout == "json",
        )
        self._old = rec.cwd.encode() if rec.cwd and len(rec.cwd) > 1 else None
        self._new = str(root).encode()
        self._project = self.path.parent.parent.name if rec.platform == "gemini" else None

    def _moved(self, data: bytes) -> bytes:
        return data.replace(self._old, self._new) if self._old else data

    def write(self, line: int, moment: float | None) -> Path:
        """The transcript as it was once unit ``line`` was written; its mtime says when."""
        import os

        self.path.parent.mkdir(parents=True, exist_ok=True)
        fields = {"projectHash": self._project} if self._project else None
        data = self._moved(self.rec.prefix(line, fields))
        if self._project and self.rec.layout == "jsonl":
            data = _gemini_project(data, self._project)
        self.path.write_bytes(data)
        if moment is not None:
            os.utime(self.path, (moment, moment))
        return self.path


def _gemini_project(data: bytes, project: str) -> bytes:
    first, _, rest = data.partition(b"\n")
    try:
        head = json.loads(first)
    except ValueError:
        return data
    if isinstance(head, dict) and "projectHash" in head:
        head["projectHash"] = project
        return json.dumps(head, ensure_ascii=False).encode() + b"\n" + rest
    return data


def _iso(moment: float) -> str:

    return datetime.fromtimestamp(moment, UTC).isoformat().replace("+00:00", "Z")


def new_session(platform: str, path: Path, session_id: str, root: Path, moment: float) -> None:
    """A session that has just started: what ``platform`` has written by its first hook."""
    import os

    path.parent.mkdir(parents=True, exist_ok=True)
    records: list[dict[str, Any]] = []
    if platform == "codex":
        meta = {"id": session_id, "timestamp": _iso(moment), "cwd": str(root)}
        meta.update(originator="codex_cli_rs", source="cli")
        records.append({"timestamp": _iso(moment), "type": "session_meta", "payload": meta})
    elif platform == "gemini":
        project = path.parent.parent.name
        records.append(
            {
                "sessionId": session_id,
                "projectHash": project,
                "startTime": _iso(moment),
                "lastUpdated": _iso(moment),
                "kind": "main",
            }
        )
    elif platform == "openclaw":
        records.append(
            {
                "type": "session",
                "version": 3,
                "id": session_id,
                "timestamp": _iso(moment),
                "cwd": str(root),
            }
        )
    path.write_bytes(b"".join(json.dumps(r).encode() + b"\n" for r in records))
    os.utime(path, (moment, moment))


def add_prompt(
    platform: str, path: Path, session_id: str, root: Path, text: str, moment: float
) -> None:
    """The person's first message, as ``platform`` writes it into its transcript."""
    import os

    stamp = _iso(moment)
    record: dict[str, Any]
    lines: list[dict[str, Any]]
    if platform == "codex":
        lines = [
            {
                "timestamp": stamp,
                "type": "event_msg",
                "payload": {"type": "user_message", "message": text},
            },
            {
                "timestamp": stamp,
                "type": "response_item",
                "payload": {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": text}],
                },
            },
        ]
    elif platform == "gemini":
        record = {"id": f"{session_id}-u1", "timestamp": stamp, "type": "user"}
        record["content"] = [{"text": text}]
        lines = [record, {"$set": {"lastUpdated": stamp}}]
    elif platform == "cursor":
        query = f"<user_query>\n{text}\n</user_query>"
        lines = [{"role": "user", "message": {"content": [{"type": "text", "text": query}]}}]
    elif platform == "openclaw":
        body: dict[str, Any] = {"role": "user", "content": [{"type": "text", "text": text}]}
        body["timestamp"] = int(moment * 1000)
        lines = [
            {"type": "message", "id": "u1", "parentId": None, "timestamp": stamp, "message": body}
        ]
    else:
        lines = [
            {
                "type": "user",
                "uuid": f"{session_id}-u1",
                "parentUuid": None,
                "isSidechain": False,
                "sessionId": session_id,
                "cwd": str(root),
                "timestamp": stamp,
                "message": {"role": "user", "content": text},
            }
        ]
    with path.open("ab") as handle:
        for line in lines:
            handle.write(json.dumps(line, ensure_ascii=False).encode() + b"\n")
    os.utime(path, (moment, moment))
