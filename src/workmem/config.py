"""Settings from ``workmem.toml``, with defaults for everything.

Only the keys a feature reads are typed here; the whole parsed table stays available in
``Settings.raw`` so later features add their own sections without touching the loader.
``tomllib`` is imported only when the file exists, keeping hook start-up cheap.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .errors import FormatError
from .root import Workspace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

AGENT_NAME_ENV = "WORKMEM_AGENT_NAME"
#: ``workmem.toml`` holds a few tables of settings; a larger file is not one
SETTINGS_BYTES = 1024 * 1024


@dataclass(frozen=True)
class BoardSettings:
    stale_days: int = 14
    lock_timeout: float = 10.0
    #: organize archives stale rows not updated for this many days; 0 (default) = never
    archive_stale_after_days: int = 0
    #: a session whose row, hooks or transcript were active this many minutes ago is still
    #: running: organize never deletes it
    running_minutes: int = 120


@dataclass(frozen=True)
class Settings:
    agent_name: str | None = None
    platform: str | None = None
    #: ``[workmem] language``: "auto" or a language of ``workmem.i18n.LANGUAGES``
    language: str = "auto"
    board: BoardSettings = field(default_factory=BoardSettings)
    raw: dict[str, Any] = field(default_factory=dict)

    def section(self, name: str) -> dict[str, Any]:
        value = self.raw.get(name, {})
        return value if isinstance(value, dict) else {}


def _typed(table: dict[str, Any], key: str, kind: type, default: Any, path: str) -> Any:
    if key not in table:
        return default
    value = table[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise FormatError(f"setting {key!r} must be {kind.__name__}, got {value!r}", path=path)
    return value


def numbers_from(cls: type, table: dict[str, Any], section: str, path: str) -> dict[str, Any]:
    """The numeric fields of dataclass ``cls`` that ``[section]`` sets: every value a number
    >= 0, ``int`` fields kept whole. A key ``cls`` does not have, or any other value, is an
    error naming the key: a misspelt setting must never be ignored."""
    from dataclasses import fields

    known = {spec.name: spec.type for spec in fields(cls) if spec.type in ("int", "float")}
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise FormatError(
            f"unknown setting(s) [{section}] {', '.join(unknown)}; known: {', '.join(known)}",
            path=path,
        )
    values: dict[str, Any] = {}
    for key, raw in table.items():
        if isinstance(raw, bool) or not isinstance(raw, int | float) or raw < 0:
            raise FormatError(f"[{section}] {key} must be a number >= 0, got {raw!r}", path=path)
        values[key] = int(raw) if known[key] == "int" else float(raw)
    return values


def load_settings(workspace: Workspace) -> Settings:
    path = workspace.config_file
    raw: dict[str, Any] = {}
    if path.exists():  # a pipe or device under its name is refused, not taken for none
        import tomllib

        from .files.bounded import read_file
        from .files.confine import RootGuard

        real = RootGuard(workspace).check(path)  # never a settings file outside the root
        data = read_file(real, limit=SETTINGS_BYTES, what="settings file", shown=str(path))
        try:
            raw = tomllib.loads(data.decode("utf-8-sig"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise FormatError(f"invalid settings file: {exc}", path=str(path)) from None
    board_table = raw.get("board", {})
    if not isinstance(board_table, dict):
        raise FormatError("[board] must be a table", path=str(path))
    board = BoardSettings(
        stale_days=_typed(board_table, "stale_days", int, BoardSettings.stale_days, str(path)),
        lock_timeout=_typed(
            board_table, "lock_timeout", float, BoardSettings.lock_timeout, str(path)
        ),
        archive_stale_after_days=_typed(board_table, "archive_stale_after_days", int, 0, str(path)),
        running_minutes=_typed(
            board_table, "running_minutes", int, BoardSettings.running_minutes, str(path)
        ),
    )
    agent_name = os.environ.get(AGENT_NAME_ENV) or _typed(raw, "agent_name", str, None, str(path))
    platform = _typed(raw, "platform", str, None, str(path))
    return Settings(
        agent_name=agent_name,
        platform=platform,
        language=_language(raw, str(path)),
        board=board,
        raw=raw,
    )


def _language(raw: dict[str, Any], path: str) -> str:
    """``[workmem] language`` (a top-level ``language`` beside ``agent_name`` is read the
    same way); an unknown value is a usage error naming the choices."""
    table = raw.get("workmem", {})
    if not isinstance(table, dict):
        raise FormatError("[workmem] must be a table", path=path)
    if "language" not in table and "language" not in raw:
        return "auto"
    from .i18n import check_setting

    where = "[workmem] language" if "language" in table else "language"
    return check_setting(table.get("language", raw.get("language")), f"{path}: {where}")
