"""The library of identities and skills: each written once, parameterised in a rule post's own terms.

A rule-post file (`rulesets/*.yaml`, read by `engine/rulefile.py`) names entries of this library by
their library name and gives each the post's parameters. One module holds one identity or a small
family of them; each registers its entries with `@entry(...)` at import, and `entries()` imports
every module of this package, so an identity is added by adding a module and nothing else
(docs/architecture.md, "How to add an identity").

An entry is a `Part`: the share of the ruleset's hooks that one identity (or one skill held by several
identities, or one team's skill, or the sheriff's office) fills in. The file-made ruleset calls each
part's hooks in the post's night order and settlement order; a part never names another identity,
only the slots, skills and steps the file names.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ..errors import Rejected

if TYPE_CHECKING:
    from ..game import Game
    from ..ruleset import Skill
    from ..rulefile import FileRuleset
    from ..state import Pending, Player

# the kinds of entry, as `python -m engine roles` and a file's keys name them
IDENTITY, SKILL, TEAM_SKILL, OFFICE = "身份", "技能", "阵营技能", "职位"


@dataclass(frozen=True)
class Param:
    """One parameter of an entry: its default, what it means in Chinese, whether the file must give it, the
    kind of value it takes (by default that of its default; None: any), and whether its value names one of the
    file's factions or groups (`names`: 阵营 | 群), which `python -m engine check` then looks up."""

    default: object
    about: str
    required: bool = False
    kind: type | None = None
    names: str | None = None

    def takes(self, value) -> bool:
        kind = self.kind or (type(self.default) if self.default is not None else None)
        if value is None:
            return not self.required
        if kind is None:
            return True
        if kind is list:
            return isinstance(value, list) and all(isinstance(v, (str, dict)) for v in value)
        return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


@dataclass(frozen=True)
class Entry:
    name: str  # the library name a file's `库:` names
    kind: str  # IDENTITY | SKILL | TEAM_SKILL | OFFICE
    about: str  # one line: what it does, in the usual post's words
    skills: tuple[str, ...]  # the skills it brings, by their usual names
    params: dict[str, Param]
    make: Callable[..., "Part"] = field(repr=False, default=None)


LIBRARY: dict[str, Entry] = {}


def entry(name: str, kind: str, about: str, skills: tuple[str, ...] = (), **params: Param):
    """Register the decorated `Part` class as the library entry `name`."""

    def register(cls):
        if name in LIBRARY:
            raise RuntimeError(f"library entry {name!r} registered twice")
        LIBRARY[name] = Entry(name, kind, about, skills, params, cls)
        return cls

    return register


def entries() -> dict[str, Entry]:
    """Every entry of the library, each module of this package imported once."""
    if not getattr(entries, "loaded", False):
        for module in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{module.name}")
        entries.loaded = True
    return LIBRARY


