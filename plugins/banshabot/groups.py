"""Team groups: a living member's team skill sent in the group is the team's choice; who is in a
pool group is read from OneBot's member list."""
from __future__ import annotations

from nonebot import on_message
from nonebot.adapters.onebot.v11 import Bot, GroupMessageEvent, NetworkError

from service import groups
from service import player as playing

from .guard import guarded
from .runtime import onebot, service

group_chat = on_message(rule=lambda event: isinstance(event, GroupMessageEvent), priority=10, block=True)


@group_chat.handle()
@guarded
async def _(bot: Bot, event: GroupMessageEvent) -> None:
    key = f"{bot.self_id}:{event.message_id}"
    await playing.in_group(service, str(event.group_id), event.get_user_id(), event.get_plaintext(), key)


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


async def _check_released() -> None:
    await groups.after_release(service, members_of(onebot()))


service.after_commit.append(_check_released)
