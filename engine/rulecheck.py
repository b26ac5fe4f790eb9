"""Checking a rule-post file before it is played: every problem named by its key and line, in Chinese.

`load(path)` returns the ruleset a file makes, or raises `RuleFileError` with every problem found;
`python -m engine check FILE` prints them (`main`). A file is checked whole before any of it is built,
so a ruleset that loads is one whose names all exist, whose counts add up and whose factions can lose.
"""
from __future__ import annotations

import re
import sys
from fractions import Fraction
from pathlib import Path

from . import tie_pick
from .library import IDENTITY, OFFICE, SKILL, TEAM_SKILL, entries
from .rulefile import CONDITIONS, TIES, FileProblem, FileRuleset, RuleFileError, code_module, read

TOP = {"id": "规则帖编号", "title": "标题", "version": "规则版本", "players": "人数", "factions": "阵营与胜负条件",
       "identities": "身份配置", "skills": "多个身份共有的技能", "teams": "群与阵营技能", "phases": "阶段",
       "sheriff": "警长", "night": "夜晚", "night_order": "夜晚行动顺序", "settlement": "夜晚结算顺序",
       "last_words": "遗言", "limits": "时限", "deadline_rules": "行动时限原文", "day_length": "讨论日长短",
       "votes": "投票规则", "cards": "判罚牌", "substitutes": "替补", "surrender": "投降", "announce_order": "公示顺序",
       "judge_each_death": "每次出局即判定胜负", "teams_known_when_dealt": "发牌时即知群", "harm_word": "伤害的称呼",
       "secret_causes": "不公示的出局原因", "code": "本帖独有的代码", "judging": "胜负的判定方式",
       "ties": "平票规则", "hook_order": "出局时各身份结算的先后"}
REQUIRED = ("id", "title", "players", "factions", "identities", "phases")
# the tie rules that need a sheriff
SHERIFFS = {"sheriffs_vote": "按警长的票", tie_pick.RULE: "由警长决定"}
ANCHORS = ("close", "now", "open", "clock", "opened")


