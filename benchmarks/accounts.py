"""Capacity with 200 running games over 4 QQ accounts against the same games on one account.

The bot runs as a real process (bot.py) with one simulated OneBot connection per account (tests/
onebot_sim.py). The games are spread over the accounts (50 each); each message is a game's crow's
诽谤, sent to the game's account and answered through it. Measured, each on the one database:

- capacity, as in echo_comparison.py (a closed loop, 32 messages in flight), at BANSHABOT_SEND_RATE=0:
  what the bot itself can do; 4 accounts should cost nothing against one;
- the same at the shipped pace (BANSHABOT_SEND_RATE=2 a second per account), where QQ's limit is what
  bounds a bot: 4 accounts should answer about 4 times as many.

    .venv/bin/python benchmarks/accounts.py [--games 200] [--accounts 4] [--seconds 15] [--database URL]
"""
from __future__ import annotations

import argparse
import asyncio

from harness import SELF_ID, Bot, Client, capacity, cores, crow_receipt, make_games, running, scratch, warm_up


async def measure(url: str, games: list[int], accounts: int, rate: str, seconds: float, log) -> float:
    """Messages answered a second with the games spread over `accounts` accounts."""
    from service.db import open_database
    from service.models import GameRow
    from tortoise import Tortoise

    ids = [SELF_ID + n for n in range(accounts)]
    await open_database(url)
    try:
        for i, game in enumerate(games):  # each game served by one account: 0, 1, 2, 3, 0, ...
            await GameRow.filter(id=game).update(account=str(ids[i % accounts]))
    finally:
        await Tortoise.close_connections()
    clients = {account: Client(self_id=account) for account in ids}
    of = {game: clients[ids[i % accounts]] for i, game in enumerate(games)}
    async with running(Bot("bot.py", url, log, BANSHABOT_SEND_RATE=rate), *clients.values()):
        if rate == "0":
            await warm_up(of.get, games, crow_receipt)
        return await capacity(of.get, games, seconds, 32, crow_receipt)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--accounts", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--database", help="a tortoise URL (default: a new SQLite file)")
    args = parser.parse_args()
    where = scratch("accounts")
    url = args.database or f"sqlite://{where / 'banshabot.sqlite3'}"
    print(f"making {args.games} running games in {url} ...")
    games = await make_games(url, args.games)
    found = {}
    for rate in ("0", "2"):
        for accounts in (1, args.accounts):
            found[rate, accounts] = await measure(url, games, accounts, rate, args.seconds, where / "bot.log")
    print(f"{cores()} cores; logs in {where}")
    print(f"{'BANSHABOT_SEND_RATE':<22}{'1 account':>12}{f'{args.accounts} accounts':>14}{'ratio':>8}")
    for rate in ("0", "2"):
        one, many = found[rate, 1], found[rate, args.accounts]
        print(f"{rate:<22}{one:10.1f}/s{many:12.1f}/s{many / one:8.2f}")


if __name__ == "__main__":
    asyncio.run(main())
