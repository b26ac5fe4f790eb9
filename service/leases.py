"""Several bot processes on one PostgreSQL: which process drives each QQ account.

A community may run a second bot process, on another machine or beside the first, ready to take
over when the first dies, or to share the accounts. Each process serves the accounts connected to
it, but one account's games are driven by one process at a time: the one holding the account's
lease, a row of `account_lease` (holder, expiry) that its holder renews every third of
`BANSHABOT_LEASE_SECONDS`. PostgreSQL decides who holds it: the insert-or-update below takes a
lease only while nobody holds it or its holder let it lapse, in one statement, on the database's
own clock. Only the holder handles the account's events, sends its outbox rows and runs its games'
time limits; the others ignore them (they get the same events, the account being connected to
each). A process that dies stops renewing: once its lease lapses, another that has the account
connected takes it, rebuilds the account's games from the database, restores their time limits
and sends what waits in the outbox. What the dead one had handed to OneBot without recording it
is looked up where the implementation keeps a history, else sent again: only those may go twice.

A process counts its hold as over a little before the lease's expiry on its own monotonic clock
(`SAFE`), so that it stops before another can take over, however their clocks differ.

Games and outbox rows from before accounts were kept (no account) are adopted by the first
process that takes an account.
"""
from __future__ import annotations

import os
import secrets
import time

from tortoise import connections

from .models import DeadlineRow, GameRow, OutboxRow, SeatRow

SAFE = 0.8  # the share of the lease a holder counts on (measured from before it asked)

TAKE = """INSERT INTO "account_lease" ("account", "holder", "expires_at") VALUES ($1, $2, now() + make_interval(secs => $3))
ON CONFLICT ("account") DO UPDATE SET "holder" = EXCLUDED."holder", "expires_at" = EXCLUDED."expires_at"
WHERE "account_lease"."holder" = EXCLUDED."holder" OR "account_lease"."expires_at" < now()
RETURNING "holder\""""
HOLDER = 'SELECT "holder" FROM "account_lease" WHERE "account" = $1 AND "expires_at" >= now()'
RELEASE = 'DELETE FROM "account_lease" WHERE "account" = $1 AND "holder" = $2'


class Leases:
    def __init__(self, process: str, seconds: float):
        self.holder = f"{process}/{os.getpid()}/{secrets.token_hex(3)}"[:64]
        self.seconds = seconds
        self.until: dict[str, float] = {}  # account -> monotonic time this process surely holds it until

    def holds(self, account: str | None) -> bool:
        return account is not None and self.until.get(account, 0.0) > time.monotonic()

    def held(self) -> list[str]:
        return [account for account in self.until if self.holds(account)]

    async def renew(self, account: str) -> bool:
        """Take or keep `account`'s lease: whether this process holds it now."""
        asked = time.monotonic()
        rows = await connections.get("default").execute_query_dict(TAKE, [account, self.holder, float(self.seconds)])
        if rows:
            self.until[account] = asked + self.seconds * SAFE
            return True
        self.until.pop(account, None)
        return False

    async def elsewhere(self, account: str) -> bool:
        """Another process holds `account` (it has the account connected and drives its games)."""
        rows = await connections.get("default").execute_query_dict(HOLDER, [account])
        return bool(rows) and rows[0]["holder"] != self.holder

    async def release(self, account: str) -> None:
        """Let `account` go at once (it left this process): another may take it without waiting."""
        self.until.pop(account, None)
        await connections.get("default").execute_query(RELEASE, [account, self.holder])


async def take(service, account: str) -> None:
    """This process now holds `account`: its games are rebuilt from the database (whatever another
    process did with them is stored there), their open time limits scheduled. The outbox's rows are
    the plugin's to flush once this is done."""
    await GameRow.filter(account=None, status__in=("roster", "running")).update(account=account)
    await OutboxRow.filter(account=None, sent_at=None, given_up_at=None).update(account=account)
    service.outbox.drop(None)  # rows held without an account are the account's now
    rows = await GameRow.filter(account=account, status__in=("roster", "running"))
    for row in rows:
        service.tables.pop(row.id, None)
        service.adopt(row)
    for seat in await SeatRow.filter(game__account=account, game__status="running").only("qq", "game_id"):
        service.seat_saved(seat)
    await service.restore_deadlines([row.id for row in rows])


async def let_go(service, account: str) -> None:
    """This process no longer holds `account`: nothing of its games is done here any more (the
    holder does it); what memory holds of them is dropped."""
    service.outbox.disconnect(account)
    service.outbox.drop(account)
    games = [row.id for row in service.live.values() if row.account == account]
    for game_id in games:
        service.tables.pop(game_id, None)
    service._unschedule_all(await DeadlineRow.filter(game_id__in=games, done=False).values_list("id", flat=True))