class Checker:
    def __init__(self, data: dict, lines: dict):
        self.data, self.lines, self.problems = data, lines, []

    def bad(self, path: tuple, text: str) -> None:
        path = tuple(map(str, path))
        key = ".".join(path)
        line = next((self.lines[path[:i]] for i in range(len(path), -1, -1) if path[:i] in self.lines), None)
        self.problems.append(FileProblem(key, line, text))

    def text(self, path: tuple, value) -> bool:
        if not isinstance(value, str) or not value:
            self.bad(path, "应是一个名称（文字）")
            return False
        return True

    def names(self, path: tuple, value) -> list[str]:
        """A list of names, each checked: the ones that are names."""
        if not isinstance(value, list):
            self.bad(path, "应是一个名称的列表（如 [甲, 乙]）")
            return []
        return [v for i, v in enumerate(value, 1) if self.text(path + (i,), v)]

    def mapping(self, path: tuple, value) -> bool:
        if not isinstance(value, dict):
            self.bad(path, "应是“键: 值”的映射")
            return False
        return True

    def time_limit(self, path: tuple, value) -> None:
        if not (isinstance(value, dict) and value.get("anchor") in ANCHORS and isinstance(value.get("minutes"), int) and "text" in value):
            self.bad(path, f"时限应写作 {{anchor: {'|'.join(ANCHORS)}, minutes: 分钟数, text: 原话}}")

    def no_vote_card(self, path: tuple, rule) -> None:
        """A judgement for not voting: its words, and the cards the bot gives itself (none: the director decides)."""
        cards = rule.get("cards", []) if isinstance(rule, dict) else None
        if not (isinstance(rule, dict) and isinstance(rule.get("text"), str) and isinstance(cards, list)
                and all(c in ("蓝牌", "黄牌", "红牌") for c in cards)):
            self.bad(path, "未投票的判罚应写作 {text: 原话, cards: [蓝牌|黄牌|红牌, …]}（cards 可省略）")

    def listing(self, path: tuple, value) -> bool:
        if not isinstance(value, list):
            self.bad(path, "应是一个列表（每项以“- ”开头）")
            return False
        return True

    def entry(self, path: tuple, spec: dict, kind: str, default: str | None = None):
        """A library entry a file names (`library:`) with its parameters; the entry, or None."""
        lib = entries()
        name = spec.get("library", default)
        if not self.text(path + (("library",) if "library" in spec else ()), name):
            return None
        e = lib.get(name)
        if e is None:
            near = [n for n, x in lib.items() if x.kind == kind]
            self.bad(path + (("library",) if "library" in spec else ()),
                     f"库中没有{kind}「{name}」（可用的{kind}：{'、'.join(near)}；`python -m engine roles` 列出全部）")
            return None
        if e.kind != kind:
            self.bad(path + ("library",), f"「{name}」是库中的{e.kind}，不能用作{kind}")
            return None
        home = e.make.__module__
        code = str(self.data.get("code") or "")
        if not home.startswith("engine.library.") and not (code and (home == code or home.startswith(code + "."))):
            # a post's own code works only with its ruleset (154's 宁采臣 asks it where he is)
            self.bad(path + (("library",) if "library" in spec else ()),
                     f"「{name}」是另一个规则帖独有的代码（{home}）里的身份，只能在写明 code: {home} 的规则帖中使用")
            return None
        params = spec.get("params") or {}
        if self.mapping(path + ("params",), params):
            for k, v in params.items():
                if k not in e.params:
                    self.bad(path + ("params", k), f"「{name}」没有参数「{k}」（它的参数：{'、'.join(e.params) or '无'}）")
                elif not e.params[k].takes(v):
                    self.bad(path + ("params", k), f"参数「{k}」的值不合用：{e.params[k].about}（默认：{e.params[k].default!r}）")
                elif e.params[k].names and v is not None:
                    self.named(path + ("params", k), e.params[k].names, v)
            for k, p in e.params.items():
                if p.required and k not in params:
                    self.bad(path + ("params",), f"「{name}」须给出参数「{k}」：{p.about}")
        return e

    def named(self, path: tuple, kind: str, value) -> None:
        """A parameter naming the file's factions or groups names ones the file has: a typo would leave a seer
        seeing no wolf, or a faction with no way to win or lose."""
        d = self.data
        factions = d.get("factions") if isinstance(d.get("factions"), dict) else {}
        roles = [r for r in d.get("identities") or [] if isinstance(r, dict)] if isinstance(d.get("identities"), list) else []
        teams = {r.get("team") for r in roles} | set(d.get("teams") or {} if isinstance(d.get("teams"), dict) else {})
        known = factions if kind == "阵营" else teams
        for v in value if isinstance(value, list) else [value]:
            if v not in known:
                self.bad(path, f"「{v}」不是本帖的{kind}（本帖的{kind}：{'、'.join(str(x) for x in known if x) or '无'}）")

    def run(self) -> list[FileProblem]:
        d = self.data
        for k in d:
            if k not in TOP:
                self.bad((k,), f"未知的键（可用的键：{'、'.join(TOP)}）")
        for k in REQUIRED:
            if k not in d:
                self.bad((), f"缺少「{k}」（{TOP[k]}）")
        if not re.fullmatch(r"\S+", str(d.get("id", ""))):  # 新游戏 names the post by its first word
            self.bad(("id",), "规则帖编号（id）不能为空，也不能含空格或换行：请写成一个词（如“S20”）")
        if self.problems:
            return self.problems
        self.ruleset_class = FileRuleset
        if "code" in d:
            # what the post has that no library entry says: its module registers its own entries
            try:
                self.ruleset_class = code_module(str(d["code"])).RULESET
            except (ImportError, AttributeError) as exc:
                self.bad(("code",), f"无法载入本帖独有的代码「{d['code']}」（{exc}）")
                return self.problems
        factions = d["factions"] if self.mapping(("factions",), d["factions"]) else {}
        roles = d["identities"] if self.listing(("identities",), d["identities"]) else []
        roles = [r if self.mapping(("identities", i), r) else {} for i, r in enumerate(roles, 1)]
        for i, r in enumerate(roles, 1):
            for k in ("name", "faction", "team", "hidden_as", "summary"):
                if r.get(k) is not None and not self.text(("identities", i, k), r[k]):
                    r[k] = None
        names = [r.get("name") for r in roles]
        teams = {r.get("team") for r in roles if r.get("team")}
        total = 0
        for i, r in enumerate(roles, 1):
            path = ("identities", i)
            for k in ("name", "faction", "count"):
                if r.get(k) is None:
                    self.bad(path, f"身份缺少「{k}」")
            if r.get("faction") is not None and r.get("faction") not in factions:
                self.bad(path + ("faction",), f"阵营「{r.get('faction')}」不在 factions 中")
            if not isinstance(r.get("count", 0), int) or r.get("count", 0) < 1:
                self.bad(path + ("count",), "人数应是正整数")
            elif r.get("hidden_as") is None:
                total += r["count"]
            if r.get("hidden_as") is not None and r["hidden_as"] not in names:
                self.bad(path + ("hidden_as",), f"「{r['hidden_as']}」不是本帖的身份")
            if "name" in r:
                self.entry(path, r, IDENTITY, r["name"])
        if isinstance(d["players"], int) and total != d["players"] and not any(
                p.key.startswith("identities") and ".count" in p.key for p in self.problems):
            self.bad(("players",), f"各身份人数之和为 {total}，与人数 {d['players']} 不符")
        self.skills(d, names)
        self.shapes(d)
        self.win_and_loss(factions, names, teams)
        self.orders(d)
        return self.problems

    def pick_limit(self, at: tuple, rule: str, limit) -> None:
        """The sheriff's pick on a tie has its time, which ends by 关门 at the latest (engine/tie_pick.py)."""
        example = "（如 {anchor: now, minutes: 30, text: 规则帖原话}：计票后30分钟，最迟关门前）"
        if limit is None:
            self.bad(at, f"{rule}（{SHERIFFS[rule]}）需要警长决定的时限：请在 limits 中写 {tie_pick.LIMIT}" + example)
        elif isinstance(limit, dict) and (limit.get("anchor") == "open" or (
                limit.get("anchor") == "close" and isinstance(limit.get("minutes"), int) and limit["minutes"] > 0)):
            self.bad(("limits", tie_pick.LIMIT), "警长须在当天结束前决定平票：这个时限不能在关门之后" + example)

    def shapes(self, d: dict) -> None:
        """The plain settings have the shape they are read in."""
        phases = d["phases"]
        if self.mapping(("phases",), phases) and phases.get("first") not in ("night", "day"):
            self.bad(("phases", "first"), "首个阶段应是 night（夜晚）或 day（白天）")
        for key in ("sheriff", "votes", "cards", "last_words", "night", "teams", "ties", "surrender"):
            if key in d and d[key] is not None:
                self.mapping((key,), d[key])
        sheriff = d.get("sheriff") or {}
        if isinstance(sheriff, dict) and "weight" in sheriff:
            try:
                Fraction(str(sheriff["weight"]))
            except (ValueError, ZeroDivisionError):
                self.bad(("sheriff", "weight"), "警长票数应是数或分数（如 3/2）")
        for kind, rule in (d.get("ties") or {}).items() if isinstance(d.get("ties"), dict) else ():
            if kind not in ("election", "exile"):
                self.bad(("ties", kind), "平票规则按投票种类给出：election（警长竞选）或 exile（放逐投票）")
            elif rule not in TIES:
                self.bad(("ties", kind), f"平票规则应是以下之一：{'、'.join(TIES)}")
            elif rule in SHERIFFS and kind == "election":
                self.bad(("ties", kind), f"{rule}（{SHERIFFS[rule]}）只用于放逐投票：竞选时还没有警长")
            elif rule in SHERIFFS and not (isinstance(phases, dict) and phases.get("election_day")):
                self.bad(("ties", kind), f"{rule}（{SHERIFFS[rule]}）需要警长：本帖没有警长竞选（phases.election_day）")
            elif rule == tie_pick.RULE:
                self.pick_limit(("ties", kind), rule, (d.get("limits") or {}).get(tie_pick.LIMIT))
        limits = d.get("limits") or {}
        if self.mapping(("limits",), limits):
            for key, v in limits.items():
                self.time_limit(("limits", key), v)
        votes = d.get("votes")
        if isinstance(votes, dict) and "reminder" in votes:
            self.time_limit(("votes", "reminder"), votes["reminder"])
        if isinstance(votes, dict) and votes.get("no_vote_card") is not None:
            rule = votes["no_vote_card"]
            self.no_vote_card(("votes", "no_vote_card"), rule)
            if isinstance(rule, dict) and rule.get("sped_up") is not None:
                self.no_vote_card(("votes", "no_vote_card", "sped_up"), rule["sped_up"])
        length = d.get("day_length")
        if length is not None and not (isinstance(length, dict) and re.fullmatch(r"\d{1,2}:\d{2}", str(length.get("at", "")))
                                       and isinstance(length.get("days"), int) and "weekend" in length and "text" in length):
            self.bad(("day_length",), "讨论日长短应写作 {days: 天数, at: \"21:00\", weekend: true|false, text: 原话}")
        for key in ("night_order", "settlement", "deadline_rules", "secret_causes", "hook_order"):
            if key in d:
                self.listing((key,), d[key])

    def skills(self, d: dict, names: list) -> None:
        for i, s in enumerate(d.get("skills") or [], 1):
            path = ("skills", i)
            if self.mapping(path, s) and self.entry(path, s, SKILL):
                for h in self.names(path + ("holders",), s.get("holders") or []):
                    if h not in names:
                        self.bad(path + ("holders",), f"「{h}」不是本帖的身份")
                if not s.get("holders"):
                    self.bad(path, "须用 holders 列出持有该技能的身份")
        for team, t in (d.get("teams") or {}).items():
            if self.mapping(("teams", team), t):
                for i, s in enumerate(t.get("skills") or [], 1):
                    if self.mapping(("teams", team, "skills", i), s):
                        self.entry(("teams", team, "skills", i), s, TEAM_SKILL)
        sheriff = d.get("sheriff") or {}
        for office in ("succession", "deputy"):
            if sheriff.get(office):
                self.entry(("sheriff", office), sheriff[office], OFFICE)

    def win_and_loss(self, factions: dict, names: list, teams: set) -> None:
        wins = {f for f, r in factions.items() if isinstance(r, dict) and r.get("wins_when")}
        for f, r in factions.items():
            path = ("factions", f)
            if r is None:
                r = {}
            if not self.mapping(path, r):
                continue
            for which in ("wins_when", "loses_when"):
                for i, cond in enumerate(r.get(which) or [], 1):
                    self.condition(path + (which, i), cond, names, teams)
            if not r.get("loses_when") and not (wins - {f}):
                self.bad(path, "该阵营没有判负的条件（loses_when），也没有其他阵营的获胜条件能使它判负")

    def condition(self, path: tuple, cond, names: list, teams: set) -> None:
        if not isinstance(cond, dict) or len(cond) != 1 or next(iter(cond)) not in CONDITIONS:
            self.bad(path, f"条件应是以下之一：{'、'.join(CONDITIONS)}")
            return
        (kind, arg), = cond.items()
        if kind == "all_out":
            if isinstance(arg, dict):
                if arg.get("faction") not in self.data["factions"]:
                    self.bad(path + (kind, "faction"), f"阵营「{arg.get('faction')}」不在 factions 中")
                arg = arg.get("roles") or []
            for role in self.names(path + (kind,), arg if isinstance(arg, list) else [arg]):
                if role not in names:
                    self.bad(path + (kind,), f"「{role}」不是本帖的身份")
        if kind == "team_out" and not (isinstance(arg, str) and arg in teams):
            self.bad(path + (kind,), f"「{arg}」不是本帖的群")

    def orders(self, d: dict) -> None:
        """The night order and the settlement order name only what the file's parts have, every night slot of
        theirs is in the night order, and what acts first (交换, 恐惧) is before every other in both."""
        if self.problems:
            return  # the parts cannot be made from a file with wrong names
        try:
            rules = self.ruleset_class(d)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            # a shape no check above foresaw: named as Python names it, still without a traceback
            self.bad((), f"无法按本文件组成规则（{type(exc).__name__}：{exc}）")
            return
        owned = {s for p in rules.parts for s in p.slots if isinstance(s, str)}
        for key in ("night_order", "settlement"):
            if self.names((key,), d.get(key) or []) != (d.get(key) or []):
                return
        for i, slot in enumerate(d.get("night_order") or [], 1):
            if slot not in owned:
                self.bad(("night_order", i), f"夜晚行动「{slot}」不属于本帖任何身份或群（本帖的夜晚行动：{'、'.join(owned) or '无'}）")
        for slot in owned - set(d.get("night_order") or []):
            self.bad(("night_order",), f"夜晚行动「{slot}」没有列入夜晚行动顺序")
        steps = {s for s in rules.step_of if isinstance(s, str)}
        for i, step in enumerate(d.get("settlement") or [], 1):
            if step not in steps:
                self.bad(("settlement", i), f"结算步骤「{step}」不属于本帖任何身份或群（可以结算的：{'、'.join(steps) or '无'}）")
        for step in steps - set(d.get("settlement") or []):
            self.bad(("settlement",), f"结算步骤「{step}」没有列入夜晚结算顺序")
        for key, what, of_part in (("night_order", "夜晚行动顺序", lambda p: p.slots), ("settlement", "夜晚结算顺序", lambda p: p.steps())):
            self.first((key,), what, d.get(key) or [], {n: p.name for p in rules.parts if p.leads_night for n in of_part(p)})
        seen: dict[str, str] = {}
        for s in rules.skills.values():
            for word in (s.name, *s.aliases):
                if word in seen and seen[word] != s.name:
                    self.bad((), f"「{word}」同时是技能<{seen[word]}>和<{s.name}>的名称或简写")
                seen[word] = s.name
        for p in rules.parts:
            for k, v in p.p.items():
                if k == "limit" and isinstance(v, str) and v not in rules.limits:
                    self.bad(("limits",), f"<{p.name}>用到的时限「{v}」不在 limits 中")
                if k == "asks" and v and not isinstance(p.p.get("limit"), str):
                    self.bad(("identities",), f"<{p.name}>设了 asks（先问他是否发动），须同时用 limit 写答复的时限（limits 中的键）")
                if k == "waits_for":  # what a feedback waits for: night actions of this post (a granted one too)
                    self.known(p.name, k, v, rules.slot_owner, "夜晚行动", "本帖的夜晚行动")
                if k == "first_life_from" and d.get("settlement"):  # harms the file's settlement settles
                    self.known(p.name, k, v, rules.step_of, "结算步骤", "可以结算的")

    def known(self, part: str, key: str, value, known, what: str, listed: str) -> None:
        """Each name a part's parameter gives is one of the post's (`known`, listed in the answer)."""
        for name in value if isinstance(value, list) else [value]:
            if name not in known:
                self.bad(("identities",), f"<{part}>的 {key} 中的「{name}」不是本帖的{what}（{listed}：{'、'.join(known) or '无'}）")


    def first(self, path: tuple, what: str, order: list, leading: dict[str, str]) -> None:
        """Each of `leading` (a name of the order → the identity whose it is) comes before every other name of it."""
        for i, name in enumerate(order, 1):
            before = next((n for n in order[:i - 1] if n not in leading), None)
            if name in leading and before is not None:
                self.bad(path + (i,), f"「{name}」应排在{what}的最前（{leading[name]}每晚最先行动），不能排在「{before}」之后")


def load_text(text: str) -> FileRuleset:
    data, lines = read(text)
    checker = Checker(data, lines)
    if problems := checker.run():
        raise RuleFileError(problems)
    return checker.ruleset_class(data)


def load(path: Path) -> FileRuleset:
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleFileError([FileProblem("", None, f"无法读取 {path}：{exc}")])
    return load_text(text)


def main(path: str) -> int:
    """`python -m engine check FILE`: 0 and a summary when the file is sound, 1 and each problem when not."""
    try:
        rules = load(Path(path))
    except RuleFileError as exc:
        print(f"{path} 有 {len(exc.problems)} 处问题：", file=sys.stderr)
        for p in exc.problems:
            print("  " + str(p), file=sys.stderr)
        return 1
    print(f"{path}：{rules.title}，{rules.players}人，{len(rules.roles)}种身份，{len(rules.skills)}个技能，检查通过。")
    return 0
