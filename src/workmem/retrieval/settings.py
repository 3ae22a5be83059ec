"""``[search]`` of ``workmem.toml``: the embedder, its endpoint, transcripts, warming and
the ranking weights, read once per settings file.

A process that searches again (the MCP server, the web viewer, a benchmark) pays one
``stat`` per search instead of reading and parsing the file (0.3 ms of a 5 ms lexical
search).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import FormatError
from ..root import Workspace
from .index import SearchIndex
from .ranking import Weights


@dataclass(frozen=True)
class SearchSettings:
    embedder: str
    embed_url: str | None
    weights: Weights
    transcripts: bool = False
    #: Refresh the index in the background after each save (``warm``).
    warm: bool = True

    def index(self, workspace: Workspace) -> SearchIndex:
        return SearchIndex(workspace, transcripts=self.transcripts)


#: ``search_settings`` per settings file, with the file's stat and the embedder override
#: they were read under. Checking and parsing ``workmem.toml`` was about 0.3 ms of a 5 ms
#: lexical search; a process that searches again (the MCP server, the web viewer, a
#: benchmark) now pays one ``stat``.
_SETTINGS_SEEN: dict[Path, tuple[tuple[object, ...], SearchSettings]] = {}
_SETTINGS_SEEN_MAX = 64


def search_settings(workspace: Workspace) -> SearchSettings:
    """``[search]`` of ``workmem.toml``: ``embedder``, ``embed_url``, ``transcripts``,
    ``warm``, ``[search.weights]``.

    ``WORKMEM_EMBEDDER`` overrides the embedder for one process (tests, benchmarks).
    """
    path = workspace.config_file
    key = _settings_key(path)
    seen = _SETTINGS_SEEN.get(path)
    if key is not None and seen is not None and seen[0] == key:
        return seen[1]
    settings = _read_search_settings(workspace)
    if key is not None:
        if len(_SETTINGS_SEEN) >= _SETTINGS_SEEN_MAX:
            _SETTINGS_SEEN.clear()
        _SETTINGS_SEEN[path] = (key, settings)
    return settings


def _settings_key(path: Path) -> tuple[object, ...] | None:
    """What must be unchanged for settings read before to still hold; None: read again.

    The file's identity is part of it, so a file swapped for a symlink elsewhere is read
    (and refused) again. A file written within the last two seconds is always re-read: a
    second write in the same clock tick can leave mtime and size as they were.
    """
    import time

    from .index import RACY_NS

    override = os.environ.get("WORKMEM_EMBEDDER")
    try:
        st = path.stat()
    except FileNotFoundError:
        return ("absent", override)
    except OSError:
        return None
    if time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) < RACY_NS:
        return None
    return (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size, override)


def _read_search_settings(workspace: Workspace) -> SearchSettings:
    from ..config import load_settings

    table = load_settings(workspace).section("search")
    where = str(workspace.config_file)
    spec = os.environ.get("WORKMEM_EMBEDDER") or table.get("embedder", "none")
    url = table.get("embed_url")
    weights_table = table.get("weights", {})
    if not isinstance(spec, str) or (url is not None and not isinstance(url, str)):
        raise FormatError("[search] embedder and embed_url must be strings", path=where)
    if not isinstance(weights_table, dict):
        raise FormatError("[search.weights] must be a table", path=where)
    transcripts = table.get("transcripts", False)
    warm = table.get("warm", True)
    if not isinstance(transcripts, bool) or not isinstance(warm, bool):
        raise FormatError("[search] transcripts and warm must be true or false", path=where)
    weights = Weights.from_settings(weights_table, where)
    return SearchSettings(spec, url, weights, transcripts, warm)
