"""The echo bot and banshabot from one or more source trees, one message to each in turn.

On a machine shared with other work, runs made one after another see different loads, and their
round trips differ by more than most changes do. Here every bot is up at once, each with its own copy
of the same 200 running games, and each message goes to every bot in turn (the order rotating):
they see the same moments of the machine. Measured for a crow's 诽谤 and a player's `帮助`: the
round trip's median, its ratio to the echo's, and the processor time each process used a message.

    .venv/bin/python benchmarks/side_by_side.py TREE [TREE ...] [--messages 600] [--cluster postgres://…]

A TREE is a directory holding banshabot (this one: `.`; another commit: `git archive COMMIT | tar -x -C DIR`).
With --cluster, each tree's bot has a new database of that PostgreSQL cluster instead of a SQLite file.
"""
from __future__ import annotations

import argparse
import asyncio
import sqlite3
from contextlib import AsyncExitStack
from pathlib import Path

from harness import CROW, Bot, Client, crow_message, crow_receipt, help_reply, make_games, p50, player_qq, running, \
    scratch, warm_up


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--messages", type=int, default=600)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--cluster", help="a PostgreSQL cluster's address (postgres://user@host:port)")
    args = parser.parse_args()
    where = scratch("side")
    if args.cluster:
        from pg_cluster import new_database  # tests/, on harness's path

        urls = [new_database(args.cluster) for _ in args.trees]
        for url in urls:
            games = await make_games(url, args.games)
    else:
        games = await make_games(f"sqlite://{where / 'games.sqlite3'}", args.games)
        urls = []
        for i, _ in enumerate(args.trees):  # the same games in a file of each bot's own
            with sqlite3.connect(where / "games.sqlite3") as source, sqlite3.connect(where / f"bot{i}.sqlite3") as copy:
                source.backup(copy)
            urls.append(f"sqlite://{where / f'bot{i}.sqlite3'}")
    bots = {"echo": (Bot("benchmarks/echo_bot.py", None, where / "echo.log"), lambda text: True, lambda text: True)}
    for i, tree in enumerate(args.trees):
        bots[f"{i}:{tree}"] = (Bot("bot.py", urls[i], where / f"bot{i}.log", root=tree.resolve()), crow_receipt, help_reply)
    clients = {name: Client() for name in bots}
    async with AsyncExitStack() as stack:
        for name, (bot, wanted, _) in bots.items():
            await stack.enter_async_context(running(bot, clients[name]))
            await warm_up(clients[name], games, wanted)
        names = list(bots)
        for label, message, which in (("诽谤", crow_message, 1), ("帮助", lambda n: "帮助", 2)):
            times: dict[str, list[float]] = {name: [] for name in names}
            used = {name: bots[name][0].cpu() for name in names}
            for n in range(args.messages):
                game = games[n % len(games)]
                for name in names[n % len(names):] + names[:n % len(names)]:
                    times[name].append(await clients[name].ask(player_qq(game, CROW), message(n // len(games)),
                                                               bots[name][which]))
            for name in names:
                cpu = (bots[name][0].cpu() - used[name]) / args.messages
                print(f"{label} {name:<30} p50 {p50(times[name]) * 1e3:6.2f} ms  ÷ echo "
                      f"{p50(times[name]) / p50(times['echo']):5.2f}   processor {cpu * 1e3:5.2f} ms a message")
    print(f"logs in {where}; load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")


if __name__ == "__main__":
    asyncio.run(main())
