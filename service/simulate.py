"""模拟 RULESET 局数 [种子]: the director asks how balanced a post is (engine/balance.py).

The games run in a process of their own at a lower priority, on all cores but one, so the bot's own
games never wait for them; the director is answered at once and sent the table and the chart (an
image segment) when the run is done. One run per director at a time.
"""
from __future__ import annotations

import asyncio
import base64
import logging
import os
import sys
import tempfile
from pathlib import Path

from engine.typed import number, quoted
from rulesets import RULESETS, SHIPPED

from . import handling, rule_posts
from .models import RulePostRow

log = logging.getLogger(__name__)

LIMIT = 5000  # games one request may ask
ROOT = Path(__file__).resolve().parents[1]
running: dict[str, asyncio.Task] = {}  # director's QQ -> his run


def usage() -> str:
    # the posts known now: the shipped ones and those directors have sent (service/rule_posts.py)
    return (f"请发送“模拟 规则 局数 [种子]”，如“模拟 146 1000”：规则为 {'、'.join(RULESETS)}，局数 1–{LIMIT}，"
            "种子为非负整数（不写为 0，同一种子结果相同）")


def request(rest: str) -> tuple[str, int, int]:
    """The ruleset, games and seed asked for; raises ValueError with the Chinese reply."""
    parts = rest.split()
    if len(parts) not in (2, 3):
        raise ValueError(usage())
    games = number(parts[1], 4)
    if games is None or not 1 <= games <= LIMIT:
        raise ValueError(f"局数「{quoted(parts[1])}」不可用：应为 1–{LIMIT} 的整数。{usage()}")
    seed = number(parts[2], 9) if len(parts) == 3 else 0
    if seed is None:
        raise ValueError(f"种子「{quoted(parts[2])}」不可用：应为不超过9位的非负整数。{usage()}")
    return parts[0], games, seed


async def start(service, qq: str, rest: str) -> str:
    try:
        rid, games, seed = request(rest)
    except ValueError as exc:
        return str(exc)
    # a post sent to another bot process since this one started is read from the database
    if rid not in RULESETS and await rule_posts.find(rid) is None:
        return f"没有规则「{quoted(rid)}」。{usage()}"
    if qq in running:
        return "你的上一次模拟还没有结束：结束后会把结果发给你，之后再发新的模拟。"
    running[qq] = asyncio.create_task(_run(service, qq, rid, games, seed))
    return f"模拟已开始：{rid} {games} 局（种子 {seed}）。完成后把胜率表和图发给你，不影响进行中的游戏。"


def _lower_priority() -> None:
    os.nice(10)


async def _run(service, qq: str, rid: str, games: int, seed: int) -> None:
    # a job of its own, not the handling that started it; answered through the account he wrote to
    handling.begin(None, ("private", qq), account=handling.current().account)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            chart = Path(tmp) / "shares.png"
            jobs = max(1, (os.cpu_count() or 1) - 1)
            post = rid
            if rid not in SHIPPED:
                # a post a director sent is kept in the database, which the simulation's process does not read
                post = str(Path(tmp) / "post.yaml")
                Path(post).write_text((await RulePostRow.get(id=rid)).text, encoding="utf-8")
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "engine", "simulate", post, "--games", str(games), "--seed", str(seed),
                "--chart", str(chart), "--jobs", str(jobs), cwd=ROOT, preexec_fn=_lower_priority,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await proc.communicate()
            note = err.decode("utf-8", "replace").strip()
            if proc.returncode != 0:
                log.error("simulation %s %s %s failed: %s", rid, games, seed, note)
                await service.queue(("private", qq), f"模拟失败（{rid} {games} 局）：{note[-300:] or proc.returncode}")
            else:
                await service.queue(("private", qq), out.decode("utf-8").strip() + (f"\n{note}" if note else ""))
                if chart.is_file():
                    image = base64.b64encode(chart.read_bytes()).decode("ascii")
                    await service.act("send_private_msg", {"user_id": int(qq), "image": f"base64://{image}"})
        await service.delivered()
    except Exception:
        log.exception("simulation %s %s %s for %s failed", rid, games, seed, qq)
        try:  # no silent failure: he is waiting for the table
            await service.queue(("private", qq), f"模拟失败（{rid} {games} 局）：内部错误，已记入日志。")
        except Exception:
            log.exception("could not tell %s that his simulation failed", qq)
    finally:
        running.pop(qq, None)
