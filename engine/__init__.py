"""The pure game core: no NoneBot, no database, no clock."""
from .commands import (
    Act, Ballots, Breach, Card, CloseDay, Command, Configure, FactionLoss, Moon, OpenDay, ResolveNight, SpeedUp, Timeout,
)
from .errors import Rejected
from .game import Game
from .lineup import LineupError, check, deal
from .ruleset import Role, Ruleset, Skill, TimeLimit

__all__ = [
    "Act", "Ballots", "Breach", "Card", "CloseDay", "Command", "Configure", "FactionLoss", "Moon", "OpenDay", "ResolveNight", "SpeedUp",
    "Timeout", "Rejected", "Game", "LineupError", "check", "deal", "Role", "Ruleset", "Skill", "TimeLimit",
]
