"""What a command made happen, as plain values the bot delivers and the replay records.

Audiences: `player:NAME` (private chat), `team:TEAM` (a team's group), `director`, `public`
(the forum announcement). Nothing secret is ever addressed to `public`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Anchor = Literal["now", "close", "open", "clock", "opened"]


@dataclass(frozen=True)
class Death:
    name: str
    phase: str
    number: int
    cause: str


@dataclass(frozen=True)
class Feedback:
    """A private result (a check, who was attacked, the guard's answer)."""

    to: str
    skill: str
    phase: str
    number: int
    target: Any
    result: Any
    audience: str  # where it is delivered: the player, or the team that acted together
    text: str


@dataclass(frozen=True)
class Notice:
    audience: str
    text: str
    # the time limit this notice asks a decision for (a pending's key, "遗言:NAME"): a game that ends
    # in the same command withdraws the question instead of sending it
    about: str | None = None


@dataclass(frozen=True)
class DeadlineStart:
    """A time limit begins: it ends `minutes` after the anchor (`open`: at the next 开门; `clock`: at the
    first time of day `minutes` after midnight that follows 关门, as 154's "夜晚十点前"; `opened`: after
    the 开门 of the running day, as 146's "开门以后一个小时"; `now`: after the player is told)."""

    key: str
    who: tuple[str, ...]
    what: str
    anchor: Anchor
    minutes: int


@dataclass(frozen=True)
class DeadlineEnd:
    key: str


@dataclass(frozen=True)
class Announcement:
    """The 开门 announcement's list of who went out in the night just ended."""

    phase: str
    number: int
    deaths: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class Tally:
    """A count as the thread is told it (`text`: sorted counts, the 票型 with 改票, 弃权, who did not
    vote, every weight that changed a count the thread may know of) and as the director knows it
    (`director`: the true counts and every weight, a secret mark's too, and the card the post gives
    those who did not vote)."""

    phase: str
    number: int
    kind: str
    counts: dict
    result: str | None
    text: str
    director: str = ""


@dataclass(frozen=True)
class TeamChange:
    """Who is in a team's group changed (a member joins or leaves it)."""

    team: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class GameOver:
    winner: str
    lost: tuple[str, ...]


Event = Death | Feedback | Notice | DeadlineStart | DeadlineEnd | Announcement | Tally | TeamChange | GameOver


@dataclass
class Outcome:
    """The answer to one command: accepted with its events, or rejected with a reason."""

    ok: bool
    events: list = field(default_factory=list)
    error: str | None = None
    warnings: list[str] = field(default_factory=list)  # accepted, but parts were void (a bad ballot)

    def of(self, kind: type) -> list:
        return [e for e in self.events if isinstance(e, kind)]
