"""The game as data, and the record of what one command changes in it.

A refused command must leave no trace. Copying the whole state before every command did that, but
cost nine tenths of the engine's time, while nearly every refusal comes before anything changed.
So while a command runs (`begin` ... `Journal.undo` / `Journal.commit`) the state keeps, for each
thing it changes for the first time, what it was before: an attribute of one of the records below
(`Recorded`), the contents of one of its dicts, lists or sets (kept as `RecordedDict`,
`RecordedList`, `RecordedSet`), the state of its seeded generator. A refusal puts exactly those
back; an accepted command drops them.

This holds for any field added to these records and anything stored in them: a plain dict, list,
set (or a tuple of them) stored during a command becomes the state's own recording container when
the command is accepted, and at once when stored outside a command; a record's fields become so
when they are set. A value of any other mutable kind (an object of some other class) cannot be
watched: a game that stores one is copied whole before each later command, as before.
"""
from __future__ import annotations

import dataclasses
import enum
import operator
import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

_MISSING = object()
_journal: "Journal | None" = None  # the running command's (commands are applied one at a time)


class Journal:
    """What the running command changed, each thing as it was before its first change."""

    __slots__ = ("kept", "adopt", "outer")

    def __init__(self, outer: "Journal | None"):
        # id -> (a record, container or generator, what it held before: a plain copy, or a state)
        self.kept: dict[int, tuple[Any, Any]] = {}
        # id -> a record or container that was given something not yet the state's own
        self.adopt: dict[int, Any] = {}
        self.outer = outer

    def undo(self) -> None:
        """Put back everything the command changed."""
        global _journal
        _journal = self.outer
        for thing, before in self.kept.values():
            _RESTORE[type(thing)](thing, before)

    def commit(self) -> bool:
        """Keep the changes; what the command stored becomes the state's own. Returns whether
        something was stored that cannot be watched."""
        global _journal
        _journal = self.outer
        if self.outer is not None:  # a command applied within another: the outer one may still be undone
            for key, entry in self.kept.items():
                self.outer.kept.setdefault(key, entry)
        if not self.adopt:
            return False
        adopting = _Adoption()
        for thing in self.adopt.values():
            adopting.items_of(thing.__dict__ if isinstance(thing, Recorded) else thing)
        return adopting.opaque


def begin() -> Journal:
    """Start recording what a command changes."""
    global _journal
    _journal = Journal(_journal)
    return _journal


class _Adoption:
    """Turns plain containers just stored in the state into its recording ones (one for each
    container, so two places that shared a container still share it)."""

    __slots__ = ("made", "opaque")

    def __init__(self) -> None:
        self.made: dict[int, Any] = {}
        self.opaque = False

    def value(self, value: Any) -> Any:
        kind = type(value)
        if kind in _AS_IS:
            return value
        made = self.made.get(id(value))
        if made is not None:
            return made[1]
        if kind is dict:
            if _AS_IS.issuperset(map(type, value.values())):
                owned = RecordedDict(value)
            else:
                owned = RecordedDict()
                for key, item in value.items():
                    dict.__setitem__(owned, key, self.value(item))
            self.made[id(value)] = (value, owned)  # the plain one kept alive, so its id stays its own
        elif kind is list:
            owned = RecordedList(value if _AS_IS.issuperset(map(type, value)) else map(self.value, value))
            self.made[id(value)] = (value, owned)
        elif kind is set:
            owned = RecordedSet(value)
            self.made[id(value)] = (value, owned)
        elif kind is tuple:
            if _AS_IS.issuperset(map(type, value)):
                return value
            items = tuple(map(self.value, value))
            owned = value if all(map(operator.is_, items, value)) else items
        elif issubclass(kind, (Recorded, SeededRandom, enum.Enum)) or (
                dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen):
            _AS_IS.add(kind)  # watched itself (a record, the generator), or it cannot change
            owned = value
        else:
            self.opaque = True
            owned = value
        return owned

    def items_of(self, container: Any) -> None:
        """Adopt whatever `container` (a dict or a list) holds that is not the state's own yet."""
        if isinstance(container, dict):
            if not _AS_IS.issuperset(map(type, container.values())):
                for key, item in list(dict.items(container)):
                    if not _settled(item):
                        owned = self.value(item)
                        if owned is not item:
                            dict.__setitem__(container, key, owned)
        elif not _AS_IS.issuperset(map(type, container)):
            for i, item in enumerate(list(container)):
                if not _settled(item):
                    owned = self.value(item)
                    if owned is not item:
                        list.__setitem__(container, i, owned)


def own(value: Any) -> Any:
    """`value` as the state keeps it (outside a command: a plain container becomes a recording one now)."""
    if type(value) in _AS_IS:
        return value
    return _Adoption().value(value)


