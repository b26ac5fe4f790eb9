"""NoneBot with the OneBot v11 adapter and the echo plugin only: bot.py's set-up without banshabot."""
import sys
from pathlib import Path

import nonebot
from nonebot.adapters.onebot.v11 import Adapter as OneBotV11Adapter

sys.path.insert(0, str(Path(__file__).resolve().parent))

nonebot.init(driver="~fastapi")
nonebot.get_driver().register_adapter(OneBotV11Adapter)
nonebot.load_plugin("echo")

if __name__ == "__main__":
    nonebot.run()
