"""The English stemmer: one term per word family, and words that only look alike apart."""

from __future__ import annotations

import pytest

from workmem.retrieval.stemming import stem


@pytest.mark.parametrize(
    "family",
    [
        "decide decided decides deciding decision decisions",
        "choose chose chosen choosing chooses",
        "fail failed failing fails failure failures",
        "prefer preferred preference preferences",
        "depend depends dependency dependencies dependence",
        "configure configured configuring configuration configurations config",
        "create created creating creation",
        "validate validated validating validation",
        "document documents documented documentation docs",
        "implement implemented implementing implementation",
        "deploy deployed deploying deployment deploys",
        "include includes included including inclusion",
        "extend extends extended extension",
        "respond response responses",
        "install installed installing installation",
        "query queries queried",
        "match matches matched matching",
        "cache caches cached caching",
        "session sessions",
        "permit permission permissions",
        "migrate migrated migration migrations",
        "solve solution solutions",
        "agree agreed agreement",
        "set setting settings",
        "embed embeds embedded embedding",
        "database databases db",
        "write wrote written writes",
        "run runs running ran",
    ],
)
def test_a_word_family_shares_one_term(family: str) -> None:
    terms = {stem(word) for word in family.split()}
    assert len(terms) == 1, {word: stem(word) for word in family.split()}


@pytest.mark.parametrize(
    "first, second",
    [
        ("comment", "come"),  # "-ment" is kept when too little would be left
        ("station", "state"),
        ("table", "tab"),
        ("user", "use"),  # the user is not the use of something
        ("sentence", "send"),  # "sent" is send's, "sentence" is not
        ("need", "ne"),
        ("format", "form"),
        ("session", "set"),
        ("parser", "pars"),
    ],
)
def test_words_that_only_look_alike_stay_apart(first: str, second: str) -> None:
    assert stem(first) != stem(second)


def test_names_numbers_and_other_scripts_pass_as_they_are() -> None:
    assert stem("v2") == "v2"
    assert stem("café") == "café"
    assert stem("收工") == "收工"
    assert stem("ab") == "ab"
    assert stem("") == ""


def test_a_stem_is_stable() -> None:
    # the index and the query stem the same word the same way, whatever came before
    words = ["decisions", "configured", "dependencies", "chose", "failures"]
    assert [stem(w) for w in words] == [stem(w) for w in reversed(words)][::-1]
    assert all(stem(stem(w)) == stem(w) for w in ("decis", "configur", "fail"))
