"""What people type, read safely: the numbers a message carries, and how much of it is repeated back.

`str.isdigit()` also accepts characters `int()` refuses ("①", "³"), and `int()` refuses numbers of
more than 4,300 digits: a number is read here, as decimal digits only (the full-width digits Chinese
input methods type count) and no longer than its kind can be. A reply that quotes what was sent
quotes a bounded piece of it, so a 100 KB message is never sent back into a chat.
"""
from __future__ import annotations

ECHO = 20  # characters of a sender's text a reply repeats


def number(text: str, digits: int) -> int | None:
    """`text` as a whole number of at most `digits` decimal digits; None if it is not one."""
    text = text.strip()
    if not text or len(text) > digits or not text.isdecimal():
        return None
    return int(text)


def quoted(text: str, limit: int = ECHO) -> str:
    """`text` as a reply may repeat it: cut to `limit` characters."""
    return text if len(text) <= limit else text[:limit] + "…"
