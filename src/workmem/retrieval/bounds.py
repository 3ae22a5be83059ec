"""How much of a query search works on: bounded, so no query costs seconds.

A query can be anything a caller passes: a prompt a user pasted a log into (the prompt hook
searches with the prompt), a URL parameter, an MCP tool argument. Its cost grows with its
length in three places: the date engine runs every rule over the text and resolves every
match (a 60 KB query full of dates took 1.6 s in ``query_range`` alone), each distinct word
or CJK bigram becomes an FTS5 term (and on a large index a count query of its own), and
every needle is looked for in every hit. The words and times that say what a query is about
sit at its start in practice, so each step reads a bounded prefix:

* the whole search reads the first ``MAX_QUERY_CHARS`` characters;
* the date engine reads the first ``MAX_DATE_CHARS`` of those, and at most
  ``MAX_DATES`` of the times it finds decide the range;
* at most ``MAX_TERMS`` distinct terms reach FTS5, and as many needles the snippets.

Each bound is far above a question a person types (a typical one is under 200 characters
and 20 terms), so ordinary queries are untouched.
"""

from __future__ import annotations

#: Characters of a query that search reads (about 500 tokens of English).
MAX_QUERY_CHARS = 2000
#: Characters of a query the date engine reads.
MAX_DATE_CHARS = 1000
#: Times named in a query that decide the range it stands for.
MAX_DATES = 16
#: Distinct FTS5 terms (words, CJK bigrams) of one query, and needles for its snippets.
MAX_TERMS = 64


def prefix(text: str, limit: int) -> str:
    """The first ``limit`` characters of ``text``, ending at a space where one is near,
    so a word or a date is not cut in two."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = max(cut.rfind(" "), cut.rfind("\n"), cut.rfind("\t"))
    return cut[:space] if space >= limit - 40 else cut


def bound_query(query: str) -> str:
    """The part of ``query`` that search works on."""
    return prefix(query, MAX_QUERY_CHARS)


def was_cut(query: str) -> bool:
    """True when search read only the start of ``query`` (a face may say so)."""
    return len(query) > MAX_QUERY_CHARS
