"""Texts a player can trust: every identity's `帮助`, and everything the engine tells a player, walked
through whole random games of each post (the random-game drivers of tests/test_random_games*.py).

After every accepted command, every player's `帮助` must hold: no internal key ("night1:预言:火腿粽",
"公示:诽谤:day3"); every command it offers is one the bot understands; a potion the witch has used is not
offered; nobody out is offered anything but the decisions asked of him and his last words; a team's
choice is offered only to a member of the team now (a wolf who eloped is not). And nothing the engine
tells a player names a night slot as if it were a skill ("你可以发动<女巫>") or carries a key.
"""
from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

import random_play
import test_random_games
import test_random_games_146
import test_random_games_154
from engine.events import Feedback, Notice
from service import parse
from service.player import help_text

KEY = re.compile(r"night\d+:|:(?:day|night|setup)\d+|公示:|遗言:|[A-Za-z_]+ = ")
QUOTED = re.compile(r"“([^”]*)”")
SLOTS = ("<女巫>", "<蛊女>", "<黑山老妖>")


def _offered(line: str) -> list[str]:
    """The command words a line of `帮助` tells the player to send."""
    words = [q.split()[0] for q in QUOTED.findall(line) if q.split()]
    if line.startswith("现在可以：") and not line.startswith("现在可以：<"):
        for option in re.split(r" / |；", re.sub(r"（[^）]*）", "", line.removeprefix("现在可以："))):
            if "“" not in option:  # a quoted instruction is read above
                words += option.rpartition("：")[2].split()[:1]  # what follows "…之后还可以："
    return words


def check_help(run) -> None:
    g = run.g
    for p in g.state.players:
        text = help_text(SimpleNamespace(game=g), p.name, [])
        run.check(not KEY.search(text), "help-key", f"{p.name}'s 帮助 shows a key:\n{text}")
        for line in text.splitlines():
            for word in _offered(line):
                known = g.rules.skill(word) is not None or word in parse.COMMANDS
                run.check(known, "help-unknown", f"{p.name}'s 帮助 offers “{word}”, which the bot does not understand:\n{text}")
                if word in ("救药", "毒药"):
                    run.check(word not in p.used, "help-spent", f"{p.name}'s 帮助 offers <{word}> she has used:\n{text}")
            if line.startswith("现在可以："):
                run.check(p.alive, "help-dead", f"{p.name} is out, and his 帮助 offers:\n{text}")
            if "的共同选择" in line:
                team = line.split("（")[1].split("的共同选择")[0]
                run.check(p.name in g.state.teams.get(team, []), "help-team", f"{p.name} is not in {team}, and is offered its choice:\n{text}")


def check_told(run, events) -> None:
    for e in events:
        if isinstance(e, (Notice, Feedback)) and e.audience.startswith(("player:", "team:")):
            run.check(not KEY.search(e.text), "told-key", f"{e.audience} is told a key: {e.text}")
            run.check(not any(slot in e.text for slot in SLOTS), "told-slot", f"{e.audience} is told a slot as a skill: {e.text}")


@pytest.fixture
def walked(monkeypatch):
    """Every command of the random games checks every player's 帮助 and what the players were told."""
    do = random_play.Play.do

    def checked(run, cmd):
        out = do(run, cmd)
        if out.ok:
            check_told(run, out.events)
            check_help(run)
        return out

    monkeypatch.setattr(random_play.Play, "do", checked)


@pytest.mark.parametrize("seed", range(8))
def test_m131_help_through_whole_games(walked, seed):
    test_random_games.play(random_play.Chooser(random.Random(seed)))


@pytest.mark.parametrize("seed", range(8))
def test_146_help_through_whole_games(walked, seed):
    test_random_games_146.play(seed)


@pytest.mark.parametrize("seed", range(8))
def test_154_help_through_whole_games(walked, seed):
    test_random_games_154.play(random_play.Chooser(random.Random(seed)))
