"""One platform's JSON hook file, edited as text: workmem's entries found by their marker,
added after the last entry of each list, removed as exactly the piece that was added (see
``platforms.jsonc``), so an install and an uninstall leave the file as it was."""

from __future__ import annotations

from typing import Any

from ..errors import FormatError
from .events import PLATFORM_EVENTS


def _flat(platform: str) -> bool:
    """Cursor lists hooks directly; the others in matcher groups with a ``hooks`` list."""
    return platform == "cursor"


def _ours_at(node: Any, platform: str) -> tuple[int, int | None] | None:
    """(group, hook-in-group) of the first workmem entry in an event's list, if any."""
    from ..platforms.hook_line import is_ours

    for index, group in enumerate(node.items):
        value = group.to_python()
        if _flat(platform):
            if is_ours(value, platform):
                return index, None
            continue
        inner = group.get("hooks") if group.kind == "object" else None
        if inner is None or inner.kind != "array":
            continue
        for position, hook in enumerate(inner.items):
            if is_ours(hook.to_python(), platform):
                return index, (None if len(inner.items) == 1 else position)
    return None


def _remove_one(text: str, platform: str, event: str, path: str) -> str | None:
    """``text`` without the first workmem entry of ``event``; containers it empties go too."""
    from ..platforms.jsonc import parse, remove_at

    root = parse(text, path)
    hooks = root.get("hooks") if root.kind == "object" else None
    events = hooks.get(event) if hooks is not None and hooks.kind == "object" else None
    if events is None or events.kind != "array":
        return None
    found = _ours_at(events, platform)
    if found is None:
        return None
    group, inner = found
    if inner is not None:
        hooks_list = events.items[group].get("hooks")
        assert hooks_list is not None
        return remove_at(text, hooks_list, inner)
    if len(events.items) > 1:
        return remove_at(text, events, group)
    assert hooks is not None
    if len(hooks.items) > 1:
        return remove_at(text, hooks, hooks.index_of(event))
    return remove_at(text, root, root.index_of("hooks"))


def ours_in(text: str | None, platform: str, path: str) -> dict[str, list[Any]]:
    """Event -> workmem's entries in it (groups, or Cursor's flat entries)."""
    from ..platforms.hook_line import is_ours
    from ..platforms.jsonc import load_object

    data = load_object(text, path)
    hooks = data.get("hooks")
    if hooks is None:
        return {}
    if not isinstance(hooks, dict):
        raise FormatError("'hooks' is not an object; nothing was written", path=path)
    found: dict[str, list[Any]] = {}
    for event, entries in hooks.items():
        if not isinstance(entries, list):
            if event in PLATFORM_EVENTS[platform]:
                raise FormatError(f"hooks.{event} is not a list; nothing was written", path=path)
            continue
        for group in entries:
            inner = group.get("hooks") if isinstance(group, dict) and not _flat(platform) else None
            members = inner if isinstance(inner, list) else [group]
            if any(is_ours(h, platform) for h in members):
                found.setdefault(event, []).append(group)
    return found


def merge_json(
    text: str | None,
    platform: str,
    program: str,
    *,
    remove: bool,
    path: str,
    windows: bool = False,
) -> tuple[str | None, list[str], list[str]]:
    """New file text (None when nothing changes), events added, events removed."""
    from ..platforms.hook_line import entry
    from ..platforms.jsonc import append_at, new_file

    present = ours_in(text, platform, path)
    current = text
    added: list[str] = []
    removed: list[str] = []
    for own_event, canonical in PLATFORM_EVENTS[platform].items():
        wanted = None if remove else entry(platform, own_event, canonical, program, windows=windows)
        if wanted is not None and present.get(own_event) == [wanted]:
            continue
        if own_event in present:
            while current is not None and (
                shorter := _remove_one(current, platform, own_event, path)
            ):
                current = shorter
            if remove:
                removed.append(own_event)
        if wanted is not None:
            if current is None or not current.strip():
                start: dict[str, Any] = {"version": 1} if platform == "cursor" else {}
                current = new_file({**start, "hooks": {own_event: [wanted]}})
            else:
                current = append_at(current, ["hooks", own_event], wanted, path)
            added.append(own_event)
    if current == text:
        return None, [], []
    return current, added, removed


def gitignore_without(text: str | None, line: str) -> str | None:
    """``text`` without ``line``; None when it is not there, "" when nothing else is."""
    lines = (text or "").splitlines()
    if line not in lines:
        return None
    kept = [x for x in lines if x != line]
    return "\n".join(kept) + "\n" if any(x.strip() for x in kept) else ""


def gitignore_with(text: str | None, line: str) -> str | None:
    current = text or ""
    if line in current.splitlines():
        return None
    return current + ("" if not current or current.endswith("\n") else "\n") + line + "\n"
