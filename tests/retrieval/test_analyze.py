"""Index terms and queries: English stopwords and stems, CJK bigrams, snippets."""

from __future__ import annotations

from workmem.retrieval import analyze


def test_english_terms_drop_stopwords_and_possessives() -> None:
    terms = analyze.index_terms("What did Caroline's team decide about the database?").split()
    # stemmed: "decide" shares its term with "decision", "database" with "databases"
    assert terms == ["carolin", "team", "decis", "databas"]


def test_cjk_runs_become_bigrams_and_last_character() -> None:
    assert analyze.cjk_grams("收工了") == ["收工", "工了", "了"]
    assert analyze.cjk_grams("貓") == ["貓"]
    assert analyze.index_terms("今天收工 sqlite").split() == [
        "sqlit",
        "今天",
        "天收",
        "收工",
        "工",
    ]


def test_query_terms_quote_words_and_cjk() -> None:
    atoms = analyze.query_terms("上週的決定 about SQLite")
    assert '"sqlit"' in atoms
    assert '"上週"' in atoms and '"決定"' in atoms
    assert '"週的"' not in atoms and '"的決"' not in atoms  # 的 is cut out, not glued
    assert analyze.query_terms("貓") == ['"貓"*']


def test_stopword_only_query_still_searches() -> None:
    assert analyze.fts_query("what is it") == '"what" OR "is" OR "it"'
    assert analyze.fts_query("   ") is None


def test_quotes_in_queries_are_escaped() -> None:
    assert analyze.query_terms('ship "hello"') == ['"ship"', '"hello"']
    assert all(atom.count('"') % 2 == 0 for atom in analyze.query_terms('a"b c'))


def test_snippet_centres_on_the_first_match() -> None:
    text = "intro " * 60 + "the FTS5 index was chosen " + "outro " * 60
    cut = analyze.snippet(text, analyze.highlight_terms("index chosen"), width=80)
    assert "index" in cut and cut.startswith("…") and cut.endswith("…")
    assert len(cut) <= 82
    assert analyze.snippet("short  text\nhere", []) == "short text here"


def test_question_filler_is_left_out_of_the_query_but_not_of_the_text() -> None:
    assert analyze.query_words("tell me what happened with the deploy") == ["deploy"]
    assert "tell" in analyze.index_terms("tell the deploy team").split()
    # a question of filler only still means something
    assert analyze.query_words("tell me something") == ["tell", "someth"]


def test_chinese_question_words_are_cut_out_of_the_query() -> None:
    assert analyze.query_runs("我們為什麼不用 Postgres") == ["不用"]
    assert analyze.query_runs("覆蓋率的門檻定在多少") == ["覆蓋率", "門檻定在"]
    atoms = analyze.query_terms("週一做了什麼")
    assert '"週一"' in atoms and not any("什" in atom or "麼" in atom for atom in atoms)


def test_camel_case_names_are_also_their_parts() -> None:
    assert analyze.words("TokenUsage JSONParser Caroline USA") == [
        "tokenusage",
        "token",
        "usage",
        "jsonparser",
        "json",
        "parser",
        "caroline",
        "usa",
    ]
    terms = analyze.index_terms("TestBuildProviderSnapshotWorktree").split()
    assert {"snapshot", "worktre"} <= set(terms)


def test_a_question_of_a_section_family_asks_for_that_section_too() -> None:
    # "should … be split?" asks for a decision: the family's term joins the query, matching
    # only the sections an entry is filed under
    assert analyze.query_terms("should the handlers be split?") == [
        '"handler"',
        '"split"',
        'sec:"decis"',
    ]
    assert 'sec:"error"' in analyze.query_terms("what broke on CI")
    assert analyze.asked_terms("what did we decide") == {"decis"}
    assert analyze.asked_terms("should we split it") == {"split", "decis"}
