"""A tiny plugin loaded beside banshabot in tests/test_bot_beside_plugins.py: it hears every message,
request and notice that reaches it, after banshabot's matchers (which stop what they take)."""
from nonebot import on_message, on_notice, on_request
from nonebot.adapters import Event

heard: list[Event] = []

for matcher in (on_message(priority=50), on_request(priority=50), on_notice(priority=50)):
    matcher.append_handler(lambda event: heard.append(event))
