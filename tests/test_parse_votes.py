"""The vote parsers read a paste once, left to right, and accept exactly the formats they always did.

The formats were first written as regular expressions whose backtracking made a long paste cost
quadratic time (30,000 characters: 11 s of CPU, during which the bot answered nobody). Those
expressions stay here as the definition of what is accepted: hypothesis checks that the linear
parsers find the same voters, targets, posters and reasons on any text made of the characters
that matter. How fast they are is measured in benchmarks/vote_parse.py, not here.
"""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from service import parse

# the accepted formats, as first written
PAIRS = re.compile(r"(\S+?)\s*(?:[:：>]|->|→)\s*(\S+)")
VOTE = re.compile(r"投票对象\s*:\s*(.*?)\s*(?:投票理由\s*:\s*(.*))?$", re.S)
CHANGE = re.compile(r"改票对象\s*:\s*(.*?)\s*(?:改票理由\s*:\s*(.*))?$", re.S)
POSTER = re.compile(r"(?:\d+\s*楼\s*)?(\S+)")

# every character the formats give a meaning to, a few that look alike, and ordinary text
PIECES = [":", "：", ">", "-", "->", "→", " ", "\n", "\t", "　", "\u2028", "楼", "1", "２", "①", "甲", "乙", "x",
          "投票对象", "投票理由", "改票对象", "改票理由", "投票", "理由"]
texts = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)
EXAMPLES = settings(max_examples=400, deadline=None, derandomize=True)


def old_labelled(pattern: re.Pattern, body: str) -> tuple[str, str | None] | None:
    match = pattern.search(body)
    return None if match is None else (match.group(1).strip(), match.group(2).strip() if match.group(2) is not None else None)


@EXAMPLES
@given(texts)
def test_compact_pairs_are_read_as_before(text):
    assert parse._pairs(text) == PAIRS.findall(text)


@EXAMPLES
@given(texts)
def test_a_posts_vote_and_reason_are_read_as_before(text):
    body = " ".join(line.translate(parse._PUNCT).strip() for line in text.splitlines())
    assert parse._labelled(body, "投票对象", "投票理由") == old_labelled(VOTE, body)
    assert parse._labelled(body, "改票对象", "改票理由") == old_labelled(CHANGE, body)


@EXAMPLES
@given(texts)
def test_a_posts_poster_is_read_as_before(text):
    line = text.translate(parse._PUNCT).strip()
    match = POSTER.fullmatch(line)
    assert parse._poster(line) == (match.group(1) if match else None)


def test_a_reason_that_is_empty_is_still_no_reason():
    assert parse._labelled("投票对象: 甲 投票理由:", "投票对象", "投票理由") == ("甲", "")
    assert parse._labelled("投票对象：甲", "投票对象", "投票理由") is None  # full-width colons are made half-width first
    assert parse._labelled("投票对象 :甲 投票理由 : 乙 投票理由: 丙", "投票对象", "投票理由") == ("甲", "乙 投票理由: 丙")

