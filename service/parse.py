"""Players' and directors' text, turned into engine commands. Pure: no QQ, no database."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from engine import Act
from engine.ruleset import Ruleset
from engine.typed import number, quoted

TEAR = {"撕", "撕警徽", "撕毁", "不移交"}
NO_TARGET = {"空", "空刀", "放弃", "不"}
REFUSE = {"拒绝", "不同意", "否"}  # the engine's answers that refuse a surrender
AGREE = {"同意", "是"}
COMMANDS = {"帮助", "help", "?", "？", "状态", "放弃", "遗言", "投降"}  # the words that are no skill

# How long what people send may be, in characters. A player's message holds at most his last words
# (engine.deaths.LAST_WORDS_LIMIT) with room to spare; a director's holds a day's pasted vote posts.
MESSAGE_LIMIT = 3000
DIRECTOR_LIMIT = 20000
NAME_LIMIT = 16  # a character's name: it is shown in every list and announcement
TITLE_LIMIT = 30  # a game's title: QQ cuts a group's name at 30 characters


class ParseError(ValueError):
    """What was wrong with the text, and what to send instead (Chinese)."""


class TooLong(ParseError):
    """A message past its length limit: answered, never forwarded nor repeated."""

    def __init__(self, length: int, limit: int):
        super().__init__(f"消息太长：{length}字，最多{limit}字。请删减后重新发送。")


def qq_number(text: str) -> str | None:
    """A QQ or group number as typed (full-width digits too), written in ASCII; None if it is not one."""
    value = number(text, 11)
    return str(value) if value is not None and value >= 10000 else None


@dataclass(frozen=True)
class Query:
    """A question that changes nothing: 帮助 or 状态."""

    word: str


def game_prefix(text: str) -> tuple[str | None, str]:
    """`#编号 ` before a command, naming one of several games: the number as written (None: no
    prefix) and the command."""
    body = text.strip()
    if m := re.match(r"#(\d+)\s+", body):
        return m.group(1), body[m.end():]
    return None, body


def is_player_word(text: str, rules: Ruleset) -> bool:
    """Whether `text` starts with a word a player of `rules` sends (a skill, 帮助, 状态, 放弃...)."""
    if not text.strip():
        return False
    word, _ = _word_and_arg(text.strip())
    return rules.skill(word) is not None or word in COMMANDS


# a ballot sent privately where the post has it posted in the vote thread (146's private-vote days make 投票 a skill)
THREAD_VOTES = {"投票", "改票", "弃权", "竞选", "投票对象"}


def player_text(text: str, rules: Ruleset, name: str) -> Act | Query:
    """`<skill> <target>`, `放弃`, `遗言 <text>`, `投降 [拒绝]`, `帮助`, `状态`."""
    body = text.strip()
    if not body:
        raise ParseError("消息是空的。发送“帮助”查看你现在能做什么。")
    word, arg = _word_and_arg(body)
    skill = rules.skill(word)
    if skill is None and word in THREAD_VOTES:
        raise ParseError("投票不是私聊我的：请在论坛的投票帖回帖投票（写明投票对象和投票理由，弃权也要回帖），导演会统计。"
                         "发送“帮助”查看你现在能做什么。")
    if skill is None and word not in COMMANDS:
        raise ParseError(f"不认识“{quoted(word)}”。请发送“技能 目标”（如“预言 3”或“预言 果果”），或发送“帮助”。")
    if len(body) > MESSAGE_LIMIT:
        raise TooLong(len(body), MESSAGE_LIMIT)
    if word in ("帮助", "help", "?", "？"):
        return Query("帮助")
    if word == "状态":
        return Query("状态")
    if word == "放弃":
        return Act(by=name, skill="放弃")
    if word == "遗言":
        if not arg.strip():
            raise ParseError("遗言是空的。请发送“遗言 内容”（可以多行），或发送“放弃”放弃遗言。")
        return Act(by=name, skill="遗言", text=arg)
    if word == "投降":
        answer = arg.strip()
        if answer and answer not in REFUSE | AGREE:
            raise ParseError("请发送“投降”同意投降，或“投降 拒绝”拒绝。")
        return Act(by=name, skill="投降", target=answer if answer in REFUSE else None)
    target = arg.strip() or None
    if not skill.takes_target:
        return Act(by=name, skill=skill.name)
    if skill.with_text and target is not None:  # a target, then free text (146's private ballot: "投票 角色 理由")
        first, _, rest = target.partition(" ") if " " in target.split("\n", 1)[0] else target.partition("\n")
        return Act(by=name, skill=skill.name, target=first.strip(), text=rest.strip() or None)
    if target is None:
        if skill.attaches_to:  # bare, it attaches to the team's choice already sent (154's 姥姥之怒)
            return Act(by=name, skill=skill.name)
        if skill.targets > 1:  # 146's 丘比特之箭 names two: "one target" would send him the wrong way
            raise ParseError(_wrong_count(skill))
        hint = f"请发送“{skill.name} 座位号”或“{skill.name} 角色名”"
        if skill.team:
            hint += f"；全队放弃请发送“{skill.name} 空”"
        # 146's and 154's 殉职 is <强制>: tearing is offered only where the post allows it
        if skill.name == "殉职" and rules.badge_may_be_torn:
            hint += "；撕毁警徽请发送“殉职 撕”"
        raise ParseError(f"<{skill.name}>需要一个目标：{hint}。")
    if (skill.name == "殉职" and target in TEAR) or (skill.team and target in NO_TARGET):
        return Act(by=name, skill=skill.name)
    if skill.targets > 1:
        parts = target.replace("，", " ").replace(",", " ").split()
        if len(parts) != skill.targets:
            raise ParseError(_wrong_count(skill))
        return Act(by=name, skill=skill.name, target=parts)
    if len(target.split()) > 1:
        raise ParseError(f"<{skill.name}>只需要一个目标：请发送“{skill.name} 座位号”或“{skill.name} 角色名”。")
    return Act(by=name, skill=skill.name, target=target)


def _wrong_count(skill) -> str:
    return f"<{skill.name}>需要{skill.targets}个目标：请发送“{skill.name} " + " ".join(["座位号"] * skill.targets) + "”。"


def _word_and_arg(body: str) -> tuple[str, str]:
    """The first word, and everything after it (last words keep their lines)."""
    match = re.match(r"\s*(\S+?)(?:[\s:：，,]+|$)(.*)", body, re.S)
    return match.group(1), match.group(2)


# --- votes ----------------------------------------------------------------------------------------
# Every vote parser below reads its text once, left to right (a long paste cannot freeze the bot).
_PUNCT = str.maketrans({"：": ":", "，": ",", "（": "(", "）": ")", "　": " "})
_SEPARATOR = re.compile(r"->|[:：>→]")  # between voter and target in a compact list


@dataclass
class VoteCount:
    ballots: list[tuple[str, str]] = field(default_factory=list)  # (voter, target or 弃权), posting order
    flagged: list[str] = field(default_factory=list)  # void posts and why, for the director
    changed: list[tuple[str, str]] = field(default_factory=list)  # (voter, first target) of each 改票 counted
    notes: list[str] = field(default_factory=list)  # what counted but the director should check
    why: dict[str, str] = field(default_factory=dict)  # poster: why his first void post was void

    def void(self, poster: str, reason: str, consequence: str) -> None:
        self.flagged.append(f"{poster}：{reason}，{consequence}")
        self.why.setdefault(poster, reason)

    @property
    def voided(self) -> list[tuple[str, str]]:
        """Who posted only void ballots, and why the first was void: the count's 无效票, not 未投票."""
        cast = {voter for voter, _ in self.ballots}
        return [(poster, why) for poster, why in self.why.items() if poster not in cast]


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _labelled(body: str, label: str, reason_label: str) -> tuple[str, str | None] | None:
    """The first `label: target` in a post and its `reason_label: reason` after it, if any.

    `投票对象: X 投票理由: Y`: X is what lies between the colon and the first `投票理由:` after it
    (all the rest when there is none), Y everything after that colon."""
    found = _label_at(body, label, 0)
    if found < 0:
        return None
    start = _skip_space(body, found + len(label)) + 1
    reason = _label_at(body, reason_label, start)
    if reason < 0:
        return body[start:].strip(), None
    return body[start:reason].strip(), body[_skip_space(body, reason + len(reason_label)) + 1:].strip()


