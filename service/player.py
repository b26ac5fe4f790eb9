"""Players' private chats and their teams' groups."""
from __future__ import annotations

import logging

from engine import Act
from engine.typed import number, quoted

from . import groups, parse
from .games import Address, Service, Table
from .models import GameDirectorRow, SeatRow
from .texts import NO_DIRECTORS, TROUBLE, clock, player_status, until

log = logging.getLogger(__name__)

STRANGER = "你好！你不在任何进行中的版杀游戏里，我只为本局玩家和导演服务。如需参加，请联系导演。"


async def befriends(service: Service, qq: str) -> bool:
    """Whether the bot approves this QQ's friend request (BANSHABOT_FRIEND_REQUESTS): anyone's, only
    the directors' and those on the roster of a game not over, or nobody's."""
    setting = service.config.banshabot_friend_requests
    if setting != "roster":
        return setting == "all"
    open_games = ("roster", "running")
    return (qq in service.superusers or await GameDirectorRow.filter(qq=qq, game__status__in=open_games).exists()
            or await SeatRow.filter(qq=qq, game__status__in=open_games).exists())


async def private(service: Service, qq: str, text: str, key: str) -> None:
    found = await service.playing(qq)
    written, body = parse.game_prefix(text)
    if written is not None and found:
        # "#编号 ": one of his games named (a player in two games must say which)
        picked = [(t, seat) for t, seat in found if t.row.id == number(written, 9)]
        if not picked:
            await _answer(service, key, qq, f"你不在 #{quoted(written)} 这局游戏里。你参加的游戏：{_games(found)}。")
            return
        found, text = picked, body
    if not found:
        text = await _not_playing(service, qq) or (STRANGER if service.superusers else f"{STRANGER}\n{NO_DIRECTORS}")
        await _answer(service, key, qq, text)
        return
    if len(found) > 1:
        await _answer(service, key, qq, f"你同时在几局游戏中有角色：{_games(found)}。请在消息前加“#编号 ”说明是哪一局，"
                                        f"如“#{found[0][0].row.id} 帮助”。")
        return
    t, seat = found[0]
    try:
        await _from_player(service, t, seat, text, key)
    except Exception:
        await _broke(service, t, ("private", qq), f"{seat.seat}号 {seat.name}（QQ {qq}）的私聊消息", text)


def _games(found: list[tuple[Table, SeatRow]]) -> str:
    return "、".join(f"#{t.row.id} {t.row.title}（{seat.seat}号 {seat.name}）" for t, seat in found)


async def _answer(service: Service, key: str, qq: str, text: str) -> None:
    """A reply that changes no game, once per message."""
    if not await service.seen_before(key):
        await service.queue(("private", qq), text)
        await service.delivered()


async def known(service: Service, qq: str) -> bool:
    """Whether a game not over knows this QQ without his playing in it (its roster, a 替补's old QQ):
    his messages are the bot's to answer."""
    return await _not_playing(service, qq) is not None


async def _not_playing(service: Service, qq: str) -> str | None:
    """What one who plays no running game is told when a game not over knows him: on a roster before
    开始, or a QQ a 替补 took over from (None: a stranger)."""
    if service.leases is not None:  # several processes: a roster another one set up since this one started
        roster = SeatRow.filter(qq=qq, game__status="roster").exclude(game_id__in=list(service.live))
        for game_id in await roster.values_list("game_id", flat=True):
            await service.table(game_id)  # another's account: ServedElsewhere says where to write; else live now
    for row in sorted(service.live.values(), key=lambda r: -r.id):
        t = await service.table(row.id)
        if row.status == "roster" and (seat := t.seat_by_qq(qq)):
            return (f"你在 #{row.id} {row.title} 的名单里（{seat.seat}号 {seat.name}），游戏还没有开始："
                    "导演开始游戏后我会私聊你的身份。")
        if row.status == "running" and (seat := next((s for s in t.seats if qq in s.former_qq), None)):
            return f"你在 #{row.id} {row.title} 的角色 {seat.name} 已由替补接手，你不再能以该角色行动。如有疑问请联系导演。"
    return None


