"""Team groups: QQ groups from the pool the bot administers, lent to a team for one game.

No OneBot implementation can create a group or invite anyone, so the bot renames a pool group for
the team, tells each member its number, lets in members only and removes everyone at the end. With
no group free, the team works by relay: the bot forwards members' private messages to each other.

A free pool group holds nobody but the bot: its member list is checked when the group enters the
pool, at every game start before any group is lent, and when a game gives it back; whoever else is
in it is removed, and a group with someone the bot cannot remove (its owner or an admin, where the
bot is only an admin) leaves the pool. Between checks, whoever asks to join a free group is refused
and whoever gets in is removed.

QQ shows a new member the group's recent chat: a team lent a group the last team used could scroll
up and read it. Where OneBot offers it (NapCat's `set_group_new_member_history_visibility`), the
bot turns that view off when a group enters the pool and again before every lending; where it
cannot, the director is told, and groups that show no earlier team's chat are lent first.

With several QQ accounts, a pool group belongs to the account it was added through (which must
administer it): it is lent only to that account's games, and only that account answers in it.
"""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from tortoise.expressions import Q

from . import handling
from .models import GameRow, PoolGroupRow, SeatRow, TeamRow

if TYPE_CHECKING:
    from .games import Service, Table

# A group's members as OneBot lists them: the bot's own role there (None: it is not in the group)
# and every other member's QQ and role ("owner", "admin", "member"). Raises when it cannot be read:
# Unreachable when no OneBot is connected or it does not answer.
Members = Callable[[str], Awaitable[tuple[str | None, dict[str, str]]]]


# A OneBot action called at once, not through the outbox, for an answer a command needs now: raises
# Unreachable when no OneBot answers, Refused when it answers with a failure.
Ask = Callable[[str, dict], Awaitable[Any]]


class Unreachable(Exception):
    """No OneBot answers now: no member list can be read."""


class Refused(Exception):
    """OneBot refused an action, or its implementation does not offer it."""


class Unreadable(Exception):
    """OneBot refused a group's member list, again and again: perhaps the bot is not in the group any
    more, perhaps QQ refused for a moment (retcode 1200 is often 风控). Nothing is known of it."""

    def __init__(self, exc: Exception):
        super().__init__(f"成员列表读取{READ_ATTEMPTS}次都失败（{type(exc).__name__}）")


class NotChecked(Exception):
    """A game start with a free pool group whose members could not be read: nothing was started."""


READ_ATTEMPTS = 3  # a refused member list is asked again: one refusal says nothing about the group
READ_PAUSE = 0.3  # seconds between two asks

REMOVABLE = {"owner": {"admin", "member"}, "admin": {"member"}}  # whom the bot's role lets it remove
ROLE = {"owner": "群主", "admin": "管理员", "member": "成员"}

# groups a game gave back, with the game, whose member lists are checked once what released them is
# stored (in memory only: if the bot stops first, the next game start checks every free group)
_released: list[tuple[str, int]] = []


async def assign_team(service: "Service", t: "Table", team: str, members: list[str]) -> None:
    row = await TeamRow.get_or_none(game_id=t.row.id, team=team)
    if row is None:
        free = await _free_groups(t.row.account)
        group = free[0] if free else None
        row = await TeamRow.create(game_id=t.row.id, team=team, members=[], group_id=group.group_id if group else None)
        if group:
            await _lend(service, t, group, team)
    joined = [m for m in members if m not in row.members]
    left = [m for m in row.members if m not in members]
    if not joined and not left:
        return
    row.members = list(members)
    await row.save()
    await _invite(service, t, row, joined)
    for name in left:
        await _remove(service, t, row, t.seat_of(name).qq)
    await _post_roster(service, t, row)


async def _post_roster(service: "Service", t: "Table", row: TeamRow) -> None:
    """The team's roster in its group, once every living member has joined it, unless posted as it is."""
    if row.posted == row.members or not await holds(t, row):
        return
    joined = set(row.joined or ())
    living = [m for m in row.members if t.game is None or t.game.state.player(m).alive]
    if any(t.seat_of(m).qq not in joined for m in living):
        return
    row.posted = list(row.members)
    await row.save()
    await service.queue(("group", row.group_id), f"【{row.team}】成员：{_roster(t, row)}", t.row.id)


