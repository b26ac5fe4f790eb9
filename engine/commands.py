"""Everything that can happen to a game, as plain values.

A game changes only through these. The bot stores each accepted command (the game log) and rebuilds
a game by applying them again; the replay tool builds them from a scenario file.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Union

Target = Union[str, int, list, None]


@dataclass(frozen=True)
class Act:
    """A player uses a skill (`放弃` gives up everything the player could still do in this phase)."""

    by: str
    skill: str
    target: Target = None
    text: str | None = None  # last words and other free text; never interpreted

    @property
    def shown_target(self) -> str:
        """The target as the player wrote it: a list (146's 丘比特之箭 3 5) space-separated, none empty."""
        if self.target is None:
            return ""
        return " ".join(map(str, self.target)) if isinstance(self.target, list) else str(self.target)


@dataclass(frozen=True)
class OpenDay:
    """开门: the next day begins; a running night is finished and resolved first.

    `lapse`: every decision still asked of a player has let its time limit pass (a replay moving on).
    """

    lapse: bool = False


@dataclass(frozen=True)
class CloseDay:
    """关门: the day ends and the next night begins. `lapse` as for OpenDay."""

    lapse: bool = False


@dataclass(frozen=True)
class ResolveNight:
    """Resolve the running night now because every action is in (the bot sends it early)."""


@dataclass(frozen=True)
class Ballots:
    """The day's votes as finally counted, in the order they were posted."""

    kind: Literal["election", "exile"]
    ballots: tuple[tuple[str, str], ...]  # (voter, target or 弃权)
    changed: tuple[tuple[str, str], ...] = ()  # (voter, first target) of each 改票 counted, for the 票型
    # (poster, why) of each who posted only ballots void by the post's format or 改票 rules (the bot's paste
    # reader finds them): 无效票 in the count, not 未投票. A scenario's ballots are counted as written and have none.
    void: tuple[tuple[str, str], ...] = ()
    # the ballots are the whole vote (a pasted thread, the private ballots received): whoever cast none did
    # not vote and gets the card the post gives for it. A scenario's ballots name only those it needs.
    whole: bool = False
    # who did not vote and is spared that card (the director's `免牌`)
    excused: tuple[str, ...] = ()


@dataclass(frozen=True)
class SpeedUp:
    """加速: these living players asked in the thread for the game to be sped up today (`forced`: the
    director speeds it up himself, "强制加速"). `at`: when it passed on the forum, as the bot writes a time;
    kept so a count can void the 改票 posted after it ("进程加速后不允许改票，所有改票作废，但加速前的改票视为有效").
    `delay`: they asked for 延时 instead, where the post has it (M131: "未出局角色可在进程帖中申请加速或延时")."""

    askers: tuple[str, ...] = ()
    forced: bool = False
    at: str | None = None
    delay: bool = False


@dataclass(frozen=True)
class Card:
    color: Literal["蓝牌", "黄牌", "红牌"]
    to: str


@dataclass(frozen=True)
class Timeout:
    """A time limit passed: everything still awaited under this key gets the post's consequence."""

    key: str


@dataclass(frozen=True)
class FactionLoss:
    """The director judges a faction lost (判负), as a red card allows."""

    faction: str


@dataclass(frozen=True)
class Configure:
    """Before the first phase opens: set one of the game's options (146: `moons`, the events in play)."""

    key: str
    value: Any


@dataclass(frozen=True)
class Breach:
    """The director records that `who` broke the rule the day's event sets (146: a ballot posted in the
    thread on a day of private votes, a word 无我无狼 forbids...); the ruleset gives its consequence."""

    who: str


@dataclass(frozen=True)
class Moon:
    """The director fixes what the next new-moon draw of its kind yields (a draw made outside the bot).
    `start`: for an event that picks players from a seat on (神秘的UFO), the first of them. `drawn`: the
    draw was made on the forum, so a draw of that kind still asked of its drawer is made now."""

    event: str
    start: str | None = None
    drawn: bool = False


Command = Union[Act, OpenDay, CloseDay, ResolveNight, Ballots, Card, Timeout, FactionLoss, Moon, Breach, Configure, SpeedUp]


_KINDS = {c.__name__: c for c in (Act, OpenDay, CloseDay, ResolveNight, Ballots, Card, Timeout, FactionLoss, Moon, Breach, Configure,
                                   SpeedUp)}


_PAIRS = {"ballots", "changed", "void"}  # fields that hold (voter, target) pairs


def to_dict(cmd: Command) -> dict:
    """A command as plain JSON-able data, for the stored game log."""
    data = {"type": type(cmd).__name__}
    for key, value in vars(cmd).items():
        data[key] = [list(b) for b in value] if key in _PAIRS else list(value) if isinstance(value, tuple) else value
    return data


def from_dict(data: dict) -> Command:
    fields = dict(data)
    kind = _KINDS[fields.pop("type")]
    for key in _PAIRS & set(fields):
        fields[key] = tuple(tuple(b) for b in fields[key])
    for key in {"askers", "excused"} & set(fields):
        fields[key] = tuple(fields[key])
    return kind(**fields)
