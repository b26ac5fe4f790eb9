"""[146] 创造营2021 — 22 players, lovers, three factions. Checkable against
`docs/posts/146-创造营2021.txt` line by line: the declarations are the file rulesets/r146.yaml, which names
this module (`code:`); importing it registers the parts the file names and `RULESET` is the ruleset the
file becomes. 2L–5L here, 6L (新月扩展) in rulesets/r146/moons.py and the draws of its events in
rulesets/r146/draws.py.

Each rule carries the post's words; where the post is ambiguous the reading chosen is written next
to it and listed in docs/rules-146.md.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from functools import partial

from engine.game import Game
from engine.library import IDENTITY, SKILL, Part, entry
from engine.rulefile import FileRuleset
from engine.ruleset import Skill
from engine.state import Pending, Player

from . import draws, moons
from .common import PACK, WOLVES


# --- the parts the file names (rulesets/r146.yaml) ---------------------------------------------------
# the new moons' and their draws' (rulesets/r146/moons.py, rulesets/r146/draws.py): no identity's
MOON_SKILLS = {
    s.name: s
    for s in (
        Skill(draws.SHERIFF_DRAW, "decision", draws.choose, aliases=("抽大新月",), usage="决策 牌号"),
        Skill(draws.DEPUTY_DRAW, "decision", draws.choose, aliases=("抽小新月",), usage="辅策 牌号"),
        Skill(moons.FURY, "decision", moons.fury_shot, aliases=("愤怒",)),
        Skill(moons.BIRTHDAY, "day", moons.start_birthday, aliases=("生日",), team=True, takes_target=False),
        Skill(moons.LEADER, "day", moons.elect_leader, aliases=("首领",), team=True),
        Skill(moons.HUNT, "night", moons.hunt, holders=(moons.LEADER,)),
        Skill("报复", "decision", moons.revenge),
        Skill("担保", "day", moons.vouch),
        Skill(moons.PRIVATE_BALLOT, "day", moons.private_ballot, with_text=True, usage="投票 角色 理由"),
        Skill(moons.MEDIUM, "night", moons.medium, holders=("招魂术",)),
        Skill(moons.DIGITS, "decision", moons.digit, aliases=("UFO",), usage="数字 0-99之间的整数"),
        Skill(moons.TRIAL, "decision", moons.pair, aliases=("鸳鸯",), targets=2),
    )
}


@entry("146吉普赛人", IDENTITY, "146：<窥月>得知警长所选的大新月；<占卜>一次重新抽取", (draws.REDRAW,))
class Gypsy(Part):
    """窥月 and 占卜 are the new moons' draws (rulesets/r146/draws.py): without new moons, a villager."""

    def skills(self):
        return [Skill(draws.REDRAW, "night", draws.redraw, holders=self.holders, takes_target=False)]


@entry("146新月", SKILL, "146：新月事件给出的夜晚指杀（神经错乱的<杀人>、狼族首领的<捕猎>）", (moons.HUNT,))
class MoonKills(Part):
    """The 指杀 the new moons give a night (神经错乱's <杀人>, sent with the pack's word, and the leader's <捕猎>): slots of
    the file's night order, steps of its settlement, which the witch's <通灵> waits for and senses."""

    slots = ("杀人", moons.HUNT)

    def open_slots(self, g):
        return moons.kill_slots(g)

    def begin_night(self, g) -> None:
        for who, slot in self.open_slots(g):
            if slot == moons.HUNT:
                self.rules.prompt(g, who, slot, "你可以<捕猎>指杀一名角色（限一次，发送“捕猎 座位号”）")
            else:  # 神经错乱 told its killer what he can do tonight
                g.start_deadline(g.night_key(who, slot), [who], slot, "night")

    def acting(self, g, step=None) -> bool:
        # "狼人阵营优先判负后，狼人阵营失去杀人技能": a leader's <捕猎> sent before the loss is void at the settlement
        sent = g.night.actions.get(step) if step else None
        return not (sent and WOLVES in g.state.lost and g.state.player(sent[0]).faction == WOLVES)

    def steps(self):
        return {moons.HUNT: partial(self.settle, key=moons.HUNT, cause=moons.HUNT),
                moons.CONFUSED_KILL: partial(self.settle, key=moons.CONFUSED_KILL, cause="杀人")}

    def settle(self, g, out, key: str, cause: str):
        # (8) 指杀结算, its steps one to three the doctor's, the elder's and the witch's `spares`, in that order
        a = g.night.actions
        if key in a and self.acting(g, key) and not self.rules.spared(g, a[key][1], key):
            out.append((a[key][1], cause))
        return out


