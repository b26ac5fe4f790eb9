"""A rule post written as a data file (`rulesets/*.yaml`), read into a ruleset made of library parts.

`load(path)` reads one file: every problem is a `FileProblem` naming the key and the line, in Chinese,
so `python -m engine check` can point a director at it. The format is described in docs/rule-files.md;
`FileRuleset` is the one ruleset class every file becomes: its declarations come from the file, its
hooks call the library parts (engine/library/) the file names, in the file's night order and settlement
order. What a post has that no library entry can say is a module of its own that the file's `code:` key
names (154's hidden 宁采臣: `rulesets/r154_ning.py`): it registers its own entries and its ruleset class.
"""
from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from fractions import Fraction

import yaml

from . import tie_pick, votes
from .library import HOOKS, TEAM_SKILL, Part, defines, entries
from .ruleset import DayLength, Quota, Role, Ruleset, TimeLimit

# --- reading a file with the line of every key -------------------------------------------------------


@dataclass(frozen=True)
class FileProblem:
    key: str  # where in the file, as "identities.3.count"
    line: int | None
    text: str  # in Chinese

    def __str__(self) -> str:
        where = f"第{self.line}行" if self.line else "文件"
        return f"{where}「{self.key}」：{self.text}" if self.key else f"{where}：{self.text}"


class RuleFileError(Exception):
    def __init__(self, problems: list[FileProblem]):
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems


def _plain(node, path: tuple, lines: dict, seen: set | None = None):
    """A YAML node as Python data, with the line of each key and item in `lines`. A node met twice is an
    alias (`*name`): refused, since a few of them nest into more data than any post has, or into a loop."""
    seen = set() if seen is None else seen
    if id(node) in seen:
        raise RuleFileError([FileProblem(".".join(path), node.start_mark.line + 1,
                                         "规则帖文件不能使用 YAML 的锚点和别名（& 与 *）：请把内容直接写出")])
    seen.add(id(node))
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        out = {}
        for key_node, value_node in node.value:
            key = str(_scalar(key_node))
            lines[path + (key,)] = key_node.start_mark.line + 1
            out[key] = _plain(value_node, path + (key,), lines, seen)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_plain(v, path + (str(i + 1),), lines, seen) for i, v in enumerate(node.value)]
    return _scalar(node)


def _scalar(node):
    return yaml.constructor.SafeConstructor().construct_object(node, deep=True)


