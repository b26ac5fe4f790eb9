from importlib.metadata import PackageNotFoundError, version

from nonebot import on_command
from nonebot.adapters import Event
from nonebot.adapters.onebot.v11 import PrivateMessageEvent
from nonebot.permission import SUPERUSER
from nonebot.plugin import PluginMetadata

__plugin_meta__ = PluginMetadata(
    name="状态",
    description="查看 banshabot 的版本",
    usage="导演（超级用户）私聊机器人发送：版本",
    type="application",
    supported_adapters={"~onebot.v11"},
)

try:
    VERSION = version("banshabot")
except PackageNotFoundError:  # running from a checkout that was never pip-installed
    VERSION = "未安装"


def _is_private(event: Event) -> bool:
    return isinstance(event, PrivateMessageEvent)


version_cmd = on_command(
    "版本", rule=_is_private, permission=SUPERUSER, force_whitespace=True, block=True
)


@version_cmd.handle()
async def _() -> None:
    await version_cmd.finish(f"banshabot {VERSION}")
