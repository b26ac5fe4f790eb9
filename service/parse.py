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
# (engine.game.LAST_WORDS_LIMIT) with room to spare; a director's holds a day's pasted vote posts.
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


def player_text(text: str, rules: Ruleset, name: str) -> Act | Query:
    """`<skill> <target>`, `放弃`, `遗言 <text>`, `投降 [拒绝]`, `帮助`, `状态`."""
    body = text.strip()
    if not body:
        raise ParseError("消息是空的。发送“帮助”查看你现在能做什么。")
    word, arg = _word_and_arg(body)
    skill = rules.skill(word)
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


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _labelled(body: str, label: str, reason_label: str) -> tuple[str, str | None] | None:
    """The first `label: target` in a post and its `reason_label: reason` after it, if any.

    `投票对象: X 投票理由: Y`: X is what lies between the colon and the first `投票理由:` after it
    (all the rest when there is none), Y everything after that colon."""
    at = 0
    while (found := body.find(label, at)) >= 0:
        colon = _skip_space(body, found + len(label))
        if colon < len(body) and body[colon] == ":":
            break
        at = found + 1
    else:
        return None
    start = colon + 1
    at = start
    while (found := body.find(reason_label, at)) >= 0:
        colon = _skip_space(body, found + len(reason_label))
        if colon < len(body) and body[colon] == ":":
            return body[start:found].strip(), body[colon + 1:].strip()
        at = found + 1
    return body[start:].strip(), None


@dataclass(frozen=True)
class ChangeRules:
    """When a 改票 no longer counts, by the post times a paste carries (the forum's local time, naive).

    `cutoff`: "关门前一小时不得改票" — a change posted at or after it is void (`cutoff_text`: the post's words);
    `sped_up`: "进程加速后不允许改票，所有改票作废，但加速前的改票视为有效" — a change posted at or after it is void;
    `all_void`: the game was sped up before today, so every 改票 of today is void."""

    cutoff: datetime | None = None
    cutoff_text: str = ""
    sped_up: datetime | None = None
    all_void: bool = False


@dataclass
class _Post:
    poster: str
    time: datetime | None = None
    lines: list[str] = field(default_factory=list)
    quotes: bool = False  # it quotes a post (a 改票 "回复原投票楼层"): its own text is the last one


_POSTED = "发表于"
# a Discuz! post time: "2026-12-2 10:23" or "2026/12/02 10:23:45" (a relative one, "3 小时前", is not a time)
_TIME = re.compile(r"\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?")


def _posted_at(text: str) -> datetime | None:
    """The time at the start of `text` (what follows 发表于), None when there is none."""
    m = _TIME.match(text)
    if m is None:
        return None
    try:
        return datetime(*(int(part) for part in m.groups(default="0")))
    except ValueError:
        return None


def _head(line: str, known: set[str]) -> tuple[str | None, datetime | None, bool]:
    """A line that starts a post: (poster, time, whether it carried 发表于), poster None when it does not.

    `果果`, `3楼 果果`, and Discuz!'s copy `果果 发表于 2026-12-2 10:23 | 只看该作者` (author and time on one
    line); a line `发表于 2026-12-2 10:23` alone gives the time of the post it follows (poster None)."""
    found = line.find(_POSTED)
    if found < 0:
        poster = _poster(line)
        return (poster if poster in known else None), None, False
    at = _posted_at(line[found + len(_POSTED):])
    poster = _poster(line[:found].strip()) if found else None
    return (poster if poster in known else None), at, True