def read(text: str) -> tuple[dict, dict]:
    """The file's data and the line of every key; raises RuleFileError where it is no YAML mapping."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = None if node is None else _plain(node, (), lines := {})
    except yaml.YAMLError as exc:
        # where the construct that is wrong began (an unclosed "[") or, failing that, where it was noticed
        mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
        raise RuleFileError([FileProblem("", mark.line + 1 if mark else None, f"不是有效的 YAML（{getattr(exc, 'problem', exc)}）")])
    if not isinstance(data, dict):
        raise RuleFileError([FileProblem("", 1, "文件应是一个以“键: 值”写成的映射")])
    return data, lines


# --- code a file may name ---------------------------------------------------------------------------
def code_module(name: str):
    """The module a file's `code:` names (154's 宁采臣: `rulesets.r154_ning`): importing it registers its own
    library entries; its `RULESET` is the FileRuleset subclass the file becomes."""
    return importlib.import_module(name)


# --- the ruleset a file becomes ----------------------------------------------------------------------


class FileRuleset(Ruleset):
    """A rule post made of library parts, as its file declares it."""

    def __init__(self, data: dict):
        self.id = str(data["id"])
        self.version = int(data.get("version", 1))
        self.title = data["title"]
        self.players = int(data["players"])
        self.parts = parts = _parts(self, data)
        self.roles = tuple(_role(r) for r in data["identities"])
        ph = data["phases"]
        self.first_phase = ph["first"]
        self.election_day = ph.get("election_day")
        self.day_after_election = bool(ph.get("day_after_election", False))
        # 154: "第一天讨论日结束，最先高票者当选警长，出人票最高者出局。" — both counts on the election day
        self.election_votes = EXILE | ELECTION if ph.get("exile_on_election_day") else ELECTION
        self.ties = dict(data.get("ties") or {})
        sh = data.get("sheriff") or {}
        self.sheriff_weight = Fraction(str(sh.get("weight", 1)))
        self.badge_may_be_torn = bool(sh.get("badge_may_be_torn", False))
        self.first_night_after_election = bool(sh.get("first_night_deaths_after_election", False))
        self.announce_order = data.get("announce_order", "seat")
        self.limits = {k: TimeLimit(v["anchor"], int(v["minutes"]), v["text"]) for k, v in data.get("limits", {}).items()}
        self.teams_known_when_dealt = bool(data.get("teams_known_when_dealt", True))
        cards = data.get("cards") or {}
        self.red_cards_to_lose = cards.get("red_to_lose", 2)
        self.judge_each_death = bool(data.get("judge_each_death", False))
        self.substitutes = _quota(data.get("substitutes"))
        self.deadline_rules = tuple(data.get("deadline_rules", ()))
        self.day_length = _day_length(data.get("day_length"))
        vote = data.get("votes") or {}
        self.change_cutoff = _quota(vote.get("change_cutoff"))
        self.speed_up_voids_changes = vote.get("speed_up_voids_changes")
        self.delay = vote.get("delay")
        self.asks_cutoff = _quota(vote.get("asks_cutoff"))
        self.no_vote = vote.get("no_vote_card")
        self.more_than_half = vote.get("speed_up") == "more_than_half"
        reminder = vote.get("reminder")  # the living reminded to vote, counted back from 关门
        self.vote_reminder = reminder and TimeLimit(reminder["anchor"], int(reminder["minutes"]), reminder["text"])
        self.harm_word = data.get("harm_word", "指杀")
        self.secret_causes = frozenset(data.get("secret_causes", ()))
        self.last_words = data.get("last_words") or {}
        self.factions_rules = data["factions"]
        # each faction's conditions as (test, its argument), made once: a win check runs at every publication
        self.wins = {f: _conditions((r or {}).get("wins_when")) for f, r in self.factions_rules.items()}
        self.loses = {f: _conditions((r or {}).get("loses_when")) for f, r in self.factions_rules.items()}
        self.losses_first = data.get("judging") == "losses_first"
        self.surrender = data.get("surrender") or {}
        self.night_order = list(data.get("night_order", ()))
        self.settlement = list(data.get("settlement", ()))
        self.prompt_text = (data.get("night") or {}).get("prompt", "")
        self.skills = _skills(parts)
        if tie_pick.RULE in self.ties.values():
            self.skills[tie_pick.PICK] = tie_pick.skill()
        for part in parts:
            for word, run in part.shared_skills().items():
                self.skills[word] = dataclasses.replace(self.skills[word], run=_shared(self.skills[word].run, part.holders, run))
        self.potion_slot = next((part.p["slot"] for part in parts if part.potion_slot), None)
        # each hook, the parts that fill it in: the night's in the night order, the others in the file's
        first = list(data.get("hook_order", ()))
        parts = sorted(parts, key=lambda part: first.index(part.name) if part.name in first else len(first))
        ranked = sorted(parts, key=lambda part: min((self.night_order.index(s) for s in part.slots if s in self.night_order),
                                                    default=len(self.night_order)))
        self.night_parts = [p for p in ranked if p.slots]
        self.hooks = {h: [p for p in (ranked if h in NIGHT_HOOKS else parts) if defines(p, h)] for h in HOOKS}
        self.hooks["start_game"].sort(key=lambda part: not part.starts_first)
        self.hooks["spares"].sort(key=lambda part: part.spares_rank)
        self.hooks["after_death"].sort(key=lambda part: part.decides_last)
        # a slot several parts may open (146's 杀人: the pack's, the black lovers'), decided when each has decided it
        self.slot_owner: dict[str, list[Part]] = {}
        for p in parts:
            for s in (*p.slots, *p.granted):
                self.slot_owner.setdefault(s, []).append(p)
        steps = [(name, fn, p) for p in parts for name, fn in p.steps().items()]
        self.step_of = {name: fn for name, fn, _ in steps}
        self.step_owner = {name: p for name, _, p in steps}
        self.team_parts = {p.team: p for p in parts if p.kind == TEAM_SKILL}

    def factions(self, g) -> list[str]:
        """The identities' factions, and those of the file's that formed in play (146's 黑情侣阵营 once lovers of two
        factions have eloped), in the file's order."""
        dealt = super().factions(g)
        formed = {p.faction for p in g.state.players} - set(dealt)
        return dealt + [f for f in self.factions_rules if f in formed]

    # --- what parts ask of the ruleset ------------------------------------------------------------------
    def team_part(self, team: str) -> Part:
        return self.team_parts[team]

    def decided(self, g, slot: str) -> bool:
        return all(p.slot_decided(g, slot) for p in self.slot_owner[slot])

    def spared(self, g, name: str, cause: str) -> bool:
        return any(p.spares(g, name, cause) for p in self.hooks["spares"])

    def harms_before(self, g, step: str) -> list[tuple[str, str]]:
        """Who would go out by the settlement steps before `step` (each only adds deaths)."""
        out: list[tuple[str, str]] = []
        for name in self.settlement[:self.settlement.index(step)]:
            out = self.step_of[name](g, out)
        return out

    def harm_targets(self, g, keys) -> list[str]:
        """Whom tonight's chosen harms (settlement steps by name) name, those of a part that still acts."""
        a = g.night.actions
        return [a[k][1] for k in keys if k in a and self.step_owner[k].acting(g, k)]

    def foreseen(self, g, seer, target) -> None:
        """A check's result was given (154's 宁采臣 found by the taoist: 天命); code a file names fills it in."""

    def seen_faction(self, g, p) -> str:
        faction = p.faction
        for part in self.hooks["checked_as"]:
            faction = part.checked_as(g, p, faction)
        return faction

    def prompt(self, g, who: str, slot: str, ask: str | None = None) -> None:
        """The night's word to one who may act alone (`night.prompt`, with what his part asks): his time limit
        starts now."""
        g.start_deadline(g.night_key(who, slot), [who], slot, "night")
        g.tell(f"player:{who}", self.prompt_text.format(night=g.night.number, slot=slot, ask=ask))

    # --- phases -----------------------------------------------------------------------------------------
    def day_votes(self, day_no: int) -> frozenset[str]:
        return self.election_votes if day_no == self.election_day else EXILE

    def tie_rule(self, g, kind: str) -> votes.TieRule:
        return TIES[self.ties.get(kind, "nobody")](g)

    def tie_round(self, g, kind: str) -> bool:
        # 平票PK: "平票者PK，再投一轮，只能投给平票者；再次平票则无人出局" — one PK a day, its own tie sends nobody
        return self.ties.get(kind) == "pk" and kind not in g.state.day.pk

    def speed_up_needed(self, living: int) -> int:
        return living // 2 + 1 if self.more_than_half else super().speed_up_needed(living)

    def _no_vote(self, g) -> dict | None:
        """The no-vote rule today: none on a sped-up day where the post judges none then (154), the sped-up
        day's own where it judges one otherwise (146: "加速后（包括强制加速）的讨论日不投票者，判一张蓝牌")."""
        rule = self.no_vote
        if rule and g.state.carry.get("sped_up"):
            return None if rule.get("void_when_sped_up") else rule.get("sped_up", rule)
        return rule

    def no_vote_cards(self, g) -> tuple[str, ...]:
        rule = self._no_vote(g)
        return tuple(rule.get("cards", ())) if rule else ()

    def slot_text(self, g, who: str, slot: str) -> str | None:
        return next((t for p in self.hooks["slot_text"] if (t := p.slot_text(g, who, slot))), None)

    def day_follows_day(self, day_no: int) -> bool:
        return self.day_after_election and day_no == self.election_day

    # --- hooks ------------------------------------------------------------------------------------------
    def start_game(self, g) -> None:
        for p in self.hooks["start_game"]:
            p.start_game(g)
        for team, members in g.state.teams.items():
            g.set_team(team, members)

    def begin_night(self, g) -> None:
        for p in self.hooks["begin_night"]:
            p.begin_night(g)
        for p in self.hooks["begin_night_after"]:
            p.begin_night_after(g)

    def awaiting(self, g) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for p in self.night_parts:
            out += p.open_slots(g)
        return out

    def pass_night(self, g, who: str, slot: str) -> None:
        g.mark_done(who, slot)
        for p in self.hooks["pass_night"]:
            p.pass_night(g, who, slot)

    def route_feedback(self, g) -> None:
        if g.night.resolved:
            return
        for p in self.hooks["feedback"]:
            p.feedback(g)

    def resolve_night(self, g) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for name in self.settlement:
            out = self.step_of[name](g, out)
        seen: set[str] = set()
        out = [(n, c) for n, c in out if not (n in seen or seen.add(n))]
        if g.night.number == 1 and self.first_night_after_election:
            # "第一个夜晚需要公示的信息以及出局名单在警长竞选完毕之后公布" with "不区分警上与警下，所有玩家都可以投票和
            # 被投票": night 1's victims go out when the list is published after the election. Until then they
            # are told nothing and take part in it; the list is the night's.
            s = g.state
            s.carry["held_deaths"] = out
            g.night.deaths.extend(n for n, _ in out)
            if out:
                g.tell("director", "第一夜出局：" + "、".join(f"{g.label(s.player(n))}（{c}）" for n, c in out)
                       + "。名单在警长竞选完毕之后公布；在此之前他们不会被告知，仍可以投票和被投票。")
            return []
        return out

    def morning(self, g, night_deaths: list[str]) -> None:
        if not self.first_night_after_election:
            return g.announce(night_deaths)
        if g.state.day_no > 1 and "held_deaths" in g.state.carry:
            # the election was never counted: night 1's list goes out with day 2's 开门, as night 1's
            self._night_one_out(g, earlier=True)
        elif g.state.day_no > 1:
            g.announce(night_deaths)

    def after_election(self, g, elected: str | None) -> None:
        super().after_election(g, elected)
        for part in self.hooks["after_election"]:
            part.after_election(g, elected)
        if self.first_night_after_election:
            self._night_one_out(g)

    # --- the sheriff's offices (engine/library/sheriff.py, deputy.py) -----------------------------------
    def officers(self, g) -> list[tuple[str, str | None]]:
        return super().officers(g) + [o for part in self.hooks["officers"] for o in part.officers(g)]

    def sheriff_duties(self, g) -> str:
        return "".join(part.duties(g) for part in self.hooks["duties"])

    def deputy_duties(self, g) -> str:
        """What more the post asks of a deputy in this game, told him when he is appointed (146: 辅策)."""
        return ""

    def heir_problem(self, g, p) -> str | None:
        return next((why for part in self.hooks["heir_problem"] if (why := part.heir_problem(g, p))), None)

    def officer_named(self, g, office: str, chosen: bool, before: str | None) -> None:
        for part in self.hooks["officer_named"]:
            part.officer_named(g, office, chosen, before)

    def badge_vacated(self, g, p, ask: str) -> None:
        for part in self.hooks["badge_vacated"]:
            part.badge_vacated(g, p, ask)

    def badge_lapsed(self, g, p, why: str) -> None:
        for part in self.hooks["badge_lapsed"]:
            part.badge_lapsed(g, p, why)

    def answered(self, g, p) -> None:
        for part in self.hooks["answered"]:
            part.answered(g, p)

    def _night_one_out(self, g, earlier: bool = False) -> None:
        """Night 1's victims go out and are published: after the election, or at day 2's 开门 when it was
        never counted. One elected is "警长……在第一夜出局": asked for <殉职> as he goes out (after_death).
        One a red card took out meanwhile is out already and not on the list."""
        s = g.state
        if "held_deaths" not in s.carry:
            return
        out = []
        for name, cause in s.carry.pop("held_deaths"):
            if s.player(name).alive:
                out.append(name)
                g.kill(s.player(name), cause, at=("night", 1))
        g.fresh[:] = [n for n in g.fresh if n not in out]  # published in the list below, not by day
        g.announce(out, earlier=earlier)

    def published(self, g, names: list[str]) -> None:
        tie_pick.published(g, names)

    def begin_day(self, g) -> None:
        for p in self.hooks["begin_day"]:
            p.begin_day(g)

    def timeout(self, g, key: str) -> list[str]:
        done: list[str] = []
        for p in self.hooks["timeout"]:
            done += p.timeout(g, key)
        return done

    def closing(self, g) -> None:
        tie_pick.day_ends(g, "关门前没有决定平票者中谁出局")
        for p in self.hooks["closing"]:
            p.closing(g)

    def count_notes(self, g, kind: str, ballots: list) -> list[tuple[str, bool]]:
        notes = super().count_notes(g, kind, ballots)
        for p in self.hooks["count_notes"]:
            notes += p.count_notes(g, kind)
        return notes

    def exile_bonus(self, g) -> dict[str, Fraction]:
        bonus: dict[str, Fraction] = {}
        for p in self.hooks["exile_bonus"]:
            for name, extra in p.exile_bonus(g).items():
                bonus[name] = bonus.get(name, 0) + extra
        return bonus

    def no_vote_card(self, g) -> str | None:
        rule = self._no_vote(g)
        return rule["text"] if rule else None

    def day_options(self, g, name: str) -> list[str]:
        return [o for p in self.hooks["day_options"] for o in p.day_options(g, name)]

    def exile(self, g, p) -> None:
        if not any(part.exile_instead(g, p) for part in self.hooks["exile_instead"]):
            super().exile(g, p)

    def joint_problems(self, g, kind: str, ballots: list[tuple[str, str]]) -> dict[str, str]:
        void: dict[str, str] = {}
        for part in self.hooks["joint_problems"]:
            void.update(part.joint_problems(g, kind, ballots))
        return void

    def counted(self, g, kind: str, ballots: list, result: str | None) -> None:
        for part in self.hooks["counted"]:
            part.counted(g, kind, ballots, result)

    def after_death(self, g, p, cause: str) -> None:
        tie_pick.sheriff_out(g, p)  # a sheriff out before deciding (a red card, a shot) decides nothing
        for part in self.hooks["after_death"]:
            part.after_death(g, p, cause)

    def red_card_instead(self, g, p, cancelled: list[str]) -> list[str]:
        return [c for part in self.hooks["red_card_instead"] for c in part.red_card_instead(g, p, cancelled)]

    def public(self, g, what: str, p) -> None:
        for part in self.hooks["public"]:
            part.public(g, what, p)

    def expire(self, g, pending) -> None:
        if pending.skill == tie_pick.PICK:
            tie_pick.lapse(g, pending.who, "没有决定平票者中谁出局")
        for part in self.hooks["expire"]:
            part.expire(g, pending)

    def last_words_budget(self, g) -> int:
        """How many last words a game has (154: "遗言数量等于女鬼的数量"): the places of `last_words.count_of`."""
        return sum(r.count for r in self.roles if r.faction == self.last_words["count_of"])

    def has_last_words(self, g, p, cause: str) -> bool:
        w = self.last_words
        if cause == "红牌" and not w.get("red_card", False):
            return False
        if "count_of" in w:
            return len(g.state.last_words) < self.last_words_budget(g)
        if g.phase == "day":
            return bool(w.get("day", True))
        if g.phase == "night" and g.night.number == 1 and w.get("first_night") is not None:
            return bool(w["first_night"])
        return bool(w.get("night", True))

    # --- win and loss -----------------------------------------------------------------------------------
    def check_end(self, g) -> None:
        s = g.state
        if s.phase == "over":
            return
        for p in self.hooks["judging"]:
            p.judging(g)
        if self.losses_first:
            return self._losses_first(g)
        names = list(self.factions_rules)
        # "一个阵营判负时，另外一个阵营自动获胜。"
        standing = [f for f in names if f not in s.lost]
        if s.lost and len(standing) == 1:
            return g.win(standing[0])
        loses: dict[str, bool] = {}  # judged once each, when first asked

        def lost(f: str) -> bool:
            if f not in loses:
                loses[f] = self._holds(g, f, self.loses[f])
            return loses[f]

        # the faction named first wins when two reach their win at once (M131: "若两个阵营同时达到胜利条件，则狼人阵营获胜")
        for f in standing:
            if self._holds(g, f, self.wins[f]) or all(lost(o) for o in standing if o != f):
                return g.win(f)

    def _losses_first(self, g) -> None:
        """154: "游戏状态满足某阵营胜利条件之一，游戏立即结束" … "游戏状态满足某阵营失败条件之一，该阵营优先判负。" (in the
        file's order) … "场上仅有一个阵营尚未被判负，游戏立即结束，宣布此阵营胜利。" "已经被判负的阵营无法再次达到胜利条件。" """
        s = g.state
        # those of the file's factions this game has (146's 黑情侣阵营 only once lovers have eloped), in its order
        present = self.factions(g)
        rules = [f for f in self.factions_rules if f in present]
        for f in rules:
            if f not in s.lost and self._holds(g, f, self.wins[f]):
                return g.win(f)
        for f in rules:
            if f not in s.lost and self._holds(g, f, self.loses[f]):
                g.lose(f)  # judges the game again: a loss can leave one faction standing
                if s.phase == "over":
                    return
        left = [f for f in rules if f not in s.lost]
        if len(left) == 1:
            g.win(left[0])

    def _holds(self, g, faction: str, conditions) -> bool:
        for test, arg in conditions:
            if test(self, g, faction, arg):
                return True
        return False

    def surrender_voters(self, g, faction: str) -> list[str]:
        # 投降: the team whose members (dead included) must all agree, or the identities
        who = self.surrender.get(faction)
        if isinstance(who, list):
            return [p.name for p in g.state.with_role(*who)]
        # a group that formed only in play (146's 情侣群) may be missing from this game
        return list(g.state.teams.get(who, ())) if who else []


