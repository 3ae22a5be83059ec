"""Index terms and queries: English stopwords and stems, CJK bigrams, snippets."""

from __future__ import annotations

from workmem.retrieval import analyze


def test_english_terms_drop_stopwords_and_possessives() -> None:
    terms = analyze.index_terms("What did Caroline's team decide about the database?").split()
    assert terms == ["caroline", "team", "decide", "database"]


def test_cjk_runs_become_bigrams_and_last_character() -> None:
    assert analyze.cjk_grams("收工了") == ["收工", "工了", "了"]
    assert analyze.cjk_grams("貓") == ["貓"]
    assert analyze.index_terms("今天收工 sqlite").split() == [
        "sqlite",
        "今天",
        "天收",
        "收工",
        "工",
    ]


def test_query_terms_quote_words_and_cjk() -> None:
    atoms = analyze.query_terms("上週的決定 about SQLite")
    assert '"sqlite"' in atoms
    assert '"上週"' in atoms and '"決定"' in atoms
    assert analyze.query_terms("貓") == ['"貓"*']


def test_stopword_only_query_still_searches() -> None:
    assert analyze.fts_query("what is it") == '"what" OR "is" OR "it"'
    assert analyze.fts_query("   ") is None


def test_quotes_in_queries_are_escaped() -> None:
    assert analyze.query_terms('say "hello"') == ['"say"', '"hello"']
    assert all(atom.count('"') % 2 == 0 for atom in analyze.query_terms('a"b c'))


def test_snippet_centres_on_the_first_match() -> None:
    text = "intro " * 60 + "the FTS5 index was chosen " + "outro " * 60
    cut = analyze.snippet(text, analyze.highlight_terms("index chosen"), width=80)
    assert "index" in cut and cut.startswith("…") and cut.endswith("…")
    assert len(cut) <= 82
    assert analyze.snippet("short  text\nhere", []) == "short text here"
