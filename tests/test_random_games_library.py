"""Random games of the rule posts made only of the library (rulesets/s12.yaml, rulesets/s16.yaml, and the posts of
the tie rules and the elder, tests/scenarios/posts/pk.yaml, pick.yaml and elder.yaml), from the deal
to the end, with the engine's invariants checked after every command (tests/random_play.py: a refusal changes
nothing and says why, the dead never act but to answer what is asked of them, a limited skill fires once, a skill
comes only from its identity and in its phase, nobody dies twice, a finished game has one winner) and the accepted
commands replayed at the end. What a player may send is read from the post itself (its skills, its night slots),
so the same driver plays any post of the library; the new identities' own rules are checked beside:
the guard never guards one player two nights running, a day skill that ends in a death (白狼自爆, 决斗, 自爆)
never comes on the election day, and the wolf beauty's charm never names her last night's player. Of the ties: in a
PK round only the tied may be named and they do not vote, a day counts a vote at most twice, and the sheriff's pick
(决定) is asked of him alone and names one of that day's tied. A skill lost for good (the elder's curse) is never used."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from engine import Act, Ballots, Card, CloseDay, OpenDay, Timeout
from engine.rulecheck import load_text
from engine.tie_pick import PICK
from random_play import WHOLE_GAMES, Broken, Chooser, Play, any_actor, any_target, explained, show, some_noise
from rulesets import get

POSTS = ("S12", "S16", "pk.yaml", "pick.yaml", "elder.yaml")  # the shipped posts by id, the others by file (tests/scenarios/posts)
MAX_PHASES = 50
NOT_TWICE = ("守护", "魅惑", "禁言")  # "不能连续两晚……同一名角色"
DEADLY_DAY = ("白狼自爆", "决斗", "自爆")  # "除竞选日外的游戏日白天"


class Run(Play):
    dead_may = {"殉职", "开枪", "遗言", "放弃", "投降"}
    asked = ("殉职", "开枪", PICK)
    limited = ("救药", "毒药", "白狼自爆", "决斗")

    def __init__(self, rules, ch: Chooser, seed: int):
        self.owners = {s.name: set(s.holders) for s in rules.skills.values() if s.holders and s.when != "decision"}
        self.sheriff_weight = rules.sheriff_weight
        names = [f"玩家{i}" for i in range(1, rules.players + 1)]
        super().__init__(rules, names, ch, seed)
        self.night_acts: dict[tuple[int, str], object] = {}
        self.tied: list[str] = []  # the tied of the last exile count, on day `tied_on`
        self.tied_on = 0
        self.factions = tuple(rules.factions_rules)

    def fresh(self) -> "Run":
        return Run(self.rules, Chooser(random.Random(0)), self.seed)

    def context(self) -> dict:
        # who may not vote today (白痴 after his 翻牌; 禁言 where the post keeps the silenced from voting), who is on
        # today's PK, and the tied of the last exile count (whom the sheriff's pick may name)
        day = self.s.day if self.s.phase == "day" else None
        return {"may_not_vote": set(day.may_not_vote) if day else set(), "pk": dict(day.pk) if day else {},
                "counted": list(day.counted) if day else [], "tied": self.tied if day and self.tied_on == day.number else [],
                "lost": {p.name: set(p.lost) for p in self.s.players}}

    def valid_ballots(self, cmd, ctx, void=frozenset(), unvotable=frozenset()):
        void = set(void) | ctx["may_not_vote"]
        if tied := ctx["pk"].get(cmd.kind):  # the PK round: "只能投给平票者", "PK台上的角色不参与投票"
            void |= set(tied)
            unvotable = set(unvotable) | (ctx["alive"] - set(tied))
        return super().valid_ballots(cmd, ctx, void=void, unvotable=unvotable)

    def check_ballots(self, cmd, out, ctx):
        again = ctx["counted"].count(cmd.kind)
        self.check(again == 0 or (again == 1 and bool(ctx["pk"].get(cmd.kind))), "counted-twice",
                   f"{cmd.kind} counted again on day {ctx['where'][2]} with no PK open")
        want = super().check_ballots(cmd, out, ctx)
        counts = self.s.tallies[-1]["counts"]
        best = max(counts.values(), default=0)
        if cmd.kind == "exile":
            self.tied = sorted(n for n, v in counts.items() if v == best and best > 0)
            self.tied_on = ctx["where"][2]
        return want

    def check_act(self, cmd: Act, ctx: dict):
        actor, skill, word = super().check_act(cmd, ctx)
        if skill is None:
            return
        _, night_no, day_no = ctx["where"]
        if skill.when != "decision":  # a skill lost for good (the elder's curse...) is never used again
            self.check(word not in ctx["lost"][actor], "lost-skill-used", f"{show(cmd)} accepted although {actor} lost <{word}>")
        if word == PICK:
            self.check(self.name_of(cmd.target) in ctx["tied"], "pick-not-tied", f"{show(cmd)} names one not among the tied {ctx['tied']}")
        if word in DEADLY_DAY:
            self.check(day_no != self.rules.election_day, "wrong-phase", f"<{word}> accepted on the election day")
        if skill.when == "night" and not skill.team:
            target = self.name_of(cmd.target)
            if word in NOT_TWICE:
                self.check(self.night_acts.get((night_no - 1, word)) != target, "twice-running",
                           f"<{word}> on {target} two nights running")
            self.check((night_no, word) not in self.night_acts, "twice-a-night", f"<{word}> accepted twice in night {night_no}")
            self.night_acts[(night_no, word)] = target

    def check_state(self, cmd) -> None:
        self.check_end(self.factions)


def noise(run: Run) -> None:
    ch, s = run.ch, run.s
    words = sorted(run.rules.skills) + ["放弃", "遗言", "投降"]
    k = ch.int(0, 9)
    if k <= 4:
        run.do(Act(any_actor(run), ch.pick(words), any_target(run)))
    elif k <= 6:  # a skill of its identity, its holder alive or out
        skill = ch.pick(sorted(run.owners))
        who = ch.pick([p.name for p in s.players if p.role in run.owners[skill]] or run.names)
        run.do(Act(who, skill, ch.pick(run.living()) if ch.usually(60) else any_target(run)))
    elif k == 7:
        run.do(Card(ch.pick(["蓝牌", "黄牌", "黄牌", "红牌"]), ch.pick(run.names)))
    elif k == 8:
        keys = [p.key for p in s.pending] + run.keys[-8:]
        if keys:
            run.do(Timeout(ch.pick(keys)))
    else:
        run.do(Act(any_actor(run), "遗言", text="我是好人"))


def night(run: Run) -> None:
    ch, g = run.ch, run.g
    for _ in range(3 * len(run.names)):
        if not run.staying()() or not run.rules.awaiting(g):
            break
        who, slot = ch.pick(run.rules.awaiting(g))
        living = run.living()
        if who in g.state.teams:  # a team's slot: any member sends it
            members = [n for n in g.state.teams[who] if g.state.player(n).alive]
            run.do(Act(ch.pick(members), slot, ch.pick(living) if ch.usually(90) else None))
        elif slot == run.rules.potion_slot:
            run.do(Act(who, ch.pick(["救药", "毒药", "放弃", "放弃"]), ch.pick(living)))
        elif ch.usually(15):
            run.do(Act(who, "放弃"))
        else:
            skill = run.rules.skill(slot)
            target = [ch.pick(living), ch.pick(living)] if skill and skill.targets == 2 else ch.pick(living)
            run.do(Act(who, slot, target))
        if ch.rarely(20):
            some_noise(run, 2, noise)
        if ch.rarely(15):  # a player sends his identity's night skill unasked (one he lost, one he passed...)
            own = [(p.name, k) for p in g.state.alive() for k in sorted(run.owners)
                   if p.role in run.owners[k] and run.rules.skill(k).when == "night"]
            if own:
                who, skill = ch.pick(own)
                run.do(Act(who, skill, ch.pick(run.living())))


def day(run: Run) -> None:
    ch, s = run.ch, run.s
    still = run.staying()
    for _ in range(ch.int(0, 3)):
        if not still():
            return
        for p in list(s.pending):  # 殉职, 开枪: answered, or let go
            if ch.usually(70):
                run.do(Act(p.who, p.skill, ch.pick(run.living()) if ch.usually(85) else None))
        deadly = [w for w in DEADLY_DAY if w in run.rules.skills]
        if deadly and ch.rarely(25):
            skill = ch.pick(deadly)
            holders = [p.name for p in s.alive() if p.role in run.owners.get(skill, ())]
            if holders:
                run.do(Act(ch.pick(holders), skill, ch.pick(run.living())))
        some_noise(run, 2, noise)
    if not still():
        return
    for kind in ("election", "exile"):
        # a tie's PK round is the same vote counted again (at most once more)
        for _ in range(2):
            if not (s.phase == "day" and kind in s.day.votes and not s.day.called_off
                    and s.day.counted.count(kind) < s.day.rounds.get(kind, 1)):
                break
            living, pk = run.living(), list(s.day.pk.get(kind, ()))
            named = pk if pk and ch.usually(80) else living
            voters = ch.shuffled(living)
            if len(named) > 1 and ch.rarely(30):
                # the thread split between two, the sheriff abstaining: the tie the post's rule settles
                pair = ch.shuffled(named)[:2]
                run.do(Ballots(kind, tuple((v, "弃权" if v == s.sheriff else pair[i % 2]) for i, v in enumerate(voters))))
                continue
            top = ch.pick(named)
            run.do(Ballots(kind, tuple((v, top if ch.usually(60) else ch.pick(named)) for v in voters)))
    for p in list(s.pending):  # the sheriff's pick on a tie, 殉职, 开枪: answered, or let go
        if s.phase == "day" and ch.usually(70):
            named = ch.pick(run.tied) if run.tied and ch.usually(60) else ch.pick(run.living())
            run.do(Act(p.who, p.skill, named if ch.usually(85) else None))


def play(run: Run) -> None:
    run.advance(CloseDay(lapse=True))  # the first night
    while run.s.phase != "over" and run.phases < MAX_PHASES:
        if run.s.phase == "night":
            night(run)
            if run.s.phase == "night":
                run.advance(OpenDay(lapse=run.ch.usually(80)))
        else:
            day(run)
            if run.s.phase == "day":
                follows = run.rules.day_follows_day(run.s.day_no)
                run.advance(OpenDay(lapse=True) if follows else CloseDay(lapse=run.ch.usually(80)))
    run.check_replay(every_step=False)


@pytest.mark.parametrize("post", POSTS)
def test_random_games_of_a_post_made_of_the_library(post):
    rules = get(post) or load_text((Path(__file__).parent / "scenarios" / "posts" / post).read_text(encoding="utf-8"))

    # as tests/test_random_games.py: the delta debugging of `explained` shrinks a failing game, not Hypothesis
    @settings(WHOLE_GAMES, max_examples=60, phases=[Phase.explicit, Phase.reuse, Phase.generate])
    @given(st.randoms(use_true_random=False))
    def games(rnd):
        run = Run(rules, Chooser(rnd), rnd.randint(0, 2**31))
        try:
            play(run)
        except Broken as exc:
            raise explained(exc)

    games()
