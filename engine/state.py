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
    granted: set[str] = field(default_factory=set)  # skills held beyond the identity's own, for the rest of the game


@dataclass
class Phase:
    """What holds for one night or one day only, so it ends with it: skills given or taken for
    the phase (an event's doing), by player name."""

    granted: dict[str, set[str]] = field(default_factory=dict)
    suspended: dict[str, set[str]] = field(default_factory=dict)  # "*": every skill


@dataclass
class Night(Phase):
    """What was sent during one night, and who is done."""

    number: int = 0
    actions: dict[str, tuple[str, Any]] = field(default_factory=dict)  # skill -> (by, target)
    done: set[str] = field(default_factory=set)  # "name:skill" decided (acted, passed or timed out)
    delivered: set[str] = field(default_factory=set)  # feedback keys already sent
    resolved: bool = False
    held: list[tuple[str, str]] | None = None  # deaths still to settle while a decision holds the settlement
    deaths: list[str] = field(default_factory=list)  # who went out in this night's settlement, in order


@dataclass
class Day(Phase):
    number: int = 0
    votes: frozenset[str] = frozenset()  # which counts this day holds: "election", "exile"
    rounds: dict[str, int] = field(default_factory=dict)  # how many times a kind is counted today (default once)
    counted: list[str] = field(default_factory=list)
    called_off: bool = False  # <自爆>: no exile vote today
    # who may not vote or be voted for today, with the reason told to the director
    may_not_vote: dict[str, str] = field(default_factory=dict)
    may_not_be_voted: dict[str, str] = field(default_factory=dict)
    # voter -> the only targets that voter's ballot may name today ("*": every voter not listed)
    only_for: dict[str, frozenset[str]] = field(default_factory=dict)
    vote_held: str | None = None  # why today's vote may not be counted now (an event runs the day otherwise)
    private_votes: bool = False  # the ballots are sent to the director privately, not posted in the thread
    moon: str | None = None  # the new-moon event announced today


@dataclass
class Pending:
    """A decision asked of one player (a successor, a shot...), answered by a later Act."""

    key: str
    who: str
    skill: str
    context: Any = None
    holds_night: bool = False  # the night's settlement waits for it ("猎人需立即决定<最后一枪>")
    from_close: bool = False  # asked by day with a limit counted from the next 关门
    closed: bool = False  # that 关门 came: the limit has certainly passed by the 开门 after it
    outlives_close: bool = False  # its limit runs past 关门, so a scenario's `night` step does not end it


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
    options: dict[str, Any] = field(default_factory=dict)  # how this game is configured (146: its new moons)
    moons: list[dict] = field(default_factory=list)  # every announced new-moon event, in order

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
