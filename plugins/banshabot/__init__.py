"""banshabot: the director's and the players' QQ side of a 版杀 game."""
from importlib.metadata import PackageNotFoundError, metadata

from nonebot.plugin import PluginMetadata

from service.config import Config


def _homepage() -> str | None:
    """The project's home as pyproject.toml's [project.urls] names it (`Homepage = "..."`): one place
    to set it when the repository is published; None while it names none."""
    try:
        urls = metadata("banshabot").get_all("Project-URL") or []
    except PackageNotFoundError:  # a checkout that was never pip-installed
        return None
    return next((url.strip() for label, _, url in (u.partition(",") for u in urls) if label.strip().lower() == "homepage"), None)


__plugin_meta__ = PluginMetadata(
    name="banshabot",
    description="版杀导演助手：私聊行动、队伍群、导演指令、时限与公告",
    usage="导演私聊发送“帮助”查看导演指令；玩家私聊发送“帮助”查看自己现在能做什么。",
    type="application",
    config=Config,
    supported_adapters={"~onebot.v11"},
    homepage=_homepage(),
)

from . import desk, directors, groups, logs, private, processes, requests, rule_posts, runtime  # noqa: E402,F401  registers the matchers and the desk's pages
