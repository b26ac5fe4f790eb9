"""Simulated players for `python -m engine simulate`: who sends what, never how it is applied.

A player is asked one decision at a time (a night slot, a question asked of him, an optional day skill,
his ballot) with the moves the decision allows, and answers with the moves to try in order; the
simulation (engine/simulation.py) sends them through `Game.apply` and keeps the first one the game
accepts, so a player never needs to know the rules, only what he wants.

Two kinds:

- `Uniform`: every move the rules allow is equally likely, passing included. An optional skill (a
  day's 自爆, 担保...) is used or not with even odds, then on a target drawn uniformly (a few are
  tried: one the player does not hold today is refused whatever the target).
- `Human`: plays as people do, from what he may know (his identity, his team's group, his own
  feedback, what the thread was told). Wolves never attack a member of their own group and go first
  for whoever claimed a check or was cleared by one; the seer checks players he has not checked and,
  once he finds one of the other side, claims and names him in the thread; the village then votes
  out the named player, and otherwise follows the sheriff's ballot; a group that votes together casts
  one ballot (the sisters' <默契>); the witch saves on night 1 whoever was attacked and poisons a
  named wolf; the doctor and the guard protect the claimed seer; a hunter shoots a named wolf, else
  someone nobody cleared; the badge goes to the claimed seer or, from a wolf, to a packmate. What a
  post's skills are for is in rulesets/tactics.py; a skill it does not list is played uniformly.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

PASS = object()  # in a list of moves: stop here and let the decision go
KINDS = {"human": "拟人", "uniform": "均匀随机"}


@dataclass
class Board:
    """What the thread has been told beyond the game's own announcements: claimed checks."""

    claimed: list[str] = field(default_factory=list)  # who claimed a check and published it
    named: list[str] = field(default_factory=list)  # whom a claimed check found on the other side
    cleared: set[str] = field(default_factory=set)  # whom a claimed check found good
    runners: list[str] = field(default_factory=list)  # who stands in today's sheriff election


@dataclass
class View:
    """What a player decides from: the game (read only for what he may know), the board, the post's tactics."""

    game: Any
    board: Board
    tactics: Any
    rng: random.Random

    @property
    def s(self):
        return self.game.state

    def living(self) -> list[str]:
        return [p.name for p in self.s.players if p.alive]

    def allies(self, name: str) -> set[str]:
        """Everyone who shares a group with `name` (his pack, his sister, his lover), himself included."""
        out = {name}
        for members in self.s.teams.values():
            if name in members:
                out.update(members)
        return out

    def good(self, name: str) -> bool:
        return self.s.player(name).faction == self.tactics.good

    def shuffled(self, items) -> list:
        items = list(items)
        self.rng.shuffle(items)
        return items


class Uniform:
    kind = "uniform"

    def moves(self, v: View, who: str, skill, options: list, optional: bool) -> list:
        if optional:
            return v.shuffled(options) if v.rng.random() < 0.5 else []
        return v.shuffled(options + [PASS])

    def ballot(self, v: View, voter: str, kind: str, targets: list[str], cast: dict[str, str]) -> str:
        return v.rng.choice(targets)


