"""A refused command leaves the game exactly as it was, without copying the state before each command.

`Game.apply` records what a command changes (engine/state.py) and puts it back on a refusal. These
tests change the state the way a ruleset may — fields of every record, containers nested in
`carry` and `marks`, new records, the seeded generator, objects of a kind the state cannot watch —
then refuse, and compare the whole state with a deep copy taken before.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

import pytest

from engine import Act, CloseDay, Game, Rejected, deal
from engine.state import Day, Pending, RecordedDict, RecordedList, RecordedSet
from rulesets import get

RULES = get("M131")
NAMES = "甲 乙 丙 丁 戊 己 庚 辛 壬 癸 子 丑 寅".split()


def new_game() -> Game:
    return Game(RULES, deal(RULES, NAMES, 7), seed=7)


def refused_after(g: Game, change, same_object: bool = True) -> None:
    """Apply a command that runs `change(g)` and is then refused; it must change nothing (and,
    unless the game is copied whole, keep its state object)."""
    before = copy.deepcopy(g.state)
    state = g.state

    def dispatch(cmd):
        change(g)
        raise Rejected("不行")

    g._dispatch = dispatch
    out = g.apply(CloseDay())
    del g._dispatch
    assert not out.ok and out.error == "不行" and not out.events
    assert (g.state is state) == same_object
    assert g.state == before
    assert g.state.rng.getstate() == before.rng.getstate()


def accepted(g: Game, change) -> None:
    def dispatch(cmd):
        change(g)

    g._dispatch = dispatch
    assert g.apply(CloseDay()).ok
    del g._dispatch


def test_fields_containers_and_new_records_are_put_back():
    g = new_game()

    def change(g):
        s = g.state
        p = s.players[0]
        p.alive = False
        p.death = ("night", 1, "刀")
        p.cards["红牌"] += 1
        p.used.add("认亲")
        p.marks["认亲"] = "乙"
        s.carry["red_cards"] = {"狼人阵营": 1}
        s.carry.setdefault("at_dawn", []).append(("问", "乙"))
        s.deaths.append({"name": p.name, "phase": "night", "number": 1, "cause": "刀"})
        s.pending.append(Pending(key="k", who="乙", skill="殉职", context=[1, 2]))
        s.day = Day(number=3, may_not_vote={"乙": "因为"})
        s.phase = "day"
        s.teams.setdefault("狼群", []).remove(s.teams["狼群"][0])
        s.players.reverse()
        del s.last_words
        s.rng.shuffle(list(range(10)))

    refused_after(g, change)


def test_containers_stored_by_an_accepted_command_are_watched_afterwards():
    g = new_game()
    shared = [1, 2]

    def store(g):
        g.state.carry["新月"] = {"事件": ["王对王"], "次数": 0, "名单": {"甲"}, "对": (shared, "x")}
        g.state.carry["同一个"] = shared  # two places, one list: still one list afterwards
        g.state.players[1].marks["点数"] = [0]

    accepted(g, store)
    carry = g.state.carry
    assert type(carry["新月"]) is RecordedDict and type(carry["新月"]["事件"]) is RecordedList
    assert type(carry["新月"]["名单"]) is RecordedSet
    assert carry["新月"]["对"][0] is carry["同一个"]

    def change(g):
        event = g.state.carry["新月"]
        event["事件"].append("神经错乱")
        event["次数"] += 1
        event["名单"].discard("甲")
        event["对"][0].append(3)
        g.state.players[1].marks["点数"][0] = 5

    refused_after(g, change)


def test_a_field_added_to_a_record_is_put_back_too():
    g = new_game()

    def change(g):
        g.state.players[2].shield = {"回合": 1}  # a field no one declared yet

    accepted(g, change)
    assert type(g.state.players[2].shield) is RecordedDict
    refused_after(g, lambda g: g.state.players[2].shield.update(回合=2, 来源="导演"))


@dataclass
class Mood:  # a kind of object the state cannot watch
    level: int = 0


def test_a_game_that_stores_an_unwatched_object_is_copied_whole():
    g = new_game()
    accepted(g, lambda g: g.state.carry.__setitem__("情绪", Mood()))

    def change(g):
        g.state.carry["情绪"].level = 9

    refused_after(g, change, same_object=False)
    assert g.state.carry["情绪"].level == 0


def test_a_fault_in_a_ruleset_leaves_the_game_as_it_was():
    g = new_game()
    before = copy.deepcopy(g.state)

    def broken(cmd):
        g.state.phase = "night"
        g.state.players[0].alive = False
        raise KeyError("bug")

    g._dispatch = broken
    with pytest.raises(KeyError):
        g.apply(CloseDay())
    assert g.state == before


def test_refusals_and_acceptances_replay_to_the_same_game():
    """A real game: refused commands in between change nothing a replay without them would see."""
    g, h = new_game(), new_game()
    half_blood = next(p.name for p in g.state.players if p.role == "混血儿")
    other = next(n for n in NAMES if n != half_blood)
    for cmd in (Act(other, "认亲", half_blood), Act(half_blood, "认亲", other), Act(half_blood, "认亲", other),
                CloseDay(), CloseDay(), Act(NAMES[0], "预言", "无名氏")):
        out = g.apply(cmd)
        if out.ok:
            assert h.apply(cmd).ok
    assert g.state == h.state
