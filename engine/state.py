"""The game as data. Everything here is copied before a command runs, so a refused command
leaves no trace."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any


class SeededRandom(random.Random):
    """The game's only source of chance; two games are equal only if their draws will be too."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, random.Random) and self.getstate() == other.getstate()

    __hash__ = None


@dataclass
class Player:
    name: str
    seat: int
    role: str
    faction: str
    alive: bool = True
    death: tuple[str, int, str] | None = None  # (phase, number, cause)
    cards: dict[str, int] = field(default_factory=lambda: {"蓝牌": 0, "黄牌": 0, "红牌": 0})
    used: set[str] = field(default_factory=set)  # limited skills already fired
    lost: set[str] = field(default_factory=set)  # skills taken away by the rules
    marks: dict[str, Any] = field(default_factory=dict)  # per-ruleset counters (empty heals, points...)


@dataclass
class Night:
    """What was sent during one night, and who is done."""

    number: int
    actions: dict[str, tuple[str, Any]] = field(default_factory=dict)  # skill -> (by, target)
    done: set[str] = field(default_factory=set)  # "name:skill" decided (acted, passed or timed out)
    delivered: set[str] = field(default_factory=set)  # feedback keys already sent
    resolved: bool = False


@dataclass
class Day:
    number: int
    votes: frozenset[str]  # which counts this day holds: "election", "exile"
    counted: set[str] = field(default_factory=set)
    called_off: bool = False  # <自爆>: no exile vote today


@dataclass
class Pending:
    """A decision asked of one player (a successor, a shot...), answered by a later Act."""

    key: str
    who: str
    skill: str
    context: Any = None


@dataclass
class GameState:
    ruleset: str
    seed: int
    rng: SeededRandom
    players: list[Player]
    teams: dict[str, list[str]]
    phase: str = "setup"  # setup | night | day | over
    night_no: int = 0
    day_no: int = 0
    night: Night | None = None
    day: Day | None = None
    sheriff: str | None = None
    pending: list[Pending] = field(default_factory=list)
    carry: dict[str, Any] = field(default_factory=dict)  # what one phase leaves to the next
    last_words: dict[str, str | None] = field(default_factory=dict)  # name -> text (None: not yet)
    # the record a transcript and the final log (树洞) are made of
    deaths: list[dict] = field(default_factory=list)
    announcements: list[dict] = field(default_factory=list)
    feedback: list[dict] = field(default_factory=list)
    tallies: list[dict] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    winner: str | None = None

    def player(self, name: str) -> Player | None:
        for p in self.players:
            if p.name == name:
                return p
        return None

    def alive(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def with_role(self, *roles: str) -> list[Player]:
        return [p for p in self.players if p.role in roles]

    @property
    def number(self) -> int:
        return self.night_no if self.phase == "night" else self.day_no