ELECTION, EXILE = frozenset({"election"}), frozenset({"exile"})
NIGHT_HOOKS = frozenset({"begin_night", "begin_night_after", "feedback", "pass_night"})


# --- win and loss conditions a file may name ------------------------------------------------------------
def _votes_half(rules: FileRuleset, g, faction: str, _arg) -> bool:
    """"狼人阵营持有的票数占总票数的一半或一半以上": every living player one vote, the sheriff his weight."""
    s = g.state
    alive = s.alive()
    held = Fraction(sum(p.faction == faction for p in alive))
    total = Fraction(len(alive))
    sheriff = s.player(s.sheriff) if s.sheriff else None
    if sheriff is not None and sheriff.alive:
        total += rules.sheriff_weight - 1
        if sheriff.faction == faction:
            held += rules.sheriff_weight - 1
    return total > 0 and held * 2 >= total


def _all_out(rules, g, faction, roles) -> bool:
    """Every player of these identities is out ("预言家、女巫、乌鸦、锈盾守卫出局"); given as {roles, faction}, only
    those of them now of that faction (154: "书生阵营的书生（不含兄弟书生）全部出局")."""
    of = None
    if isinstance(roles, dict):
        roles, of = roles["roles"], roles["faction"]
    # one plain pass over the seats: a win check runs at every death of a game judged at each (146, 154)
    for p in g.state.players:
        if p.alive and p.role in roles and (of is None or p.faction == of):
            return False
    return True


