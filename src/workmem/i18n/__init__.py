"""The language a user reads: one setting, one decision per call, one catalogue.

``[workmem] language`` in workmem.toml is ``auto`` (the default) or one of ``LANGUAGES``.
``auto`` follows the user's own words where a hook or a trigger phrase shows them (a
prompt, the user messages of a transcript), else the system locale, else English.

A call decides once. A hook or a workflow runs inside ``speaking(text)``, which notes the
language of the user's words; ``language_for(workspace)`` answers from that, reading the
setting at most once per memory root and call. Outside any such scope (a command, the
Python API) it reads the setting and the locale each time, which costs microseconds.

Texts live in one table per language (``en``, ``zh_tw``, ``zh_cn``, ``ja``, ``ko``),
imported when first used, so a hook loads only the language it speaks. The seeds' Chinese
texts are the zh-TW texts, unchanged. What a reader must recognise whichever language
wrote it (the board's placeholders, the snapshot's hint) is in ``placeholders``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..errors import UsageError
from .detect import from_text, system_language

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..root import Workspace

LANGUAGES = ("en", "zh-TW", "zh-CN", "ja", "ko")
AUTO = "auto"
CHOICES = (AUTO, *LANGUAGES)
DEFAULT = "en"
#: other spellings of a choice people write (``zh`` is the seeds' Chinese)
_ALIASES = {"zh": "zh-TW", "zh-hant": "zh-TW", "zh-hans": "zh-CN"}
_MODULES = {"en": "en", "zh-TW": "zh_tw", "zh-CN": "zh_cn", "ja": "ja", "ko": "ko"}


def check_setting(value: object, where: str = "[workmem] language") -> str:
    """A setting as one of ``CHOICES`` (case and ``_``/``-`` aside), else a usage error
    that names the choices."""
    if isinstance(value, str):
        key = value.strip().replace("_", "-").casefold()
        for choice in CHOICES:
            if choice.casefold() == key:
                return choice
        if key in _ALIASES:
            return _ALIASES[key]
    raise UsageError(
        f"{where} = {value!r} is not a language workmem speaks; use one of: {', '.join(CHOICES)}"
    )


class _Scope:
    """One call's decision: the language the user's words showed, and per root the
    language decided (so the setting is read once)."""

    __slots__ = ("decided", "seen")

    def __init__(self, seen: str | None) -> None:
        self.seen = seen
        self.decided: dict[str, str] = {}


_SCOPE: ContextVar[_Scope | None] = ContextVar("workmem_language", default=None)


@contextmanager
def speaking(text: str | None = None, *, hint: str | None = None) -> Iterator[None]:
    """Run a call in the language of ``text``, the user's own words (a prompt, the user
    messages of a transcript), when the setting is ``auto``.

    ``hint`` is the language of the trigger phrase found in ``text``. An enclosing call
    that already saw the user's words keeps its decision (a workflow run by a prompt hook
    speaks the prompt's language), as does one given no words.
    """
    outer = _SCOPE.get()
    seen = from_text(text, hint=hint, locale_chinese=_locale_chinese()) if text else None
    if outer is not None and (outer.seen is not None or seen is None):
        yield
        return
    token = _SCOPE.set(_Scope(seen))
    try:
        yield
    finally:
        _SCOPE.reset(token)


def _locale_chinese() -> str:
    found = system_language()
    return found if found in ("zh-TW", "zh-CN") else ""


def decide(setting: str, seen: str | None = None) -> str:
    """The setting when it names a language; for ``auto``: the user's words, else the
    system locale, else English."""
    if setting != AUTO:
        return setting
    return seen or system_language() or DEFAULT


def language_for(
    workspace: Workspace | None, *, setting: str | None = None, words: str | None = None
) -> str:
    """The language to write in for ``workspace`` in this call.

    ``setting``: the workspace's setting when the caller has its settings loaded already.
    ``words``: text the call has at hand when no user message was seen (the memories a
    wrap-up is given), weaker than the user's own words but stronger than the locale.
    """
    scope = _SCOPE.get()
    key = str(workspace.root) if workspace is not None else ""
    if scope is not None and key in scope.decided and words is None:
        return scope.decided[key]
    if setting is None:
        setting = AUTO
        if workspace is not None:
            from ..config import load_settings

            setting = load_settings(workspace).language
    seen = scope.seen if scope is not None else None
    if seen is None and words:
        seen = from_text(words, locale_chinese=_locale_chinese())
    language = decide(setting, seen)
    if scope is not None and words is None:
        scope.decided[key] = language
    return language


_TABLES: dict[str, dict[str, str]] = {}


def _table(language: str) -> dict[str, str]:
    table = _TABLES.get(language)
    if table is None:
        import importlib

        module = importlib.import_module(f".{_MODULES[language]}", __name__)
        table = _TABLES[language] = module.MESSAGES
    return table


def text(language: str, key: str, **fields: object) -> str:
    """The catalogue's text for ``key`` in ``language`` (English where a table lacks it),
    with ``fields`` filled in (``str.format``)."""
    template = _table(language).get(key) if language in _MODULES else None
    if template is None:
        template = _table(DEFAULT)[key]
    return template.format(**fields)


def message(workspace: Workspace | None, key: str, **fields: object) -> str:
    """``text`` in the language decided for ``workspace`` in this call."""
    return text(language_for(workspace), key, **fields)
