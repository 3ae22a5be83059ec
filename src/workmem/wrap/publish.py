"""``wrap --publish``: mirror the typed memories to the platform's own memory path.

DESIGN.md keeps memories in ``memory/``; a platform with auto-memory (Claude Code loads
``~/.claude/projects/<encoded cwd>/memory/MEMORY.md``) only sees them when they are also
there. The mirror writes the typed files next to an index block in that folder's
MEMORY.md. The platform may keep its own notes in the same place, so:

* the index goes between ``<!-- workmem:begin -->`` / ``<!-- workmem:end -->`` markers and
  the rest of that MEMORY.md is left as it is;
* a typed file is overwritten only when it is new or still exactly what we published last
  time (hashes kept in ``memory/.workmem/published.json``); a file changed there since is
  reported and left alone.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from ..errors import FormatError, WriteError
from ..facts.index import index_line, section_of
from ..facts.typed import TYPES, TypedMemory, list_memories
from ..files.store import Store

BEGIN = "<!-- workmem:begin (written by `workmem wrap --publish`; edits here are replaced) -->"
END = "<!-- workmem:end -->"
MANIFEST = "published.json"


@dataclass
class PublishReport:
    target: str
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "written": self.written,
            "unchanged": self.unchanged,
            "skipped": [{"file": f, "reason": r} for f, r in self.skipped],
        }


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def index_block(memories: list[TypedMemory], today: date) -> str:
    """Seed 000's "Memory Index" layout, links relative to the mirror folder."""
    lines = [BEGIN]
    for kind in TYPES:
        group = [m for m in memories if m.type == kind]
        if not group:
            continue
        lines.extend(["", f"## {section_of(kind)}"])
        lines.extend(index_line(m, today, prefix="") for m in group)
    lines.extend(["", END])
    return "\n".join(lines) + "\n"


def _with_block(current: str | None, block: str, path: str) -> str:
    if current is None or not current.strip():
        return "# Memory Index\n\n" + block
    start, end = current.find(BEGIN[:20]), current.find(END)
    if start != -1 and end != -1 and end > start:
        return current[:start] + block.rstrip("\n") + current[end + len(END) :]
    if (start == -1) != (end == -1):
        raise FormatError(
            "has only one of the workmem:begin / workmem:end markers; fix it by hand", path=path
        )
    return current.rstrip("\n") + "\n\n" + block


def _load_manifest(store: Store) -> dict[str, str]:
    path = store.workspace.state_dir / MANIFEST
    current = store.read_text(path)
    if current is None:
        return {}
    try:
        data = json.loads(current[0])
    except json.JSONDecodeError:
        return {}  # derived state: a broken manifest only makes us more careful
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def publish(store: Store, target: Path, today: date) -> PublishReport:
    """Mirror typed memories and the index block into ``target``; verified file by file."""
    report = PublishReport(str(target))
    manifest = _load_manifest(store)
    memories = list_memories(store).memories
    target.mkdir(parents=True, exist_ok=True)
    for memory in memories:
        destination = target / memory.filename
        data = store.read_bytes(memory.path) or b""
        key = str(destination)
        with store.lock(destination):
            existing = store.read_bytes(destination)  # bounded, like every read
            if existing == data:
                report.unchanged.append(memory.filename)
                manifest[key] = _digest(data)
                continue
            if existing is not None and manifest.get(key) != _digest(existing):
                report.skipped.append((memory.filename, "changed there since the last publish"))
                continue
            from ..files.store import atomic_write_bytes

            atomic_write_bytes(destination, data)
            if store.read_bytes(destination) != data:
                raise WriteError(f"{destination}: mirror did not verify")
            manifest[key] = _digest(data)
            report.written.append(memory.filename)
    block = index_block(memories, today)
    index = target / "MEMORY.md"
    try:
        result = store.update(
            index,
            lambda current: _with_block(current, block, str(index)),
            verify=lambda text: None if block.rstrip("\n") in text else _fail(index),
        )
    except FormatError as exc:
        report.skipped.append(("MEMORY.md", str(exc)))
    else:
        (report.written if result.changed else report.unchanged).append("MEMORY.md")
    manifest_path = store.workspace.state_dir / MANIFEST
    text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    store.update(manifest_path, lambda current: text)
    return report


def _fail(path: Path) -> None:
    raise WriteError(f"{path}: index block not found after writing")