async def _from_player(service: Service, t: Table, seat: SeatRow, text: str, key: str) -> None:
    qq = seat.qq
    reply = ("private", qq)
    try:
        command = parse.player_text(text, t.game.rules, seat.name)
    except parse.ParseError as exc:
        relay = None if isinstance(exc, parse.TooLong) else await groups.relay_team(t.row.id, seat.name)
        if await service.seen_before(key):
            return
        if relay and len(text) > parse.MESSAGE_LIMIT:
            await service.queue(reply, f"{parse.TooLong(len(text), parse.MESSAGE_LIMIT)}（未转发给队友）", t.row.id)
        elif relay:
            for name in relay.members:
                if name != seat.name:
                    await service.queue(("private", t.seat_of(name).qq), f"[{relay.team}] {seat.name}：{text}", t.row.id)
            await service.queue(reply, f"已转发给{relay.team}队友。（这不是指令：行动请发送“技能 目标”）", t.row.id)
        else:
            await service.queue(reply, str(exc), t.row.id)
        await service.delivered()
        return
    if isinstance(command, Act):
        await service.submit(t, command, source=f"qq:{qq}", reply=reply, seen=key)
        return
    if await service.seen_before(key):
        return
    text = help_text(t, seat.name, await service.open_deadlines(t)) if command.word == "帮助" else player_status(t.game, seat.name, t.row.planned_close)
    await service.queue(reply, text, t.row.id)
    await service.delivered()


async def in_group(service: Service, group_id: str, qq: str, text: str, key: str) -> None:
    """A message in a team group: a living member's team skill is the team's choice, and a skill added to
    it is sent there too; the rest is chat."""
    owner = await groups.owner_of(group_id)
    if owner is None:
        return
    game, team = owner
    t = await service.table(game.id)
    seat = t.seat_by_qq(qq)
    if seat is None or seat.name not in team.members:
        return  # not a member: ignored, and removed when he joined
    try:
        await _in_team_group(service, t, seat, group_id, text, key)
    except Exception:
        await _broke(service, t, ("group", group_id), f"{seat.seat}号 {seat.name}（QQ {qq}）在队伍群里的消息", text)


async def _in_team_group(service: Service, t: Table, seat: SeatRow, group_id: str, text: str, key: str) -> None:
    try:
        command = parse.player_text(text, t.game.rules, seat.name)
    except parse.TooLong as exc:  # a command, too long to take: answered where it was sent
        if not await service.seen_before(key):
            await service.queue(("group", group_id), str(exc), t.row.id)
            await service.delivered()
        return
    except parse.ParseError:
        return
    if isinstance(command, parse.Query) and command.word == "帮助":
        if not await service.seen_before(key):
            await service.queue(("group", group_id), team_help(t, seat.name, await service.open_deadlines(t)), t.row.id)
            await service.delivered()
        return
    if not isinstance(command, Act) or not (skill := t.game.rules.skill(command.skill)) or not (skill.team or skill.attaches_to):
        return
    await service.submit(t, command, source=f"qq:{seat.qq}", reply=("group", group_id), seen=key)


async def _broke(service: Service, t: Table, sender: Address, what: str, text: str) -> None:
    """Something unexpected broke while a player's message was handled: the game is as stored (the
    copy in memory may be half changed, so it is rebuilt), the sender and the directors are told."""
    log.exception("handling %s of game %s failed", what, t.row.id)
    if service.tables.get(t.row.id) is t:
        service.tables.pop(t.row.id)
    await service.queue(sender, TROUBLE, t.row.id)
    await service.tell_directors(t, f"出错了：{what}未能处理，没有生效，游戏保持原样。消息开头：{quoted(text)}")
    await service.delivered()


def _send(rules, skill_name: str) -> str:
    """What to send for a skill: its name and as many targets as it takes (丘比特之箭: two)."""
    skill = rules.skill(skill_name)
    if skill is None or not skill.takes_target:
        return skill_name
    return skill.usage or " ".join([skill.name] + ["座位号"] * skill.targets)


def _standing(g, p) -> list[str]:
    """How the player's standing differs from his identity's brief: his faction now, a team he left,
    skills lost, used or gained."""
    role = g.rules.role(p.role)
    told = g.rules.role(g.rules.told_as(g, p))
    out = []
    if p.faction != told.faction:
        out.append(f"你现在属于{p.faction}。")
    if role.team and p.name not in g.state.teams.get(role.team, []):
        out.append(f"你已不在{role.team}中，不能参与{role.team}的共同行动。")
    for word, skills in (("已失去", p.lost), ("已用过", p.used), ("另外获得", p.granted)):
        if skills:
            out.append(f"{word}：" + "、".join(f"<{k}>" for k in sorted(skills)) + "。")
    return out