async def member_joined(service: "Service", group_id: str, qq: str) -> None:
    """A member of the team holding the group joined it (the join notice): the last of them to come in
    gets the roster posted."""
    owner = await owner_of(group_id)
    if owner is None:
        return
    t = await service.table(owner[0].id)
    async with t.lock:  # two members joining at once: each is counted
        row = await TeamRow.get(id=owner[1].id)
        if qq in (row.joined or ()):
            return
        async with service.transaction():
            row.joined = [*(row.joined or ()), qq]
            await row.save()
            await _post_roster(service, t, row)
    await service.delivered()


async def member_left(service: "Service", group_id: str, qq: str) -> None:
    """A member of the team holding the group left it by himself (the leave notice). A living one is
    told how to come back and the directors that he left; the roster is posted again once the team is
    in again, since a group may hide its earlier chat from whoever joins."""
    owner = await owner_of(group_id)
    if owner is None:
        return
    t = await service.table(owner[0].id)
    async with t.lock:
        row = await TeamRow.get(id=owner[1].id)
        seat = t.seat_by_qq(qq)
        if qq not in (row.joined or ()) or seat is None or seat.name not in row.members:
            return
        alive = t.game.state.player(seat.name).alive
        async with service.transaction():
            row.joined = [q for q in row.joined if q != qq]
            if alive:
                row.posted = None
            await row.save()
            if alive:
                await service.queue(("private", qq), f"你已退出【{row.team}】的QQ群 {group_id}。"
                                    "队伍的讨论和指令都在群里：请重新申请加入，我会通过你的申请。", t.row.id)
                for to in await service.addresses(t, "director"):
                    await service.queue(to, f"{seat.seat}号 {seat.name}（QQ {qq}）退出了【{row.team}】的QQ群 {group_id}，"
                                        "已请他重新加入；全队回到群里后我会再发一次成员名单。", t.row.id)
    await service.delivered()


def _of(account: str | None) -> Q:
    """The pool groups an account's game may use: its own, and those kept before accounts were."""
    return Q(account=None) | Q(account=account) if account else Q()


async def _free_groups(account: str | None) -> list[PoolGroupRow]:
    """The free pool groups of `account`, the one to lend first first: those where a team that joins
    can read no earlier team's chat (its view of the history is off, or no team has had the group yet)."""
    free = await PoolGroupRow.filter(_of(account), game_id=None).order_by("group_id")
    return sorted(free, key=lambda g: bool(g.history_shown is not False and g.lent_before))


async def _lend(service: "Service", t: "Table", group: PoolGroupRow, team: str) -> None:
    group.game_id, group.team, group.lent_before = t.row.id, team, True
    await group.save()
    await service.act("set_group_name", {"group_id": int(group.group_id), "group_name": f"{t.row.title}·{team}"[:30]}, t.row.id)


def _roster(t: "Table", row: TeamRow) -> str:
    return "、".join(f"{t.seat_of(m).seat}号 {m}" for m in row.members)


async def _invite(service: "Service", t: "Table", row: TeamRow, names: list[str], lead: str = "") -> None:
    """Tell each of `names` his team, and the group to join (or that the bot relays)."""
    where = (f"请申请加入QQ群 {row.group_id}，我会通过你的申请。" if row.group_id
             else "目前没有空闲的QQ群：私聊我的非指令消息会由我转发给队友。")
    for name in names:
        await service.queue(("private", t.seat_of(name).qq), f"{lead}你属于【{row.team}】，成员：{_roster(t, row)}。{where}", t.row.id)


async def holds(t: "Table", row: TeamRow) -> bool:
    """The game still holds its team's group (a group given back may be another game's by now)."""
    return row.group_id is not None and await PoolGroupRow.filter(group_id=row.group_id, game_id=t.row.id).exists()


async def regained(t: "Table") -> tuple[list[tuple[TeamRow, str]], list[tuple[TeamRow, int | None]]]:
    """A finished game a correction brings back: each of its teams that had a group, with the free
    pool group it gets (its own if still free, else another free one); and each team left with none,
    with the game its group is lent to now (None: the group left the pool)."""
    rows = await TeamRow.filter(game_id=t.row.id).exclude(group_id=None).order_by("id")
    free = [g.group_id for g in await _free_groups(t.row.account)]
    own = {row.id: row.group_id for row in rows if row.group_id in free}
    spare = [g for g in free if g not in own.values()]
    plan, short = [], []
    for row in rows:
        if row.id in own or spare:
            plan.append((row, own.get(row.id) or spare.pop(0)))
        else:
            group = await PoolGroupRow.get_or_none(group_id=row.group_id)
            short.append((row, group.game_id if group else None))
    return plan, short


