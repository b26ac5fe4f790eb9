"""One ruleset per rule post, by the game's number in its post.

A post is a data file here (`*.yaml`, docs/rule-files.md) naming identities and skills of the library
(engine/library/); a post not yet written as a file is a module. A file that does not check raises
at import with every problem, key and line: a shipped post must always be sound.
"""
from __future__ import annotations

from pathlib import Path

from engine.rulecheck import load
from engine.ruleset import Ruleset

from .r146 import R146
from .r154 import R154

FILES = sorted(Path(__file__).parent.glob("*.yaml"))

RULESETS: dict[str, Ruleset] = {r.id: r for r in (*map(load, FILES), R146(), R154())}


def get(ruleset_id: str) -> Ruleset | None:
    return RULESETS.get(str(ruleset_id))