def _faction_out(rules, g, faction, _arg) -> bool:
    """Every player now of this faction is out ("女鬼阵营的角色全部出局")."""
    return all(not p.alive for p in g.state.players if p.faction == faction)


def _head_half(rules, g, faction, _arg) -> bool:
    """"女鬼阵营存活的人数占总存活人数的一半或一半以上。" """
    living = g.state.alive()
    return bool(living) and 2 * sum(p.faction == faction for p in living) >= len(living)


def _others_lost(rules, g, faction, _arg) -> bool:
    """Every other faction has lost ("书生阵营和黑山老妖阵营判负")."""
    return all(f in g.state.lost for f in rules.factions_rules if f != faction)


def _team_out(rules, g, faction, team) -> bool:
    """Every member of this team group is out ("狼群内的角色全部出局")."""
    return all(not g.state.player(n).alive for n in g.state.teams[team])


def _all_marked(rules, g, faction, mark) -> bool:
    """Every living player of another faction bears this mark (吹笛者: "所有存活的其他角色都被迷惑")."""
    others = [p for p in g.state.alive() if p.faction != faction]
    return any(p.faction == faction for p in g.state.alive()) and all(mark in p.marks for p in others)


CONDITIONS = {"all_marked": _all_marked, "votes_half": _votes_half, "head_half": _head_half, "all_out": _all_out, "team_out": _team_out,
              "faction_out": _faction_out, "others_lost": _others_lost}
