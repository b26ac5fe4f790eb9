"""banshabot against a bare NoneBot echo plugin, with 200 running games.

Both run as real processes behind the same adapter, driver and reverse WebSocket, driven by the
simulated OneBot client (tests/onebot_sim.py). The message is a crow's 诽谤 in one of the games (the
bot parses it, applies it to the game, stores it with its receipt and the director's notice in one
transaction, and answers); the echo bot answers it with its own text.

- one message at a time: the round trip's median (target: banshabot ≤ 1.5 × echo), for the 诽谤 and
  for a player's `帮助` (what he can do now and until when: his game's open time limits are read);
- a closed loop with 32 messages in flight: messages answered a second (target: ≥ 0.5 × echo);
- the same when OneBot takes 100 ms to answer each send (target: ≥ 0.5 × echo);
- beside each round trip, the processor time the process used a message (no target: on a machine
  busy with other work it varies far less than the round trip does, so it tells what a change cost).

    .venv/bin/python benchmarks/echo_comparison.py [--games 200] [--seconds 15] [--database URL]
"""
from __future__ import annotations

import argparse
import asyncio

from harness import Bot, Client, capacity, cores, crow_receipt, help_reply, make_games, p50, round_trips, running, scratch, warm_up

TARGETS = {"round trip": 1.5, "帮助 round trip": 1.5, "capacity": 0.5, "capacity, 100 ms sends": 0.5,
           "processor a 诽谤": None, "processor a 帮助": None}


async def measure(script: str, database_url: str | None, games: list[int], wanted, helped, seconds: float, log) -> dict:
    found = {}
    client = Client()
    async with running(Bot(script, database_url, log), client) as bot:
        await warm_up(client, games, wanted)
        used = bot.cpu()
        found["round trip"] = p50(await round_trips(client, games, 300, wanted))
        found["processor a 诽谤"], used = (bot.cpu() - used) / 300, bot.cpu()
        found["帮助 round trip"] = p50(await round_trips(client, games, 300, helped, lambda n: "帮助"))
        found["processor a 帮助"] = (bot.cpu() - used) / 300
        found["capacity"] = await capacity(client, games, seconds, 32, wanted)
    client = Client(send_delay=0.1)
    async with running(Bot(script, database_url, log), client):
        await warm_up(client, games, wanted)
        found["capacity, 100 ms sends"] = await capacity(client, games, seconds, 32, wanted)
    return found


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--database", help="a tortoise URL (default: a new SQLite file)")
    args = parser.parse_args()
    where = scratch("echo")
    url = args.database or f"sqlite://{where / 'banshabot.sqlite3'}"
    print(f"making {args.games} running games in {url} ...")
    games = await make_games(url, args.games)
    echo = await measure("benchmarks/echo_bot.py", None, games, lambda text: True, lambda text: True, args.seconds,
                         where / "echo.log")
    bot = await measure("bot.py", url, games, crow_receipt, help_reply, args.seconds, where / "bot.log")
    print(f"{cores()} cores; logs in {where}")
    print(f"{'figure':<26}{'echo':>12}{'banshabot':>12}{'ratio':>8}{'target':>10}")
    for figure, limit in TARGETS.items():
        if limit is None:
            ratio = bot[figure] / echo[figure]
            print(f"{figure:<26}{echo[figure] * 1e3:9.2f} ms{bot[figure] * 1e3:9.2f} ms{ratio:8.2f}")
            continue
        if figure.endswith("round trip"):
            ratio = bot[figure] / echo[figure]
            shown = f"{echo[figure] * 1e3:9.2f} ms{bot[figure] * 1e3:9.2f} ms"
            meets = ratio <= limit
            target = f"≤ {limit}"
        else:
            ratio = bot[figure] / echo[figure]
            shown = f"{echo[figure]:8.0f}/s{bot[figure]:10.0f}/s"
            meets = ratio >= limit
            target = f"≥ {limit}"
        print(f"{figure:<26}{shown}{ratio:8.2f}{target:>10}  {'meets it' if meets else 'MISSES IT'}")


if __name__ == "__main__":
    asyncio.run(main())