def forum_posts(text: str, names: list[str], rules: ChangeRules | None = None) -> VoteCount:
    """Pasted vote posts: each post starts with a line naming its poster (`3楼 果果`, `果果`, or Discuz!'s
    `果果 发表于 2026-12-2 10:23`), then `投票对象：X` / `投票理由：Y` (one `改票对象：` allowed), as the
    posts' own format says.

    The format is strict, as the posts require ("投票格式或投票对象有误的票无效"), except that
    full- and half-width punctuation are the same and 理由 may follow 对象 on one line. A 改票 quotes
    the vote it changes ("改票需回复原投票楼层"): a post's own text comes after what it quotes. With the
    posts' times, `rules` voids the 改票 posted when the post forbids one.
    """
    known = set(names)
    rules = rules or ChangeRules()
    posts: list[_Post] = []
    for raw in text.splitlines():
        line = raw.translate(_PUNCT).strip()
        if not line:
            continue
        poster, at, posted = _head(line, known)
        under_head = posted and posts and not posts[-1].lines
        if under_head and poster is None and at is not None and posts[-1].time is None:
            posts[-1].time = at  # Discuz!'s "发表于 …" line under the author's name
            continue
        if under_head and poster is not None and (poster == posts[-1].poster or posts[-1].time is not None):
            posts[-1].quotes = True  # the head of the post it quotes, right under its own
            continue
        if poster is not None:
            posts.append(_Post(poster, at))
        elif posts:
            posts[-1].lines.append(line)
        else:
            raise ParseError(f"第一行应是发帖角色名（如“3楼 果果”或“果果 发表于 …”），而不是“{quoted(raw.strip())}”")
    chosen: dict[str, str] = {}
    first: dict[str, str] = {}
    result = VoteCount()
    order: list[str] = []
    for post in posts:
        poster = post.poster
        body = " ".join(post.lines)
        vote, change = _own(body, "投票对象", "投票理由", post.quotes), _own(body, "改票对象", "改票理由", post.quotes)
        if change:  # a 改票 quotes the vote it changes: the 投票对象 in it is the quote's
            if poster not in chosen:
                result.flagged.append(f"{poster}：改票前没有有效的投票，改票无效")
            elif poster in first:
                result.flagged.append(f"{poster}：改票只允许一次，第二次改票无效")
            elif why := _change_void(post, rules):
                result.flagged.append(f"{poster}：{why}，改票无效，仍按原投票计")
            else:
                target = _target(change, known, poster, result, "改票")
                if target:
                    if _change_unknown(post, rules):
                        result.notes.append(f"{poster}：改票没有发帖时间，无法核对“{rules.cutoff_text or '加速后不允许改票'}”，已按有效计，请核对")
                    first[poster] = chosen[poster]
                    chosen[poster] = target
            continue
        if not vote:
            result.flagged.append(f"{poster}：没有“投票对象：”，格式有误，此帖无效")
            continue
        if poster in chosen:
            result.flagged.append(f"{poster}：重复投票，以第一次为准（改票请使用“改票对象：”）")
            continue
        target = _target(vote, known, poster, result, "投票")
        if target:
            chosen[poster] = target
            order.append(poster)
    result.ballots = [(p, chosen[p]) for p in order]
    result.changed = [(p, first[p]) for p in order if p in first]
    return result


def _own(body: str, label: str, reason_label: str, quotes: bool) -> tuple[str, str | None] | None:
    """A post's `label: target` and its reason: the first, or the last in a post that quotes another."""
    if not quotes:
        return _labelled(body, label, reason_label)
    last, at = -1, 0
    while (found := body.find(label, at)) >= 0:
        colon = _skip_space(body, found + len(label))
        if colon < len(body) and body[colon] == ":":
            last = found
        at = found + 1
    return None if last < 0 else _labelled(body[last:], label, reason_label)


def _change_void(post: _Post, rules: ChangeRules) -> str | None:
    """Why a 改票 posted at `post.time` does not count, or None."""
    if rules.all_void:
        return "进程已加速，加速后不允许改票"
    if post.time is None:
        return None
    if rules.sped_up and post.time >= rules.sped_up:
        return f"改票发表于 {post.time:%m-%d %H:%M}，进程已在 {rules.sped_up:%m-%d %H:%M} 加速，加速后不允许改票"
    if rules.cutoff and post.time >= rules.cutoff:
        return f"改票发表于 {post.time:%m-%d %H:%M}，关门前一小时（{rules.cutoff:%m-%d %H:%M} 起）不得改票"
    return None


def _change_unknown(post: _Post, rules: ChangeRules) -> bool:
    return post.time is None and bool(rules.cutoff or rules.sped_up)


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
    if reason is None:
        result.flagged.append(f"{poster}：缺少“{word}理由：”，格式有误，此票无效")
        return None
    if target != "弃权" and target not in known:
        result.flagged.append(f"{poster}：{word}对象“{quoted(target)}”不是本局角色，此票无效")
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
            result.flagged.append(f"{voter}：投票对象“{quoted(target)}”不是本局角色，此票无效")
        elif voter in seen:
            result.flagged.append(f"{voter}：重复出现，以第一次为准")
        else:
            seen.add(voter)
            result.ballots.append((voter, target))
    return result


def votes(text: str, names: list[str], rules: ChangeRules | None = None) -> VoteCount:
    if "投票对象" in text or "改票对象" in text:
        return forum_posts(text, names, rules)
    return compact_votes(text, names)