class Human:
    kind = "human"

    def moves(self, v: View, who: str, skill, options: list, optional: bool) -> list:
        purpose = v.tactics.purposes.get(skill.name)
        if purpose is None and skill.team and skill.takes_target:
            purpose = "attack"  # a group's shared target: never one of the group
        if purpose is None:
            return Uniform().moves(v, who, skill, options, optional)
        return getattr(self, purpose)(v, who, skill, options)

    # -- one method per purpose (rulesets/tactics.py), each the moves to try, best first
    def _others(self, v: View, who: str, options: list) -> list[str]:
        allies = v.allies(who)
        return [o for o in v.shuffled(options) if o not in allies]

    def attack(self, v: View, who, skill, options):
        others = self._others(v, who, options)
        exposed = set(v.board.claimed) | v.board.cleared
        return sorted(others, key=lambda o: o not in exposed) + [PASS]

    def check(self, v: View, who, skill, options):
        seen = {f["target"] for f in v.s.feedback if f["to"] == who and f.get("target")}
        return sorted(self._others(v, who, options), key=lambda o: o in seen)

    def save(self, v: View, who, skill, options):
        attacked = self._sensed(v, who)
        trusted = set(v.board.claimed) | v.board.cleared | {who}
        if v.s.night_no == 1:
            return attacked[:1] + [PASS]
        return [a for a in attacked if a in trusted][:1] + [PASS]

    def poison(self, v: View, who, skill, options):
        return [n for n in v.board.named if n in options and n not in v.allies(who)][:1] + [PASS]

    def protect(self, v: View, who, skill, options):
        first = [c for c in v.board.claimed if c in options and c != who]
        return first + [o for o in v.shuffled(options) if o != who and o not in first] + [PASS]

    def shoot(self, v: View, who, skill, options):
        named = [n for n in v.board.named if n in options]
        trusted = set(v.board.claimed) | v.board.cleared
        others = self._others(v, who, options)
        return (named if v.good(who) else []) + [o for o in others if o not in trusted and o not in named] + [PASS]

    def suspect(self, v: View, who, skill, options):
        return self.shoot(v, who, skill, options)

    def badge(self, v: View, who, skill, options):
        if not v.good(who):
            return [a for a in v.shuffled(v.allies(who)) if a in options and a != who] + [o for o in v.shuffled(options) if o != who]
        trusted = [c for c in v.board.claimed + sorted(v.board.cleared) if c in options and c != who]
        return trusted + [o for o in v.shuffled(options) if o != who and o not in v.board.named]

    def trust(self, v: View, who, skill, options):
        return self.badge(v, who, skill, options)

    def ally(self, v: View, who, skill, options):
        return [a for a in v.shuffled(v.allies(who)) if a in options]

    def use(self, v: View, who, skill, options):
        return options[:1]

    def explode(self, v: View, who, skill, options):
        return options[:1] if who in v.board.named else []

    def card(self, v: View, who, skill, options):
        return v.shuffled(options)

    number = card

    def _sensed(self, v: View, who: str) -> list[str]:
        """Who the witch was told was attacked tonight (<通灵>)."""
        night = v.s.night_no
        for f in v.s.feedback:
            if f["to"] == who and f["number"] == night and isinstance(f["result"], list):
                return list(f["result"])
        return []

    # -- ballots
    def ballot(self, v: View, voter: str, kind: str, targets: list[str], cast: dict[str, str]) -> str:
        allies = v.allies(voter)
        group = [cast[a] for a in allies if a in cast and a != voter and cast[a] in targets and cast[a] != voter]
        if group:
            return group[0]  # a group votes as one
        people = [t for t in targets if t != "弃权"] or targets
        if kind == "election":
            # the thread rallies behind a claimed seer, else behind the runner most voted so far
            runners = [r for r in v.board.runners if r in people] or people
            if not v.good(voter):
                return next((a for a in v.shuffled(allies) if a in runners), self._leading(v, cast, runners))
            return next((c for c in v.board.claimed if c in people), self._leading(v, cast, runners))
        sheriff = cast.get(v.s.sheriff) if v.s.sheriff != voter else None
        if v.good(voter):
            named = [n for n in v.board.named if n in people and n != voter]
            if named:
                return named[0]
            trusted = set(v.board.claimed) | v.board.cleared | {voter}
            if sheriff in people and sheriff not in trusted and v.s.sheriff not in v.board.named:
                return sheriff  # the village follows the sheriff
            return self._leading(v, cast, [t for t in people if t not in trusted] or people)
        if sheriff in people and sheriff not in allies:
            return sheriff
        others = [t for t in people if t not in allies] or people
        exposed = [t for t in others if t in v.board.claimed or t in v.board.cleared]
        return self._leading(v, cast, exposed or others)

    @staticmethod
    def _leading(v: View, cast: dict[str, str], choices: list[str]) -> str:
        """The choice most voted so far (a bandwagon), or one at random when none has a vote yet."""
        votes = {c: 0 for c in choices}
        for target in cast.values():
            if target in votes:
                votes[target] += 1
        best = max(votes.values())
        return v.rng.choice([c for c, n in votes.items() if n == best])


def kind_of(name: str):
    return {"human": Human, "uniform": Uniform}[name]()