# a file's tie rules, each made for the count at hand (`sheriffs_vote` reads who holds the badge then)
TIES = {"nobody": lambda g: votes.nobody, "first_to_reach": lambda g: votes.first_to_reach,
        "sheriffs_vote": lambda g: votes.sheriffs_vote(g.state.sheriff), "pk": lambda g: votes.nobody,
        tie_pick.RULE: lambda g: votes.nobody}


def _skills(parts: list[Part]) -> dict:
    """The skills the parts declare, by word. A team skill several parts declare under one word (146's 杀人: the pack's,
    the black lovers' 寡妇刀) runs the first part's that the sender `sends` for, else the first's, whose refusal he gets."""
    declared: dict[str, list] = {}
    for part in parts:
        for s in part.skills():
            declared.setdefault(s.name, []).append((part, s))
    out = {}
    for word, alike in declared.items():
        out[word] = alike[-1][1]
        if len(alike) > 1 and all(s.team for _, s in alike):
            out[word] = dataclasses.replace(alike[0][1], run=_by_sender(alike))
    return out


def _by_sender(alike: list):
    def run(g, actor, target):
        chosen = next((s for part, s in alike if part.sends(g, actor)), alike[0][1])
        return chosen.run(g, actor, target)
    return run


def _shared(declared, holders: tuple[str, ...], own):
    """One word, two skills: `own` for a player of `holders`, the declared skill's for anyone else."""
    def run(g, actor, target):
        return (own if actor.role in holders else declared)(g, actor, target)
    return run


