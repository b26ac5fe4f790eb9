"""How a handling's changes are stored: the service's transaction (with the key of the event it handles, so
an event is handled once), the messages it queues handed to the outbox only once stored, and the two ways a
command's consequences go into the database: gathered into one job for the writer (service/writer.py), or at
once through tortoise where more is needed (groups, the game's end, a night's start)."""
from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from tortoise.backends.base.client import TransactionalDBClient
from tortoise.exceptions import BaseORMException, IntegrityError
from tortoise.transactions import _get_connection, in_transaction

from engine import Command
from engine.commands import to_dict

from . import handling
from .config import Config
from .errors import CannotSave, Repeated
from .handling import Address
from .models import CommandRow, DeadlineRow, OutboxRow, SeenMessage
from .outbox import split_text
from .writer import Job, Ref

if TYPE_CHECKING:
    from .games import Service

_rows: ContextVar[list[OutboxRow] | None] = ContextVar("banshabot_transaction_rows", default=None)


class Transaction:
    """A transaction of the service (Service.transaction)."""

    def __init__(self) -> None:
        self.rows: list[OutboxRow] = []
        self.key: str | None = None

    @staticmethod
    def open() -> bool:
        return _rows.get() is not None

    @staticmethod
    def queued(row: OutboxRow, unit: handling.Unit) -> None:
        """Where a row just stored waits: with its transaction, or handed over at once if stored
        already; one stored inside a transaction this service did not open is looked up first."""
        rows = _rows.get()
        if rows is not None:
            rows.append(row)
        elif inside_foreign_transaction():
            unit.unsure.append(row)
        else:
            unit.rows.append(row)

    async def __aenter__(self) -> "Transaction":
        self.outer = _rows.get()
        self.token = _rows.set(self.rows)
        self.context = in_transaction()
        try:
            await self.context.__aenter__()
            unit = handling.current()
            self.key = unit.store_key()
            if self.key:
                if unit.reused:
                    await SeenMessage.filter(key=self.key).delete()
                await SeenMessage.create(key=self.key, time=unit.time)
        except IntegrityError as exc:
            await self.context.__aexit__(type(exc), exc, exc.__traceback__)
            _rows.reset(self.token)
            raise Repeated(self.key) from exc
        except BaseException as exc:
            await self._failed(exc)
            raise unsaved(exc) from exc
        return self

    async def __aexit__(self, kind, exc, tb) -> bool:
        _rows.reset(self.token)
        try:
            await self.context.__aexit__(kind, exc, tb)
        except BaseException as failure:
            self._lost()
            raise unsaved(failure) from failure
        if kind is not None:
            self._lost()
            refused = unsaved(exc)
            if refused is not exc:
                raise refused from exc
            return False
        if self.outer is not None:
            self.outer.extend(self.rows)  # stored once the outer transaction is
        else:
            handling.current().rows.extend(self.rows)
        return False

    async def _failed(self, exc: BaseException) -> None:
        try:
            await self.context.__aexit__(type(exc), exc, exc.__traceback__)
        except BaseException:
            pass
        _rows.reset(self.token)
        self._lost()

    def _lost(self) -> None:
        if self.key:  # nothing stored: the event's key waits for the next change
            handling.current().key = self.key


def sends(to: Address, text: str, config: Config) -> list[tuple[str, dict]]:
    """The OneBot sends of a message to one chat: a long one in parts."""
    kind, target = to
    key = "user_id" if kind == "private" else "group_id"
    parts = split_text(text, config.banshabot_message_limit, config.banshabot_message_parts)
    return [(f"send_{kind}_msg", {key: int(target), "text": part}) for part in parts]


class Direct:
    """Where a command's consequences are stored at once, through tortoise, inside the service's
    transaction: for what needs more than the writer does (groups, the game's end, a night's start)."""

    def __init__(self, service: "Service"):
        self.service = service

    async def command(self, game_id: int, seq: int, cmd: Command, source: str) -> None:
        await CommandRow.create(game_id=game_id, seq=seq, payload=to_dict(cmd), source=source, at=self.service.now())

    async def message(self, to: Address, text: str, game_id: int | None) -> OutboxRow:
        return await self.service.queue(to, text, game_id)

    async def deadline(self, values: dict, message: OutboxRow | None) -> DeadlineRow:
        return await DeadlineRow.create(**values, waits_for=message)

    async def end_deadlines(self, game_id: int, key: str) -> list[int]:
        rows = await DeadlineRow.filter(game_id=game_id, key=key, done=False)
        for row in rows:
            row.done = True
            await row.save()
        return [row.id for row in rows]

    @staticmethod
    def then(after: Callable, *made) -> None:
        after(*made)


