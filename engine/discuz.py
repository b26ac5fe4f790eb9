"""Discuz! code in what a player writes: the posts forbid it in last words, and the director is told."""
from __future__ import annotations

import re

# Discuz! code, by its shape rather than by a list of what players may write: "[", an optional "/", a name of
# ASCII letters and digits (or "*"), then "]" or "=". Discuz! applies some of its own codes on their own
# ([b], [color=…], [list], [*], [hr]…), every other one only between an opening and its closing tag: its
# own ([url], [img], [postbg], [swf], [hide], [free], [qq]…) and those a forum's administrator adds, which
# may have any such name (its control panel takes /^[0-9a-z]+$/i). So a closing tag always counts, whatever
# its name, and so does an opening one of Discuz!'s own codes or of a name closed later in the same text.
# Whatever else is in brackets stays as written: "[笑]", "[3]" or a thread's title "[M131]粽子" can be no
# code without a "[/笑]", "[/3]" or "[/M131]" after it.
DISCUZ_TAG = re.compile(r"\[\s*(/?)\s*(\w+|\*)\s*(?=[=\]])", re.ASCII)
DISCUZ_CODES = frozenset((
    "b i u s p hr color backcolor size font align float list * indent url email img table tr td quote code free "
    "hide media audio flash swf postbg password attach attachimg qq sub sup index groupid").split())


def discuz_code(text: str) -> list[int]:
    """Where each "[" that Discuz! could read as code is, in one pass over the text."""
    tags = list(DISCUZ_TAG.finditer(text))
    closed = {tag[2].lower() for tag in tags if tag[1]}
    return [tag.start() for tag in tags if tag[1] or tag[2].lower() in DISCUZ_CODES or tag[2].lower() in closed]
