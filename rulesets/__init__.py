"""One ruleset per rule post, by the game's number in its post."""
from __future__ import annotations

from engine.ruleset import Ruleset

from .m131 import M131
from .r146 import R146
from .r154 import R154

RULESETS: dict[str, Ruleset] = {r.id: r for r in (M131(), R146(), R154())}


def get(ruleset_id: str) -> Ruleset | None:
    return RULESETS.get(str(ruleset_id))
