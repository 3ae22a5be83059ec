"""Copying memory files between the memory root and the sync work tree, never losing a write.

``workmem sync`` keeps the memory branch checked out in a work tree of its own inside the
repository's git folder. Memory files go out to it as they are (export) and merged results
come back (import). Agents keep writing while a sync runs, so an import never overwrites
blindly: under the file's lock it compares the file with what was exported, and when an
agent changed it since, merges the three versions with the same merge as the drivers.
Symlinks are neither followed nor copied, in either direction, and neither are git's own
files (a ``.gitattributes`` in the memory would switch workmem's merge drivers off for every
clone), writers' temp files or git's ``.merge_file_*``. A file that cannot be copied (a link
or a folder where the other side has a file) is refused with a message and skipped; the
rest of the run goes on.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import FormatError, WorkmemError, WriteError
from ..files.store import Store, atomic_write_bytes, read_bytes
from ..files.text import decode, encode
from .kinds import LOCAL_STATE, kind_of

#: Files at the top of the work tree that belong to the branch, not to the memory root.
BRANCH_FILES = frozenset({".gitattributes", ".gitignore", ".git"})


def is_transfer_name(name: str) -> bool:
    """A file or folder name memory may travel under (not git's, not a temp file)."""
    return not (
        name.startswith((".git", ".merge_file_"))
        or name.endswith(".tmp")
        or name in ("", ".", "..")
    )


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
            d
            for d in dirnames
            if not (here / d).is_symlink()
            and f"{rel_dir}/{d}/" != LOCAL_STATE
            and is_transfer_name(d)
        ]
        for name in filenames:
            path = here / name
            if path.is_symlink() or not path.is_file() or not is_transfer_name(name):
                continue  # links, FIFOs and the like, git's files, writers' temp files
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
    #: every path whose file changed (added, changed or deleted)
    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    kept_local: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    #: paths refused (a link, a folder where a file is), with why
    refused: list[str] = field(default_factory=list)

    def record(self, rel: str, before: bytes | None, after: bytes | None) -> None:
        self.changed.append(rel)
        if before is None:
            self.added.append(rel)
        elif after is None:
            self.deleted.append(rel)


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
        try:
            target = safe_target(tree, rel)
            before = read_bytes(target)
            if before != data:
                atomic_write_bytes(target, data)
                transfer.record(rel, before, data)
        except (OSError, WorkmemError) as exc:
            transfer.refused.append(f"{rel}: not sent ({_why(exc)})")
            continue
        exported[rel] = data
    for rel, path in in_tree.items():
        if rel in local:
            continue
        exported[rel] = None
        if rel in previously:
            path.unlink()
            transfer.record(rel, b"", None)
    return exported, transfer


def _why(exc: BaseException) -> str:
    if isinstance(exc, IsADirectoryError):
        return "the memory branch has a folder where this machine has a file"
    if isinstance(exc, NotADirectoryError | FileExistsError):
        return "the memory branch has a file where this machine has a folder"
    return str(exc).removeprefix("refusing to write ")


def import_files(
    store: Store,
    tree: Path,
    paths: Iterable[str],
    base_of: Callable[[str], bytes | None],
) -> Transfer:
    """Bring the tree's version of ``paths`` into the root, merging with local changes.

    A path that cannot come back (a link, a folder, a file where the root has a folder) is
    refused and skipped with a message; every other path still comes back.
    """
    transfer = Transfer()
    for rel in sorted(set(paths)):
        try:
            _import_one(store, tree, rel, base_of, transfer)
        except (OSError, WorkmemError) as exc:
            transfer.refused.append(f"{rel}: not brought back ({_why(exc)})")
    return transfer


def _import_one(
    store: Store,
    tree: Path,
    rel: str,
    base_of: Callable[[str], bytes | None],
    transfer: Transfer,
) -> None:
    from .merge import merge_file

    source = tree / rel
    if source.is_symlink() or not all(is_transfer_name(p) for p in rel.split("/")):
        transfer.refused.append(f"{rel}: a link or git's own file on the memory branch, skipped")
        return
    if source.is_dir():
        transfer.refused.append(f"{rel}: a folder on the memory branch, skipped")
        return
    new = read_bytes(source)
    base = base_of(rel)
    if new == base:
        return
    if new is not None and b"\0" in new:
        transfer.refused.append(f"{rel}: holds NUL bytes (not text) on the memory branch, skipped")
        return
    target = safe_target(store.workspace.root, rel)
    with store.lock(target):
        current = store.read_bytes(target)
        if current == new:
            return
        if current == base:
            result = new
        elif new is None:
            transfer.kept_local.append(rel)  # changed here, removed there: kept
            return
        elif current is None:
            result = new  # removed here during the sync, changed there: kept
        elif (kind := kind_of(rel)) is None:
            transfer.kept_local.append(rel)  # no merge for this file: ours stays
            return
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
                return
            result = encode(merged.text, style)
            transfer.merged.append(rel)
            if not merged.clean:
                transfer.conflicts.append(rel)
        _write(store, target, result)
        transfer.record(rel, current, result)


def _write(store: Store, target: Path, data: bytes | None) -> None:
    """Under the file's lock (held by the caller): write and verify, or remove."""
    if data is None:
        target.unlink(missing_ok=True)
        if target.exists():
            raise WriteError(f"could not remove {store.show(target)}")
        return
    store.write_bytes(target, data)
