"""After ``setup --uninstall``: delete what is left of a configuration workmem made.

``hooks uninstall`` takes workmem's entries out and leaves the rest of a file as it was,
which for a file setup created means ``{"hooks": {}}`` and an otherwise empty folder. Such
leftovers are removed: a file that holds no setting but the ones ``hooks install`` adds,
the Codex feature switch beside it when that is all its config.toml holds, then folders
left empty. A file with anything else in it stays.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from ..errors import WriteError
from ..files.store import Store

#: Top-level keys ``hooks install`` adds beside ``hooks``, per platform, with their value.
_SCAFFOLD_KEYS: dict[str, dict[str, object]] = {
    "cursor": {"version": 1},
    "gemini": {"hooksConfig": {"enabled": True}},
}


def tidy_after_removal(store: Store, platform: str, files: Sequence[str]) -> list[str]:
    """Delete what is left of a configuration workmem made: a file with no setting but the
    ones ``hooks install`` adds, and then a folder left empty. Anything else stays."""
    root = store.workspace.root
    deleted: list[str] = []
    for name in files:
        path = root / name
        if path.suffix == ".json" and _only_scaffold_json(store, path, platform):
            _delete(store, path, deleted)
            toml = path.with_name("config.toml")
            if platform == "codex" and _only_codex_feature(store, toml):
                _delete(store, toml, deleted)
        folder = path.parent
        while folder != root and root in folder.parents:
            if folder.is_dir():
                if any(folder.iterdir()):
                    break
                folder.rmdir()
            folder = folder.parent
    return deleted


def _only_scaffold_json(store: Store, path: Path, platform: str) -> bool:
    current = store.read_text(path)
    try:
        data = json.loads(current[0]) if current else None
    except ValueError:
        return False
    if not isinstance(data, dict) or data.get("hooks") not in ({}, None):
        return False
    extra = _SCAFFOLD_KEYS.get(platform, {})
    rest = {k: v for k, v in data.items() if k != "hooks" and extra.get(k, object()) != v}
    return not rest


def _only_codex_feature(store: Store, path: Path) -> bool:
    import tomllib

    current = store.read_text(path)
    try:
        data = tomllib.loads(current[0]) if current else None
    except tomllib.TOMLDecodeError:
        return False
    features = data.get("features") if isinstance(data, dict) else None
    return (
        isinstance(data, dict)
        and set(data) == {"features"}
        and isinstance(features, dict)
        and set(features) <= {"codex_hooks", "hooks"}
        and all(v is True for v in features.values())
    )


def _delete(store: Store, path: Path, deleted: list[str]) -> None:
    with store.lock(path):
        path.unlink(missing_ok=True)
    if path.exists():
        raise WriteError(f"{store.show(path)} could not be removed")
    deleted.append(store.show(path))
