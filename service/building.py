"""Building a game before it starts: created for a post, its roster, its identities dealt, and its start."""
from __future__ import annotations

from typing import TYPE_CHECKING

import secrets

from engine import Game
from engine.snapshot import snapshot
from rulesets import RULESETS
from rulesets import get as get_ruleset

from . import groups, handling, history, rule_posts
from .errors import ServiceError
from .handling import Address
from .models import GameRow, SeatRow
from .texts import brief

if TYPE_CHECKING:
    from .games import Table


class Building:
    """The part of `Service` (service/games.py) that sets a game up."""

    async def create(self, director: str, ruleset_id: str, title: str) -> GameRow:
        rules = await rule_posts.find(ruleset_id)
        if rules is None:
            raise ServiceError(f"没有规则“{ruleset_id}”。可用：{'、'.join(RULESETS)}")
        async with self.transaction():
            row = await GameRow.create(ruleset=rules.id, title=title or rules.title, seed=secrets.randbits(31),
                                       salt=secrets.token_hex(16),
                                       directors=[director], account=handling.current().account)
        self.live[row.id] = row
        return row

    async def set_roster(self, t: Table, lines: list[tuple[str, str]]) -> None:
        rules = get_ruleset(t.row.ruleset)
        if t.row.status != "roster":
            raise ServiceError("游戏已经开始，不能再改名单；换人请用“替补”")
        if len(lines) != rules.size:
            raise ServiceError(f"{rules.id} 需要 {rules.size} 名玩家，名单里有 {len(lines)} 名")
        names = [n for n, _ in lines]
        qqs = [q for _, q in lines]
        for name, qq in lines:
            if name.isdigit():
                raise ServiceError(f"角色名“{name}”不能是纯数字（数字表示座位号）")
            if not qq.isdigit():
                raise ServiceError(f"“{name}”后面的QQ号“{qq}”不是数字")
        for values, word in ((names, "角色名"), (qqs, "QQ号")):
            twice = sorted({v for v in values if values.count(v) > 1})
            if twice:
                raise ServiceError(f"{word}重复：{'、'.join(twice)}")
        async with self.transaction():
            await SeatRow.filter(game_id=t.row.id).delete()
            t.seats = [await SeatRow.create(game_id=t.row.id, seat=i, name=n, qq=q) for i, (n, q) in enumerate(lines, 1)]

    async def assign(self, t: Table, fixed: list[tuple[str, str]] | None) -> None:
        from engine import LineupError, check, deal

        rules = get_ruleset(t.row.ruleset)
        if t.row.status != "roster" or not t.seats:
            raise ServiceError("请先发送名单；游戏开始后不能再分配身份")
        names = [s.name for s in t.seats]
        try:
            if fixed is None:
                players = deal(rules, names, t.row.seed)
            else:
                given = dict(fixed)
                unknown = sorted(set(given) - set(names))
                if unknown or len(given) != len(names):
                    raise ServiceError("固定分配须为名单里每个角色各写一行“角色名 身份”" + (f"；不在名单里：{'、'.join(unknown)}" if unknown else ""))
                players = [(n, given[n]) for n in names]
                check(rules, players)
        except LineupError as exc:
            raise ServiceError(str(exc)) from exc
        # stored first, all together, then in memory: a failure half-way leaves both as they were
        async with self.transaction():
            for seat, (_, role) in zip(t.seats, players):
                await SeatRow.filter(id=seat.id).update(role=role)
        for seat, (_, role) in zip(t.seats, players):
            seat.role = role

    async def start(self, t: Table, notes: list[tuple[Address, str]] = ()) -> None:
        """`notes`: messages stored with the start, after the briefs (the director's reply)."""
        rules = get_ruleset(t.row.ruleset)
        if t.row.status != "roster":
            raise ServiceError("游戏已经开始")
        if not t.seats or any(s.role is None for s in t.seats):
            raise ServiceError("请先分配身份（“分配 随机”或“分配 固定”）")
        players = [(s.name, s.role) for s in t.seats]
        t.game = Game(rules, players, seed=t.row.seed)
        async with self.transaction():
            t.row.rules = snapshot(rules, t.game.state.options)  # what it is replayed by, whatever the code becomes
            t.row.status = "running"
            t.row.salt = t.row.salt or secrets.token_hex(16)  # a game created before deals were hashed
            await t.row.save()
            for seat in t.seats:
                self._plays(seat.qq, t.row.id)
            for seat in t.seats:
                await self.queue(("private", seat.qq), brief(rules, t.game, seat.name), t.row.id)
            await self.tell_directors(t, history.deal_promise(t))
            # where a start choice can still reshape the teams (146's lovers), the groups wait for the
            # ruleset's TeamChange at the first phase, so nobody is shown a team he is about to leave
            if rules.teams_known_when_dealt:
                for team, members in t.game.state.teams.items():
                    await groups.assign_team(self, t, team, members)
            for to, text in notes:
                await self.queue(to, text, t.row.id)
        await self.delivered()