@dataclass(frozen=True)
class ChangeRules:
    """When a 改票 no longer counts, by the post times a paste carries (the forum's local time, naive).

    `cutoff`: "关门前一小时不得改票" — a change posted at or after it is void (`cutoff_text`: the post's words);
    `sped_up`: "进程加速后不允许改票，所有改票作废，但加速前的改票视为有效" — a change posted at or after it is void;
    `all_void`: the game was sped up before today, so every 改票 of today is void;
    `sped_up_until`: a 延时 ended the speed-up then (M131: "延迟成功时，不再视为“执行加速”状态"): a change posted
    from then on counts again."""

    cutoff: datetime | None = None
    cutoff_text: str = ""
    sped_up: datetime | None = None
    all_void: bool = False
    sped_up_until: datetime | None = None


@dataclass
class _Post:
    poster: str | None  # None: its author is no character of the game (the director's own post, a spectator's)
    time: datetime | None = None
    lines: list[str] = field(default_factory=list)
    quotes: bool = False  # it quotes a post (a 改票 "回复原投票楼层"): its own text is the last one
    bare: bool = False  # its time stood alone under the author's name (a mobile copy), not after 发表于
    labelled: bool = False  # a line of it names a vote or a change


_POSTED = "发表于"
# a Discuz! post time: "2026-12-2 10:23" or "2026/12/02 10:23:45"
_TIME = re.compile(r"\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?")
# one Discuz! shows for a recent post ("3 小时前", "昨天 21:30"): a post time, but not one to check a rule by
_RECENT = re.compile(r"\s*(?:(?:昨天|前天)\s*\d{1,2}:\d{2}|\d{1,3}\s*(?:秒|分钟|小时|天)前|半小时前|刚刚)")
_LABELS = ("投票对象", "改票对象")

