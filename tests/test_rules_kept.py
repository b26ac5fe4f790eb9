"""A running game keeps the rules it started with, whatever the code becomes (engine/snapshot.py).

A 146 game that never sent `新月设置` plays every event the post lists; its sheriff's logged `决策 1`
must draw the same event after an upgrade that adds an event to the list or reorders it, while a game
started after the upgrade plays the new list. An upgrade that changes how a stored game plays (a
time limit, the ruleset's version) pauses that game and tells its director what changed, and never
replays it by the new rules. The service runs on a database of its own, restarted on it as after an
upgrade (tests/test_storage.py).
"""
from __future__ import annotations

import dataclasses

import pytest
from tortoise.context import TortoiseContext
from tortoise.migrations.executor import MigrationExecutor, MigrationTarget

from engine import Act, Ballots, Card, OpenDay
from engine.snapshot import snapshot
from rulesets import get as get_ruleset
from rulesets.r146 import moons
from service import corrections
from service import moons as moon_commands
from service.db import tortoise_config
from service.errors import GameBroken
from service.games import Service
from service.models import GameRow
from test_bot_146 import PLAYERS
from test_storage import DIRECTOR, OneBot, database, running  # noqa: F401 (the fixture)

R146 = get_ruleset("146")
ECLIPSE = dataclasses.replace(moons.KING_AGAINST_KING, name="月食")  # an event a later version of the post adds


async def drawn_game(service: Service) -> int:
    """A 146 game (seed 146) that never sent 新月设置: day 1's sheriff 大勇 has taken card 1 for day 2."""
    row = await service.create(DIRECTOR, "146", "新月测试")
    row.seed = 146
    await row.save()
    t = await service.table(row.id)
    await service.set_roster(t, [(name, str(qq)) for name, qq, _ in PLAYERS])
    await service.assign(t, [(name, role) for name, _, role in PLAYERS])
    await service.start(t)
    for cmd in (Act(by="冬梅", skill="丘比特之箭", target=["19", "21"]), OpenDay(),
                Ballots("election", (("阿福", "大勇"), ("大勇", "大勇"))), Act(by="大勇", skill="决策", target="1")):
        outcome = await service.submit(t, cmd, source="test")
        assert outcome.ok, outcome.error
    return row.id


def draw(service: Service, game: int) -> tuple[str, list[str]]:
    d = service.tables[game].game.state.carry["draw"]
    return d["event"], d["deck"]


def add_eclipse_and_reorder(monkeypatch) -> None:
    """The post's event list as an upgrade changes it: one event more, the rest in another order."""
    events = (ECLIPSE, *reversed(moons.EVENTS))
    monkeypatch.setattr(moons, "EVENTS", events)
    monkeypatch.setattr(moons, "BY_NAME", {m.name: m for m in events})


async def test_a_stored_146_game_draws_the_same_event_after_the_event_list_changes_and_new_games_get_the_new_list(
        database, monkeypatch):
    async with running(OneBot()) as service:
        game = await drawn_game(service)
        event, deck = draw(service, game)
        assert len(moons.EVENTS) == 17 and len(deck) == 12  # the twelve big events

    add_eclipse_and_reorder(monkeypatch)
    onebot = OneBot()
    async with running(onebot) as service:
        await service.table(game)
        assert draw(service, game) == (event, deck)
        assert not onebot.to(DIRECTOR)  # nothing to report: it plays as it did
        t = service.tables[game]
        assert len(t.game.state.options["moons"]) == 17 and "月食" not in t.game.state.options["moons"]

        # a correction replays the game from its start with the same rules
        card = await service.submit(t, Card("黄牌", "阿贵"), source=f"director:{DIRECTOR}")
        assert card.ok, card.error
        await corrections.propose_undo(service, t, DIRECTOR, t.next_seq)
        replayed = t.proposed.game.state.carry["draw"]
        assert (replayed["event"], replayed["deck"]) == (event, deck)

        newer = await drawn_game(service)
        new_event, new_deck = draw(service, newer)
        assert len(new_deck) == 13 and "月食" in new_deck
        assert len(service.tables[newer].game.state.options["moons"]) == 18


