"""What the benchmarks share: a bot as a real process, the simulated OneBot client of the end-to-end
tests (tests/onebot_sim.py) speaking to it over the reverse WebSocket, running games made ready in
its database, and the two measures: the round trip of one message, and how many messages a second
the bot answers with a given number in flight.

The bot is banshabot (bot.py) or the bare echo plugin (benchmarks/echo_bot.py), started the same way
with the same adapter and driver. Sending is not rate-limited here (BANSHABOT_SEND_RATE=0): what is
measured is the bot, not QQ's pace.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from onebot_sim import OneBotSim  # noqa: E402

SELF_ID = 3900000001
TOKEN = "benchmark-token"
ROSTER = [("果果", "狼人"), ("橘子", "狼人"), ("香蕉", "狼人"), ("葡萄", "感染白痴"), ("西瓜", "预言家"), ("柠檬", "女巫"),
          ("草莓", "乌鸦"), ("芒果", "锈盾守卫"), ("桃子", "混血儿"), ("菠萝", "村民"), ("樱桃", "村民"), ("荔枝", "村民"), ("龙眼", "村民")]
CROW = 7  # the crow's seat: her 诽谤 may be changed all night, so she can act again and again
MESSAGE_IDS = itertools.count(int(time.time()) % 1_000_000 * 1000, 10_000_000)


def director_qq(game: int) -> int:
    return 3910000000 + game


def player_qq(game: int, seat: int) -> int:
    return 3920000000 + game * 100 + seat


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- the bot ---------------------------------------------------------------------------------------
class Bot:
    """banshabot's bot.py, or the echo bot, as a process on a free port."""

    def __init__(self, script: str, database_url: str | None, log: Path, superusers: list[int] = (), root: Path = ROOT,
                 **env: str):
        self.script = script
        self.root = root  # the source tree it runs from
        self.log = log
        self.port = free_port()
        self.env = {
            **os.environ, "HOST": "127.0.0.1", "PORT": str(self.port), "ONEBOT_ACCESS_TOKEN": TOKEN,
            "SUPERUSERS": json.dumps([str(q) for q in superusers]), "LOG_LEVEL": "WARNING",
            "BANSHABOT_SEND_RATE": "0", "BANSHABOT_RETRY_SECONDS": "30", "PYTHONDONTWRITEBYTECODE": "1", **env,
        }
        if database_url:
            self.env["BANSHABOT_DATABASE_URL"] = database_url
        self.proc: subprocess.Popen | None = None
        self.started = 0.0

    def start(self) -> None:
        self.started = time.monotonic()
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([sys.executable, self.script], cwd=self.root, env=self.env, stdout=out,
                                         stderr=subprocess.STDOUT)

    def cpu(self) -> float:
        """Seconds of processor time the process has used so far (every thread of it: the database's
        too). Less at the mercy of other work on the machine than a round trip's wall time."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.alive():
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Client:
    """The simulated OneBot, answering the bot's calls, with the reply each message is waiting for."""

    def __init__(self, send_delay: float = 0.0, self_id: int = SELF_ID):
        # message ids go on from one client to the next, as QQ's do: a repeated id would be a repeat
        self.sim = OneBotSim(self_id, TOKEN, send_delay=send_delay, first_message_id=next(MESSAGE_IDS))
        self.sim.on_delivered = self._arrived
        self.waiting: dict[tuple[str, int], deque[tuple[asyncio.Future, Callable[[str], bool]]]] = {}

    def _arrived(self, delivered) -> None:
        waiting = self.waiting.get(delivered.target)
        if not waiting:
            return
        for i, (future, wanted) in enumerate(waiting):
            if wanted(delivered.text):
                del waiting[i]
                if not future.done():
                    future.set_result(delivered.text)
                return

    async def ask(self, qq: int, text: str, wanted: Callable[[str], bool], timeout: float = 60.0) -> float:
        """Send `text` from `qq` privately; seconds until the reply `wanted` arrives."""
        future = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(("private", qq), deque()).append((future, wanted))
        start = time.perf_counter()
        await self.sim.private(qq, text)
        await asyncio.wait_for(future, timeout)
        return time.perf_counter() - start


