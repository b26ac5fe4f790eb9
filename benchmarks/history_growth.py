"""A message's cost as history piles up: one message after 2,000 finished games and 200,000 handled
and sent messages, against the same on a fresh database.

Both databases hold the same running games; the grown one also holds 2,000 finished games (their
seats, drawn from a community of 300 players who also play the running games, their logs of 60
commands, their 30 time limits, their directors), 200,000 messages sent and 200,000 events handled
in the last days. The figure is the median round trip of a crow's 诽谤 in a running game, the bot
having seen every running game once (target: grown ÷ fresh ≤ 1.2).

    .venv/bin/python benchmarks/history_growth.py [--games 50] [--finished 2000] [--messages 200000]
"""
from __future__ import annotations

import argparse
import asyncio
import random
from datetime import datetime, timedelta, timezone

from harness import Bot, Client, ROSTER, cores, crow_receipt, make_games, p50, player_qq, round_trips, running, scratch

TARGET = 1.2
COMMUNITY = 300  # players who take part in the finished games
BATCH = 2000


async def grow(url: str, finished: int, messages: int, running_games: list[int]) -> None:
    """Add `finished` finished games and `messages` sent messages and handled events."""
    from tortoise import Tortoise

    from service.db import open_database

    await open_database(url)
    try:
        await _grow(finished, messages, running_games)
    finally:
        await Tortoise.close_connections()


async def _grow(finished: int, messages: int, running_games: list[int]) -> None:
    from engine.snapshot import snapshot
    from rulesets import get as get_ruleset
    from service.models import CommandRow, DeadlineRow, GameDirectorRow, GameRow, OutboxRow, SeatRow, SeenMessage

    kept = snapshot(get_ruleset("M131"), {})  # the rules a finished game was played by

    pick = random.Random(131)
    community = [player_qq(g, seat) for g in running_games for seat in range(1, len(ROSTER) + 1)][:COMMUNITY]
    community += [3930000000 + n for n in range(COMMUNITY - len(community))]
    now = datetime.now(timezone.utc)
    act = {"type": "Act", "by": "草莓", "skill": "诽谤", "target": "3", "text": None}
    for start in range(0, finished, 100):
        newest = await GameRow.all().order_by("-id").first().values_list("id", flat=True)
        await GameRow.bulk_create([
            GameRow(ruleset="M131", title="往届", seed=pick.randrange(2 ** 31), status="over", rules=kept,
                    directors=[str(3940000000 + n % 40)], created_at=now - timedelta(days=400 - n // 10))
            for n in range(start, min(start + 100, finished))])
        games = await GameRow.filter(id__gt=newest)
        seats, commands, limits, directors = [], [], [], []
        for game in games:
            directors.append(GameDirectorRow(game_id=game.id, qq=game.directors[0]))
            players = pick.sample(community, len(ROSTER))
            seats += [SeatRow(game_id=game.id, seat=i, name=name, qq=str(qq), role=role)
                      for i, ((name, role), qq) in enumerate(zip(ROSTER, players), 1)]
            commands += [CommandRow(game_id=game.id, seq=seq, payload=act, source="qq:1", at=now) for seq in range(60)]
            limits += [DeadlineRow(game_id=game.id, key=f"night{n}:诽谤:草莓", what="诽谤", who=["草莓"], anchor="close",
                                   minutes=60, due_at=now, done=True) for n in range(30)]
        for model, rows in ((GameDirectorRow, directors), (SeatRow, seats), (CommandRow, commands), (DeadlineRow, limits)):
            for at in range(0, len(rows), BATCH):
                await model.bulk_create(rows[at:at + BATCH])
    old = await GameRow.filter(status="over").values_list("id", flat=True)
    for start in range(0, messages, BATCH):
        count = min(BATCH, messages - start)
        await OutboxRow.bulk_create([
            OutboxRow(game_id=pick.choice(old), action="send_private_msg", params={"user_id": pick.choice(community), "text": "已收到：诽谤 3号 香蕉。"},
                      sent_at=now - timedelta(minutes=pick.randrange(4000)), attempts=1) for _ in range(count)])
        await SeenMessage.bulk_create([
            SeenMessage(key=f"{3900000001}:private:{pick.choice(community)}:{start + n}", at=now - timedelta(minutes=pick.randrange(4000)))
            for n in range(count)])


async def measure(url: str, games: list[int], log) -> float:
    client = Client()
    async with running(Bot("bot.py", url, log), client):
        await round_trips(client, games, len(games), crow_receipt)  # every game loaded once
        return p50(await round_trips(client, games, 400, crow_receipt))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="running games in both databases")
    parser.add_argument("--finished", type=int, default=2000)
    parser.add_argument("--messages", type=int, default=200_000)
    args = parser.parse_args()
    where = scratch("history")
    fresh, grown = f"sqlite://{where / 'fresh.sqlite3'}", f"sqlite://{where / 'grown.sqlite3'}"
    print(f"making {args.games} running games twice, then {args.finished} finished games and {args.messages} messages ...")
    games = await make_games(fresh, args.games)
    assert games == await make_games(grown, args.games)
    await grow(grown, args.finished, args.messages, games)
    alone = await measure(fresh, games, where / "fresh.log")
    piled = await measure(grown, games, where / "grown.log")
    ratio = piled / alone
    print(f"{cores()} cores; logs in {where}")
    print(f"one message, fresh database:  {alone * 1e3:.2f} ms")
    print(f"one message, grown database:  {piled * 1e3:.2f} ms")
    print(f"ratio grown ÷ fresh: {ratio:.2f} (target ≤ {TARGET}: {'meets it' if ratio <= TARGET else 'MISSES IT'})")


if __name__ == "__main__":
    asyncio.run(main())
