"""The vote parsers read a paste once, left to right, and accept exactly the formats they always did.

The formats were first written as regular expressions whose backtracking made a long paste cost
quadratic time (30,000 characters: 11 s of CPU, during which the bot answered nobody). Those
expressions stay here as the definition of what is accepted: hypothesis checks that the linear
parsers find the same voters, targets, posters and reasons on any text made of the characters
that matter. How fast they are is measured in benchmarks/vote_parse.py, not here.
"""
from __future__ import annotations

import re

from datetime import datetime

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


def test_a_reason_written_empty_is_read_as_empty():
    assert parse._labelled("投票对象: 甲 投票理由:", "投票对象", "投票理由") == ("甲", "")
    assert parse._labelled("投票对象：甲", "投票对象", "投票理由") is None  # full-width colons are made half-width first
    assert parse._labelled("投票对象 :甲 投票理由 : 乙 投票理由: 丙", "投票对象", "投票理由") == ("甲", "乙 投票理由: 丙")



# --- what a Discuz! copy of the vote thread looks like ---------------------------------------------------------
NAMES = ["果果", "橘子", "西瓜", "菠萝"]


def test_author_and_post_time_on_one_line_start_a_post():
    pasted = "果果 发表于 2026-12-2 10:23 | 只看该作者\n投票对象：橘子\n投票理由：好\n3楼 西瓜 发表于 2026/12/02 11:05:30\n投票对象：弃权\n投票理由：再看看"
    counted = parse.forum_posts(pasted, NAMES)
    assert counted.ballots == [("果果", "橘子"), ("西瓜", "弃权")] and not counted.flagged


def test_the_time_under_the_authors_name_is_the_posts():
    pasted = "果果\n发表于 2026-12-2 10:23 | 只看该作者\n投票对象：橘子\n投票理由：好\n果果\n发表于 2026-12-2 21:30\n改票对象：西瓜\n改票理由：换"
    rules = parse.ChangeRules(cutoff=datetime(2026, 12, 2, 21, 0), cutoff_text="关门前一小时不得改票")
    counted = parse.forum_posts(pasted, NAMES, rules)
    assert counted.ballots == [("果果", "橘子")] and counted.changed == []
    assert counted.flagged == ["果果：改票发表于 12-02 21:30，关门前一小时（12-02 21:00 起）不得改票，改票无效，仍按原投票计"]


def test_an_empty_reason_is_empty_not_missing():
    counted = parse.forum_posts("果果\n投票对象：橘子\n投票理由：\n西瓜\n投票对象：橘子", NAMES)
    assert counted.ballots == [("果果", "橘子")]
    assert counted.notes == ["果果：投票理由为空，已按有效票计"]
    assert counted.flagged == ["西瓜：缺少“投票理由：”，格式有误，此票无效"]


def test_a_change_quotes_the_vote_it_changes():
    """"改票需回复原投票楼层": the quote's 投票对象 is not a second vote, and the change counts once."""
    pasted = ("果果 发表于 2026-12-2 10:00\n投票对象：橘子\n投票理由：好\n"
              "果果 发表于 2026-12-2 12:00\n果果 发表于 2026-12-2 10:00\n投票对象：橘子\n投票理由：好\n改票对象：西瓜\n改票理由：换\n"
              "橘子 发表于 2026-12-2 13:00\n果果 发表于 2026-12-2 10:00\n投票对象：橘子\n投票理由：好\n投票对象：果果\n投票理由：你投我")
    counted = parse.forum_posts(pasted, NAMES)
    assert counted.ballots == [("果果", "西瓜"), ("橘子", "果果")]  # a new vote quoting another post: its own text counts
    assert counted.changed == [("果果", "橘子")] and not counted.flagged


def test_a_change_after_a_speed_up_is_void_and_one_before_stands():
    pasted = ("果果 发表于 2026-12-2 10:00\n投票对象：橘子\n投票理由：好\n西瓜 发表于 2026-12-2 10:05\n投票对象：橘子\n投票理由：跟\n"
              "果果 发表于 2026-12-2 17:59\n改票对象：西瓜\n改票理由：换\n西瓜 发表于 2026-12-2 18:00\n改票对象：果果\n改票理由：换")
    rules = parse.ChangeRules(sped_up=datetime(2026, 12, 2, 18, 0))
    counted = parse.forum_posts(pasted, NAMES, rules)
    assert counted.ballots == [("果果", "西瓜"), ("西瓜", "橘子")]
    assert counted.flagged == ["西瓜：改票发表于 12-02 18:00，进程已在 12-02 18:00 加速，加速后不允许改票，改票无效，仍按原投票计"]
    every = parse.forum_posts(pasted, NAMES, parse.ChangeRules(all_void=True))  # sped up on an earlier day
    assert every.ballots == [("果果", "橘子"), ("西瓜", "橘子")] and len(every.flagged) == 2


def test_a_change_without_a_time_is_counted_and_left_to_the_director():
    rules = parse.ChangeRules(cutoff=datetime(2026, 12, 2, 21, 0), cutoff_text="关门前一小时不得改票")
    counted = parse.forum_posts("果果\n投票对象：橘子\n投票理由：好\n果果\n改票对象：西瓜\n改票理由：换", NAMES, rules)
    assert counted.ballots == [("果果", "西瓜")]
    assert counted.notes == ["果果：改票没有发帖时间，无法核对“关门前一小时不得改票”，已按有效计，请核对"]


def test_a_line_that_merely_mentions_posting_is_text():
    counted = parse.forum_posts("果果\n投票理由：他发表于昨天的话\n投票对象：橘子 投票理由：可疑", NAMES)
    assert counted.ballots == [("果果", "橘子")] and not counted.flagged and not counted.notes