async def lend_again(service: "Service", t: "Table", plan: list[tuple[TeamRow, str]]) -> None:
    """Lend the groups `regained` found to the game going on again; its members are asked to join again."""
    for row, group_id in plan:
        await _lend(service, t, await PoolGroupRow.get(group_id=group_id), row.team)
        row.group_id, row.joined, row.posted = group_id, None, None  # its members join (again)
        await row.save()
        await _invite(service, t, row, row.members, lead="游戏继续：")


async def _remove(service: "Service", t: "Table", row: TeamRow, qq: str) -> None:
    if await holds(t, row):
        await _kick(service, row.group_id, qq, t.row.id)
    if qq in (row.joined or ()):
        row.joined = [q for q in row.joined if q != qq]
        await row.save()


async def _kick(service: "Service", group_id: str, qq: str, game_id: int | None = None) -> None:
    await service.act("set_group_kick", {"group_id": int(group_id), "user_id": int(qq), "reject_add_request": False}, game_id)


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
        if not await holds(t, row):
            continue
        qqs = {s.qq for s in t.seats if s.name in row.members}
        qqs |= {q for s in t.seats if s.name in row.members for q in s.former_qq}
        for qq in sorted(qqs):
            await _remove(service, t, row, qq)
        group = await PoolGroupRow.get(group_id=row.group_id)
        await service.act("set_group_name", {"group_id": int(group.group_id), "group_name": group.original_name}, t.row.id)
        group.game_id, group.team = None, None
        await group.save()
        _released.append((group.group_id, t.row.id))


# --- who is in a free pool group ----------------------------------------------------------------------
async def _clear(service: "Service", group_id: str, members: Members, game_id: int | None = None) -> tuple[str | None, list[str]]:
    """Remove everyone but the bot from a free pool group. Returns why the group cannot be used
    (None: it can) and whom it removes."""
    mine, others = await _read(group_id, members)
    if mine not in REMOVABLE:
        return "我不是该群的群主或管理员", []
    stuck = sorted(q for q, role in others.items() if role not in REMOVABLE[mine])
    if stuck:
        return "群里有我无法移出的人：" + "、".join(f"{q}（{ROLE.get(others[q], others[q])}）" for q in stuck), []
    for qq in sorted(others):
        await _kick(service, group_id, qq, game_id)
    return None, sorted(others)


async def _read(group_id: str, members: Members) -> tuple[str | None, dict[str, str]]:
    """A group's member list, asked again after a refusal. Raises Unreachable (no OneBot: the
    caller decides) or Unreadable (refused every time)."""
    for attempt in range(1, READ_ATTEMPTS + 1):
        try:
            return await members(group_id)
        except Unreachable:
            raise
        except Exception as exc:  # OneBot refused
            if attempt == READ_ATTEMPTS:
                raise Unreadable(exc) from exc
            await asyncio.sleep(READ_PAUSE)
    raise AssertionError("unreachable")


def _removed_note(group_id: str, removed: list[str]) -> str:
    return f"群 {group_id} 里有不属于任何队伍的人，已移出：{'、'.join(removed)}"


HISTORY_SHOWN = ("新成员仍能看到入群前的聊天记录：这个 OneBot 实现无法关闭（需要 NapCat 的“新成员查看历史消息”设置），"
                 "借用它的队伍能翻看以前的聊天，包括上一队的。我会先借出没有别队聊天记录的群；最好用新建的群。")


async def _hide_history(group: PoolGroupRow, ask: Ask) -> None:
    """Turn off a new member's view of the group's earlier chat, and store whether it is still shown.
    Raises Unreachable when OneBot does not answer (nothing is known then)."""
    try:
        await ask("set_group_new_member_history_visibility", {"group_id": int(group.group_id), "visible": False})
        group.history_shown = False
    except Refused:
        group.history_shown = True
    await group.save()