def _potions(g, p, ends: str | None) -> str:
    """What the witch may send tonight: the potions she still has; 救药 only after her <通灵>."""
    left = [k for k in ("救药", "毒药") if k not in p.used and k not in p.lost]
    waiting = "救药" in left and "通灵" not in p.lost and not g.feedback_given(p.name, "通灵")
    now = [f"{k} 座位号" for k in left if not (k == "救药" and waiting)] + ["放弃"]
    text = "现在可以：" + " / ".join(now)
    if waiting:
        text += f"；收到<通灵>反馈（所有{g.rules.harm_word}提交后）之后还可以：救药 座位号"
    return text + (f"（截止 {ends}）" if ends else "（收到<通灵>反馈后30分钟内）")


def _night_lines(g, p, due: dict[str, str], team_only: bool = False) -> list[str]:
    """The night decisions open to `p` (or, `team_only`, to his team), each with what to send and until when."""
    lines = []
    team = g.team_of(p.name)
    asked = {pending.skill for pending in g.state.pending if pending.who == p.name}
    for who, slot in g.rules.awaiting(g):
        ends = due.get(g.night_key(who, slot))
        if who == team and p.alive:
            lines.append(f"现在可以：{_send(g.rules, slot)}（{team}的共同选择，在队伍群里发送；全队放弃发送“{slot} 空”；截止 {ends or clock(None)}）")
        elif who == p.name and slot not in asked and not team_only:
            if slot == g.rules.potion_slot:
                lines.append(_potions(g, p, ends))
            else:
                lines.append(f"现在可以：{g.rules.slot_text(g, who, slot) or _send(g.rules, slot)}（截止 {ends or clock(None)}）")
    return lines


def help_text(t: Table, name: str, deadlines) -> str:
    """What this player can do right now, and until when."""
    g = t.game
    s = g.state
    p = s.player(name)
    told = g.rules.role(g.rules.told_as(g, p))
    due = {d.key: until(d) for d in deadlines}
    lines = [f"你是 {p.seat}号 {p.name}，身份：{told.name}。{told.summary}"] + _standing(g, p)
    first = len(lines)
    if s.phase == "setup":
        # a start skill (146's 丘比特之箭, M131's 认亲) is sent before the first phase opens
        opens = "开门" if g.rules.first_phase == "day" else "关门"
        for skill in g.rules.skills.values():
            if skill.when == "start" and g.holds(p, skill.name, skill.holders) and skill.name not in p.used:
                lines.append(f"现在可以：{_send(g.rules, skill.name)}（导演第一次{opens}前）")
    if s.phase == "night" and not s.night.resolved:
        lines += _night_lines(g, p, due)
    for pending in s.pending:
        if pending.who == name:
            # a decision asked of him (最后一枪, 殉职, 任命, 装傻): what to send, not only its name
            send = _send(g.rules, pending.skill)
            lines.append(f"等待你决定：<{pending.skill}>，发送“{send}”（截止 {due.get(pending.key, clock(None))}）")
    lines += [f"现在可以：{option}" for option in g.rules.day_options(g, name)]
    if g.owes_last_words(name):
        lines.append("你可以留下遗言：发送“遗言 内容”，下一次开门前有效。")
    if len(lines) == first:
        lines.append("游戏已经结束。" if s.phase == "over" else "现在没有需要你做的事。" if p.alive else "你已出局。")
    lines.append("指令：技能 目标（座位号或角色名）/ 放弃 / 遗言 内容 / 状态 / 帮助")
    return "\n".join(lines)


def team_help(t: Table, name: str, deadlines) -> str:
    """`帮助` in a team's group: what the team sends there now. A member's own decisions are private."""
    g = t.game
    team = g.team_of(name) or "队伍"
    lines = _night_lines(g, g.state.player(name), {d.key: until(d) for d in deadlines}, team_only=True) \
        if g.phase == "night" and not g.state.night.resolved else []
    if not lines:
        lines = [f"{team}现在没有需要在群里发送的行动。"]
    lines.append("自己的行动、时限和遗言请私聊我发送“帮助”。")
    return "\n".join(lines)