class R146(FileRuleset):
    """146's ruleset: the file's declarations, with the post's own night, day and deaths, which the new moons
    change throughout (moons.py, draws.py)."""

    def __init__(self, data: dict):
        super().__init__(data)
        self.skills = {**self.skills, **MOON_SKILLS}
        # 神经错乱: "狼群内角色失去技能<杀人>，获得技能<预言>……且狼人获得具体身份结果" — a wolf's <预言> is the event's
        seer = self.skills["预言"]
        self.skills["预言"] = dataclasses.replace(seer, run=lambda g, actor, target: (
            seer.run if actor.role == "预言家" else moons.confused_foresight)(g, actor, target))
        # 神经错乱: "预言家……失去<预言>，并获得<杀人>" — his (the witch's, the hunter's) own 指杀, sent with the pack's word
        kill = self.skills["杀人"]

        def kill_or_confused(g: Game, actor: Player, target) -> None:
            if "杀人" in g.night.granted.get(actor.name, ()) and actor.name not in g.state.teams.get(PACK, ()):
                return moons.confused_kill(g, actor, target)
            kill.run(g, actor, target)
        self.skills["杀人"] = dataclasses.replace(kill, run=kill_or_confused)
        # 狼族首领: "首领失去原有技能" — told so, rather than why a 狼王 loses <冲锋> otherwise
        charge = self.skills["冲锋"]

        def charge_unless_leader(g: Game, actor: Player, target) -> None:
            moons.lost_to_leadership(g, actor, "冲锋")
            charge.run(g, actor, target)
        self.skills["冲锋"] = dataclasses.replace(charge, run=charge_unless_leader)

    # --- the night: the file's night order and settlement, with what the new moons add ------------------
    def awaiting(self, g: Game) -> list[tuple[str, str]]:
        return super().awaiting(g) + moons.night_slots(g) + draws.slots(g)

    def pass_night(self, g: Game, who: str, slot: str) -> None:
        super().pass_night(g, who, slot)
        if slot == draws.SHERIFF_DRAW and g.pending_for(who, slot):
            # the sheriff lets his draw go: "视为放弃技能，由导演随机新月"
            g.settle(g.pending_for(who, slot))
            draws.expire(g, g.state.player(who))

    def begin_night(self, g: Game) -> None:
        moons.tonight(g)
        draws.taken_tonight(g)
        super().begin_night(g)
        for who, slot in moons.night_slots(g):
            if slot == moons.MEDIUM:
                self.prompt(g, who, slot, "你可以<灵媒>选择一名角色（发送“灵媒 座位号”）：如果当晚这名角色因指杀而出局，他依然可以参与下一个游戏日的讨论")
            else:  # a wolf's <预言>: 神经错乱 told him
                g.start_deadline(g.night_key(who, slot), [who], slot, "night")
        draws.peek(g)

    # --- the day ----------------------------------------------------------------------------------------
    def morning(self, g: Game, night_deaths: list[str]) -> None:
        # "每个游戏日白天开始时，都会公示前一天因投票出局角色名单、夜晚出局角色名单、当日警长" — and the day's new moon
        # ("自第二个讨论日开始") with what the events standing publish
        event = draws.today(g)
        extra, lines = moons.morning(g)
        if event:
            lines = [f"今日{'大' if event.big else '小'}新月：【{event.name}】（有效期：{event.lasts}）\n{event.text}", *lines]
        g.announce(night_deaths, extra, lines)

    def begin_day(self, g: Game) -> None:
        super().begin_day(g)  # the parts' (白痴's <装傻>: no vote, not voted for)
        event = moons.BY_NAME.get(g.state.day.moon)
        if event and event.begins:
            event.begins(g)

    def closing(self, g: Game) -> None:
        moons.count_private(g)
        moons.guarantee_closes(g)
        draws.ask(g)  # a day that ends without its vote counted: the draw is asked at 关门
        moons.closing(g)

    def counted(self, g: Game, kind: str, ballots: list, result: str | None) -> None:
        moons.publish_private(g, kind)
        moons.second_round(g, kind, result)
        day = g.state.day
        if kind == "exile" and day.counted.count("exile") >= day.rounds.get("exile", 1):
            self.vote_over(g)

    def vote_over(self, g: Game) -> None:
        """The day's vote is over: "在单数日投票结束时，警长需要……选择下一次大新月事件" (辅策 likewise)."""
        draws.ask(g)

    def vote_weight(self, g: Game, voter: str, kind: str) -> Fraction:
        return super().vote_weight(g, voter, kind) + moons.ransom(g, voter)

    def count_notes(self, g: Game, kind: str, ballots: list) -> list[tuple[str, bool]]:
        # 绑票 is public with the birthday's list; 统领's mark is "暗记": the director's only
        notes = super().count_notes(g, kind, ballots)
        notes += [(f"{g.label(g.state.player(v))} <绑票>：投票多计一票", True) for v, _, _ in ballots if moons.ransom(g, v)]
        if kind == "exile":
            notes += [(f"暗记：{g.label(g.state.player(n))} <统领>减少两票", False) for n in moons.command(g)]
        return notes

    def exile_bonus(self, g: Game) -> dict[str, Fraction]:
        return moons.command(g)

    def public_counts(self, g: Game, kind: str, counts: dict[str, Fraction]) -> dict[str, Fraction]:
        return moons.unmarked(g, counts)

    def target_problem(self, g: Game, target: Player, skill: str) -> str | None:
        return moons.birthday_immune(g, target)

    def instead(self, g: Game, p: Player, cause: str) -> tuple[Player, str] | None:
        return moons.stand_in(g, p, cause)

    def settled(self, g: Game) -> None:
        moons.funerals(g)

    def timeout(self, g: Game, key: str) -> list[str]:
        return moons.timeout(g, key)

    def fix_moon(self, g: Game, event: str, start: str | None, drawn: bool) -> None:
        draws.fix(g, event, start, drawn)

    def breach(self, g: Game, p: Player) -> None:
        moons.breach(g, p)

    def day_options(self, g: Game, name: str) -> list[str]:
        return moons.day_options(g, name)

    def speech_window(self, g: Game) -> tuple[str, int] | None:
        return moons.speech_window(g)


    settings = {"moons": "在场的新月事件：none 为不用新月，或新月事件名，以逗号分隔（不设：规则帖的配置）"}

    def configure(self, options: dict) -> dict:
        if unknown := set(options) - {"moons"}:
            raise ValueError("本局规则没有这些设置：" + "、".join(sorted(unknown)))
        return {"moons": draws.configure(options.get("moons"))}

    def choices(self) -> dict[str, dict]:
        return {moons.CHOICE: {m.name: m for m in moons.EVENTS}}


    def void_posts(self, g: Game, kind: str) -> list[tuple[str, str]]:
        return moons.thread_votes(g, kind)

    # --- the sheriff and his deputy: the file's (殉职, 执警), with the draws they make ------------------------
    def sheriff_duties(self, g: Game) -> str:
        # 决策<强制> — only where the game draws new moons
        draw = "<决策>：单数日投票结束时，你须选择下一次大新月事件（届时我会私聊你怎样选择）。" if any(m.big for m in draws.in_play(g)) else ""
        return super().sheriff_duties(g) + draw

    def deputy_duties(self, g: Game) -> str:
        # 辅策<强制>
        return "<辅策>：双数日投票结束时，你须选择下一次小新月事件（届时我会私聊你怎样选择）。" if any(not m.big for m in draws.in_play(g)) else ""

    def after_election(self, g: Game, elected: str | None) -> None:
        super().after_election(g, elected)  # 任命<强制>: "当选警长的角色需要立即在投票贴内任命一个执警"
        self.vote_over(g)

    def officer_named(self, g: Game, office: str, chosen: bool, before: str | None) -> None:
        super().officer_named(g, office, chosen, before)  # the deputy appointed again
        draws.drawer_named(g, chosen)
        if office == "警长" and chosen:
            moons.sheriff_for_guarantee(g)

    # --- deaths -----------------------------------------------------------------------------------------
    def after_death(self, g: Game, p: Player, cause: str) -> None:
        # the parts' first (狼王's <冲锋>, 长老's <长寿之命>, 丘比特's 殉情, 猎人's shot, 白痴's <装傻>, the badge, the deputy)
        super().after_death(g, p, cause)
        moons.after_death(g, p, cause)
        for draw in (draws.SHERIFF_DRAW, draws.DEPUTY_DRAW):
            # "角色出局结算结束后，不能继续参与讨论、投票、行使特权" — but "警长、执警……被投票出局时需要发动技能": one voted
            # out still draws; one out any other way (a red card, the UFO, a shot, the night) does not: "由导演随机新月"
            if cause != "投票" and g.pending_for(p.name, draw):
                g.settle(g.pending_for(p.name, draw))
                draws.director_draws(g, f"{g.label(p)} 已出局（{cause}）")
        if g.pending_for(p.name, moons.TRIAL):
            g.settle(g.pending_for(p.name, moons.TRIAL))  # an idiot out before choosing has nothing left to choose

    def expire(self, g: Game, pending: Pending) -> None:
        who = g.state.player(pending.who)
        if moons.expire(g, pending):
            return
        if pending.skill in (draws.SHERIFF_DRAW, draws.DEPUTY_DRAW):
            draws.expire(g, who)
        elif pending.skill == "报复":
            g.tell("director", f"{who.name} 未在时限内发动<报复>，视为放弃")
            self.answered(g, who)
        else:
            super().expire(g, pending)  # the parts' (最后一枪, 装傻, 殉职, 任命)

    def has_last_words(self, g: Game, p: Player, cause: str) -> bool:
        # 神秘的UFO: "出局的玩家将没有遗言，也不占用遗言次数。" (the rest is the file's last_words)
        return cause != moons.UFO and super().has_last_words(g, p, cause)


RULESET = R146
