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


def test_a_target_written_as_the_bot_writes_it_counts():
    """"投票对象：11号 兰舟": the seat and name, as every list of the bot shows them."""
    pasted = "果果\n投票对象：2号 橘子\n投票理由：好\n西瓜\n投票对象：3号西瓜\n投票理由：自投"
    counted = parse.forum_posts(pasted, NAMES)
    assert counted.ballots == [("果果", "橘子"), ("西瓜", "西瓜")] and not counted.flagged


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


# --- whole Discuz! pages, as a browser copies them --------------------------------------------------------------
CUTOFF = parse.ChangeRules(cutoff=datetime(2026, 12, 2, 21, 0), cutoff_text="关门前一小时不得改票")
PROFILE = ["15", "主题", "120", "帖子", "500", "积分", "注册会员", "Rank: 2Rank: 2", "积分", "500", "UID 10086", "发消息", "串个门"]
LATE_CHANGE = "果果：改票发表于 12-02 21:30，关门前一小时（12-02 21:00 起）不得改票，改票无效，仍按原投票计"


def desktop(name: str, floor: str, at: str, *lines: str, profile: list[str] = PROFILE, link: str = "只看该作者") -> list[str]:
    """A post of the desktop page: the author's name and profile on the left, then the floor mark, 发表于, the post."""
    return [name, *profile, floor, f"发表于 2026-12-2 {at} | {link}", *lines, "回复", "举报"]


PAGE_HEAD = ["【第2天投票帖】粽子", "查看: 352|回复: 14", "[复制链接]",
             "导演组", "管理员", "电梯直达", "楼主", "发表于 2026-12-2 09:00 | 只看该作者 |倒序浏览 |阅读模式",
             "第2天投票帖，投票格式：", "投票对象：甜粽子", "投票理由：甜粽子好吃", "回复", "举报"]
DIRECTORS_POST = "发表于 12-02 09:00 的一帖的作者不是本局角色（或复制时缺了作者名），其中的投票未计入，请核对"


def test_a_desktop_page_copy_keeps_every_posts_time():
    """Floor marks and the author's profile between his name and 发表于 are left out: the 21:30 改票 is void."""
    page = "\n".join([
        *PAGE_HEAD,
        *desktop("果果", "沙发", "10:23:45", "投票对象：橘子", "投票理由：好"),
        *desktop("橘子", "板凳", "11:00", "投票对象：弃权", "投票理由：", "西瓜"),  # a reason that is a name starts no post
        *desktop("西瓜", "地板", "12:00", "投票对象：果果", "投票理由：划水"),
        *desktop("菠萝", "5#", "13:00", "投票对象：路人", "投票理由：？"),
        *desktop("果果", "#6", "21:30", "果果 发表于 2026-12-2 10:23", "投票对象：橘子", "投票理由：好",
                 "改票对象：西瓜", "改票理由：换"),
    ])
    counted = parse.forum_posts(page, NAMES, CUTOFF)
    assert counted.ballots == [("果果", "橘子"), ("橘子", "弃权"), ("西瓜", "果果")] and counted.changed == []
    assert counted.flagged == ["菠萝：投票对象“路人”不是本局角色，此票无效", LATE_CHANGE]
    assert counted.notes == [DIRECTORS_POST]  # 橘子's reason is "西瓜", not empty
    assert counted.voided == [("菠萝", "投票对象“路人”不是本局角色")]


def test_a_desktop_copy_with_the_author_above_the_post():
    """Forums that show the author over the post: `楼主 | 果果 发表于 …`, the floor mark on a line before it."""
    page = "\n".join(["沙发", "果果 发表于 2026-12-2 10:00 | 只看该作者", "投票对象：橘子", "投票理由：好", "回复 引用 举报",
                      "5楼", "楼主 | 橘子 发表于 2026-12-2 10:30", "投票对象：果果", "投票理由：回敬", "使用道具 举报",
                      "6#", "果果 发表于 2026-12-2 21:30", "果果 发表于 2026-12-2 10:00", "投票对象：橘子", "投票理由：好",
                      "改票对象：西瓜", "改票理由：换"])
    counted = parse.forum_posts(page, NAMES, CUTOFF)
    assert counted.ballots == [("果果", "橘子"), ("橘子", "果果")] and counted.flagged == [LATE_CHANGE]


def test_profiles_as_forums_make_them():
    """A user group of the forum's own, a mood with its date (a plugin), a registration date: none is the post's."""
    moods = ["粽子帮帮主", "TA的每日心情", "开心", "2026-11-30 08:00", "签到天数: 20 天", "[LV.4]偶尔看看III"]
    registered = ["注册时间", "2020-1-1 10:00", "在线时间", "300 小时"]
    page = "\n".join([*desktop("果果", "沙发", "10:00", "投票对象：橘子", "投票理由：好", profile=moods),
                      *desktop("果果", "板凳", "21:30", "改票对象：西瓜", "改票理由：换", profile=registered)])
    counted = parse.forum_posts(page, NAMES, CUTOFF)
    assert counted.ballots == [("果果", "橘子")] and counted.flagged == [LATE_CHANGE]


