"""Group commit: what many handlings store at the same moment is written in one transaction.

A message's changes (the event's key, the command, the messages it queues, the time limits it starts
and ends) are a `Job`: a short list of statements, the later ones able to use the ids the earlier
ones were given (`Ref`). Jobs that come while others are being written wait together and go in the
next transaction. One that fails (a key stored already, say) undoes only itself: the transaction is
undone and written again with a savepoint for each job (savepoints cost statements, and jobs seldom
fail). A handling waits until its job is stored, and only then is anything sent. What would rather
not be a transaction of its own (delivery marks) joins the next batch as it begins (`joining`).

On a SQLite file the writer has a connection of its own to it and runs the whole batch on the
event loop's thread, holding the lock tortoise holds for every query and transaction of its
connection (so nothing tortoise does interleaves, and tortoise's next query sees the batch: WAL
mode, each statement reads what was committed). A small transaction costs tens of microseconds
there; through tortoise's connection it would be a trip to that connection's thread and back, several
times as much. That connection never waits for a lock: where another process writes the file, the
batch goes through tortoise's thread, which waits its while. It does not checkpoint either (a
checkpoint syncs the file to disk): every `CHECKPOINT_EVERY` batches a connection in a worker thread
does, beside the writing. A database in memory is tortoise's connection alone: its thread runs the
batch. On PostgreSQL the batch is one transaction on a connection of the pool. Values are encoded by
the models' own fields, as tortoise stores them.
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

from .db import sqlite_uri


@dataclass(frozen=True)
class Ref:
    """The id the `index`-th statement of the same job was given."""

    index: int


@dataclass
class Statement:
    sql: str  # "?" placeholders
    params: list
    returns: bool = False  # it ends with RETURNING "id": the ids are the job's result for it
    one_row: bool = False  # it makes one row (an INSERT of `Job.insert`): one id when it returns


@dataclass
class Job:
    statements: list[Statement] = field(default_factory=list)

    def add(self, sql: str, params: list, returns: bool = False, one_row: bool = False) -> int:
        self.statements.append(Statement(sql, params, returns, one_row))
        return len(self.statements) - 1

    def insert(self, model: type[Model], values: dict[str, Any], returns: bool = True) -> Ref:
        """An INSERT of a row of `model` (values by field name, encoded by the fields); its id."""
        columns, params = _encoded(model, values)
        sql = f'INSERT INTO "{model._meta.db_table}" ({",".join(columns)}) VALUES ({",".join("?" * len(columns))})'
        return Ref(self.add(sql + (' RETURNING "id"' if returns else ""), params, returns, one_row=True))

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

    CHECKPOINT_EVERY = 200  # batches written on the writer's own SQLite connection between checkpoints

    def __init__(self, context: Callable[[], contextvars.Context] = contextvars.Context) -> None:
        self.waiting: list[tuple[Job, asyncio.Future]] = []
        self.task: asyncio.Task | None = None
        self.context = context  # where its task runs (a copy of the context the database was opened in)
        self.own: _OwnFile | None = None  # its connection to tortoise's SQLite file
        # called as each batch begins, to submit what would rather go with others than alone (marks)
        self.joining: list[Callable[[], None]] = []

    async def write(self, job: Job) -> list[list[int]]:
        """Store `job` (with whatever else is waiting); the ids each statement returned. Raises
        what its statements raised (tortoise's IntegrityError, OperationalError)."""
        return await self.submit(job)

    def submit(self, job: Job) -> asyncio.Future:
        """`job` goes in the next batch; the future is `write`'s outcome."""
        future = asyncio.get_running_loop().create_future()
        self.waiting.append((job, future))
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._drain(), context=self.context())
        return future

    async def _drain(self) -> None:
        # what comes while a batch is written waits for it and goes in the next one together
        while self.waiting:
            for join in self.joining:  # what waits for company goes with this batch
                join()
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
        if connection.capabilities.dialect != "sqlite":
            return await _pooled_batch(connection, jobs)
        async with connection.acquire_connection():  # tortoise's lock: no other query interleaves
            own = self._own(connection)
            if own is not None:
                try:
                    outcomes = _sqlite_batch(own.db, jobs)
                except sqlite3.OperationalError as exc:
                    if exc.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:
                        raise
                    # another process holds the file's write lock (nothing was begun): tortoise's
                    # thread waits for it, as tortoise's own writes do
                else:
                    own.written()
                    return outcomes
            return await connection._connection._execute(_sqlite_batch, connection._connection._conn, jobs)

    def _own(self, connection) -> "_OwnFile | None":
        """The writer's connection to the file tortoise's `connection` has open (None: in memory),
        opened again whenever tortoise opened its own again."""
        opened = connection._connection
        if self.own is not None and self.own.beside is not opened:
            self.close()
        if self.own is None and opened is not None and connection.filename != ":memory:":
            self.own = _OwnFile(connection.filename, connection.pragmas, opened, self.CHECKPOINT_EVERY)
        return self.own

    def close(self) -> None:
        """Close its own SQLite connection (tortoise's is closed by tortoise)."""
        if self.own is not None:
            self.own.close()
            self.own = None


