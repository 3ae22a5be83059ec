"""A short tag naming this machine, put into session IDs when memory is shared.

Locks hold on one machine only: two machines can each start a session of the same agent in
the same minute and both issue ``2026-05-25-1318-claude-code-main-agent``. When sync is on
(``[sync] machine_ids = true`` in ``workmem.toml``, which ``workmem sync init`` writes), each
machine appends its own tag (``…-main-agent-k3x9``), so IDs issued anywhere never collide
and nothing has to be renamed after a merge. On one machine, without sync, the ID keeps the
seed's form.

The tag is random, made once per user and machine and kept outside the memory folder
(a synced folder is the same on every machine, so it cannot hold a per-machine value):
``$XDG_CONFIG_HOME/workmem/machine-tag`` (``~/.config`` by default). ``WORKMEM_MACHINE``
overrides it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

MACHINE_ENV = "WORKMEM_MACHINE"
TAG_FILE = "machine-tag"
_TAG = re.compile(r"^[a-z][a-z0-9]{1,11}$")

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..config import Settings


def _config_home() -> Path:
    configured = os.environ.get("XDG_CONFIG_HOME")
    return Path(configured) if configured else Path.home() / ".config"


def _slug(value: str) -> str:
    cleaned = re.sub(r"[^a-z0-9]+", "", value.casefold())
    if cleaned and not cleaned[0].isalpha():
        cleaned = "m" + cleaned
    return cleaned[:12]


def machine_tag() -> str:
    """This machine's tag: ``WORKMEM_MACHINE``, else the stored one, made on first use."""
    override = _slug(os.environ.get(MACHINE_ENV, ""))
    if len(override) >= 2:
        return override
    path = _config_home() / "workmem" / TAG_FILE
    try:
        stored = path.read_text(encoding="utf-8").strip()
    except OSError:
        stored = ""
    if _TAG.match(stored):
        return stored
    import secrets
    import string

    tag = secrets.choice(string.ascii_lowercase) + "".join(
        secrets.choice(string.ascii_lowercase + string.digits) for _ in range(3)
    )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(tag + "\n", encoding="utf-8")
    except OSError:
        pass  # an unwritable home: the tag still separates this run's IDs
    return tag


def sync_enabled(settings: Settings) -> bool:
    return settings.section("sync").get("machine_ids") is True


def id_suffix(settings: Settings) -> str:
    """What session IDs issued here end with: ``-<tag>`` when sync is on, else nothing."""
    return f"-{machine_tag()}" if sync_enabled(settings) else ""
