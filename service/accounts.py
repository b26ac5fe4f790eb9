"""Several QQ accounts on one bot: which one serves a game, moving a game to another, and the
directors told when one is away.

Each game is served by one account (`GameRow.account`): the one its director set it up through.
Every message of the game goes through it (service/outbox.py holds them while it is away), its pool
groups are that account's, and its friend checks read that account's friends. The director may move
the game to another connected account while no message of it is on its way and it holds no team
group (a group is administered by the account it was added through).
"""
from __future__ import annotations

import logging

from . import parse
from .models import OutboxRow, PoolGroupRow

log = logging.getLogger("banshabot.accounts")

USAGE = "请发送“账号 QQ号”（QQ号：已连接到机器人的另一个账号）。"


def shown(service, t) -> str:
    """The line 状态 shows about the game's account: where several accounts serve the bot, or the
    game's is not connected (nothing where one account does all)."""
    connected = service.accounts()
    account = t.row.account
    if account is None or (connected == [account]):
        return ""
    state = "已连接" if account in connected else "未连接，本局的消息等它重新连接后发出"
    return f"\n本局账号：QQ {account}（{state}）"


def me(service, t) -> str:
    """How the bot names itself to a director about a game: its account, where there are several."""
    account = t.row.account
    return f"我（QQ {account}）" if account and service.accounts() not in ([], [account]) else "我"


async def move(service, t, qq: str, rest: str, side) -> str:
    """`账号 QQ号`: the game is served by another connected account from now on."""
    connected = service.accounts()
    listed = "、".join(connected) or "（无）"
    if not rest:
        return f"本局账号：QQ {t.row.account or '（未指定：由最先连接的账号发送）'}。已连接的账号：{listed}。{USAGE}"
    account = parse.qq_number(rest)
    if account is None:
        return USAGE
    if account == t.row.account:
        return f"本局已经由 QQ {account} 发送消息。"
    if account not in connected:
        return f"QQ {account} 没有连接到机器人，不能接手本局。已连接的账号：{listed}。"
    async with t.lock:  # no command of the game queues a message meanwhile
        waiting = await OutboxRow.filter(game_id=t.row.id, sent_at=None, given_up_at=None).count()
        if waiting:
            return f"本局还有 {waiting} 条消息正在通过 QQ {t.row.account} 发送：发完后才能更换账号，请稍后再发送。"
        if await PoolGroupRow.filter(game_id=t.row.id).exists():
            return "本局正在借用群池的队伍群，它们只能由添加它们的账号管理：游戏结束前不能更换账号。"
        async with service.transaction():
            t.row.account = account
            await t.row.save(update_fields=["account"])
    return (f"本局今后由 QQ {account} 发送消息。请让每名玩家加 QQ {account} 为好友（发送“检查”核对），"
            "玩家私聊它即可。")


async def tell_away(service, account: str, seconds: float) -> None:
    """`account` has been away `seconds`: the directors of its games not over are told, through an
    account that is connected; its messages wait for it (none goes through another account)."""
    games = sorted((r for r in service.live.values() if r.account == account), key=lambda r: r.id)
    others = [a for a in service.accounts() if a != account]
    if not games:
        return
    if not others:
        log.warning("account %s is away, and no other account is connected to tell its games' directors", account)
        return
    waiting = await OutboxRow.filter(account=account, sent_at=None, given_up_at=None).count()
    for qq in sorted({qq for r in games for qq in r.directors}):
        mine = "、".join(f"#{r.id} {r.title}" for r in games if qq in r.directors)
        await service.queue(("private", qq), (
            f"【账号离线】机器人账号 QQ {account} 已断开 {round(seconds / 60) or 1} 分钟以上。{mine} 的消息"
            f"（现有 {waiting} 条待发）会等它重新连接后按顺序发出，不会改由别的账号发送。请检查它的 OneBot（如 NapCat）。"),
            account=others[0])
    await service.delivered()