class _OwnFile:
    """The writer's own connection to a SQLite file, used on the loop's thread, and the checkpoints
    its writes are given. Opened on the file tortoise has open (never making one: "mode=rw"), with
    tortoise's pragmas (WAL, synchronous, foreign keys)."""

    def __init__(self, path: str, pragmas: dict, beside: object, every: int) -> None:
        self.path, self.pragmas, self.beside, self.every = path, pragmas, beside, every
        self.db = self._connect()
        self.db.execute("PRAGMA busy_timeout=0")  # a lock held by another process: tortoise's thread waits
        self.db.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints go to a worker thread
        self.batches = 0
        self.checkpoint: asyncio.Future | None = None
        self.closed = False

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(sqlite_uri(self.path, "rw"), uri=True, isolation_level=None, check_same_thread=False)
        for pragma, value in self.pragmas.items():
            db.execute(f"PRAGMA {pragma}={value}")
        return db

    def written(self) -> None:
        self.batches += 1
        if self.batches % self.every == 0 and (self.checkpoint is None or self.checkpoint.done()):
            self.checkpoint = asyncio.get_running_loop().run_in_executor(None, self._checkpoint)

    def _checkpoint(self) -> None:
        # in a worker thread, on a connection of its own: a passive checkpoint waits for no one, and
        # nobody waits for it
        if self.closed:
            return
        try:
            db = self._connect()
        except sqlite3.Error:
            return
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:  # busy: the next one checkpoints
            pass
        finally:
            db.close()

    def close(self) -> None:
        self.closed = True
        self.db.close()


def _sqlite_batch(db: sqlite3.Connection, jobs: list[Job]) -> list:
    """One transaction, and a savepoint for each job only once one of them failed (as on PostgreSQL,
    `_pooled_batch`): then the batch is undone and written again, each job in a savepoint of its own."""
    def execute(sql: str, params: list) -> list:
        return db.execute(sql, params).fetchall()

    db.execute("BEGIN IMMEDIATE")
    try:
        try:
            outcomes = [_run(job, execute) for job in jobs]
        except sqlite3.Error as exc:
            db.execute("ROLLBACK")
            if len(jobs) == 1:
                return [exc]
            db.execute("BEGIN IMMEDIATE")
            outcomes = []
            for job in jobs:
                db.execute("SAVEPOINT job")
                try:
                    outcomes.append(_run(job, execute))
                except sqlite3.Error as failed:
                    db.execute("ROLLBACK TO job")
                    outcomes.append(failed)
                db.execute("RELEASE job")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return outcomes


async def _pooled_batch(connection, jobs: list[Job]) -> list:
    """One transaction, and a savepoint for each job only once one of them failed: each savepoint is
    two more round trips to the server for every message, and a job fails only where its event was
    handled already, or where nothing can be written. Then the batch is undone and written again,
    each job in a savepoint of its own."""
    async with connection.acquire_connection() as db:
        try:
            async with db.transaction():
                return await _pooled_jobs(db, jobs)
        except Exception as exc:
            if len(jobs) == 1:
                return [exc]
        outcomes: list = []
        async with db.transaction():
            for job in jobs:
                try:
                    async with db.transaction():  # a savepoint
                        outcomes.append(await _pooled_job(db, job))
                except Exception as exc:
                    outcomes.append(exc)
        return outcomes


