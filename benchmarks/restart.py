"""A restart with 200 running games: how soon the first message after it is answered.

The database holds 200 running games in their first night (each with its open time limits, the
bot's messages to each of them still waiting to be sent as after a crash) and the history of
benchmarks/history_growth.py. The bot is started, OneBot connects the moment it listens, and a crow
of a game the bot has not yet rebuilt sends her 诽谤. Printed: from the start of the process to
listening, and from the connection to that first answer (target: ≤ 1 s).

    .venv/bin/python benchmarks/restart.py [--games 200] [--finished 2000] [--messages 200000]
"""
from __future__ import annotations

import argparse
import asyncio
import time

from harness import CROW, Bot, Client, cores, crow_message, crow_receipt, make_games, player_qq, scratch
from history_growth import grow

TARGET = 1.0  # seconds


async def pending_again(url: str, games: list[int]) -> int:
    """The last messages to each game's players, as if the bot had stopped before sending them."""
    from tortoise import Tortoise

    from service.db import open_database
    from service.models import OutboxRow

    await open_database(url)
    try:
        newest = await OutboxRow.filter(game_id__in=games).order_by("-id").limit(len(games) * 3).values_list("id", flat=True)
        return await OutboxRow.filter(id__in=list(newest)).update(sent_at=None)
    finally:
        await Tortoise.close_connections()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--finished", type=int, default=2000)
    parser.add_argument("--messages", type=int, default=200_000)
    args = parser.parse_args()
    where = scratch("restart")
    url = f"sqlite://{where / 'banshabot.sqlite3'}"
    print(f"making {args.games} running games, {args.finished} finished ones and {args.messages} messages ...")
    games = await make_games(url, args.games)
    await grow(url, args.finished, args.messages, games)
    waiting = await pending_again(url, games)

    bot = Bot("bot.py", url, where / "bot.log")
    client = Client()
    bot.start()
    await client.sim.connect(bot.port, timeout=60, alive=bot.alive)
    connected = time.monotonic()
    listening = connected - bot.started
    game = games[len(games) // 2]
    await client.ask(player_qq(game, CROW), crow_message(1), crow_receipt)
    first = time.monotonic() - connected
    await client.sim.quiet(1.0, timeout=120)
    await client.sim.close()
    bot.stop()
    print(f"{cores()} cores; logs in {where}; {waiting} messages were waiting to be sent")
    print(f"start of the process to listening:        {listening:.2f} s")
    print(f"connection to the first answer:           {first:.3f} s (target ≤ {TARGET:g} s: {'meets it' if first <= TARGET else 'MISSES IT'})")


if __name__ == "__main__":
    asyncio.run(main())
