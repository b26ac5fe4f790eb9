"""NoneBot with the OneBot v11 adapter and the echo plugin only: bot.py's set-up without banshabot."""
import sys
from pathlib import Path

import nonebot
from nonebot.adapters.onebot.v11 import Adapter as OneBotV11Adapter

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from bot import log_from_level  # noqa: E402  the same log set-up as banshabot's

nonebot.init(driver="~fastapi")
log_from_level()
nonebot.get_driver().register_adapter(OneBotV11Adapter)
nonebot.load_plugin("echo")

if __name__ == "__main__":
    nonebot.run()