async def test_an_event_the_post_added_after_a_game_started_is_no_choice_of_that_game(database, monkeypatch):
    async with running(OneBot()) as service:
        row = await service.create(DIRECTOR, "146", "")
        t = await service.table(row.id)
        await service.set_roster(t, [(name, str(qq)) for name, qq, _ in PLAYERS])
        await service.assign(t, [(name, role) for name, _, role in PLAYERS])
        await service.start(t)
    add_eclipse_and_reorder(monkeypatch)
    async with running(OneBot()) as service:
        t = await service.table(row.id)
        reply = await moon_commands.settings(service, t, DIRECTOR, "王对王 月食", None)
        assert reply == "未执行：没有这些新月事件：月食"
        assert len(t.game.state.options["moons"]) == 17
        assert await moon_commands.settings(service, t, DIRECTOR, "王对王", None) == "已执行。\n本局新月：王对王"


async def test_an_upgrade_that_plays_a_stored_game_differently_pauses_it_and_tells_its_director_what_changed(
        database, monkeypatch):
    async with running(OneBot()) as service:
        game = await drawn_game(service)

    monkeypatch.setitem(R146.limits, "night", dataclasses.replace(R146.limits["night"], minutes=30))
    monkeypatch.setattr(R146, "version", 2)  # the file's `version:`
    onebot = OneBot()
    async with running(onebot) as service:
        # told at start-up, before anyone writes
        report = onebot.to(DIRECTOR)[-1]
        assert report.startswith(f"【规则已改变】#{game}（新月测试）开始时的规则，当前版本的机器人不能照样进行：")
        assert "「规则代码版本」由 1 改为 2" in report and "「时限.night.minutes」由 60 改为 30" in report
        assert "本局已暂停，不会按新规则重放" in report
        with pytest.raises(GameBroken, match=f"本局游戏（#{game}）的规则与机器人当前版本不同，已暂停"):
            await service.table(game)
        assert game not in service.tables and game not in service.live


async def test_a_reworded_event_text_does_not_stop_a_game(database, monkeypatch):
    async with running(OneBot()) as service:
        game = await drawn_game(service)
        event, deck = draw(service, game)
    reworded = tuple(dataclasses.replace(m, text=m.text + "（修订）") for m in moons.EVENTS)
    monkeypatch.setattr(moons, "EVENTS", reworded)
    monkeypatch.setattr(moons, "BY_NAME", {m.name: m for m in reworded})
    onebot = OneBot()
    async with running(onebot) as service:
        await service.table(game)
        assert draw(service, game) == (event, deck) and not onebot.to(DIRECTOR)


async def test_the_migration_gives_games_already_started_the_rules_they_were_started_with(database_url):
    async with TortoiseContext() as context:
        config = tortoise_config(database_url)
        await context.init(config=config)
        db = context.db("default")
        await MigrationExecutor(db, config["apps"]).migrate([MigrationTarget("models", "0003_sending_and_indexes")])
        for number, ruleset, status in ((1, "146", "running"), (2, "M131", "over"), (3, "146", "roster")):
            await db.execute_script(
                'INSERT INTO "game" ("id", "ruleset", "title", "seed", "status", "directors", "created_at") '
                f"VALUES ({number}, '{ruleset}', '旧局', 7, '{status}', '[\"70000\"]', CURRENT_TIMESTAMP)")
        await MigrationExecutor(db, config["apps"]).migrate()

        rows = {row.id: row for row in await GameRow.all()}
        assert rows[1].rules == snapshot(R146, R146.configure({}))
        assert len(rows[1].rules["options"]["moons"]) == 17
        assert rows[2].rules == snapshot(get_ruleset("M131"), {})
        assert rows[3].rules is None  # it gets its rules at 开始
