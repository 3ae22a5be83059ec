"""Who writes into a memory root, and the tag that keeps their IDs apart.

A session ID is ``YYYY-MM-DD-HHMM-agent-name`` (``-2``, ``-3`` in the same minute), unique
because every writer of a memory root takes the board's lock first. That holds while one
machine and one folder write the memory. Where several can write it and meet only in a
merge, each writer adds its own tag (``…-main-agent-k3x9``), so no two writers can issue
the same ID in the same minute:

- ``workmem sync`` (``[sync] machine_ids = true``): every clone and every machine is a
  writer. Two clones of one repository on one machine are two writers too: the tag is the
  machine's, made distinct for each memory root on that machine (``writer_tag``);
- a memory root inside a folder a cloud service syncs (Dropbox, OneDrive, Google Drive,
  iCloud Drive, Syncthing, Obsidian Sync), recognised from the service's own marks:
  every machine sharing the folder is a writer.

``[sync] machine_ids = false`` turns tags off even there; with one writer the IDs keep the
seed's form. Event IDs follow the same rule (``evt-00012-k3x9``).

The per-root tags are kept beside the machine tag (``~/.config/workmem/writers``, one
``tag<TAB>root`` a line, written under a lock), outside the memory folder: a synced folder is
the same on every machine and cannot hold a per-machine value.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from .machine import config_home, machine_tag

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..config import Settings

WRITERS_FILE = "writers"
_MAX_TAG = 12
_TAG = re.compile(r"^[a-z][a-z0-9]{1,11}$")

#: Folder names a cloud service puts its synced folder under (compared case-folded).
_CLOUD_FOLDERS: tuple[tuple[str, str], ...] = (
    ("dropbox", "Dropbox"),
    ("onedrive", "OneDrive"),
    ("google drive", "Google Drive"),
    ("googledrive", "Google Drive"),
    ("my drive", "Google Drive"),
    ("icloud drive", "iCloud Drive"),
    ("mobile documents", "iCloud Drive"),
)
#: Files or folders a service keeps at the top of what it syncs.
_CLOUD_MARKS: tuple[tuple[str, str], ...] = (
    (".dropbox", "Dropbox"),
    (".dropbox.cache", "Dropbox"),
    (".stfolder", "Syncthing"),
)


def cloud_service(root: Path) -> str | None:
    """The cloud service whose folder holds ``root``, from its marks; None when none does."""
    try:
        folder = root.resolve()
    except OSError:
        return None
    if _obsidian_sync(folder):
        return "Obsidian Sync"
    for current in (folder, *folder.parents):
        name = current.name.casefold()
        for prefix, service in _CLOUD_FOLDERS:
            if name == prefix or name.startswith((prefix + " - ", prefix + "-")):
                return service
        if name.startswith(("icloud~", "com~apple~clouddocs")):
            return "iCloud Drive"
        for mark, service in _CLOUD_MARKS:
            if os.path.lexists(current / mark):
                return service
    return None


def _obsidian_sync(folder: Path) -> bool:
    """An Obsidian vault whose core Sync plugin is on (``.obsidian/core-plugins.json``)."""
    import json

    try:
        data = json.loads((folder / ".obsidian" / "core-plugins.json").read_text("utf-8"))
    except (OSError, ValueError):
        return False
    if isinstance(data, dict):
        return data.get("sync") is True
    return isinstance(data, list) and "sync" in data


def several_writers(root: Path, settings: Settings) -> str | None:
    """Why more than one writer can issue IDs for this root (shown by doctor), or None."""
    chosen = settings.section("sync").get("machine_ids")
    if chosen is True:
        return "workmem sync is on"
    if chosen is False:
        return None
    service = cloud_service(root)
    return f"the folder is synced by {service}" if service else None


def id_suffix(root: Path, settings: Settings) -> str:
    """What IDs issued here end with: ``-<writer tag>`` where several can write, else ''."""
    return f"-{writer_tag(root)}" if several_writers(root, settings) else ""


def writer_tag(root: Path) -> str:
    """This writer's tag: the machine's tag, or for a second memory root on the same machine
    the machine's tag with a number (``desk``, ``desk2``, …); the same for a root every time."""
    machine = machine_tag()
    try:
        key = str(root.resolve())
    except OSError:
        key = str(root)
    path = config_home() / "workmem" / WRITERS_FILE
    known = _read(path)
    if _of_machine(known.get(key), machine):
        return known[key]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with _RegistryLock(path.with_name(WRITERS_FILE + ".lock")):
            known = _read(path)
            if _of_machine(known.get(key), machine):
                return known[key]
            tag = _new_tag(machine, _all_tags(path))
            _append(path, tag, key)
            return tag
    except OSError:
        # an unwritable home: a tag from the root's path still separates this root's IDs
        import hashlib

        digest = hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()
        return machine[: _MAX_TAG - 4] + digest[:4]


def _of_machine(tag: str | None, machine: str) -> bool:
    """A registered tag made from this machine's tag (a renamed machine registers anew)."""
    if tag is None:
        return False
    head = tag.rstrip("0123456789")
    return tag == machine or (head != tag and machine.startswith(head))


def _new_tag(machine: str, used: set[str]) -> str:
    if machine not in used:
        return machine
    number = 2
    while True:
        suffix = str(number)
        candidate = machine[: _MAX_TAG - len(suffix)] + suffix
        if candidate not in used:
            return candidate
        number += 1


def _read(path: Path) -> dict[str, str]:
    try:
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError:
        return {}
    found: dict[str, str] = {}
    for line in text.split("\n"):
        tag, _, where = line.partition("\t")
        if _TAG.match(tag) and where:
            found[where] = tag  # the latest line for a root wins (a renamed machine)
    return found


def _all_tags(path: Path) -> set[str]:
    """Every tag ever handed out here, so none is given to a second root."""
    try:
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError:
        return set()
    return {line.partition("\t")[0] for line in text.split("\n") if "\t" in line}


def _append(path: Path, tag: str, key: str) -> None:
    with path.open("a", encoding="utf-8", errors="surrogateescape") as handle:
        handle.write(f"{tag}\t{key}\n")
        handle.flush()
        os.fsync(handle.fileno())


class _RegistryLock:
    """The registry's lock across processes (two roots asking at once get two tags)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = -1

    def __enter__(self) -> None:
        from ..files.oscompat import try_lock

        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        give_up = time.monotonic() + 10.0
        while not try_lock(self.fd):
            if time.monotonic() > give_up:
                os.close(self.fd)
                raise OSError("the writer-tag registry stayed locked")
            time.sleep(0.01)

    def __exit__(self, *exc: object) -> None:
        from ..files.oscompat import unlock

        unlock(self.fd)
        os.close(self.fd)
