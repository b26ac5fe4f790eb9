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

from engine import skills
from engine.errors import Rejected
from engine.game import Game
from engine.library import IDENTITY, OFFICE, SKILL, Part, entry
from engine.rulefile import FileRuleset
from engine.ruleset import Skill
from engine.state import Pending, Player

from . import draws, moons
from .common import PACK, WOLVES, after_shot, fooled


# --- decisions -------------------------------------------------------------------------------------------
def hand_over(g: Game, actor: Player, target) -> None:
    # 殉职<强制>: "警长并非因红牌罚下而出局后，须选择一名未出局的角色来继任警长。" — the idiot's <装傻> hand-over too
    # ("发动此技能时，若白痴是警长，须移交警长").
    if target is not None and fooled(g.find(target)):
        raise Rejected("发动<装傻>后的白痴不能继任警长，请选择其他角色")
    if target is not None and g.find(target).name == actor.name:
        raise Rejected("不能把警徽移交给自己，请选择其他角色")
    skills.hand_over(g, actor, target)
    _new_sheriff(g)
    draws.drawer_named(g, chosen=True)
    moons.sheriff_for_guarantee(g)


def appoint(g: Game, actor: Player, target) -> None:
    # 任命<强制>: "当选警长的角色需要立即在投票贴内任命一个执警，不能任命自己为执警"
    t = g.living_target(target, "任命")
    if t.name == actor.name:
        raise Rejected("不能任命自己为执警，请选择其他角色")
    g.settle(g.pending_for(actor.name, "任命"))
    g.tell(f"player:{actor.name}", f"已收到：任命 {g.label(t)} 为执警。")
    _set_deputy(g, t, f"警长 {g.label(actor)} 任命 {g.label(t)} 为执警")
    draws.drawer_named(g, chosen=True)


def play_dumb(g: Game, actor: Player, target) -> None:
    # 装傻: "当白痴因投票而即将出局时，可以避免出局，并公示。发动此技能时，若白痴是警长，须移交警长。"
    g.settle(g.pending_for(actor.name, "装傻"))
    actor.used.add("装傻")
    g.tell("public", f"{g.label(actor)} 发动<装傻>，避免出局。此后不能投票、不能成为投票对象、不能继任警长。")
    g.tell(f"player:{actor.name}", "已收到：装傻。你避免了出局。")
    day = g.state.day
    if day is not None:
        day.may_not_vote[actor.name] = day.may_not_be_voted[actor.name] = "白痴已发动<装傻>"
    if g.state.sheriff == actor.name:
        g.state.sheriff = None
        if g.pending_for(actor.name, "任命"):
            g.settle(g.pending_for(actor.name, "任命"))  # the next sheriff appoints
        g.ask(actor, "殉职", "你发动了<装傻>，须移交警长：发送“移交 座位号”选择一名未出局的角色（关门后30分钟内，否则随机移交）。", "badge")


def _set_deputy(g: Game, t: Player, text: str) -> None:
    g.state.carry["deputy"] = t.name
    g.tell("public", text)
    draw = "<辅策>：双数日投票结束时，你须选择下一次小新月事件（届时我会私聊你怎样选择）。" if any(not m.big for m in draws.in_play(g)) else ""
    g.tell(f"player:{t.name}", "你被任命为执警。<代理>：你的投票计为1票。" + draw)


def _new_sheriff(g: Game) -> None:
    # "警长或执警其中任意一个出局，警长需要重新任命一个执警" — a badge passed on by a death is followed by a new
    # appointment; the idiot's hand-over only when the deputy became the sheriff.
    s = g.state
    if s.sheriff and (s.carry.pop("reappoint", False) or s.carry.get("deputy") in (None, s.sheriff)):
        s.carry.pop("deputy", None)
        # a badge taken at night is appointed for at 开门, with a whole limit from the next 关门
        g.when_public("任命", s.player(s.sheriff))


# --- the parts the file names (rulesets/r146.yaml) ---------------------------------------------------
# Each identity's skills, as the file's parts declare them; what they do is the functions above and R146's
# hooks below, which the new moons reach into at every turn.
SKILLS = {
    s.name: s
    for s in (
        Skill("殉职", "decision", hand_over, aliases=("移交", "警徽")),
        Skill("任命", "decision", appoint, aliases=("执警",)),
        Skill("装傻", "decision", play_dumb, takes_target=False),
        Skill(draws.REDRAW, "night", draws.redraw, holders=("吉普赛人",), takes_target=False),
    )
}
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


class Own(Part):
    """A part of 146 played by this module: it declares its skills (`words`, of SKILLS)."""

    words: tuple[str, ...] = ()

    def skills(self):
        return [SKILLS[w] for w in self.words]