def _settled(value: Any) -> bool:
    """Whether `value` can be stored as it is (a tuple of such values too)."""
    kind = type(value)
    return kind in _AS_IS or (kind is tuple and _AS_IS.issuperset(map(type, value)))


def _recording(base: type, name: str, stores: int | None):
    """`base`'s mutating method `name`: during a command it first keeps the container as it was.

    `stores`: the index of the argument it stores (None: it may store anything it is given; -1:
    nothing). What it stores becomes the state's own when the command is accepted, or at once
    outside a command (the argument before storing it, so what setdefault returns is what is kept)."""
    operation = getattr(base, name)
    # the frequent ones without packing their arguments
    if stores == 0:
        def method(self, value):
            journal = _journal
            if journal is None:
                return operation(self, own(value))
            if id(self) not in journal.kept:
                journal.kept[id(self)] = (self, base(self))
            if type(value) not in _AS_IS and not _settled(value):
                journal.adopt[id(self)] = self
            return operation(self, value)
    elif stores == 1:
        def method(self, key, value=None):
            journal = _journal
            if journal is None:
                return operation(self, key, own(value))
            if id(self) not in journal.kept:
                journal.kept[id(self)] = (self, base(self))
            if type(value) not in _AS_IS and not _settled(value):
                journal.adopt[id(self)] = self
            return operation(self, key, value)
    else:
        def method(self, *args, **kwargs):
            journal = _journal
            if journal is None:
                result = operation(self, *args, **kwargs)
                if stores is None:
                    _Adoption().items_of(self)
                return result
            if id(self) not in journal.kept:
                journal.kept[id(self)] = (self, base(self))
            if stores is None:
                journal.adopt[id(self)] = self
            return operation(self, *args, **kwargs)

    method.__name__ = name
    return method


class RecordedDict(dict):
    """A dict of the game state (see the module's description)."""

    __slots__ = ()


class RecordedList(list):
    """A list of the game state (see the module's description)."""

    __slots__ = ()


class RecordedSet(set):
    """A set of the game state (see the module's description)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return repr(set(self))


for _name, _stores in (("__setitem__", 1), ("setdefault", 1), ("update", None), ("__ior__", None),
                       ("__delitem__", -1), ("pop", -1), ("popitem", -1), ("clear", -1)):
    setattr(RecordedDict, _name, _recording(dict, _name, _stores))
for _name, _stores in (("append", 0), ("insert", 1), ("__setitem__", 1), ("extend", None), ("__iadd__", None),
                       ("__imul__", -1), ("__delitem__", -1), ("pop", -1), ("remove", -1), ("clear", -1),
                       ("sort", -1), ("reverse", -1)):
    setattr(RecordedList, _name, _recording(list, _name, _stores))
# a set's elements are hashable, never containers to watch: nothing it stores needs adopting
for _name in ("add", "discard", "remove", "pop", "clear", "update", "intersection_update", "difference_update",
              "symmetric_difference_update", "__ior__", "__iand__", "__isub__", "__ixor__"):
    setattr(RecordedSet, _name, _recording(set, _name, -1))


def _restore_dict(d: dict, before: dict) -> None:
    dict.clear(d)
    dict.update(d, before)


def _restore_list(items: list, before: list) -> None:
    list.__setitem__(items, slice(None), before)


def _restore_set(items: set, before: set) -> None:
    set.clear(items)
    set.update(items, before)


def _restore_record(record: "Recorded", before: dict) -> None:
    fields = record.__dict__
    fields.clear()
    fields.update(before)


def _restore_draws(rng: random.Random, before: Any) -> None:
    random.Random.setstate(rng, before)


class _Restore(dict):
    """How each kind of kept thing is put back, by its class."""

    def __missing__(self, kind: type):
        how = _restore_draws if issubclass(kind, random.Random) else _restore_record
        self[kind] = how
        return how


_RESTORE = _Restore({RecordedDict: _restore_dict, RecordedList: _restore_list, RecordedSet: _restore_set})
# kinds of value stored as they are: they cannot change, or are the state's own already
_AS_IS = {str, int, float, bool, type(None), bytes, complex, Fraction, frozenset, RecordedDict, RecordedList, RecordedSet}


class Recorded:
    """A record of the game state: its first change during a command keeps its fields as they were."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        journal = _journal
        if journal is None:
            value = own(value)
        else:
            kept = journal.kept
            if id(self) not in kept:
                kept[id(self)] = (self, self.__dict__.copy())
            if type(value) not in _AS_IS and not _settled(value):
                journal.adopt[id(self)] = self
        _set_field(self, name, value)


_set_field = object.__setattr__