def test_a_mobile_page_copy():
    """The touch page: `沙发 果果`, then the time alone (no 发表于); a quote still carries its 发表于."""
    page = "\n".join(["【第2天投票帖】粽子", "只看楼主", "楼主 导演组", "2026-12-2 09:00", "收藏", "第2天投票帖",
                      "投票对象：甜粽子", "投票理由：甜粽子好吃",
                      "沙发 果果", "2026-12-2 10:23", "投票对象：橘子", "投票理由：好",
                      "板凳 橘子", "2026-12-2 11:00", "投票对象：弃权", "投票理由：", "果果",
                      "5# 西瓜", "2026-12-2 20:59", "投票对象：果果", "投票理由：划水",
                      "6# 果果", "2026-12-2 21:30", "果果 发表于 2026-12-2 10:23", "投票对象：橘子", "投票理由：好",
                      "改票对象：西瓜", "改票理由：换"])
    counted = parse.forum_posts(page, NAMES, CUTOFF)
    assert counted.ballots == [("果果", "橘子"), ("橘子", "弃权"), ("西瓜", "果果")]
    assert counted.flagged == [LATE_CHANGE] and not counted.notes  # 橘子's reason is "果果"


def test_only_the_authors_posts_copied_one_after_another():
    """"只看该作者" pages, one per voter, pasted together: their link reads 显示全部楼层."""
    page = "\n".join([*desktop("果果", "楼主", "10:00", "投票对象：橘子", "投票理由：好", link="显示全部楼层"),
                      *desktop("果果", "沙发", "20:00", "果果 发表于 2026-12-2 10:00", "投票对象：橘子", "投票理由：好",
                               "改票对象：西瓜", "改票理由：换", link="显示全部楼层"),
                      *desktop("橘子", "楼主", "10:30", "改票对象：果果", "改票理由：忘了先投", link="显示全部楼层")])
    counted = parse.forum_posts(page, NAMES, CUTOFF)
    assert counted.ballots == [("果果", "西瓜")] and counted.changed == [("果果", "橘子")]
    assert counted.flagged == ["橘子：改票前没有有效的投票，改票无效"]
    assert counted.voided == [("橘子", "改票前没有有效的投票")]


def test_a_recent_posts_time_is_no_time():
    """Discuz! shows "3 小时前" for a recent post: it starts the post, and a 改票 in it is left to the director."""
    page = "\n".join(["果果", "沙发", "发表于 3 小时前 | 只看该作者", "投票对象：橘子", "投票理由：好",
                      "果果", "板凳", "发表于 半小时前 | 只看该作者", "改票对象：西瓜", "改票理由：换"])
    counted = parse.forum_posts(page, NAMES, CUTOFF)
    assert counted.ballots == [("果果", "西瓜")]
    assert counted.notes == ["果果：改票没有发帖时间，无法核对“关门前一小时不得改票”，已按有效计，请核对"]


def test_a_post_whose_author_line_is_missing_is_reported():
    """With 发表于 lines, only they start posts: a name line followed by votes but no 发表于 merges into the post
    before, and the director is told; a post with no character for author is not counted, and he is told."""
    pasted = "\n".join(["果果 发表于 2026-12-2 10:00", "投票对象：橘子", "投票理由：好",
                        "西瓜", "投票对象：果果", "投票理由：划水",
                        "路人 发表于 2026-12-2 11:00", "投票对象：西瓜", "投票理由：围观"])
    counted = parse.forum_posts(pasted, NAMES)
    assert counted.ballots == [("果果", "橘子")]
    assert counted.notes == ["果果：一帖中有不止一个“投票对象：”，只计第一个，请核对是否漏了另一帖的作者",
                             "发表于 12-02 11:00 的一帖的作者不是本局角色（或复制时缺了作者名），其中的投票未计入，请核对"]


def test_floor_marks_around_hand_written_posts():
    counted = parse.forum_posts("沙发\n果果\n投票对象：橘子\n投票理由：好\n板凳 橘子\n投票对象：果果\n投票理由：回敬", NAMES)
    assert counted.ballots == [("果果", "橘子"), ("橘子", "果果")] and not counted.flagged


def test_who_posted_only_void_ballots():
    """The count's 无效票: a poster none of whose posts counted, with why the first did not."""
    pasted = ("果果\n投票对象：橘子\n果果\n投票对象：西瓜\n投票理由：好\n"  # a void post, then a vote that counts
              "橘子\n我投果果\n橘子\n投票对象：路人\n投票理由：？\n"
              "西瓜\n改票对象：果果\n改票理由：换")
    counted = parse.forum_posts(pasted, NAMES)
    assert counted.ballots == [("果果", "西瓜")]
    assert counted.voided == [("橘子", "没有“投票对象：”，格式有误"), ("西瓜", "改票前没有有效的投票")]
    assert parse.compact_votes("果果:路人 橘子:西瓜", NAMES).voided == [("果果", "投票对象“路人”不是本局角色")]


PAGE_PIECES = ["\n", " ", "果果", "橘子", "路人", "发表于", " 2026-12-2 10:00", " 2026-12-2 21:30", "2026-13-2 10:00", " 3 小时前",
               "沙发", "5#", "#6", "7楼", "积分", "注册会员", "| 只看该作者", "投票对象：", "投票理由：", "改票对象：", "改票理由：",
               "弃权", "西瓜", "：", "楼主 |"]


@EXAMPLES
@given(st.lists(st.sampled_from(PAGE_PIECES), max_size=60).map("".join))
def test_any_page_gives_one_ballot_per_character_or_says_what_is_wrong(text):
    try:
        counted = parse.forum_posts(text, NAMES, CUTOFF)
    except parse.ParseError:
        return
    voters = [voter for voter, _ in counted.ballots]
    assert len(voters) == len(set(voters)) and set(voters) <= set(NAMES)
    assert all(target in NAMES or target == "弃权" for _, target in counted.ballots)
    assert not {poster for poster, _ in counted.voided} & set(voters)
