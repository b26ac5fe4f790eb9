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

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Act, Ballots, Card, CloseDay, FactionLoss, Game, OpenDay, ResolveNight, Timeout, deal
from engine.events import DeadlineStart
from engine.votes import first_to_reach
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


class Broken(AssertionError):
    """An invariant of the engine failed."""


def freeze(x: Any) -> Any:
    """A deep, comparable picture of the state (dict order kept: a replay must rebuild it too)."""
    t = type(x)
    if x is None or t in (str, int, bool, float, Fraction):
        return x
    if hasattr(t, "__dataclass_fields__"):
        return (t.__name__, tuple((f, freeze(getattr(x, f))) for f in t.__dataclass_fields__))
    if isinstance(x, dict):
        return ("dict", tuple((freeze(k), freeze(v)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return (t.__name__, tuple(freeze(v) for v in x))
    if isinstance(x, (set, frozenset)):
        return ("set", tuple(sorted((freeze(v) for v in x), key=repr)))
    if isinstance(x, random.Random):
        return ("rng", x.getstate())
    return repr(x)


class Run:
    def __init__(self, rnd: random.Random, seed: int):
        self.r = rnd
        self.seed = seed
        self.roster = deal(RULES, NAMES, seed)
        self.role = dict(self.roster)
        self.g = Game(RULES, self.roster, seed=seed)
        self.log: list[tuple[Any, bool, str | None]] = []
        self.accepted: list[tuple[Any, list, list, Any]] = []  # (command, events, warnings, state after)
        self.start = freeze(self.g.state)
        self.snap = self.start
        self.keys: list[str] = []
        self.phases = 0
        self.uses: set[tuple[str, str]] = set()
        self.night_acts: set[tuple[int, str]] = set()
        self.yao: dict[int, list[tuple[int, str]]] = {}  # pair -> [(night, 吸精 | 妖隐)]

    # -- choices: each shrinks to its first option
    def pick(self, seq):
        seq = list(seq)
        return seq[self.r.randint(0, len(seq) - 1)]

    def chance(self, pct: int) -> bool:
        return self.r.randint(0, 99) < pct

    @property
    def s(self):
        return self.g.state

    def living(self) -> list[str]:
        return [p.name for p in self.s.players if p.alive]

    def dead(self) -> list[str]:
        return [p.name for p in self.s.players if not p.alive]

    def holder(self, role: str) -> str:
        return next(n for n, r in self.roster if r == role)

    def any_target(self) -> Any:
        k = self.r.randint(0, 9)
        if k <= 5:
            return self.pick(self.living() or NAMES)
        return [self.pick(NAMES), None, str(self.r.randint(0, 21)), "无名氏"][k - 6]

    def fail(self, what: str) -> None:
        lines = [what, f"seed={self.seed}", f"roster={self.roster}", "commands:"]
        lines += [f"  {cmd!r}" + ("" if ok else f"    # rejected: {err}") for cmd, ok, err in self.log]
        raise Broken("\n".join(lines))

    def check(self, cond: bool, what: str) -> None:
        if not cond:
            self.fail(what)

    # -- the one way a command is sent
    def do(self, cmd: Any):
        s = self.s
        before = self.snap
        alive_before = set(self.living())
        sheriff_before = s.sheriff
        pending_before = {(p.who, p.skill) for p in s.pending}
        used_before = {p.name: set(p.used) for p in s.players}
        charge_gone = any(d["name"] in s.teams[COVEN] and d["cause"] != "红牌" for d in s.deaths)
        where = (s.phase, s.night_no, s.day_no)
        n_deaths, n_tallies = len(s.deaths), len(s.tallies)
        try:
            out = self.g.apply(cmd)
        except Exception as exc:  # the engine's only refusal is an Outcome
            self.log.append((cmd, False, f"CRASH {type(exc).__name__}: {exc}"))
            self.fail(f"the engine raised {type(exc).__name__}: {exc} on {cmd!r}")
        self.log.append((cmd, out.ok, out.error))
        after = freeze(self.s)
        if not out.ok:
            self.check(after == before, f"rejected {cmd!r} changed the state")
            self.check(not out.events and not out.warnings and bool(out.error), f"rejected {cmd!r}: events, or no reason")
        else:
            self.check(where[0] != "over", f"{cmd!r} accepted after the end")
            self.accepted.append((cmd, out.events, out.warnings, after))
            self.keys += [e.key for e in out.events if isinstance(e, DeadlineStart)]
            if isinstance(cmd, Act):
                self._check_act(cmd, where, alive_before, pending_before, used_before, charge_gone)
            if isinstance(cmd, Ballots):
                self._check_ballots(cmd, alive_before, sheriff_before, n_tallies)
            self._check_deaths(cmd, alive_before, n_deaths)
        self._check_judged(cmd)
        self.snap = after
        if (self.s.phase, self.s.night_no, self.s.day_no) != where:
            self.phases += 1
        return out

    def _check_act(self, cmd: Act, where, alive_before, pending_before, used_before, charge_gone) -> None:
        actor = cmd.by if cmd.by in self.role else (NAMES[int(cmd.by) - 1] if str(cmd.by).isdigit() else None)
        self.check(actor is not None, f"{cmd!r} accepted from nobody")
        skill = RULES.skill(cmd.skill)
        word = skill.name if skill else cmd.skill
        if actor not in alive_before:
            self.check(word in DEAD_MAY, f"{cmd!r} accepted although {actor} was out")
            if word in ("殉职", "最后一刀"):
                self.check((actor, word) in pending_before, f"{cmd!r} accepted with nothing asked of {actor}")
        if skill is None:
            return
        if word in ("殉职", "最后一刀"):
            self.check((actor, word) in pending_before, f"{cmd!r} accepted with nothing asked of {actor}")
        if word in LIMITED:
            self.check((actor, word) not in self.uses and word not in used_before[actor], f"limited <{word}> twice from {actor}")
            self.uses.add((actor, word))
        if word in OWNERS:
            self.check(self.role[actor] in OWNERS[word], f"{cmd!r} accepted from a {self.role[actor]}")
        phase, night, _ = where
        want = {"night": "night", "day": "day"}.get(skill.when)
        self.check(want is None or phase == want, f"{cmd!r} accepted in phase {phase}")
        if skill.when != "night":
            return
        yao = self.role[actor] == "黑山老妖"
        if word in ("吸精", "额外吸精") and not yao:
            self.check(actor in self.s.teams[COVEN], f"{cmd!r} accepted from {actor}, not in the 女鬼群")
            self.check(GHOSTS not in self.s.lost, f"{cmd!r}: the ghosts lost their 吸精")
        if word == "冲锋":
            self.check(not charge_gone, f"{cmd!r}: 冲锋 after a member of the group went out")
        if word == "执子之手":
            self.check(night <= 3, f"{cmd!r} on night {night}")
        if yao and word in ("吸精", "妖隐"):
            uses = self.yao.setdefault((night + 1) // 2, [])
            self.check(all(w != word for _, w in uses) and all(n != night for n, _ in uses),
                       f"{cmd!r}: 黑山老妖 already {uses} in this pair of nights")
            uses.append((night, word))
            return
        key = (night, "the group's 吸精" if word in ("吸精", "姥姥之怒") else word)
        if cmd.target is not None:
            self.check(key not in self.night_acts, f"{cmd!r}: <{word}> twice in night {night}")
            self.night_acts.add(key)
        if word in ("救药", "毒药"):
            self.check(not {(night, "救药"), (night, "毒药")} <= self.night_acts, f"{cmd!r}: both potions in night {night}")

    def _check_ballots(self, cmd: Ballots, alive_before, sheriff_before, n_tallies) -> None:
        s = self.s
        self.check(len(s.tallies) == n_tallies + 1, f"{cmd!r} accepted without exactly one tally")
        tally = s.tallies[-1]
        valid = [(v, t, RULES.sheriff_weight if v == sheriff_before else Fraction(1))
                 for v, t in cmd.ballots if v in alive_before and (t == "弃权" or t in alive_before)]
        expected: dict[str, Fraction] = {}
        for _, t, w in valid:
            if t != "弃权":
                expected[t] = expected.get(t, Fraction(0)) + w
        counts = {k: Fraction(v) for k, v in tally["counts"].items()}
        self.check(counts == expected, f"tally {tally} is not the valid ballots {expected}")
        want = None
        if counts:
            top = [c for c, v in counts.items() if v == max(counts.values())]
            # "最先高票者当选警长"; "平票则无人出局"
            want = top[0] if len(top) == 1 else (first_to_reach(counts, [b for b in valid if b[1] != "弃权"], top) if cmd.kind == "election" else None)
        self.check(tally["result"] == want, f"tally {tally}: the result should be {want}")

    def _check_deaths(self, cmd, alive_before, n_deaths) -> None:
        names = [d["name"] for d in self.s.deaths]
        self.check(len(names) == len(set(names)), f"a player died twice (after {cmd!r})")
        self.check(all(d["name"] in alive_before for d in self.s.deaths[n_deaths:]), f"a dead player died again (after {cmd!r})")
        self.check(set(names) == set(NAMES) - set(self.living()), f"deaths do not match who is out (after {cmd!r})")

    def _check_judged(self, cmd) -> None:
        """胜负判定 holds after every command: nothing met is left unjudged, and the end has one winner."""
        s = self.s
        if s.phase == "over":
            self.check(s.winner in FACTIONS and set(s.lost) == set(FACTIONS) - {s.winner} and len(s.lost) == 2,
                       f"the game ended with winner {s.winner!r} and lost {s.lost}")
            return
        self.check(s.winner is None, f"winner {s.winner} while the game goes on")
        living = [p for p in s.players if p.alive]
        ghosts = [p for p in living if p.faction == GHOSTS]
        self.check(GHOSTS in s.lost or not living or 2 * len(ghosts) < len(living), f"the ghosts hold half and have not won (after {cmd!r})")
        gone = {
            GHOSTS: all(not p.alive for p in s.players if p.faction == GHOSTS),
            SCHOLARS: all(not p.alive for p in s.players if p.role in ("赶考书生", "宁采臣") and p.faction == SCHOLARS),
            YAO: all(not p.alive for p in s.players if p.role == "黑山老妖"),
        }
        for faction, met in gone.items():
            self.check(not met or faction in s.lost, f"{faction} met its loss and is not judged (after {cmd!r})")
        self.check(len(set(FACTIONS) - set(s.lost)) >= 2, f"one faction left and no winner (after {cmd!r})")

    def check_replay(self) -> None:
        g = Game(RULES, self.roster, seed=self.seed)
        self.check(freeze(g.state) == self.start, "a fresh game differs from this one's start")
        for i, (cmd, events, warnings, state) in enumerate(self.accepted):
            out = g.apply(cmd)
            self.check(out.ok and out.events == events and out.warnings == warnings, f"replay: #{i} {cmd!r} went otherwise")
            self.check(freeze(g.state) == state, f"replay: after #{i} {cmd!r} the state differs")


# --- random commands ----------------------------------------------------------------------------------
def noise(run: Run) -> None:
    k = run.r.randint(0, 11)
    if k <= 4:
        run.do(Act(run.pick(NAMES + ["路人"]), run.pick(SKILL_WORDS), run.any_target()))
    elif k == 5:
        run.do(Act(run.pick(NAMES), "放弃"))
    elif k == 6:
        run.do(Act(run.pick(run.dead() or NAMES), "遗言", text=run.pick(WORDS)))
    elif k == 7:
        run.do(Card(run.pick(["蓝牌"] * 8 + ["黄牌"] * 6 + ["红牌", "绿牌"]), run.pick(NAMES)))
    elif k == 8:
        keys = [p.key for p in run.s.pending] + run.keys[-15:]
        run.do(Timeout(run.pick(keys) if keys else "无"))
    elif k == 9:
        run.do(Ballots(run.pick(["election", "exile"]), tuple((v, run.pick(NAMES + ["弃权"])) for v in run.r.sample(NAMES, 3))))
    elif k == 10:
        run.do(ResolveNight())
    else:
        run.do(Act(run.pick(NAMES), "投降", run.pick([None, "拒绝"])))


def night(run: Run) -> None:
    n = run.s.night_no
    for _ in range(30):
        s = run.s
        if s.phase != "night" or s.night_no != n or s.night.resolved:
            return
        open_ = RULES.awaiting(run.g)
        if not open_ or run.chance(12):
            if run.chance(50):
                noise(run)
            if not open_:
                break
            continue
        who, slot = run.pick(open_)
        prey = run.pick(run.living())
        if who == COVEN:
            members = [m for m in s.teams[COVEN] if s.player(m).alive]
            lao = run.holder("树精姥姥")
            if slot == "吸精" and run.chance(10) and s.player(lao).alive:
                run.do(Act(lao, "姥姥之怒", prey))
            else:
                run.do(Act(run.pick(members), slot, None if run.chance(8) else prey))
        elif slot == "黑山老妖":
            run.do(Act(who, run.pick(["吸精", "妖隐", "吸精", "放弃"]), prey))
        elif slot == "蛊女":
            heard = any(f["to"] == who and f["skill"] == "通灵" and f["number"] == n for f in s.feedback)
            choice = run.pick(["救药", "毒药", "放弃", "放弃"] if heard else ["毒药", "放弃", "救药"])
            target = run.pick(next(f["result"] for f in s.feedback if f["to"] == who and f["skill"] == "通灵" and f["number"] == n) or [prey]) if heard and choice == "救药" else prey
            run.do(Act(who, choice, target))
        else:
            run.do(Act(who, slot if run.chance(85) else "放弃", prey))
    if run.s.phase == "night" and run.s.night_no == n:
        if run.g.night_complete() and run.chance(50):
            run.do(ResolveNight())
        if run.s.phase == "night" and run.s.night_no == n:
            run.do(OpenDay(lapse=True))


def answer_asks(run: Run) -> None:
    for p in list(run.s.pending):
        if run.s.phase == "over" or p not in run.s.pending:
            return
        k = run.r.randint(0, 5)
        if k <= 3:
            run.do(Act(p.who, p.skill, run.pick(run.living()) if k <= 2 else None))
        elif k == 4:
            run.do(Timeout(p.key))


def day(run: Run) -> None:
    d = run.s.day_no

    def here() -> bool:
        return run.s.phase == "day" and run.s.day_no == d

    answer_asks(run)
    for who in run.r.sample(run.dead(), min(2, len(run.dead()))):
        if here():
            run.do(Act(who, "遗言", text=run.pick(WORDS)))
    for kind in ("election", "exile"):
        if here() and kind in run.s.day.votes and run.chance(92):
            living = run.living()
            focus = run.pick(living)
            cast = [(v, focus if run.chance(70) else run.pick(living + ["弃权"] + NAMES[:2]))
                    for v in run.r.sample(NAMES, len(NAMES)) if v in living and run.chance(90) or run.chance(3)]
            run.do(Ballots(kind, tuple(cast)))
    if here():
        answer_asks(run)
    if here() and run.chance(3):  # a surrender, by the ghosts or 黑山老妖
        voters = list(run.s.teams[COVEN]) if run.chance(60) else [run.holder("黑山老妖")]
        for who in voters:
            if here():
                run.do(Act(who, "投降"))
    if here() and run.chance(2):
        run.do(FactionLoss(run.pick(FACTIONS)))
    for _ in range(run.r.randint(0, 3)):
        if here():
            noise(run)
    if here():
        run.do(CloseDay(lapse=run.chance(50)))
        if here():
            run.do(CloseDay(lapse=True))


def play(rnd: random.Random) -> Run:
    run = Run(rnd, seed=rnd.randint(0, 10_000))
    if run.chance(30):
        noise(run)
    if run.s.phase == "setup":
        run.do(CloseDay())
    while run.s.phase != "over" and run.phases < MAX_PHASES:
        where = (run.s.phase, run.s.night_no, run.s.day_no)
        {"night": night, "day": day}[run.s.phase](run)
        run.check((run.s.phase, run.s.night_no, run.s.day_no) != where or run.s.phase == "over", f"stuck in {where}")
    run.check(run.s.phase == "over", f"the game did not end within {MAX_PHASES} phases")
    for cmd in (OpenDay(), CloseDay(), Card("红牌", NAMES[0]), Act(NAMES[0], "放弃")):
        run.do(cmd)
    run.check_replay()
    return run


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)
@given(st.randoms(use_true_random=False))
def test_random_154_games_keep_the_engine_invariants(rnd):
    play(rnd)