def _own(name: str, kind: str, about: str, words: tuple[str, ...]) -> None:
    entry(name, kind, about, words)(type(f"Own_{name}", (Own,), {"words": words}))


_own("146吉普赛人", IDENTITY, "146：<窥月>得知警长所选的大新月；<占卜>一次重新抽取", (draws.REDRAW,))
_own("146警长", OFFICE, "146：<殉职>（装傻后须移交）、<任命>执警；警长、执警抽取新月", ("殉职", "任命"))


@entry("146白痴", IDENTITY, "146：<装傻>被投票出局时可以避免出局，之后不能投票、不能被投票、不能继任警长", ("装傻",))
class Idiot(Own):
    words = ("装傻",)

    def exile_instead(self, g: Game, p: Player) -> bool:
        # 装傻: "当白痴因投票而即将出局时，可以避免出局" — he is asked first and stays until he answers.
        if p.role in self.holders and "装傻" not in p.used and "装傻" not in p.lost:
            g.ask(p, "装傻", "你被投票出局：可以发动<装傻>避免出局（发送“装傻”），或发送“放弃”出局（关门后30分钟内，否则视为放弃）。",
                  "day", context=g.state.day_no)
            return True
        return False


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
        # "猎人警长并非因红牌罚下而出局后，依次发动<最后一枪>、<殉职>": the badge is asked once the shot is answered
        last_shot = self.skills["最后一枪"]

        def shot_then_badge(g: Game, actor: Player, target) -> None:
            last_shot.run(g, actor, target)
            after_shot(g, actor)
        self.skills["最后一枪"] = dataclasses.replace(last_shot, run=shot_then_badge)

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
        day = g.state.day
        # 装傻: "发动此技能后，白痴不能成为投票对象，不能参与投票"
        for idiot in g.state.with_role("白痴"):
            if fooled(idiot) and idiot.alive:
                day.may_not_vote[idiot.name] = "白痴已发动<装傻>"
                day.may_not_be_voted[idiot.name] = "白痴已发动<装傻>"
        event = moons.BY_NAME.get(day.moon)
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

    def officers(self, g: Game) -> list[tuple[str, str | None]]:
        # 执警: "当选警长的角色需要立即在投票贴内任命一个执警"
        return super().officers(g) + [("执警", g.state.carry.get("deputy"))]

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

    def sheriff_duties(self, g: Game) -> str:
        # 任命<强制>; 决策<强制> — only where the game draws new moons
        draw = "<决策>：单数日投票结束时，你须选择下一次大新月事件（届时我会私聊你怎样选择）。" if any(m.big for m in draws.in_play(g)) else ""
        return "<任命>：你须立即任命一名执警（发送“任命 座位号”，不能是自己）。" + draw

    def after_election(self, g: Game, elected: str | None) -> None:
        super().after_election(g, elected)
        if elected:
            # 任命<强制>: "当选警长的角色需要立即在投票贴内任命一个执警"
            self.ask(g, "任命", g.state.player(elected))
        self.vote_over(g)


    # --- deaths -----------------------------------------------------------------------------------------
    def after_death(self, g: Game, p: Player, cause: str) -> None:
        s = g.state
        super().after_death(g, p, cause)  # the parts' (狼王's <冲锋>, 长老's <长寿之命>, 丘比特's 殉情)
        if cause == "红牌":
            handing = g.pending_for(p.name, "殉职")  # the idiot's hand-over after <装傻>
            if handing:
                g.settle(handing)
            if s.carry.get("badge_of") == p.name or handing:
                s.carry.pop("badge_of", None)
                # "红牌罚下的警长警徽随机移交。"
                s.carry["reappoint"] = True
                self._random_sheriff(g, f"{g.label(p)} 被红牌罚下")
        else:
            if s.carry.get("badge_of") == p.name:
                del s.carry["badge_of"]
                s.carry["reappoint"] = True
                g.when_public("殉职", p)
        moons.after_death(g, p, cause)
        for draw in (draws.SHERIFF_DRAW, draws.DEPUTY_DRAW):
            # "角色出局结算结束后，不能继续参与讨论、投票、行使特权" — but "警长、执警……被投票出局时需要发动技能": one voted
            # out still draws; one out any other way (a red card, the UFO, a shot, the night) does not: "由导演随机新月"
            if cause != "投票" and g.pending_for(p.name, draw):
                g.settle(g.pending_for(p.name, draw))
                draws.director_draws(g, f"{g.label(p)} 已出局（{cause}）")
        for left in ("任命", "装傻", moons.TRIAL):
            # the badge's next holder appoints; an idiot out before answering has nothing left to avoid or choose
            if g.pending_for(p.name, left):
                g.settle(g.pending_for(p.name, left))
        if s.carry.get("deputy") == p.name:
            # "警长或执警其中任意一个出局，警长需要重新任命一个执警"; "执警出局之后，则由警长重新选定执警。"
            del s.carry["deputy"]
            if s.sheriff:
                g.when_public("任命", s.player(s.sheriff))

    def red_card_instead(self, g: Game, p: Player, cancelled: list[str]) -> list[str]:
        # "红牌罚下出局的角色没有遗言权利，不能发动以下技能：长老<长寿之命>、猎人<最后一枪>、警长<殉职>。但情侣会触发
        # <殉情>。红牌罚下的警长警徽随机移交。" A 殉情 stands; so does a shot already fired.
        s = g.state
        changes = super().red_card_instead(g, p, cancelled)  # the parts' (狼王's <冲锋> back, 长老's <长寿之命> undone)
        if "殉职" in cancelled or s.carry.get("badge_after_shot") == p.name:
            s.carry.pop("badge_after_shot", None)
            self._random_sheriff(g, f"{g.label(p)} 被红牌罚下")
            changes.append(f"警徽随机移交给 {g.label(s.player(s.sheriff))}" if s.sheriff else "没有可以继任警长的角色")
        return changes

    def public(self, g: Game, what: str, p: Player) -> None:
        # what a death brings, once it is public (Game.when_public): at once by day, at 开门 after a night
        super().public(g, what, p)  # the parts' (长老's 失去技能)
        if what == "任命" and g.state.sheriff != p.name:
            return  # the badge moved on meanwhile; its new holder is asked
        if what in ("殉职", "任命"):
            self.ask(g, what, p)

    @staticmethod
    def ask(g: Game, skill: str, p: Player) -> None:
        if g.pending_for(p.name, skill):
            return
        if skill == "殉职":
            if g.pending_for(p.name, "最后一枪") or g.pending_for(p.name, "报复"):
                g.state.carry["badge_after_shot"] = p.name
                return
            g.ask(p, "殉职", "你已出局，须<殉职>：发送“殉职 座位号”选择一名未出局的角色继任警长（关门后30分钟内，否则随机移交）。", "badge")
        else:
            g.ask(p, "任命", "你是警长，须<任命>一名执警：发送“任命 座位号”（不能任命自己；关门后30分钟内，否则随机任命）。", "appoint")

    def _random_sheriff(self, g: Game, why: str) -> None:
        # "警长随机移交给在场的一名未出局角色" — never the idiot after <装傻> ("不能继任警长").
        if skills.random_sheriff(g, why, [p for p in g.state.alive() if not fooled(p)]):
            _new_sheriff(g)
        draws.drawer_named(g, chosen=False)

    def expire(self, g: Game, pending: Pending) -> None:
        who = g.state.player(pending.who)
        if moons.expire(g, pending):
            return
        if pending.skill in (draws.SHERIFF_DRAW, draws.DEPUTY_DRAW):
            draws.expire(g, who)
        elif pending.skill == "殉职":
            self._random_sheriff(g, f"{g.label(who)} 未移交警徽")
        elif pending.skill == "任命":
            choices = [p for p in g.state.alive() if p.name != pending.who]
            if choices and g.state.sheriff == pending.who:
                t = g.state.rng.choice(choices)
                _set_deputy(g, t, f"警长 {g.label(who)} 未任命执警，随机任命 {g.label(t)} 为执警")
            draws.drawer_named(g, chosen=False)
        elif pending.skill == "装傻":
            # "白痴、猎人视为放弃发动技能": the vote's result stands.
            if not who.alive:
                return
            g.tell("director", f"{who.name} 未发动<装傻>，按投票结果出局")
            sheriff = g.state.sheriff == who.name
            g.kill(who, "投票", at=("day", pending.context))
            g.publish_deaths([who.name], "放逐投票")
            if sheriff and g.phase != "over":
                # his time was the badge's too: "警长随机移交给在场的一名未出局角色"
                g.state.carry["at_dawn"] = [q for q in g.state.carry.get("at_dawn", []) if q != ("殉职", who.name)]
                if g.pending_for(who.name, "殉职"):
                    g.settle(g.pending_for(who.name, "殉职"))
                self._random_sheriff(g, f"{g.label(who)} 未移交警徽")
        else:
            g.tell("director", f"{who.name} 未在时限内发动<{pending.skill}>，视为放弃")
            after_shot(g, who)


    def has_last_words(self, g: Game, p: Player, cause: str) -> bool:
        # 神秘的UFO: "出局的玩家将没有遗言，也不占用遗言次数。" (the rest is the file's last_words)
        return cause != moons.UFO and super().has_last_words(g, p, cause)


RULESET = R146
