"""Start banshabot: NoneBot with the OneBot v11 adapter, plugins from plugins/."""

import os
import sys
from pathlib import Path

import nonebot
from nonebot.config import Config, Env
from nonebot.log import default_filter, default_format, logger, logger_id

from onebot_adapter import Adapter as OneBotV11Adapter

ROOT = Path(__file__).resolve().parent

# Used only where neither the environment nor .env / .env.{ENVIRONMENT} sets the value.
DEFAULTS = {
    "driver": "~fastapi",  # serves the reverse WebSocket OneBot connects to
    "host": "127.0.0.1",
    "port": 8080,
}


def _unset_defaults() -> dict:
    # nonebot.init() keyword arguments beat both the environment and .env, so
    # passing DEFAULTS blindly would make HOST=... or PORT=... ineffective.
    # Read the configuration the way init() does and keep only what it lacks.
    env_files = (".env", f".env.{Env().environment}")
    configured = Config(_env_file=env_files).model_fields_set
    return {key: value for key, value in DEFAULTS.items() if key not in configured}


def log_from_level() -> None:
    """NoneBot's log handler takes every record and drops those below LOG_LEVEL in its filter, so each
    event's dozen debug records are built (time, caller, text) to be thrown away. At the handler's own
    level, loguru drops them before building anything."""
    logger.remove(logger_id)
    logger.add(sys.stdout, level=nonebot.get_driver().config.log_level, diagnose=False, filter=default_filter,
               format=default_format)


def main() -> None:
    # .env, data/ and plugins/ belong to the project, wherever it is started from.
    os.chdir(ROOT)
    Path("data").mkdir(exist_ok=True)

    nonebot.init(**_unset_defaults())
    log_from_level()
    nonebot.get_driver().register_adapter(OneBotV11Adapter)
    nonebot.load_plugins("plugins")
    nonebot.run()


if __name__ == "__main__":
    main()
