"""Search inside a hook: by its words only, never a model.

Hooks run on every prompt and must answer in a fraction of a second; loading the dense
model alone costs 0.2 to 0.6 s of CPU (numpy and the model's weights), and embedding a
day's new entries seconds. So a hook's work runs inside ``hook()`` (``hooks.runner``) and
every search made there is lexical: no model is loaded, nothing is embedded. The
background warmer, a separate process started after a save, embeds what was written.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

_IN_HOOK = False


@contextmanager
def hook() -> Iterator[None]:
    """Searches made inside use words only (as they were before, after)."""
    global _IN_HOOK
    before = _IN_HOOK
    _IN_HOOK = True
    try:
        yield
    finally:
        _IN_HOOK = before


def active() -> bool:
    return _IN_HOOK