class SeededRandom(random.Random):
    """The game's only source of chance; two games are equal only if their draws will be too.

    Every draw goes through `random` or `getrandbits` (overriding both keeps `Random`'s own way of
    drawing, so the same seed still gives the same games): during a command its state before the
    first draw is kept."""

    def _keep(self) -> None:
        journal = _journal
        if journal is not None and id(self) not in journal.kept:
            journal.kept[id(self)] = (self, random.Random.getstate(self))

    def random(self) -> float:
        self._keep()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._keep()
        return super().getrandbits(k)

    def seed(self, *args, **kwargs) -> None:
        self._keep()
        super().seed(*args, **kwargs)

    def setstate(self, state) -> None:
        self._keep()
        super().setstate(state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, random.Random) and self.getstate() == other.getstate()

    __hash__ = None


@dataclass
class Player(Recorded):
    name: str
    seat: int
    role: str
    faction: str
    alive: bool = True
    death: tuple[str, int, str] | None = None  # (phase, number, cause)
    cards: dict[str, int] = field(default_factory=lambda: RecordedDict({"蓝牌": 0, "黄牌": 0, "红牌": 0}))
    used: set[str] = field(default_factory=RecordedSet)  # limited skills already fired
    lost: set[str] = field(default_factory=RecordedSet)  # skills taken away by the rules
    marks: dict[str, Any] = field(default_factory=RecordedDict)  # per-ruleset counters (empty heals, points...)
    granted: set[str] = field(default_factory=RecordedSet)  # skills held beyond the identity's own, for the rest of the game


@dataclass
class Phase(Recorded):
    """What holds for one night or one day only, so it ends with it: skills given or taken for
    the phase (an event's doing), by player name."""

    granted: dict[str, set[str]] = field(default_factory=RecordedDict)
    suspended: dict[str, set[str]] = field(default_factory=RecordedDict)  # "*": every skill


@dataclass
class Night(Phase):
    """What was sent during one night, and who is done."""

    number: int = 0
    actions: dict[str, tuple[str, Any]] = field(default_factory=RecordedDict)  # skill -> (by, target)
    done: set[str] = field(default_factory=RecordedSet)  # "name:skill" decided (acted, passed or timed out)
    delivered: set[str] = field(default_factory=RecordedSet)  # feedback keys already sent
    resolved: bool = False
    held: list[tuple[str, str]] | None = None  # deaths still to settle while a decision holds the settlement
    deaths: list[str] = field(default_factory=RecordedList)  # who went out in this night's settlement, in order


@dataclass
class Day(Phase):
    number: int = 0
    votes: frozenset[str] = frozenset()  # which counts this day holds: "election", "exile"
    rounds: dict[str, int] = field(default_factory=RecordedDict)  # how many times a kind is counted today (default once)
    counted: list[str] = field(default_factory=RecordedList)
    called_off: bool = False  # <自爆>: no exile vote today
    # who may not vote or be voted for today, with the reason told to the director
    may_not_vote: dict[str, str] = field(default_factory=RecordedDict)
    may_not_be_voted: dict[str, str] = field(default_factory=RecordedDict)
    # voter -> the only targets that voter's ballot may name today ("*": every voter not listed)
    only_for: dict[str, frozenset[str]] = field(default_factory=RecordedDict)
    pk: dict[str, tuple[str, ...]] = field(default_factory=RecordedDict)  # kind -> the tied of its PK round, in seat order
    vote_held: str | None = None  # why today's vote may not be counted now (an event runs the day otherwise)
    private_votes: bool = False  # the ballots are sent to the director privately, not posted in the thread
    private_ballots: dict[str, tuple[str, str]] = field(default_factory=RecordedDict)  # voter -> (target, reason), as sent
    moon: str | None = None  # the new-moon event announced today


@dataclass
class Pending(Recorded):
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
class GameState(Recorded):
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
    pending: list[Pending] = field(default_factory=RecordedList)
    carry: dict[str, Any] = field(default_factory=RecordedDict)  # what one phase leaves to the next
    last_words: dict[str, str | None] = field(default_factory=RecordedDict)  # name -> text (None: not yet)
    # the record a transcript and the final log (树洞) are made of
    deaths: list[dict] = field(default_factory=RecordedList)
    announcements: list[dict] = field(default_factory=RecordedList)
    feedback: list[dict] = field(default_factory=RecordedList)
    tallies: list[dict] = field(default_factory=RecordedList)
    lost: list[str] = field(default_factory=RecordedList)
    winner: str | None = None
    options: dict[str, Any] = field(default_factory=dict)  # how this game is configured (146: its new moons)
    moons: list[dict] = field(default_factory=list)  # every announced new-moon event, in order

    def __post_init__(self) -> None:
        # looked up on nearly every command; the roster never changes once dealt, so an index of it
        # is kept beside the fields (not one of them: equality and the record ignore it)
        _set_field(self, "_by_name", {p.name: p for p in self.players})

    def player(self, name: str) -> Player | None:
        return self._by_name.get(name)

    def alive(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def with_role(self, *roles: str) -> list[Player]:
        return [p for p in self.players if p.role in roles]

    @property
    def number(self) -> int:
        return self.night_no if self.phase == "night" else self.day_no