# What a Discuz! page puts around a post besides its author and time: the floor mark (楼主, 沙发, 5#...),
# the author's profile beside it (user group, 积分, 帖子, UID...) and the page's buttons. None is a vote.
_FLOORS = {"楼主", "沙发", "板凳", "地板", "地下室"}
_ASIDE = {
    "主题", "帖子", "积分", "精华", "听众", "收听", "收听TA", "关注", "关注TA", "好友", "发消息", "串个门", "加好友", "打招呼",
    "在线", "离线", "回复", "引用", "举报", "使用道具", "评分", "点评", "分享", "收藏", "支持", "反对", "只看该作者",
    "显示全部楼层", "电梯直达", "倒序浏览", "阅读模式", "复制链接", "[复制链接]", "来自手机", "来自手机版", "|",
    "新手上路", "注册会员", "中级会员", "高级会员", "金牌会员", "论坛元老", "版主", "超级版主", "实习版主", "管理员",
    "禁止发言", "禁止访问", "等待验证会员", "限制会员", "游客", "TA的每日心情", "只看楼主", "只看大图",
}
_ASIDE_KEYS = {"UID", "积分", "帖子", "主题", "精华", "金钱", "威望", "贡献", "在线时间", "注册时间", "最后登录", "阅读权限",
               "听众", "收听", "签到天数", "查看", "回复"}
_ASIDE_STARTS = ("Rank:", "[LV.", "本帖最后由")


def _floor(word: str) -> bool:
    """A floor mark: 楼主, 沙发, 板凳, 地板, `5#`, `#5`, `5楼`."""
    if word in _FLOORS:
        return True
    digits = word[1:] if word.startswith("#") else word[:-1] if word.endswith(("#", "楼")) else ""
    return digits.isdecimal()


def _aside(line: str) -> bool:
    """A line of the page around the posts (see _ASIDE), not of any post."""
    words = line.replace("|", " ").split()
    if all(w in _ASIDE or _floor(w) or w.isdecimal() for w in words) or _floor("".join(words)):
        return True
    key = line.partition(":")[0].split(" ", 1)[0]
    return (key in _ASIDE_KEYS and len(line) <= 40) or line.startswith(_ASIDE_STARTS)


def _stamp(text: str) -> tuple[bool, datetime | None, int]:
    """A post time at the start of `text`: whether there is one, its value (None for "3 小时前"), where it ends."""
    m = _TIME.match(text)
    if m is not None:
        try:
            return True, datetime(*(int(part) for part in m.groups(default="0"))), m.end()
        except ValueError:
            return False, None, 0
    m = _RECENT.match(text)
    return (True, None, m.end()) if m else (False, None, 0)


