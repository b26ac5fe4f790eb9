"""The bare NoneBot plugin banshabot is measured against: every private message is answered with
its own text, through the same adapter, driver and reverse WebSocket."""
from nonebot import on_message
from nonebot.adapters.onebot.v11 import Bot, PrivateMessageEvent

echo = on_message(rule=lambda event: isinstance(event, PrivateMessageEvent), priority=10, block=True)


@echo.handle()
async def _(bot: Bot, event: PrivateMessageEvent) -> None:
    await bot.send(event, event.get_plaintext())
