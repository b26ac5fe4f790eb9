"""Players' and directors' text, turned into engine commands. Pure: no QQ, no database."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from engine import Act
from engine.ruleset import Ruleset

TEAR = {"撕", "撕警徽", "撕毁", "不移交"}
NO_TARGET = {"空", "空刀", "放弃", "不"}


class ParseError(ValueError):
    """What was wrong with the text, and what to send instead (Chinese)."""


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
        return Act(by=name, skill="投降", target=arg.strip() or None)
    skill = rules.skill(word)
    if skill is None:
        raise ParseError(f"不认识“{word}”。请发送“技能 目标”（如“预言 3”或“预言 果果”），或发送“帮助”。")
    target = arg.strip() or None
    if not skill.takes_target:
        return Act(by=name, skill=skill.name)
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
_PUNCT = str.maketrans({"：": ":", "，": ",", "（": "(", "）": ")", "　": " "})
_VOTE = re.compile(r"投票对象\s*:\s*(.*?)\s*(?:投票理由\s*:\s*(.*))?$", re.S)
_CHANGE = re.compile(r"改票对象\s*:\s*(.*?)\s*(?:改票理由\s*:\s*(.*))?$", re.S)


@dataclass
class VoteCount:
    ballots: list[tuple[str, str]] = field(default_factory=list)  # (voter, target or 弃权), posting order
    flagged: list[str] = field(default_factory=list)  # void posts and why, for the director


def forum_posts(text: str, names: list[str]) -> VoteCount:
    """Pasted vote posts: each post starts with a line naming its poster (`3楼 果果` or `果果`),
    then `投票对象：X` / `投票理由：Y` (one `改票对象：` allowed), as the posts' own format says.

    The format is strict, as the posts require ("投票格式或投票对象有误的票无效"), except that
    full- and half-width punctuation are the same and 理由 may follow 对象 on one line.
    """
    known = set(names)
    posts: list[tuple[str, list[str]]] = []
    for raw in text.splitlines():
        line = raw.translate(_PUNCT).strip()
        if not line:
            continue
        poster = re.fullmatch(r"(?:\d+\s*楼\s*)?(\S+)", line)
        if poster and poster.group(1) in known:
            posts.append((poster.group(1), []))
        elif posts:
            posts[-1][1].append(line)
        else:
            raise ParseError(f"第一行应是发帖角色名（如“3楼 果果”），而不是“{raw.strip()}”")
    chosen: dict[str, str] = {}
    changed: set[str] = set()
    result = VoteCount()
    order: list[str] = []
    for poster, lines in posts:
        body = " ".join(lines)
        vote, change = _VOTE.search(body), _CHANGE.search(body)
        if change and not vote:
            if poster not in chosen:
                result.flagged.append(f"{poster}：改票前没有有效的投票，改票无效")
            elif poster in changed:
                result.flagged.append(f"{poster}：改票只允许一次，第二次改票无效")
            else:
                target = _target(change, known, poster, result, "改票")
                if target:
                    chosen[poster] = target
                    changed.add(poster)
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
    return result


def _target(match: re.Match, known: set[str], poster: str, result: VoteCount, word: str) -> str | None:
    target, reason = match.group(1).strip(), (match.group(2) or "").strip()
    if not reason:
        result.flagged.append(f"{poster}：缺少“{word}理由：”，格式有误，此票无效")
        return None
    if target != "弃权" and target not in known:
        result.flagged.append(f"{poster}：{word}对象“{target}”不是本局角色，此票无效")
        return None
    return target


def compact_votes(text: str, names: list[str]) -> VoteCount:
    """`甲:乙 丙:弃权` or one `甲 乙` pair a line: voter, then target."""
    known = set(names)
    result = VoteCount()
    seen: set[str] = set()
    pairs = re.findall(r"(\S+?)\s*(?:[:：>]|->|→)\s*(\S+)", text) or [tuple(line.split()) for line in text.splitlines() if len(line.split()) == 2]
    if not pairs:
        raise ParseError("没有读到票。请按“投票人:投票对象”书写，多张票用空格或换行分隔，如“果果:橘子 橘子:弃权”。")
    for voter, target in pairs:
        if voter not in known:
            result.flagged.append(f"“{voter}”不是本局角色，此票无效")
        elif target != "弃权" and target not in known:
            result.flagged.append(f"{voter}：投票对象“{target}”不是本局角色，此票无效")
        elif voter in seen:
            result.flagged.append(f"{voter}：重复出现，以第一次为准")
        else:
            seen.add(voter)
            result.ballots.append((voter, target))
    return result


def votes(text: str, names: list[str]) -> VoteCount:
    if "投票对象" in text.translate(_PUNCT) or "改票对象" in text:
        return forum_posts(text, names)
    return compact_votes(text, names)