def _posted(line: str, known: set[str]) -> tuple[str, str | None, datetime | None] | None:
    """A line carrying a post's `发表于 time`: (what names the author, the author, the time), None for any
    other line. The first is "" for a line with no author on it ("沙发 发表于 …", "发表于 … | 只看该作者"),
    otherwise the word before 发表于, the second that word when it is a character's name."""
    found = line.find(_POSTED)
    if found < 0:
        return None
    ok, at, _ = _stamp(line[found + len(_POSTED):])
    if not ok:
        return None
    words = [w for w in line[:found].replace("|", " ").split() if not _floor(w)]
    if not words:
        return "", None, at
    if len(words) > 1 or ":" in words[0]:
        return None  # a sentence that mentions when something was posted
    return words[0], (words[0] if words[0] in known else None), at


def _time_alone(line: str) -> bool:
    """A line that is only a post time (with the page's words after it: "| 只看该作者")."""
    ok, _, end = _stamp(line)
    return ok and (end == len(line) or _aside(line[end:]))


def _named(line: str, known: set[str]) -> str | None:
    """The character a post's first line names: `果果`, `3楼 果果`, or with a floor mark (`沙发 果果`, `5# 果果`)."""
    poster = _poster(line)
    if poster in known:
        return poster
    words = line.split()
    if len(words) == 2:
        first, second = words
        if _floor(first) and second in known:
            return second
        if _floor(second) and first in known:
            return first
    return None


def _has_label(line: str) -> bool:
    return any(_label_at(line, label, 0) >= 0 for label in _LABELS)


def _rows(text: str) -> list[tuple[str, str]]:
    """The paste's lines that may belong to a post, as written and with punctuation made half-width."""
    rows = []
    for raw in text.splitlines():
        line = raw.translate(_PUNCT).strip()
        if line and not _aside(line):
            rows.append((raw, line))
    return rows


def _timed(rows: list[tuple[str, str]], known: set[str]) -> bool:
    """Whether the paste carries its posts' times (a Discuz! copy): `发表于` lines, or a mobile copy's times
    alone under the author's name."""
    after_name = False
    for _, line in rows:
        if _posted(line, known) is not None or (after_name and _time_alone(line)):
            return True
        after_name = _named(line, known) is not None
    return False


def _plain_posts(rows: list[tuple[str, str]], known: set[str]) -> list[_Post]:
    """Posts written out by hand: each starts with a line naming its poster."""
    posts: list[_Post] = []
    for raw, line in rows:
        if (poster := _named(line, known)) is not None:
            posts.append(_Post(poster))
        elif posts:
            posts[-1].lines.append(line)
        else:
            raise ParseError(f"第一行应是发帖角色名（如“3楼 果果”或“果果 发表于 …”），而不是“{quoted(raw.strip())}”")
    return posts


def _timed_posts(rows: list[tuple[str, str]], known: set[str]) -> list[_Post]:
    """A Discuz! copy: a post starts only at its time. Its author is named on the `发表于` line, or is the
    last line naming a character before it (the page's floor mark and profile lines in between are left
    out); a line naming a character inside a post (a reason "橘子") starts nothing by itself.

    A `发表于` line right under a post's own head is the head of the post it quotes. A mobile copy gives
    the time alone under the author's name; a `发表于` with no author before it then belongs to that
    post while it names no vote yet (the time alone was a date in the author's profile)."""
    posts: list[_Post] = []
    post: _Post | None = None
    named: tuple[str, int] | None = None  # the last line naming a character since the last post began, and where it is
    previous: str | None = None  # the character the previous line named

    def begin(poster: str | None, at: datetime | None, bare: bool = False) -> None:
        nonlocal post, named
        if post is not None and named is not None:
            del post.lines[named[1]:]  # the author's line and his profile, read as the post before's text
        post = _Post(poster, at, bare=bare)
        posts.append(post)
        named = None

    for _, line in rows:
        head = _posted(line, known)
        if head is not None:
            word, author, at = head
            if word and post is not None and not post.lines:
                post.quotes = True  # the head of the post it quotes, right under its own
            elif word:
                named = None
                begin(author, at)
            elif named is not None:
                begin(named[0], at)
            elif post is not None and post.bare and not post.labelled:
                post.time, post.bare = at, False
                post.lines.clear()
            else:
                begin(None, at)
            previous = None
            continue
        if _time_alone(line):
            if previous is not None:
                begin(previous, _stamp(line)[1], bare=True)
            previous = None
            continue  # otherwise a date in the author's profile
        previous = _named(line, known)
        if post is not None:
            post.lines.append(line)
            if _has_label(line):
                post.labelled = True
                named = None
        if previous is not None:
            named = (previous, len(post.lines) - 1 if post is not None else 0)
    return posts


