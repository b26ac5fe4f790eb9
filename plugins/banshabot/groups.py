"""Team groups: a living member's team skill sent in the group is the team's choice; who is in a
pool group is read from OneBot's member list."""
from __future__ import annotations

from nonebot.adapters.onebot.v11 import ActionFailed, Bot, GroupMessageEvent, MessageEvent, NetworkError

from service import groups
from service import player as playing
from service.handling import message_key

from .runtime import answer_failure, onebot, service


def plain(event: MessageEvent) -> str:
    """A message's text. A NUL character means nothing in a chat, and PostgreSQL can store none."""
    return event.get_plaintext().replace("\x00", "")


async def in_group(bot: Bot, event: GroupMessageEvent) -> None:
    """A message in a group (plugins/banshabot/private.py's matcher hands it here)."""
    group = str(event.group_id)
    key = message_key(bot.self_id, "group", group, event.message_id, event.raw_message)
    async with answer_failure(bot, ("group", group)):
        if not await service.handling(key, time=event.time, origin=("group", group), account=bot.self_id):
            return
        await playing.in_group(service, group, event.get_user_id(), plain(event), key)


def members_of(bot: Bot | None) -> groups.Members:
    """A group's member list as `bot` reads it (service.groups.Members)."""

    async def members(group_id: str) -> tuple[str | None, dict[str, str]]:
        if bot is None:
            raise groups.Unreachable("no OneBot connection")
        try:
            listed = await bot.get_group_member_list(group_id=int(group_id))
        except NetworkError as exc:  # no answer: nothing is known about the group
            raise groups.Unreachable(str(exc)) from exc
        roles = {str(m["user_id"]): str(m.get("role") or "member") for m in listed}
        return roles.pop(bot.self_id, None), roles

    return members


def ask_of(bot: Bot | None) -> groups.Ask:
    """Any OneBot action called at once through `bot` (service.groups.Ask): a failure OneBot answers
    (refused, or an action its implementation lacks) is Refused, no answer Unreachable."""

    async def ask(action: str, params: dict):
        if bot is None:
            raise groups.Unreachable("no OneBot connection")
        try:
            return await bot.call_api(action, **params)
        except ActionFailed as exc:
            raise groups.Refused(str(exc)) from exc
        except NetworkError as exc:
            raise groups.Unreachable(str(exc)) from exc

    return ask


async def _pool_members(group_id: str) -> tuple[str | None, dict[str, str]]:
    """A pool group's members, as the account that manages it reads them."""
    return await members_of(onebot(await groups.account_of(group_id)))(group_id)


async def _check_released() -> None:
    await groups.after_release(service, _pool_members)


service.after_commit.append(_check_released)
