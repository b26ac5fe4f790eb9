"""Group commit: what many handlings store at the same moment is written in one transaction.

A message's changes (the event's key, the command, the messages it queues, the time limits it starts
and ends) are a `Job`: a short list of statements, the later ones able to use the ids the earlier
ones were given (`Ref`). Jobs that come while others are being written wait together and go in the
next transaction, each within a savepoint of its own: one that fails (a key stored already, say)
undoes only itself. A handling waits until its job is stored, and only then is anything sent.

On SQLite the whole batch runs in the database's own thread in one go, with the lock tortoise
holds for every query of its connection, so a message costs one transaction's worth of waiting
however many statements it has. On PostgreSQL the batch is one transaction on a connection of the
pool. Values are encoded by the models' own fields, as tortoise stores them.
"""
from __future__ import annotations

import asyncio
import contextvars
import sqlite3
from dataclasses import dataclass, field
from typing import Any, Callable

from tortoise.exceptions import IntegrityError, OperationalError
from tortoise.models import Model
from tortoise.transactions import _get_connection


@dataclass(frozen=True)
class Ref:
    """The id the `index`-th statement of the same job was given."""

    index: int


@dataclass
class Statement:
    sql: str  # "?" placeholders
    params: list
    returns: bool = False  # it ends with RETURNING "id": the ids are the job's result for it


@dataclass
class Job:
    statements: list[Statement] = field(default_factory=list)

    def add(self, sql: str, params: list, returns: bool = False) -> int:
        self.statements.append(Statement(sql, params, returns))
        return len(self.statements) - 1

    def insert(self, model: type[Model], values: dict[str, Any], returns: bool = True) -> Ref:
        """An INSERT of a row of `model` (values by field name, encoded by the fields); its id."""
        columns, params = _encoded(model, values)
        sql = f'INSERT INTO "{model._meta.db_table}" ({",".join(columns)}) VALUES ({",".join("?" * len(columns))})'
        return Ref(self.add(sql + (' RETURNING "id"' if returns else ""), params, returns))

    def update(self, model: type[Model], values: dict[str, Any], where: str, params: list, returns: bool = False) -> int:
        """An UPDATE of `model`'s rows `where` (its own "?" placeholders, `params`)."""
        columns, values_params = _encoded(model, values)
        sets = ",".join(f"{column}=?" for column in columns)
        sql = f'UPDATE "{model._meta.db_table}" SET {sets} WHERE {where}' + (' RETURNING "id"' if returns else "")
        return self.add(sql, values_params + list(params), returns)


def _encoded(model: type[Model], values: dict[str, Any]) -> tuple[list[str], list]:
    """Each value's column and its value as the model's field stores it (a `Ref` as it is)."""
    fields = model._meta.fields_map
    columns, params = [], []
    for name, value in values.items():
        f = fields[name]
        columns.append(f'"{f.source_field or name}"')
        params.append(value if isinstance(value, Ref) else f.to_db_value(value, None))
    return columns, params


class Writer:
    """Writes jobs in batches (see the module's description)."""

    def __init__(self, context: Callable[[], contextvars.Context] = contextvars.Context) -> None:
        self.waiting: list[tuple[Job, asyncio.Future]] = []
        self.task: asyncio.Task | None = None
        self.context = context  # where its task runs (a copy of the context the database was opened in)

    async def write(self, job: Job) -> list[list[int]]:
        """Store `job` (with whatever else is waiting); the ids each statement returned. Raises
        what its statements raised (tortoise's IntegrityError, OperationalError)."""
        future = asyncio.get_running_loop().create_future()
        self.waiting.append((job, future))
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._drain(), context=self.context())
        return await future

    async def _drain(self) -> None:
        # what comes while a batch is written waits for it and goes in the next one together
        while self.waiting:
            batch, self.waiting = self.waiting, []
            try:
                outcomes = await self._batch([job for job, _ in batch])
            except BaseException as exc:  # the transaction itself failed: every job with it
                outcomes = [exc] * len(batch)
            for (_, future), outcome in zip(batch, outcomes):
                if future.done():
                    continue
                if isinstance(outcome, BaseException):
                    future.set_exception(_translated(outcome))
                else:
                    future.set_result(outcome)

    async def _batch(self, jobs: list[Job]) -> list:
        connection = _get_connection(None)
        if connection.capabilities.dialect == "sqlite":
            async with connection.acquire_connection():  # tortoise's lock: no other query interleaves
                return await connection._connection._execute(_sqlite_batch, connection._connection._conn, jobs)
        return await _pooled_batch(connection, jobs)


def _sqlite_batch(db: sqlite3.Connection, jobs: list[Job]) -> list:
    """In the database's thread: one transaction, a savepoint for each job."""
    outcomes: list = []
    db.execute("BEGIN IMMEDIATE")
    try:
        for job in jobs:
            db.execute("SAVEPOINT job")
            try:
                outcomes.append(_run(job, lambda sql, params: db.execute(sql, params).fetchall()))
            except sqlite3.Error as exc:
                db.execute("ROLLBACK TO job")
                outcomes.append(exc)
            db.execute("RELEASE job")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return outcomes


async def _pooled_batch(connection, jobs: list[Job]) -> list:
    outcomes: list = []
    async with connection.acquire_connection() as db, db.transaction():
        for job in jobs:
            try:
                async with db.transaction():  # a savepoint
                    ids: list[list[int]] = []
                    for statement in job.statements:
                        rows = await db.fetch(_numbered(statement.sql), *_resolved(statement.params, ids))
                        ids.append([row[0] for row in rows] if statement.returns else [])
                outcomes.append(ids)
            except Exception as exc:
                outcomes.append(exc)
    return outcomes


def _run(job: Job, execute: Callable[[str, list], list]) -> list[list[int]]:
    ids: list[list[int]] = []
    for statement in job.statements:
        rows = execute(statement.sql, _resolved(statement.params, ids))
        ids.append([row[0] for row in rows] if statement.returns else [])
    return ids


def _resolved(params: list, ids: list[list[int]]) -> list:
    return [ids[p.index][0] if isinstance(p, Ref) else p for p in params]


def _numbered(sql: str) -> str:
    """"?" placeholders as PostgreSQL's $1, $2..."""
    parts = sql.split("?")
    return "".join(part + (f"${i}" if i < len(parts) else "") for i, part in enumerate(parts, 1))


def _translated(exc: BaseException) -> BaseException:
    """The database's own errors as tortoise's, which the rest of the service knows."""
    name = type(exc).__name__
    if isinstance(exc, sqlite3.IntegrityError) or name in ("UniqueViolationError", "ForeignKeyViolationError"):
        return IntegrityError(exc)
    if isinstance(exc, sqlite3.Error) or name.endswith("Error") and type(exc).__module__.startswith("asyncpg"):
        return OperationalError(exc)
    return exc