async def _pooled_jobs(db, jobs: list[Job]) -> list[list[list[int]]]:
    """Jobs in a row made alike of new rows (messages of one kind being handled together) go
    statement by statement, each statement for all of them in one round trip to the server: a
    batch's round trips do not grow with its jobs, and each waits its turn on a busy machine."""
    outcomes: list[list[list[int]]] = []
    start = 0
    while start < len(jobs):
        shape = _shape(jobs[start])
        end = start + 1
        while shape is not None and end < len(jobs) and _shape(jobs[end]) == shape:
            end += 1
        if end == start + 1:
            outcomes.append(await _pooled_job(db, jobs[start]))
        else:
            outcomes.extend(await _pooled_alike(db, jobs[start:end], shape))
        start = end
    return outcomes


def _shape(job: Job) -> tuple[tuple[str, int], ...] | None:
    """A job of INSERTs of one row each, as its runs of the same statement (the statement, how many),
    where each table has one run only and no row refers to another of its own run; None for any other
    job. Alike jobs' rows written run by run keep their order within each table: each table's ids
    come in the order of the jobs, as one after another would give them."""
    runs: list[list] = []
    for index, statement in enumerate(job.statements):
        if not statement.one_row:
            return None
        if runs and runs[-1][0] == statement.sql:
            if any(isinstance(p, Ref) and p.index >= index - runs[-1][1] for p in statement.params):
                return None
            runs[-1][1] += 1
        else:
            runs.append([statement.sql, 1])
    tables = [sql.split('"', 2)[1] for sql, _ in runs]  # INSERT INTO "table" ...
    return tuple((sql, count) for sql, count in runs) if len(set(tables)) == len(tables) else None


async def _pooled_alike(db, jobs: list[Job], shape: tuple[tuple[str, int], ...]) -> list[list[list[int]]]:
    ids: list[list[list[int]]] = [[] for _ in jobs]
    start = 0
    for sql, count in shape:
        args = [_resolved(statement.params, ids[k]) for k, job in enumerate(jobs)
                for statement in job.statements[start:start + count]]
        if jobs[0].statements[start].returns:
            rows = await db.fetchmany(_numbered(sql), args)
            for k in range(len(jobs)):
                ids[k].extend([row[0]] for row in rows[k * count:(k + 1) * count])
        else:
            await db.executemany(_numbered(sql), args)
            for k in range(len(jobs)):
                ids[k].extend([] for _ in range(count))
        start += count
    return ids


async def _pooled_job(db, job: Job) -> list[list[int]]:
    """A job's statements on a PostgreSQL connection. Statements in a row that are the same but for
    their values (a message's parts, delivery marks) go in one round trip to the server."""
    ids: list[list[int]] = []
    statements = job.statements
    start = 0
    while start < len(statements):
        first = statements[start]
        end = start + 1
        if not first.returns or first.one_row:  # what each returns can be told apart
            while (end < len(statements) and statements[end].sql == first.sql
                   and not any(isinstance(p, Ref) and p.index >= start for p in statements[end].params)):
                end += 1
        sql = _numbered(first.sql)
        if end == start + 1:
            rows = await db.fetch(sql, *_resolved(first.params, ids))
            ids.append([row[0] for row in rows] if first.returns else [])
        elif first.returns:
            rows = await db.fetchmany(sql, [_resolved(s.params, ids) for s in statements[start:end]])
            ids.extend([row[0]] for row in rows)
        else:
            await db.executemany(sql, [_resolved(s.params, ids) for s in statements[start:end]])
            ids.extend([] for _ in range(start, end))
        start = end
    return ids


def _run(job: Job, execute: Callable[[str, list], list]) -> list[list[int]]:
    ids: list[list[int]] = []
    for statement in job.statements:
        rows = execute(statement.sql, _resolved(statement.params, ids))
        ids.append([row[0] for row in rows] if statement.returns else [])
    return ids


def _resolved(params: list, ids: list[list[int]]) -> list:
    return [ids[p.index][0] if isinstance(p, Ref) else p for p in params]


async def read(sql: str, params: list) -> list:
    """The rows of a statement ("?" placeholders) through tortoise's connection as written, without
    building a query: on PostgreSQL, where every message looks its key up so, tortoise's query building
    costs more than the round trip."""
    connection = _get_connection(None)
    postgres = connection.capabilities.dialect == "postgres"
    return list((await connection.execute_query(_numbered(sql) if postgres else sql, params))[1])


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
