"""banshabot: the director's and the players' QQ side of a 版杀 game."""
from nonebot.plugin import PluginMetadata

from service.config import Config

__plugin_meta__ = PluginMetadata(
    name="banshabot",
    description="版杀导演助手：私聊行动、队伍群、导演指令、时限与公告",
    usage="导演私聊发送“帮助”查看导演指令；玩家私聊发送“帮助”查看自己现在能做什么。",
    type="application",
    config=Config,
    supported_adapters={"~onebot.v11"},
)

from . import directors, groups, logs, private, requests, runtime  # noqa: E402,F401  registers the matchers
