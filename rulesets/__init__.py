"""One ruleset per rule post, by the game's number in its post.

A post is a data file here (`*.yaml`, docs/rule-files.md) naming identities and skills of the library
(engine/library/) and, where the post has rules of its own, the module that plays them (`code:`). A file that does not check is left
out and each of its problems logged, by key and line (`python -m engine check FILE` names them too), so
one wrong file a director adds stops no game of the others.
"""
from __future__ import annotations

import logging
from pathlib import Path

from engine.rulecheck import load
from engine.rulefile import RuleFileError
from engine.ruleset import Ruleset

FILES = sorted(Path(__file__).parent.glob("*.yaml"))

# the order directors have always been shown them in (新游戏's list); a post added later comes after
SHOWN = ("M131", "146", "154")

# the problems of each file that does not check, by its name
LEFT_OUT: dict[str, RuleFileError] = {}


def _loaded() -> list[Ruleset]:
    found = []
    for path in FILES:
        try:
            found.append(load(path))
        except RuleFileError as exc:
            LEFT_OUT[path.name] = exc
            logging.getLogger("banshabot.rulesets").error("规则帖文件 %s 未载入：\n%s", path.name, exc)
    return found


RULESETS: dict[str, Ruleset] = {r.id: r for r in sorted(_loaded(), key=lambda r: (SHOWN.index(r.id) if r.id in SHOWN else len(SHOWN), r.id))}
# the posts of the files here, which any process of the project reads (`python -m engine` too), not those sent later
SHIPPED = frozenset(RULESETS)


def add(rules: Ruleset) -> bool:
    """A post a director sent (service/rule_posts.py), played from now on under its id; False where the id is
    taken already (a shipped post's is never replaced)."""
    if rules.id in RULESETS:
        return False
    RULESETS[rules.id] = rules
    return True


def get(ruleset_id: str) -> Ruleset | None:
    return RULESETS.get(str(ruleset_id))
