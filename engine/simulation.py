"""One game of a post, played by simulated players (engine/players.py) through `Game.apply`.

Every move is a command the scenario format can write (SCENARIOS.md): an act, a day's ballots, and the
director's `night` / `day`, which let whatever time limit is still running lapse. So each game is a
real game of the post — its events, lovers and third factions, its time limits passing — and
`Played.scenario()` writes it down as a replay file with its `expect:` block.

A phase runs as people play it: a night asks each open slot in the post's order (the witch's after the
attacks, so her feedback is in), then 开门; a day first answers what is asked of anyone, then the
optional day skills, then the day's counts, then what the counts asked (a shot, the badge, a draw),
then 关门. A question nobody answers lapses at the next phase, as its time limit would.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .commands import Act, Ballots, CloseDay, OpenDay
from .game import Game
from .words import PASS as PASS_WORD
from .lineup import deal
from .players import PASS, Board, View, kind_of

MAX_PHASES = 120  # a game still going after this many phases is reported as unfinished
UNFINISHED = "未结束"
RUNNERS = 3  # how many stand in a sheriff election
OPTIONAL_TRIES = 3


def names_for(size: int) -> list[str]:
    return [f"玩家{i:02d}" for i in range(1, size + 1)]


@dataclass
class Played:
    """One simulated game: its deal, its steps as the scenario format writes them, and how it ended."""

    ruleset: str
    seed: int
    roster: list[tuple[str, str]]
    options: dict
    steps: list = field(default_factory=list)
    warned: list[int] = field(default_factory=list)  # steps whose ballots the game found partly void
    factions: list[str] = field(default_factory=list)
    winner: str | None = None
    lost: list[str] = field(default_factory=list)
    days: int = 0
    survivors: list[str] = field(default_factory=list)
    ending: str = UNFINISHED
    expect: dict = field(default_factory=dict)

    def scenario(self) -> dict:
        """The game as a scenario document (SCENARIOS.md), ready for `yaml.safe_dump`."""
        doc: dict[str, Any] = {"ruleset": self.ruleset, "seed": self.seed}
        doc.update(self.options)
        doc["players"] = [{"name": n, "role": r} for n, r in self.roster]
        doc["steps"] = self.steps
        doc["expect"] = self.expect
        return doc

    def summary(self) -> dict:
        """What the balance table counts, small enough to send between processes."""
        alive = set(self.survivors)
        return {
            "winner": self.winner, "factions": self.factions, "days": self.days, "ending": self.ending,
            "roles": [(r, n in alive) for n, r in self.roster],
        }


class Simulation:
    def __init__(self, rules, seed: int, kinds: dict[str, str], default: str = "human", options: dict | None = None):
        from rulesets.tactics import tactics

        self.rules = rules
        self.roster = deal(rules, names_for(rules.size), seed)
        self.options = dict(options or {})
        self.g = Game(rules, self.roster, seed=seed, options=self.options)
        self.rng = random.Random(f"players:{seed}")
        self.view = View(self.g, Board(), tactics(rules.id), self.rng)
        self.players = {k: kind_of(k) for k in ("human", "uniform")}
        self.kinds, self.default = kinds, default
        self.played = Played(rules.id, seed, self.roster, self.options)

    @property
    def s(self):
        return self.g.state

    def player_of(self, name: str):
        return self.players[self.kinds.get(self.s.player(name).faction, self.default)]

    # --- the one way a move is sent --------------------------------------------------------------------
    def send(self, cmd, step) -> bool:
        phase = self.s.phase
        out = self.g.apply(cmd)
        if not out.ok:
            return False
        if out.warnings:
            self.played.warned += [len(self.played.steps)] * len(out.warnings)
        self.played.steps.append(step)
        if self.s.phase == "over" and phase != "over":
            deaths = [e for e in out.events if type(e).__name__ == "Death"]
            where = {"day": "白天", "night": "夜晚", "setup": "开局"}[phase]
            self.played.ending = f"{where}·{deaths[-1].cause}" if deaths else f"{where}·判负"
        return True

    def act(self, by: str, skill: str, target=None) -> bool:
        step = {"act": skill, "by": by}
        if target is not None:
            step["target"] = target
        return self.send(Act(by=by, skill=skill, target=target), step)

    # --- one decision: the player's moves, tried in order ----------------------------------------------
    def moves_of(self, skill) -> list:
        if not skill.takes_target:
            return [None]
        living = [p.name for p in self.s.players if p.alive]
        if "0-99" in skill.usage:
            return list(range(100))
        if "牌号" in skill.usage:
            return list(range(1, 13))
        if skill.targets == 2:
            return [self.rng.sample(living, 2) for _ in range(8)] if len(living) >= 2 else []
        return living

    def decide(self, who: str, actor: str, skill, optional: bool = False) -> bool | None:
        """`who` (a player, or a group through its member `actor`) decides `skill`: True when a move was
        accepted, False when he let it go, None when nothing he tried was allowed."""
        moves = self.player_of(actor).moves(self.view, actor, skill, self.moves_of(skill), optional)
        if optional:
            # a day skill is tried by every living player every day: one he does not hold today is
            # refused whatever the target, so a few tries tell; one anybody may send (担保) is his only
            # when his turn comes, whomever he names
            moves = moves[:OPTIONAL_TRIES if skill.team or skill.holders else 1]
        for target in moves:
            if target is PASS:
                return False
            if self.act(actor, skill.name, target):
                return True
        return False if not moves else None

    # --- phases ------------------------------------------------------------------------------------------
    def play(self) -> Played:
        phases = 0
        self.setup()
        while self.s.phase != "over" and phases < MAX_PHASES:
            self.night() if self.s.phase == "night" else self.day()
            phases += 1
        return self.finish()

    def setup(self) -> None:
        for skill in (k for k in self.rules.skills.values() if k.when == "start"):
            for p in self.s.players:
                if p.role in skill.holders:
                    self.decide(p.name, p.name, skill)
        self.move_on()

    def move_on(self) -> None:
        s = self.s
        if s.phase == "night" or (s.phase == "day" and self.rules.day_follows_day(s.day_no)):
            self.send(OpenDay(lapse=True), "day")
        elif s.phase == "setup":
            self.send(OpenDay(lapse=True) if self.rules.first_phase == "day" else CloseDay(lapse=True),
                      "day" if self.rules.first_phase == "day" else "night")
        else:
            self.send(CloseDay(lapse=True), "night")

    def night(self) -> None:
        asked: set = set()
        while self.s.phase == "night":
            self.answer_asked()
            open_ = [(who, slot) for who, slot in self.rules.awaiting(self.g) if (who, slot) not in asked]
            if not open_ or self.g.night.resolved:
                break
            # the witch's slot last: her <通灵> comes once every attack of the night is in
            who, slot = next((o for o in open_ if o[1] != self.rules.potion_slot), open_[0])
            asked.add((who, slot))
            self.night_slot(who, slot)
        if self.s.phase == "night":
            self.move_on()

    def night_slot(self, who: str, slot: str) -> None:
        team = self.s.teams.get(who)
        skill = self.rules.skill(slot)
        if team is not None:
            members = [n for n in team if self.s.player(n).alive]
            for actor in members:
                decided = self.decide(who, actor, skill)
                if decided is not None:
                    if decided is False:
                        self.act(actor, skill.name, None)  # "杀人 空": the group lets it go
                    return
            return
        p = self.s.player(who)
        skills = [skill] if skill is not None and skill.name == slot else [
            k for k in self.rules.skills.values() if k.when == "night" and not k.team and p.role in k.holders]
        for k in skills:
            if self.decide(who, who, k):
                return
        # 放弃 gives up every slot of his tonight: with another still open (the witch's 灵媒), this one lapses
        if not any(w == who and s != slot for w, s in self.rules.awaiting(self.g)):
            self.act(who, PASS_WORD)

    def answer_asked(self) -> None:
        """Every question asked of a player (a shot, the badge, an idiot's <装傻>, a draw), once each."""
        done: set = set()
        while self.s.phase != "over":
            todo = [p for p in self.s.pending if p.key not in done]
            if not todo:
                return
            pending = todo[0]
            done.add(pending.key)
            skill = self.rules.skill(pending.skill)
            if skill is not None:
                self.decide(pending.who, pending.who, skill)

    def day(self) -> None:
        s = self.s
        number = s.day_no
        self.claims()
        if "election" in s.day.votes:
            self.view.board.runners = self.rng.sample([p.name for p in s.alive()], min(RUNNERS, len(s.alive())))
        self.answer_asked()
        self.day_skills()
        for kind in ("election", "exile"):
            while (s.phase == "day" and s.day_no == number and kind in s.day.votes and not s.day.vote_held
                   and not (kind == "exile" and s.day.called_off) and s.day.counted.count(kind) < s.day.rounds.get(kind, 1)):
                if not self.count(kind):
                    break
                self.answer_asked()
        self.answer_asked()
        if s.phase == "day" and s.day_no == number:
            self.move_on()

    def day_skills(self) -> None:
        """The optional skills of the day (自爆, 担保, 狼王的生日...): each holder decides once; a group once."""
        groups_done: set = set()
        for skill in self.rules.skills.values():
            if skill.when != "day" or skill.with_text:
                continue
            for p in list(self.s.alive()):
                if self.s.phase != "day":
                    return
                if skill.holders and p.role not in skill.holders:
                    continue
                group = next((t for t, m in self.s.teams.items() if p.name in m), None) if skill.team else None
                if skill.team and (group is None or group in groups_done):
                    continue
                if self.decide(p.name, p.name, skill, optional=True) and group:
                    groups_done.add(group)

    def count(self, kind: str) -> bool:
        s = self.s
        voters = [p.name for p in s.players if p.alive]
        if s.sheriff in voters:  # the sheriff's ballot comes first: the others may follow it
            voters.remove(s.sheriff)
            voters.insert(0, s.sheriff)
        cast: dict[str, str] = {}
        for voter in voters:
            targets = self.targets(kind, voter)
            if not targets:
                continue
            cast[voter] = self.player_of(voter).ballot(self.view, voter, kind, targets, cast)
        step = {("vote" if kind == "exile" else "election"): dict(cast)}
        return self.send(Ballots(kind=kind, ballots=tuple(cast.items())), step)

    def targets(self, kind: str, voter: str) -> list[str]:
        """What `voter` may put on his ballot today (弃权 included where it counts)."""
        options = [p.name for p in self.s.players if p.alive] + ["弃权"]
        return [t for t in options if self.rules.ballot_problem(self.g, kind, voter, t) is None]

    def claims(self) -> None:
        """A human seer who found a player of the other side claims in the thread and publishes his checks."""
        v, board = self.view, self.view.board
        checks = [f for f in self.s.feedback if v.tactics.purposes.get(f["skill"]) == "check" and isinstance(f["result"], str)]
        for f in checks:
            seer = self.s.player(f["to"])
            if not seer.alive or not v.good(seer.name) or self.player_of(seer.name).kind != "human":
                continue
            if f["result"].startswith("非") and self.s.player(f["target"]).alive and seer.name not in board.claimed:
                board.claimed.append(seer.name)
            if seer.name in board.claimed:
                for g in (x for x in checks if x["to"] == seer.name):
                    if g["result"].startswith("非"):
                        if g["target"] not in board.named:
                            board.named.append(g["target"])
                    else:
                        board.cleared.add(g["target"])

    def finish(self) -> Played:
        s, p = self.s, self.played
        p.factions = self.rules.factions(self.g)
        p.winner, p.lost, p.days = s.winner, list(s.lost), s.day_no
        p.survivors = [q.name for q in s.players if q.alive]
        p.expect = {
            "deaths": [{"name": d["name"], "cause": d["cause"]} for d in s.deaths],
            "alive": p.survivors,
            "sheriff": s.sheriff,
            "winner": s.winner,
            "lost": list(s.lost),
        }
        if p.warned:
            p.expect["rejected"] = sorted(p.warned)
        return p


def play(rules, seed: int, kinds: dict[str, str], default: str = "human", options: dict | None = None) -> Played:
    return Simulation(rules, seed, kinds, default, options).play()
