"""Copying memory files between the memory root and the sync work tree, never losing a write.

``workmem sync`` keeps the memory branch checked out in a work tree of its own inside the
repository's git folder. Memory files go out to it as they are (export) and merged results
come back (import). Agents keep writing while a sync runs, so an import never overwrites
blindly: under the file's lock it compares the file with what was exported, and when an
agent changed it since, merges the three versions with the same merge as the drivers.
Symlinks are neither followed nor copied, in either direction.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import FormatError, WriteError
from ..files.store import Store, atomic_write_bytes, read_bytes
from ..files.text import decode, encode
from .kinds import LOCAL_STATE, kind_of

#: Files at the top of the work tree that belong to the branch, not to the memory root.
BRANCH_FILES = frozenset({".gitattributes", ".gitignore", ".git"})


def memory_files(root: Path) -> dict[str, Path]:
    """Every memory file under ``root`` by its relative path (``MEMORY.md``, ``memory/…``).

    ``memory/.workmem/`` (local state), writers' temp files and symlinks are left out.
    """
    found: dict[str, Path] = {}
    top = root / "MEMORY.md"
    if top.is_file() and not top.is_symlink():
        found["MEMORY.md"] = top
    folder = root / "memory"
    if not folder.is_dir() or folder.is_symlink():
        return found
    for dirpath, dirnames, filenames in os.walk(folder):
        here = Path(dirpath)
        rel_dir = here.relative_to(root).as_posix()
        dirnames[:] = [
            d for d in dirnames if not (here / d).is_symlink() and f"{rel_dir}/{d}/" != LOCAL_STATE
        ]
        for name in filenames:
            path = here / name
            if path.is_symlink() or not path.is_file() or name.endswith(".tmp"):
                continue  # links, FIFOs and the like, writers' temp files
            found[f"{rel_dir}/{name}"] = path
    return found


def safe_target(root: Path, rel: str) -> Path:
    """``root/rel`` when it stays inside ``root`` through no symlinked folder; else an error."""
    parts = rel.split("/")
    if not rel or rel.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise WriteError(f"refusing to write {rel!r}: not a plain path inside the memory root")
    current = root
    for part in parts[:-1]:
        current = current / part
        if current.is_symlink():
            raise WriteError(f"refusing to write {rel}: {current.name} is a symlink")
    target = root / rel
    if target.is_symlink():
        raise WriteError(f"refusing to write {rel}: it is a symlink")
    return target


@dataclass
class Transfer:
    changed: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    kept_local: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)


def export_files(
    root: Path, tree: Path, previously: set[str]
) -> tuple[dict[str, bytes | None], Transfer]:
    """Copy the root's memory files into the tree; returns what each path held when copied.

    A file the tree has and the root lacks was deleted here only when it was there at the
    last import (``previously``); otherwise it is new from elsewhere and stays.
    """
    local = memory_files(root)
    in_tree = memory_files(tree)
    exported: dict[str, bytes | None] = {}
    transfer = Transfer()
    for rel, path in local.items():
        data = read_bytes(path)
        if data is None:
            continue
        exported[rel] = data
        target = safe_target(tree, rel)
        if read_bytes(target) != data:
            atomic_write_bytes(target, data)
            transfer.changed.append(rel)
    for rel, path in in_tree.items():
        if rel in local:
            continue
        exported[rel] = None
        if rel in previously:
            path.unlink()
            transfer.changed.append(rel)
    return exported, transfer


def import_files(
    store: Store,
    tree: Path,
    paths: Iterable[str],
    base_of: Callable[[str], bytes | None],
) -> Transfer:
    """Bring the tree's version of ``paths`` into the root, merging with local changes."""
    from .merge import merge_file

    root = store.workspace.root
    transfer = Transfer()
    for rel in sorted(set(paths)):
        if (tree / rel).is_symlink():
            transfer.kept_local.append(rel)  # a link in the branch is never followed or copied
            continue
        new = read_bytes(tree / rel)
        base = base_of(rel)
        if new == base:
            continue
        target = safe_target(root, rel)
        with store.lock(target):
            current = store.read_bytes(target)
            if current == new:
                continue
            if current == base:
                result = new
            elif new is None:
                transfer.kept_local.append(rel)  # changed here, removed there: kept
                continue
            elif current is None:
                result = new  # removed here during the sync, changed there: kept
            elif (kind := kind_of(rel)) is None:
                transfer.kept_local.append(rel)  # no merge for this file: ours stays
                continue
            else:
                try:
                    text, style = decode(current, rel)
                    merged = merge_file(
                        kind,
                        decode(base, rel)[0] if base is not None else "",
                        text,
                        decode(new, rel)[0],
                        rel,
                        origin="the other machine",
                    )
                except FormatError:
                    transfer.kept_local.append(rel)
                    continue
                result = encode(merged.text, style)
                transfer.merged.append(rel)
                if not merged.clean:
                    transfer.conflicts.append(rel)
            _write(store, target, result)
            transfer.changed.append(rel)
    return transfer


def _write(store: Store, target: Path, data: bytes | None) -> None:
    """Under the file's lock (held by the caller): write and verify, or remove."""
    if data is None:
        target.unlink(missing_ok=True)
        if target.exists():
            raise WriteError(f"could not remove {store.show(target)}")
        return
    store.write_bytes(target, data)
