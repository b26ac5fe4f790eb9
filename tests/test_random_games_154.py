"""Random 154 games from the deal to the end, with the engine's invariants checked after every command.

The same promises as tests/test_random_games.py (M131) — a refused command changes nothing and says
why, nobody acts after going out except for what the dead may do, limited skills fire once, every
tally is the valid ballots at their weights, nobody dies twice or comes back, a game ends with exactly
one winner, and the accepted commands replay to the same game — plus what 154 adds: 黑山老妖's
one 吸精 and one 妖隐 in each pair of nights, 冲锋 gone once the group lost a member other than by a red
card, 执子之手 only in the first three nights, and the 胜负判定 applied the moment it is met.

Each game is dealt from a random seed; in every phase the open decisions are taken with plausible and
implausible choices mixed with random commands from the whole palette. Every choice is drawn from
Hypothesis (`st.randoms`), so a failing game shrinks to a short one; the failure lists the roster and
every command sent.
"""
from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine import Act, Ballots, Card, CloseDay, FactionLoss, OpenDay, ResolveNight, Timeout
from engine.votes import first_to_reach
from random_play import WHOLE_GAMES, Chooser, Play, show
from rulesets import get

RULES = get("154")
NAMES = "甲 乙 丙 丁 戊 己 庚 辛 壬 癸 子 丑 寅 卯 辰 巳 午 未 申 酉".split()
GHOSTS, SCHOLARS, YAO = "女鬼阵营", "书生阵营", "黑山老妖阵营"
FACTIONS = (GHOSTS, SCHOLARS, YAO)
COVEN = "女鬼群"
MAX_PHASES = 60
DEAD_MAY = {"殉职", "最后一刀", "遗言", "放弃", "投降"}
LIMITED = ("救药", "毒药", "姥姥之怒")
OWNERS = {
    "冲锋": {"树精姥姥"}, "姥姥之怒": {"树精姥姥"}, "执子之手": {"小倩"}, "妖隐": {"黑山老妖"}, "预言": {"除妖道士"},
    "救药": {"苗疆蛊女"}, "毒药": {"苗疆蛊女"}, "针灸": {"江湖郎中"},
}
SKILL_WORDS = sorted({w for s in RULES.skills.values() for w in (s.name, *s.aliases)}) + ["遗言", "放弃", "投降", "杀人"]
WORDS = ["我是好人", "鬼在 3 号", "[b]跟我投[/b]", ""]


