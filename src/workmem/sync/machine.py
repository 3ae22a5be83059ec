"""A short tag naming this machine, the base of every writer's tag (``writers``).

Locks hold on one machine only: two machines can each start a session of the same agent in
the same minute and both issue ``2026-05-25-1318-claude-code-main-agent``. Where several
writers share a memory (``writers.several_writers``), IDs carry the writer's tag
(``…-main-agent-k3x9``), which starts from this one.

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


def config_home() -> Path:
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
    path = config_home() / "workmem" / TAG_FILE
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
        temporary = path.with_name(f"{TAG_FILE}.{os.getpid()}.{tag}.tmp")
        temporary.write_text(tag + "\n", encoding="utf-8")
        try:
            # a link is made only where no file is: two processes making the tag at once
            # agree on the first one, which is whole when it appears
            os.link(temporary, path)
        except FileExistsError:
            stored_now = _stored(path)
            if stored_now:
                return stored_now
            os.replace(temporary, path)  # a damaged tag file is made again
        except OSError:
            os.replace(temporary, path)  # a file system without links
        finally:
            temporary.unlink(missing_ok=True)
    except OSError:
        pass  # an unwritable home: the tag still separates this run's IDs
    return tag


def _stored(path: Path) -> str | None:
    try:
        stored = path.read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return stored if _TAG.match(stored) else None