@asynccontextmanager
async def running(bot: Bot, *clients: Client):
    """`bot` started, with each of `clients` (a OneBot connection each: one per account) connected."""
    bot.start()
    try:
        async with AsyncExitStack() as stack:
            for client in clients:
                await client.sim.connect(bot.port, timeout=60, alive=bot.alive)
                stack.push_async_callback(client.sim.close)
            # a message sent in the second the bot started may have come before it: it is looked up in
            # the database as a possible repeat. What is measured is a bot that has been up a while
            await asyncio.sleep(1.1)
            yield bot
    finally:
        bot.stop()


async def warm_up(client: Client | Callable[[int], Client], games: list[int], wanted: Callable[[str], bool]) -> None:
    """Every game's crow once (to `client`, or to her game's: `client(game)`), as in a bot that has run a
    while: a game is rebuilt from its log when first needed."""
    of = client if callable(client) else lambda game: client
    for game in games:
        await of(game).ask(player_qq(game, CROW), crow_message(0), wanted)


# --- the two measures -------------------------------------------------------------------------------
def crow_message(n: int) -> str:
    """The crow's 诽谤, on a new target each time (any seat but her own): accepted, stored, receipted."""
    target = (n % 12) + 1
    return f"诽谤 {target if target < CROW else target + 1}"


def crow_receipt(text: str) -> bool:
    return "诽谤" in text


def help_reply(text: str) -> bool:
    return text.startswith("你是 ")


async def round_trips(client: Client, games: list[int], count: int, wanted: Callable[[str], bool],
                      message: Callable[[int], str] = crow_message) -> list[float]:
    """`count` messages one after another, each from a game's crow (her 诽谤, or `message`): the round trip
    of each."""
    times = []
    for n in range(count):
        game = games[n % len(games)]
        times.append(await client.ask(player_qq(game, CROW), message(n // len(games)), wanted))
    return times


async def capacity(client: Client | Callable[[int], Client], games: list[int], seconds: float, in_flight: int,
                   wanted: Callable[[str], bool]) -> float:
    """Messages answered a second, `in_flight` at all times (a closed loop), each game's crow
    sending her next one only once her last is answered (to `client`, or to the client of the
    game's account: `client(game)`)."""
    of = client if callable(client) else lambda game: client
    free = deque(games)
    sent = {game: 0 for game in games}
    done = 0
    stop = time.perf_counter() + seconds

    async def worker() -> None:
        nonlocal done
        while time.perf_counter() < stop:
            game = free.popleft()
            await of(game).ask(player_qq(game, CROW), crow_message(sent[game]), wanted)
            sent[game] += 1
            done += 1
            free.append(game)

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(in_flight)))
    return done / (time.perf_counter() - start)


def p50(times: list[float]) -> float:
    return statistics.median(times)


# --- games made ready in a database -------------------------------------------------------------------
async def make_games(url: str, count: int) -> list[int]:
    """`count` running M131 games, each in its first night with every player told (the outbox is
    marked sent, as if OneBot had taken it all): the games' numbers."""
    from tortoise import Tortoise

    from service.db import open_database

    await open_database(url)
    try:
        return await _make_games(count)
    finally:
        await Tortoise.close_connections()  # its thread would keep the process alive


async def _make_games(count: int) -> list[int]:
    from engine import Act, CloseDay
    from service.config import Config
    from service.games import Scheduler, Service
    from service.models import OutboxRow

    class Later(Scheduler):  # the bot schedules the stored limits itself when it starts
        def at(self, job_id, when, job) -> None:
            pass

        def cancel(self, job_id) -> None:
            pass

    service = Service(Config(banshabot_send_rate=0), Later(), lambda: datetime.now(timezone.utc), superusers=set())
    await service.open()
    numbers = []
    for _ in range(count):
        row = await service.create("0", "M131", "基准")
        game = row.id
        row.directors = [str(director_qq(game))]
        await row.save()
        t = await service.table(game)
        await service.set_roster(t, [(name, str(player_qq(game, seat))) for seat, (name, _) in enumerate(ROSTER, 1)])
        await service.assign(t, ROSTER)
        await service.start(t)
        await service.submit(t, Act(by="桃子", skill="认亲", target="西瓜"), source="setup")
        await service.submit(t, CloseDay(), source="setup")
        numbers.append(game)
    service.outbox.forget()
    await OutboxRow.filter(sent_at=None).update(sent_at=datetime.now(timezone.utc))
    return numbers


def scratch(name: str) -> Path:
    """A directory for one benchmark's database and logs."""
    return Path(tempfile.mkdtemp(prefix=f"banshabot-{name}-"))


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