class Run(Play):
    dead_may = DEAD_MAY
    asked = ("殉职", "最后一刀")
    limited = LIMITED
    owners = OWNERS
    sheriff_weight = Fraction(3, 2)  # 带队<强制>: "计算投票数量时警长投出的票计为1.5票。"

    def __init__(self, ch: Chooser, seed: int):
        super().__init__(RULES, NAMES, ch, seed)
        self.night_acts: set[tuple[int, str]] = set()
        self.yao: dict[int, list[tuple[int, str]]] = {}  # pair -> [(night, 吸精 | 妖隐)]

    def fresh(self) -> "Run":
        return Run(Chooser(random.Random(0)), self.seed)

    def holder(self, role: str) -> str:
        return self.holders(role, alive=False)[0]

    def context(self) -> dict:
        s = self.s
        return {"charge_gone": any(d["name"] in s.teams[COVEN] and d["cause"] != "红牌" for d in s.deaths)}

    def check_act(self, cmd: Act, ctx: dict) -> None:
        actor, skill, word = super().check_act(cmd, ctx)
        if skill is None or skill.when != "night":
            return
        night = ctx["where"][1]
        yao = self.role[actor] == "黑山老妖"
        if word in ("吸精", "额外吸精") and not yao:
            self.check(actor in self.s.teams[COVEN], "wrong-identity", f"{show(cmd)} accepted from {actor}, not in the 女鬼群")
            self.check(GHOSTS not in self.s.lost, "kill-after-loss", f"{show(cmd)}: the ghosts lost their 吸精")
        if word == "冲锋":
            self.check(not ctx["charge_gone"], "charge-after-loss", f"{show(cmd)}: 冲锋 after a member of the group went out")
        if word == "执子之手":
            self.check(night <= 3, "wrong-phase", f"{show(cmd)} on night {night}")
        if yao and word in ("吸精", "妖隐"):
            uses = self.yao.setdefault((night + 1) // 2, [])
            self.check(all(w != word for _, w in uses) and all(n != night for n, _ in uses), "yao-twice",
                       f"{show(cmd)}: 黑山老妖 already {uses} in this pair of nights")
            uses.append((night, word))
            return
        key = (night, "the group's 吸精" if word in ("吸精", "姥姥之怒") else word)
        if cmd.target is not None:
            self.check(key not in self.night_acts, "twice-a-night", f"{show(cmd)}: <{word}> twice in night {night}")
            self.night_acts.add(key)
        if word in ("救药", "毒药"):
            self.check(not {(night, "救药"), (night, "毒药")} <= self.night_acts, "both-potions", f"{show(cmd)}: both potions in night {night}")

    def tie(self, kind, counts, cast, top, ctx) -> str | None:
        # "最先高票者当选警长"; "平票则无人出局"
        return first_to_reach(counts, cast, top) if kind == "election" else None

    def check_state(self, cmd) -> None:
        """胜负判定 holds after every command: nothing met is left unjudged, and the end has one winner."""
        if self.check_end(FACTIONS):
            return
        s = self.s
        living = [p for p in s.players if p.alive]
        ghosts = [p for p in living if p.faction == GHOSTS]
        self.check(GHOSTS in s.lost or not living or 2 * len(ghosts) < len(living), "unjudged", f"the ghosts hold half and have not won (after {show(cmd)})")
        gone = {
            GHOSTS: all(not p.alive for p in s.players if p.faction == GHOSTS),
            SCHOLARS: all(not p.alive for p in s.players if p.role in ("赶考书生", "宁采臣") and p.faction == SCHOLARS),
            YAO: all(not p.alive for p in s.players if p.role == "黑山老妖"),
        }
        for faction, met in gone.items():
            self.check(not met or faction in s.lost, "unjudged", f"{faction} met its loss and is not judged (after {show(cmd)})")
        self.check(len(set(FACTIONS) - set(s.lost)) >= 2, "unjudged", f"one faction left and no winner (after {show(cmd)})")


# --- random commands ----------------------------------------------------------------------------------
def any_target(run: Run) -> Any:
    k = run.ch.int(0, 9)
    if k <= 5:
        return run.ch.pick(run.living() or NAMES)
    return [run.ch.pick(NAMES), None, str(run.ch.int(0, 21)), "无名氏"][k - 6]


def noise(run: Run) -> None:
    k = run.ch.int(0, 11)
    if k <= 4:
        run.do(Act(run.ch.pick(NAMES + ["路人"]), run.ch.pick(SKILL_WORDS), any_target(run)))
    elif k == 5:
        run.do(Act(run.ch.pick(NAMES), "放弃"))
    elif k == 6:
        run.do(Act(run.ch.pick(run.dead() or NAMES), "遗言", text=run.ch.pick(WORDS)))
    elif k == 7:
        run.do(Card(run.ch.pick(["蓝牌"] * 8 + ["黄牌"] * 6 + ["红牌", "绿牌"]), run.ch.pick(NAMES)))
    elif k == 8:
        keys = [p.key for p in run.s.pending] + run.keys[-15:]
        run.do(Timeout(run.ch.pick(keys) if keys else "无"))
    elif k == 9:
        run.do(Ballots(run.ch.pick(["election", "exile"]), tuple((v, run.ch.pick(NAMES + ["弃权"])) for v in run.ch.r.sample(NAMES, 3))))
    elif k == 10:
        run.do(ResolveNight())
    else:
        run.do(Act(run.ch.pick(NAMES), "投降", run.ch.pick([None, "拒绝"])))


def night(run: Run) -> None:
    n = run.s.night_no
    for _ in range(30):
        s = run.s
        if s.phase != "night" or s.night_no != n or s.night.resolved:
            return
        open_ = RULES.awaiting(run.g)
        if not open_ or run.ch.usually(12):
            if run.ch.usually(50):
                noise(run)
            if not open_:
                break
            continue
        who, slot = run.ch.pick(open_)
        prey = run.ch.pick(run.living())
        if who == COVEN:
            members = [m for m in s.teams[COVEN] if s.player(m).alive]
            lao = run.holder("树精姥姥")
            if slot == "吸精" and run.ch.usually(10) and s.player(lao).alive:
                run.do(Act(lao, "姥姥之怒", prey))
            else:
                run.do(Act(run.ch.pick(members), slot, None if run.ch.usually(8) else prey))
        elif slot == "黑山老妖":
            run.do(Act(who, run.ch.pick(["吸精", "妖隐", "吸精", "放弃"]), prey))
        elif slot == "蛊女":
            heard = any(f["to"] == who and f["skill"] == "通灵" and f["number"] == n for f in s.feedback)
            choice = run.ch.pick(["救药", "毒药", "放弃", "放弃"] if heard else ["毒药", "放弃", "救药"])
            target = run.ch.pick(next(f["result"] for f in s.feedback if f["to"] == who and f["skill"] == "通灵" and f["number"] == n) or [prey]) if heard and choice == "救药" else prey
            run.do(Act(who, choice, target))
        else:
            run.do(Act(who, slot if run.ch.usually(85) else "放弃", prey))
    if run.s.phase == "night" and run.s.night_no == n:
        if run.g.night_complete() and run.ch.usually(50):
            run.do(ResolveNight())
        if run.s.phase == "night" and run.s.night_no == n:
            run.do(OpenDay(lapse=True))


def answer_asks(run: Run) -> None:
    for p in list(run.s.pending):
        if run.s.phase == "over" or p not in run.s.pending:
            return
        k = run.ch.int(0, 5)
        if k <= 3:
            run.do(Act(p.who, p.skill, run.ch.pick(run.living()) if k <= 2 else None))
        elif k == 4:
            run.do(Timeout(p.key))


def day(run: Run) -> None:
    here = run.staying()

    answer_asks(run)
    for who in run.ch.r.sample(run.dead(), min(2, len(run.dead()))):
        if here():
            run.do(Act(who, "遗言", text=run.ch.pick(WORDS)))
    for kind in ("election", "exile"):
        if here() and kind in run.s.day.votes and run.ch.usually(92):
            living = run.living()
            focus = run.ch.pick(living)
            cast = [(v, focus if run.ch.usually(70) else run.ch.pick(living + ["弃权"] + NAMES[:2]))
                    for v in run.ch.r.sample(NAMES, len(NAMES)) if v in living and run.ch.usually(90) or run.ch.usually(3)]
            run.do(Ballots(kind, tuple(cast)))
    if here():
        answer_asks(run)
    if here() and run.ch.usually(3):  # a surrender, by the ghosts or 黑山老妖
        voters = list(run.s.teams[COVEN]) if run.ch.usually(60) else [run.holder("黑山老妖")]
        for who in voters:
            if here():
                run.do(Act(who, "投降"))
    if here() and run.ch.usually(2):
        run.do(FactionLoss(run.ch.pick(FACTIONS)))
    for _ in range(run.ch.int(0, 3)):
        if here():
            noise(run)
    if here():
        run.do(CloseDay(lapse=run.ch.usually(50)))
        if here():
            run.do(CloseDay(lapse=True))


def play(ch: Chooser) -> Run:
    run = Run(ch, seed=ch.int(0, 10_000))
    if run.ch.usually(30):
        noise(run)
    if run.s.phase == "setup":
        run.do(CloseDay())
    while run.s.phase != "over" and run.phases < MAX_PHASES:
        where = (run.s.phase, run.s.night_no, run.s.day_no)
        {"night": night, "day": day}[run.s.phase](run)
        run.check((run.s.phase, run.s.night_no, run.s.day_no) != where or run.s.phase == "over", "stuck", f"the game does not leave {where}")
    run.check(run.s.phase == "over", "no-end", f"the game did not end within {MAX_PHASES} phases")
    for cmd in (OpenDay(), CloseDay(), Card("红牌", NAMES[0]), Act(NAMES[0], "放弃")):
        run.do(cmd)
    run.check_replay()
    return run


@WHOLE_GAMES
@given(st.randoms(use_true_random=False))
def test_random_154_games_keep_the_engine_invariants(rnd):
    play(Chooser(rnd))