def forum_posts(text: str, names: list[str], rules: ChangeRules | None = None) -> VoteCount:
    """Pasted vote posts: each post starts with a line naming its poster (`3楼 果果`, `果果`, or Discuz!'s
    `果果 发表于 2026-12-2 10:23`), then `投票对象：X` / `投票理由：Y` (one `改票对象：` allowed), as the
    posts' own format says. A copy of a Discuz! page (desktop, mobile, 只看该作者) is read as it comes:
    see _timed_posts.

    The format is strict, as the posts require ("投票格式或投票对象有误的票无效"), except that
    full- and half-width punctuation are the same and 理由 may follow 对象 on one line. A 改票 quotes
    the vote it changes ("改票需回复原投票楼层"): a post's own text comes after what it quotes. With the
    posts' times, `rules` voids the 改票 posted when the post forbids one.
    """
    known = set(names)
    rules = rules or ChangeRules()
    rows = _rows(text)
    posts = _timed_posts(rows, known) if _timed(rows, known) else _plain_posts(rows, known)
    chosen: dict[str, str] = {}
    first: dict[str, str] = {}
    result = VoteCount()
    order: list[str] = []
    for post in posts:
        poster = post.poster
        body = " ".join(post.lines)
        if poster is None:
            if post.labelled:
                when = f"发表于 {post.time:%m-%d %H:%M} 的" if post.time else ""
                result.notes.append(f"{when}一帖的作者不是本局角色（或复制时缺了作者名），其中的投票未计入，请核对")
            continue
        vote, change = _own(body, "投票对象", "投票理由", post.quotes), _own(body, "改票对象", "改票理由", post.quotes)
        if not post.quotes and _label_at(body, "投票对象", _label_at(body, "投票对象", 0) + 1) >= 0:
            result.notes.append(f"{poster}：一帖中有不止一个“投票对象：”，只计第一个，请核对是否漏了另一帖的作者")
        if change:  # a 改票 quotes the vote it changes: the 投票对象 in it is the quote's
            if poster not in chosen:
                result.void(poster, "改票前没有有效的投票", "改票无效")
            elif poster in first:
                result.void(poster, "改票只允许一次", "第二次改票无效")
            elif why := _change_void(post, rules):
                result.void(poster, why, "改票无效，仍按原投票计")
            else:
                target = _target(change, known, poster, result, "改票")
                if target:
                    if _change_unknown(post, rules):
                        result.notes.append(f"{poster}：改票没有发帖时间，无法核对“{rules.cutoff_text or '加速后不允许改票'}”，已按有效计，请核对")
                    first[poster] = chosen[poster]
                    chosen[poster] = target
            continue
        if not vote:
            result.void(poster, "没有“投票对象：”，格式有误", "此帖无效")
            continue
        if poster in chosen:
            result.void(poster, "重复投票", "以第一次为准（改票请使用“改票对象：”）")
            continue
        target = _target(vote, known, poster, result, "投票")
        if target:
            chosen[poster] = target
            order.append(poster)
    result.ballots = [(p, chosen[p]) for p in order]
    result.changed = [(p, first[p]) for p in order if p in first]
    return result


def _label_at(body: str, label: str, at: int) -> int:
    """Where the first `label:` at or after `at` begins (spaces allowed before the colon), -1 if none."""
    while (found := body.find(label, at)) >= 0:
        colon = _skip_space(body, found + len(label))
        if colon < len(body) and body[colon] == ":":
            return found
        at = found + 1
    return -1


def _own(body: str, label: str, reason_label: str, quotes: bool) -> tuple[str, str | None] | None:
    """A post's `label: target` and its reason: the first, or the last in a post that quotes another."""
    if not quotes:
        return _labelled(body, label, reason_label)
    last = found = _label_at(body, label, 0)
    while found >= 0:
        last, found = found, _label_at(body, label, found + 1)
    return None if last < 0 else _labelled(body[last:], label, reason_label)