class Part:
    """One entry as one post uses it. `holders`: the identities (post names) that hold it; `team`: the
    team group whose skill it is; `p`: its parameters, the library's defaults overridden by the file's.

    Every hook is optional; the ruleset calls only the hooks a part's class defines. `slots` are the night
    slots it may open, named in the file's night order; `steps` the settlement steps it settles, named in
    the file's settlement order (a method `step_NAME` is found by `steps[name]`)."""

    slots: tuple[str, ...] = ()
    # slots it opens on another part's behalf (a skill granted to a team for a night), not in the night order
    granted: tuple[str, ...] = ()
    potion_slot = False  # its slot is the witch's, answered with a potion (Ruleset.potion_slot)
    # its slots and steps come before every other in the night order and the settlement order: the usual post has it
    # act first ("最先行动"), so what it does (a swap, a fright) is there before any other skill of the night is sent
    # or settled; engine/rulecheck.py refuses a file that orders it later
    leads_night = False
    # its start_game comes before every other part's: what it decides at the start (the cupid's lovers, their faction and
    # groups) is what the others read then (the sisters' group), wherever the file lists it
    starts_first = False
    # the order parts' `spares` are asked in, lowest first: one that voids a harm (a doctor, a guard: VOIDS) before one
    # that keeps an effective harm from taking its target out (the witch's save: SAVES); the elder's first life, spent by
    # an effective harm only, is asked after the first (SPENT) or after both (LAST) as his post reads "有效指杀"
    spares_rank = 0
    # the order parts' after_death is asked in, lowest first: a decision asked (a hunter's shot: 1) follows what a
    # death brings by force (a lover's 殉情, an elder's curse: 0), and the badge (2) follows the shot
    decides_last = 0

    def __init__(self, rules: "FileRuleset", kind: str, name: str, holders: tuple[str, ...], team: str | None, params: dict):
        self.rules, self.kind, self.name, self.holders, self.team, self.p = rules, kind, name, holders, team, params

    # --- what it declares --------------------------------------------------------------------------
    def skills(self) -> list["Skill"]:
        return []

    def steps(self) -> dict[str, Callable]:
        """Settlement steps by name: each takes (game, deaths so far) and returns the deaths after it.
        A step that only adds deaths may run again, unsettled, for a feedback that senses them (`harmed`)."""
        return {}

    # --- the night ----------------------------------------------------------------------------------
    def open_slots(self, g: "Game") -> list[tuple[str, str]]:
        return []

    def slot_decided(self, g: "Game", slot: str) -> bool:
        """Whether `slot` is settled for tonight (chosen, passed, or not open tonight at all)."""
        return all(s != slot for _, s in self.open_slots(g))

    def acting(self, g: "Game", step: str | None = None) -> bool:
        """Whether what it chose tonight (for its settlement step `step`) still counts (a team whose faction lost
        first loses its kill)."""
        return True

    def begin_night(self, g: "Game") -> None: ...
    def begin_night_after(self, g: "Game") -> None: ...
    def feedback(self, g: "Game") -> None: ...
    def pass_night(self, g: "Game", who: str, slot: str) -> None: ...
    def spares(self, g: "Game", name: str, cause: str) -> bool: ...

    # --- the day and the rest ------------------------------------------------------------------------
    def start_game(self, g: "Game") -> None: ...
    def begin_day(self, g: "Game") -> None: ...
    def closing(self, g: "Game") -> None: ...
    def timeout(self, g: "Game", key: str) -> list[str]: ...
    def count_notes(self, g: "Game", kind: str) -> list[tuple[str, bool]]: ...
    def exile_bonus(self, g: "Game") -> dict: ...
    def day_options(self, g: "Game", name: str) -> list[str]: ...
    def after_death(self, g: "Game", p: "Player", cause: str) -> None: ...
    def red_card_instead(self, g: "Game", p: "Player", cancelled: list[str]) -> list[str]: ...
    def public(self, g: "Game", what: str, p: "Player") -> None: ...
    def expire(self, g: "Game", pending: "Pending") -> None: ...
    def checked_as(self, g: "Game", p: "Player", faction: str) -> str: ...
    def slot_text(self, g: "Game", who: str, slot: str) -> str | None: ...
    def judging(self, g: "Game") -> None: ...
    def exile_instead(self, g: "Game", p: "Player") -> bool:
        """The exile vote is about to send `p` out: True where this part keeps him in instead (白痴's 翻牌)."""
        return False

    def joint_problems(self, g: "Game", kind: str, ballots: list[tuple[str, str]]) -> dict[str, str]:
        """Ballots void because of how they stand together (146's two sisters bound to one target), by voter."""
        return {}

    def counted(self, g: "Game", kind: str, ballots: list, result: str | None) -> None:
        """A count was tallied (`ballots`: the valid ones as (voter, target, weight)), before its result takes effect."""

    # --- the sheriff's offices (engine/library/sheriff.py, deputy.py) --------------------------------
    def heir_problem(self, g: "Game", p: "Player") -> str | None:
        """Why `p` may not take the badge (the idiot who played dumb: "不能继任警长"), or None."""

    def officer_named(self, g: "Game", office: str, chosen: bool, before: str | None) -> None:
        """`office` has a new holder (or, named at random with nobody eligible, none): `chosen` by the one whose
        duty it was, in time, rather than at random; `before`, who held or handed it."""

    def badge_vacated(self, g: "Game", p: "Player", ask: str) -> None:
        """The living sheriff `p` gives the badge up (an idiot's 装傻) and is asked `ask` for his heir."""

    def badge_lapsed(self, g: "Game", p: "Player", why: str) -> None:
        """The time `p` had to hand the badge on is gone with another of his (an idiot's 装傻): it moves now."""

    def answered(self, g: "Game", p: "Player") -> None:
        """`p` answered a shot asked of him, or let it go: what waited for it (the badge) is asked now."""

    def officers(self, g: "Game") -> list[tuple[str, str | None]]: ...
    def duties(self, g: "Game") -> str: ...
    def after_election(self, g: "Game", elected: str | None) -> None: ...

    def sends(self, g: "Game", actor: "Player") -> bool:
        """Whether `actor`'s word is this part's, where several team skills share one (146's 杀人, engine/rulefile.py)."""
        return False

    def shared_skills(self) -> dict[str, Callable]:
        """Skills it sends under a word another part declares (154's 黑山老妖 <吸精>, the ghosts' word): what
        runs when one of its holders sends that word."""
        return {}

    # --- helpers ---------------------------------------------------------------------------------------
    def holder(self, g: "Game") -> "Player | None":
        """The living holder of this part (an identity one player holds). Asked after every command: a plain
        loop over the seats, the cheapest way Python has."""
        holders = self.holders
        for q in g.state.players:
            if q.role in holders and q.alive:
                return q
        return None

    def skill(self, run, name: str, when: str, aliases=(), **kw) -> "Skill":
        from ..ruleset import Skill

        return Skill(name, when, run, aliases=tuple(aliases), **kw)