@dataclass(eq=False)
class _Later:
    """A row the writer is to store: its statement in the job, and the values it will have. `id`
    orders it among the job's rows until it has its own."""

    id: int
    ref: Ref
    model: type
    values: dict


class Gathered:
    """Where a handling's changes are gathered into one job for the writer (service/writer.py),
    with the key of the event being handled first; `store` writes it and then makes the rows."""

    def __init__(self, service: "Service"):
        self.service = service
        self.job = Job()
        self.rows: list[_Later] = []
        self.ended: list[int] = []
        self.afters: list[tuple[Callable, tuple]] = []
        self.made: dict[_Later, object] = {}
        self.unit = handling.current()
        self.key = self.unit.store_key()
        if self.key:
            if self.unit.reused:  # a former message's key: this one's takes its place
                self.job.add('DELETE FROM "seen_message" WHERE "key"=?', [self.key])
            self.job.insert(SeenMessage, {"key": self.key, "time": self.unit.time, "at": service.now()}, returns=False)

    def _row(self, model: type, values: dict) -> _Later:
        later = _Later(len(self.rows), self.job.insert(model, {k: getattr(v, "ref", v) for k, v in values.items()}),
                       model, values)
        self.rows.append(later)
        return later

    def action(self, action: str, params: dict, game_id: int | None, account: str | None) -> _Later:
        return self._row(OutboxRow, dict(game_id=game_id, action=action, params=params, created_at=self.service.now(),
                                         attempts=0, last_error="", account=account))

    async def command(self, game_id: int, seq: int, cmd: Command, source: str) -> None:
        self.job.insert(CommandRow, dict(game_id=game_id, seq=seq, payload=to_dict(cmd), source=source,
                                         at=self.service.now()), returns=False)

    async def message(self, to: Address, text: str, game_id: int | None) -> _Later:
        account = self.service.account_for(to, game_id)
        for action, params in sends(to, text, self.service.config):
            last = self.action(action, params, game_id, account)
        return last

    async def deadline(self, values: dict, message: _Later | None) -> _Later:
        return self._row(DeadlineRow, dict(values, reminded=[], done=False, waits_for_id=message))

    async def end_deadlines(self, game_id: int, key: str) -> int:
        return self.job.update(DeadlineRow, {"done": True}, '"game_id"=? AND "key"=? AND "done"=?', [game_id, key, False],
                               returns=True)

    def then(self, after: Callable, *made) -> None:
        self.afters.append((after, made))

    async def store(self) -> None:
        try:
            ids = await self.service.writer.write(self.job)
        except IntegrityError as exc:
            if self.key:
                raise Repeated(self.key) from exc
            raise
        except BaseException as exc:
            if self.key:  # nothing was stored: the event's key waits for the next change
                self.unit.key = self.key
            raise unsaved(exc) from exc
        for later in self.rows:
            values = {k: (self.made[v].id if isinstance(v, _Later) else v) for k, v in later.values.items()}
            self.made[later] = later.model.construct(_saved_in_db=True, id=ids[later.ref.index][0], **values)
        self.unit.rows.extend(row for row in self.made.values() if isinstance(row, OutboxRow))
        for after, made in self.afters:
            after(*(self.made[m] if isinstance(m, _Later) else ids[m] if isinstance(m, int) else m for m in made))


Sink = Direct | Gathered


def inside_foreign_transaction() -> bool:
    try:
        connection = _get_connection(None)
    except Exception:
        return False
    return isinstance(connection, TransactionalDBClient) and not connection._finalized


# how SQLite and PostgreSQL say they cannot store anything now (read-only, disk full, I/O)
REFUSING = ("readonly", "read-only", "read only", "disk", "full", "i/o", "no space", "locked", "unable to open")


def unsaved(exc: BaseException) -> BaseException:
    """A database that refuses writes becomes CannotSave; anything else stays what it is."""
    if isinstance(exc, BaseORMException) and not isinstance(exc, IntegrityError):
        if any(word in str(exc).lower() for word in REFUSING):
            return CannotSave()
    return exc
