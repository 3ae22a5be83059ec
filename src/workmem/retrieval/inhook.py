"""Search inside a hook: by its words only, never a model.

Hooks run on every prompt and must answer in a fraction of a second; loading the dense
model alone costs 0.2 to 0.6 s of CPU (numpy and the model's weights), and embedding a
day's new entries seconds. So a hook process says so once (``hooks.runner``) and every
search it makes from then on is lexical: no model is loaded, nothing is embedded. The
background warmer, a separate process started after a save, embeds what was written.
"""

from __future__ import annotations

_IN_HOOK = False


def enter() -> None:
    """Mark this process as a hook: its searches use words only from now on."""
    global _IN_HOOK
    _IN_HOOK = True


def active() -> bool:
    return _IN_HOOK