async def enter_pool(service: "Service", group_id: str, name: str, members: Members, ask: Ask) -> str:
    """`群池 添加`: the group joins the pool once the bot can keep it to the bot alone."""
    if await PoolGroupRow.exists(group_id=group_id):
        return f"群 {group_id} 已经在群池中"
    try:
        why, removed = await _clear(service, group_id, members)
    except Unreadable as exc:
        why, removed = f"{exc}，我可能已不在该群", []
    if why:
        return f"群 {group_id} 未加入群池：{why}。队伍群里只能有本队成员：请让我成为群主，并让其他人退群后再添加。"
    await add_to_pool(group_id, name, handling.current().account)
    group = await PoolGroupRow.get(group_id=group_id)
    await _hide_history(group, ask)
    return (f"群 {group_id} 已加入群池。" + (f"\n{_removed_note(group_id, removed)}" if removed else "")
            + (f"\n注意：群 {group_id} 的{HISTORY_SHOWN}" if group.history_shown else ""))


async def before_lending(service: "Service", members: Members, ask: Ask, game_id: int, account: str | None = None) -> list[str]:
    """At a game start, before any group is lent: every free pool group (of the game's `account`) is emptied, and its new
    members' view of the history turned off; one that cannot be emptied leaves the pool; one whose
    members could not be read stays, and nothing is lent (NotChecked). Returns what the director is told."""
    notes, shown, unread = [], [], []
    for group in await PoolGroupRow.filter(_of(account), game_id=None).order_by("group_id"):
        try:
            why, removed = await _clear(service, group.group_id, members, game_id)
        except Unreadable as exc:  # not "the bot is not in the group": the group stays, nothing is lent
            unread.append(group.group_id)
            notes.append(f"群 {group.group_id} 的{exc}")
            continue
        if why:
            await group.delete()
            notes.append(f"群 {group.group_id} 已移出群池：{why}。处理后可发送“群池 添加 {group.group_id} {group.original_name}”重新加入。")
            continue
        if removed:
            notes.append(_removed_note(group.group_id, removed))
        await _hide_history(group, ask)
        if group.history_shown and group.lent_before:
            shown.append(group.group_id)
    if shown:
        notes.append(f"注意：群 {'、'.join(shown)} 借出过，{HISTORY_SHOWN}")
    if unread:
        raise NotChecked("\n".join([*notes, f"游戏没有开始，群池没有改变。请稍后再发送“开始”；如果我确实已不在群 {unread[0]}，"
                                              f"请先发送“群池 移除 {unread[0]}”。"]))
    return notes


async def after_release(service: "Service", members: Members) -> None:
    """The groups games gave back: whoever is still in one is removed (the directors are told)."""
    checked = False
    while _released:
        group_id, game_id = _released.pop(0)
        if not await PoolGroupRow.exists(group_id=group_id, game_id=None):
            continue  # lent again already: its new game's start checked it
        try:
            why, removed = await _clear(service, group_id, members, game_id)
        except Unreachable:
            continue  # no OneBot: the next game start checks every free group before lending one
        except Unreadable as exc:
            why, removed = str(exc), []
        t = await service.table(game_id)
        if why:
            await service.tell_directors(t, f"群 {group_id} 交还群池后未能检查成员：{why}。下一局开始时会再检查。")
        elif removed:
            await service.tell_directors(t, _removed_note(group_id, removed))
        checked = checked or bool(why or removed)
    if checked:
        await service.delivered()


async def owner_of(group_id: str) -> tuple[GameRow, TeamRow] | None:
    """The running game and team a pool group is lent to."""
    team = await TeamRow.get_or_none(group_id=group_id, game__status="running")
    if team is None:
        return None
    return await GameRow.get(id=team.game_id), team


async def pooled(service: "Service", group_id: str, account: str | None = None) -> bool:
    """The group is one of the pool's, free or lent: nobody gets in but the members of its team.
    `account`: and it is that account's to manage (another account in it leaves it alone). Every group
    message asks: read from the SQLite file directly where the bot reads it so."""
    rows = service.seen.read('SELECT "account" FROM "pool_group" WHERE "group_id"=? LIMIT 1', (group_id,))
    if rows is None:
        group = await PoolGroupRow.get_or_none(group_id=group_id)
        rows = [] if group is None else [{"account": group.account}]
    return bool(rows) and (account is None or rows[0]["account"] in (None, account))


async def account_of(group_id: str) -> str | None:
    """The account that manages a pool group (None: whichever is connected)."""
    return await PoolGroupRow.filter(group_id=group_id).first().values_list("account", flat=True)


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


async def add_to_pool(group_id: str, name: str, account: str | None = None) -> bool:
    _, created = await PoolGroupRow.get_or_create(group_id=group_id, defaults={"original_name": name, "account": account})
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