def _conditions(written) -> list[tuple]:
    """A faction's conditions as the file writes them ([{kind: argument}, ...]), as (test, argument)."""
    return [(CONDITIONS[kind], arg) for cond in written or () for kind, arg in cond.items()]


def _role(r: dict) -> Role:
    return Role(r["name"], r["faction"], int(r["count"]), team=r.get("team"), hidden_as=r.get("hidden_as"),
                summary=r.get("summary", ""))


def _quota(v) -> Quota | None:
    return Quota(int(v["count"]), v["text"]) if v else None


def _day_length(v) -> DayLength | None:
    if not v:
        return None
    hours, minutes = str(v["at"]).split(":")
    return DayLength(int(v["days"]), int(hours) * 60 + int(minutes), weekend=bool(v["weekend"]),
                     first_exempt=bool(v.get("first_exempt", False)), text=v["text"])


def _params(lib_entry, given: dict | None) -> dict:
    return {**{k: v.default for k, v in lib_entry.params.items()}, **(given or {})}


def _parts(rules: FileRuleset, data: dict) -> list[Part]:
    """The library parts a (checked) file names, in the file's order: each identity's, each skill's, each
    team's, the sheriff's."""
    lib = entries()
    parts = []
    for r in data["identities"]:
        e = lib[r.get("library", r["name"])]
        parts.append(e.make(rules, e.kind, r["name"], (r["name"],), r.get("team"), _params(e, r.get("params"))))
    for s in data.get("skills", ()):
        e = lib[s["library"]]
        parts.append(e.make(rules, e.kind, s.get("name", e.name), tuple(s["holders"]), None, _params(e, s.get("params"))))
    for team, t in (data.get("teams") or {}).items():
        for s in t.get("skills", ()):
            e = lib[s["library"]]
            parts.append(e.make(rules, e.kind, s.get("name", e.name), (), team, _params(e, s.get("params"))))
    for office in ("succession", "deputy"):
        if o := (data.get("sheriff") or {}).get(office):
            e = lib[o["library"]]
            parts.append(e.make(rules, e.kind, o.get("name", e.name), (), None, _params(e, o.get("params"))))
    return parts
