"""146 without its new moons needs no Python of its own: rulesets/r146.yaml with what names the new moons taken
out — its `code:` (rulesets/r146/), the 146新月 part, the 指杀 only the moons give, their limits — is a rule-post
file of the library alone, and it plays every moonless 146 scenario and random moonless game exactly as 146 does,
every message to every reader alike."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from engine import Breach, Moon
from engine import replay as scenario
from engine.game import Game
from engine.rulecheck import load_text
from engine.rulefile import FileRuleset
from rulesets.r146 import draws, moons
from rulesets.r146.ruleset import MOON_SKILLS
from test_random_games_146 import play

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
# the night's 指杀 that only a new moon gives: 狼族首领's <捕猎> and 神经错乱's <杀人>
MOON_KILLS = {moons.HUNT, moons.CONFUSED_KILL}
# the limits of the new moons' decisions and draws
MOON_LIMITS = ("draw", "fury", "birthday", "leader", "ufo", "trial")
# what a player may send only where the new moons are played: refused in both games, in other words
MOON_WORDS = {word for s in MOON_SKILLS.values() for word in (s.name, *s.aliases)} | {draws.REDRAW, moons.HUNT}


def without_moons(data: dict) -> dict:
    plain = copy.deepcopy(data)
    del plain["code"], plain["skills"]
    plain["id"] = "146-data"

    def strip(value):
        if isinstance(value, list):
            return [strip(v) for v in value if v not in MOON_KILLS]
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items()}
        return value

    for identity in plain["identities"]:
        if identity["name"] == "吉普赛人":  # "窥月" and "占卜" draw new moons: without them, no skill
            identity["library"] = "村民"
        if "params" in identity:
            identity["params"] = strip(identity["params"])
    elder = next(i for i in plain["identities"] if i["name"] == "长老")
    elder["params"]["bound"]["女巫"].remove("灵媒")  # 招魂术's
    del elder["params"]["granted_only"]
    plain["night_order"], plain["settlement"] = strip(plain["night_order"]), strip(plain["settlement"])
    plain["sheriff"]["succession"]["params"]["after"].remove("报复")  # 狼族首领's
    for limit in MOON_LIMITS:
        del plain["limits"][limit]
    return plain


@pytest.fixture(scope="module")
def rules() -> FileRuleset:
    data = yaml.safe_load((ROOT / "rulesets" / "r146.yaml").read_text(encoding="utf-8"))
    return load_text(yaml.safe_dump(without_moons(data), allow_unicode=True, sort_keys=False))


def test_the_post_without_its_new_moons_is_a_file_of_the_library_alone(rules):
    assert type(rules) is FileRuleset
    assert rules.players == 22
    assert {"女巫", "预言家", "医生", "长老", "猎人", "白痴", "丘比特", "两姐妹", "狼王"} <= {r.name for r in rules.roles}
    assert not set(rules.skills) & MOON_WORDS


def played(game: Game, commands) -> list:
    """Each command's answer: refused with its reason, or accepted with every message it sent."""
    out = []
    for cmd in commands:
        o = game.apply(cmd)
        moon = isinstance(cmd, (Breach, Moon)) or getattr(cmd, "skill", None) in MOON_WORDS
        # a moon's word is refused by both, each in its own words
        out.append((o.ok, None if moon and not o.ok else o.error, [repr(e) for e in o.events]))
    return out


MOONLESS = sorted(p.name for p in SCENARIOS.glob("146-*.yaml") if scenario.read(str(p)).get("moons") == "none")


def test_every_moonless_146_scenario_is_among_those_compared():
    assert len(MOONLESS) >= 40 and not any(name.startswith("146-moon-") for name in MOONLESS)


@pytest.mark.parametrize("name", MOONLESS)
def test_a_moonless_146_scenario_plays_alike_from_the_file_alone(rules, name):
    doc = scenario.read(str(SCENARIOS / name))
    game, steps = scenario.load(doc, SCENARIOS)
    data = Game(rules, [(p.name, p.role) for p in game.state.players], seed=doc.get("seed", 0))
    commands = [scenario.command(step) for step in steps]
    assert played(data, commands) == played(game, commands)
    mine, theirs = scenario.transcript(data, []), scenario.transcript(game, [])
    assert {k: v for k, v in mine.items() if k != "ruleset"} == {k: v for k, v in theirs.items() if k != "ruleset"}


@pytest.mark.parametrize("seeds", [range(0, 50), range(50, 100)], ids=["seeds 0-49", "seeds 50-99"])
def test_random_moonless_146_games_play_alike_from_the_file_alone(rules, seeds):
    for seed in seeds:
        run = play(seed, {"moons": "none"})
        commands = [cmd for cmd, _, _ in run.log]
        again = Game(run.rules, run.roster, seed=seed, options={"moons": "none"})
        assert played(Game(rules, run.roster, seed=seed), commands) == played(again, commands), f"seed {seed}"