def _change_void(post: _Post, rules: ChangeRules) -> str | None:
    """Why a 改票 posted at `post.time` does not count, or None."""
    until = rules.sped_up_until
    if rules.all_void and until is None:
        return "进程已加速，加速后不允许改票"
    if post.time is None:
        return None
    if until is None or post.time < until:
        if rules.all_void:
            return f"改票发表于 {post.time:%m-%d %H:%M}，进程在 {until:%m-%d %H:%M} 延时之前处于加速状态，加速时不允许改票"
        if rules.sped_up and post.time >= rules.sped_up:
            return (f"改票发表于 {post.time:%m-%d %H:%M}，进程已在 {rules.sped_up:%m-%d %H:%M} 加速"
                    + (f"（{until:%m-%d %H:%M} 延时），加速时" if until else "，加速后") + "不允许改票")
    if rules.cutoff and post.time >= rules.cutoff:
        return f"改票发表于 {post.time:%m-%d %H:%M}，关门前一小时（{rules.cutoff:%m-%d %H:%M} 起）不得改票"
    return None


def _change_unknown(post: _Post, rules: ChangeRules) -> bool:
    return post.time is None and bool(rules.cutoff or rules.sped_up or rules.sped_up_until)


def _poster(line: str) -> str | None:
    """The poster a post's first line names: `果果`, or `3楼 果果` (one word, after an optional floor)."""
    digits = 0
    while digits < len(line) and line[digits].isdecimal():
        digits += 1
    if digits:
        floor = _skip_space(line, digits)
        if floor < len(line) and line[floor] == "楼":
            rest = line[_skip_space(line, floor + 1):]
            if rest and not any(c.isspace() for c in rest):
                return rest
    return line if line and not any(c.isspace() for c in line) else None


def _target(labelled: tuple[str, str | None], known: set[str], poster: str, result: VoteCount, word: str) -> str | None:
    target, reason = labelled
    if target not in known and (seat := re.fullmatch(r"\d{1,3}\s*号\s*(.+)", target)) and seat[1].strip() in known:
        target = seat[1].strip()  # "11号 兰舟": the name as the bot itself writes it
    if reason is None:
        result.void(poster, f"缺少“{word}理由：”，格式有误", "此票无效")
        return None
    if target != "弃权" and target not in known:
        result.void(poster, f"{word}对象“{quoted(target)}”不是本局角色", "此票无效")
        return None
    if not reason:  # "投票理由：" written and left empty: the format is kept, the reason is empty
        result.notes.append(f"{poster}：{word}理由为空，已按有效票计")
    return target


def _separator(word: str, at: int) -> int:
    """The length of the voter/target separator `word` has at `at` (0: none)."""
    found = _SEPARATOR.match(word, at)
    return len(found.group()) if found else 0


def _pairs(text: str) -> list[tuple[str, str]]:
    """`甲:乙 丙 : 丁 戊->己`: each voter, then a separator, then the target, spaces allowed around it.

    A voter is a word up to its first separator (or a whole word a separator follows), a target the
    rest of that word or the next word."""
    words = text.split()
    pairs = []
    i = 0
    while i < len(words):
        word = words[i]
        if cut := _SEPARATOR.search(word, 1):
            voter, rest, i = word[:cut.start()], word[cut.end():], i + 1
        elif i + 1 < len(words) and _separator(words[i + 1], 0):
            voter, rest, i = word, words[i + 1][_separator(words[i + 1], 0):], i + 2
        else:
            i += 1
            continue
        if not rest:
            if i >= len(words):
                break
            rest, i = words[i], i + 1
        pairs.append((voter, rest))
    return pairs


def compact_votes(text: str, names: list[str]) -> VoteCount:
    """`甲:乙 丙:弃权` or one `甲 乙` pair a line: voter, then target."""
    known = set(names)
    result = VoteCount()
    seen: set[str] = set()
    pairs = _pairs(text) or [tuple(line.split()) for line in text.splitlines() if len(line.split()) == 2]
    if not pairs:
        raise ParseError("没有读到票。请按“投票人:投票对象”书写，多张票用空格或换行分隔，如“果果:橘子 橘子:弃权”。")
    for voter, target in pairs:
        if voter not in known:
            result.flagged.append(f"“{quoted(voter)}”不是本局角色，此票无效")
        elif target != "弃权" and target not in known:
            result.void(voter, f"投票对象“{quoted(target)}”不是本局角色", "此票无效")
        elif voter in seen:
            result.void(voter, "重复出现", "以第一次为准")
        else:
            seen.add(voter)
            result.ballots.append((voter, target))
    return result


def votes(text: str, names: list[str], rules: ChangeRules | None = None) -> VoteCount:
    if "投票对象" in text or "改票对象" in text:
        return forum_posts(text, names, rules)
    return compact_votes(text, names)