class NightSkill(Part):
    """An identity whose night is one skill of its own (`p["skill"]`, short `p["aliases"]`), its slot named after
    it: open while its holder lives, still has it and has not decided, announced with the post's night prompt
    (`night.prompt`). What the skill does when sent is each one's `use(g, actor, target)`; one lost (an elder's
    curse, a fox's empty sniff) is refused before."""

    targets = 1  # the players one use names (交换, 吹笛: two)

    def __init__(self, *args):
        super().__init__(*args)
        self.slots = (self.p["skill"],)

    def skills(self):
        return [self.skill(self.kept_use, self.p["skill"], "night", self.p["aliases"], holders=self.holders, targets=self.targets)]

    def kept_use(self, g, actor, target) -> None:
        still_has(actor, self.p["skill"])
        self.use(g, actor, target)

    def open_slots(self, g):
        p = self.holder(g)
        skill = self.p["skill"]
        # a skill lost for good (an elder's curse) or taken for the night (an event's) is not awaited
        return [(p.name, skill)] if p and skill not in p.lost and not g.suspended(p, skill) and not g.decided(p.name, skill) else []

    def begin_night(self, g) -> None:
        for who, slot in self.open_slots(g):
            self.rules.prompt(g, who, slot, self.p.get("ask"))


VOIDS, SPENT, SAVES, LAST = 0, 1, 2, 3  # Part.spares_rank


def still_has(actor: "Player", skill: str) -> None:
    """A skill its holder lost for good (an elder's curse...) is refused."""
    if skill in actor.lost:
        raise Rejected(f"{actor.name} 已经失去了<{skill}>")


HOOKS = ("begin_night", "begin_night_after", "feedback", "pass_night", "spares", "start_game", "begin_day", "closing", "timeout",
         "count_notes", "exile_bonus", "day_options", "after_death", "red_card_instead", "public", "expire",
         "checked_as", "slot_text", "judging", "exile_instead", "joint_problems", "counted", "heir_problem", "officer_named",
         "badge_vacated", "badge_lapsed", "answered", "officers", "duties", "after_election")


def defines(part: Part, hook: str) -> bool:
    return getattr(type(part), hook) is not getattr(Part, hook)
