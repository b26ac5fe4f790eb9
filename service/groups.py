"""Team groups: QQ groups from the pool the bot administers, lent to a team for one game.

No OneBot implementation can create a group or invite anyone, so the bot renames a pool group for
the team, tells each member its number, lets in members only and removes everyone at the end. With
no group free, the team works by relay: the bot forwards members' private messages to each other.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .models import GameRow, PoolGroupRow, SeatRow, TeamRow

if TYPE_CHECKING:
    from .games import Service, Table


async def assign_team(service: "Service", t: "Table", team: str, members: list[str]) -> None:
    row = await TeamRow.get_or_none(game_id=t.row.id, team=team)
    if row is None:
        group = await PoolGroupRow.filter(game_id=None).order_by("group_id").first()
        row = await TeamRow.create(game_id=t.row.id, team=team, members=[], group_id=group.group_id if group else None)
        if group:
            group.game_id, group.team = t.row.id, team
            await group.save()
            await service.act("set_group_name", {"group_id": int(group.group_id), "group_name": f"{t.row.title}·{team}"[:30]}, t.row.id)
    joined = [m for m in members if m not in row.members]
    left = [m for m in row.members if m not in members]
    if not joined and not left:
        return
    row.members = list(members)
    await row.save()
    roster = "、".join(f"{t.seat_of(m).seat}号 {m}" for m in members)
    for name in joined:
        where = (f"请申请加入QQ群 {row.group_id}，我会通过你的申请。" if row.group_id
                 else "目前没有空闲的QQ群：私聊我的非指令消息会由我转发给队友。")
        await service.queue(("private", t.seat_of(name).qq), f"你属于【{team}】，成员：{roster}。{where}", t.row.id)
    for name in left:
        await _remove(service, t, row, t.seat_of(name).qq)
    if row.group_id:
        await service.queue(("group", row.group_id), f"【{team}】成员：{roster}", t.row.id)


async def _remove(service: "Service", t: "Table", row: TeamRow, qq: str) -> None:
    if row.group_id:
        await service.act("set_group_kick", {"group_id": int(row.group_id), "user_id": int(qq), "reject_add_request": False}, t.row.id)


async def replaced(service: "Service", t: "Table", name: str, old_qq: str) -> None:
    """A 替补 took over: the old QQ leaves every team group, the new one is told where to go."""
    for row in await TeamRow.filter(game_id=t.row.id):
        if name in row.members:
            await _remove(service, t, row, old_qq)
            row.members = [m for m in row.members if m != name]
            await row.save()
            members = sorted([*row.members, name], key=lambda n: t.seat_of(n).seat)
            await assign_team(service, t, row.team, members)


async def release(service: "Service", t: "Table") -> None:
    """The game ended: every team group is emptied, renamed back and returned to the pool."""
    for row in await TeamRow.filter(game_id=t.row.id).exclude(group_id=None):
        qqs = {s.qq for s in t.seats if s.name in row.members}
        qqs |= {q for s in t.seats if s.name in row.members for q in s.former_qq}
        for qq in sorted(qqs):
            await _remove(service, t, row, qq)
        group = await PoolGroupRow.get(group_id=row.group_id)
        await service.act("set_group_name", {"group_id": int(group.group_id), "group_name": group.original_name}, t.row.id)
        group.game_id, group.team = None, None
        await group.save()


async def owner_of(group_id: str) -> tuple[GameRow, TeamRow] | None:
    """The running game and team a pool group is lent to."""
    team = await TeamRow.get_or_none(group_id=group_id, game__status="running")
    if team is None:
        return None
    return await GameRow.get(id=team.game_id), team


async def may_join(group_id: str, qq: str) -> bool:
    owner = await owner_of(group_id)
    if owner is None:
        return False
    game, team = owner
    return await SeatRow.filter(game_id=game.id, qq=qq, name__in=team.members).exists()


async def relay_team(game_id: int, name: str) -> TeamRow | None:
    """The team this player's private chat relays for, if it has no group."""
    for row in await TeamRow.filter(game_id=game_id, group_id=None):
        if name in row.members:
            return row
    return None


async def add_to_pool(group_id: str, name: str) -> bool:
    _, created = await PoolGroupRow.get_or_create(group_id=group_id, defaults={"original_name": name})
    return created


async def remove_from_pool(group_id: str) -> str:
    group = await PoolGroupRow.get_or_none(group_id=group_id)
    if group is None:
        return "不在群池中"
    if group.game_id is not None:
        return "正在被一局游戏使用，不能移出"
    await group.delete()
    return "已移出群池"


async def pool() -> list[PoolGroupRow]:
    return await PoolGroupRow.all().order_by("group_id")
