"""The deal, fixed before the game and checkable by anyone after it.

At 开始 the director posts the SHA-256 of the deal's canonical text; at the end the text itself is
revealed (in the 树洞), and anyone can hash it again: the seed and every identity were fixed before
the first move. The text is built so that a player can also recompute it by hand:

    版杀发牌 v1
    规则：M131
    种子：1234567
    盐：0123456789abcdef0123456789abcdef
    1号：狼人
    2号：预言家
    …（每个座位一行，按座位号）

Lines are joined by a single line feed ("\\n"), with none after the last line, and the hash is taken
over the text's UTF-8 bytes (`printf '%s' "$TEXT" | sha256sum`). The salt (32 hexadecimal digits,
drawn when the game is created) keeps anyone from finding the text by trying every seed and deal
against the posted hash.
"""
from __future__ import annotations

import hashlib
import re

HEADING = "版杀发牌 v1"
_HEX = re.compile(r"[0-9a-f]{64}")


def deal_text(ruleset: str, seed: int, salt: str, roles: list[str]) -> str:
    """The canonical text of a deal: `roles` in seat order (seat 1 first)."""
    lines = [HEADING, f"规则：{ruleset}", f"种子：{seed}", f"盐：{salt}"]
    lines += [f"{seat}号：{role}" for seat, role in enumerate(roles, 1)]
    return "\n".join(lines)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def found_in(text: str) -> str | None:
    """The deal's canonical text inside `text` (the revealed block alone, or a whole pasted 树洞): from
    its heading to its last seat line, each line stripped of the blanks a forum or a copy adds at its
    ends. None when there is no such block."""
    lines = [line.strip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    if HEADING not in lines:
        return None
    start = lines.index(HEADING)
    block = lines[start:start + 4]
    if len(block) < 4 or not (block[1].startswith("规则：") and block[2].startswith("种子：") and block[3].startswith("盐：")):
        return None
    seat = 1
    for line in lines[start + 4:]:
        if not line.startswith(f"{seat}号："):
            break
        block.append(line)
        seat += 1
    return "\n".join(block) if seat > 1 else None


def verify(text: str, posted: str) -> tuple[bool, str]:
    """Whether the deal revealed in `text` is the one whose hash `posted` was published; and what to
    tell whoever checks, in words."""
    wanted = posted.strip().lower()
    if not _HEX.fullmatch(wanted):
        return False, f"哈希应为64位十六进制数字（开始时公布的 SHA-256），收到的是“{posted.strip()[:80]}”。"
    deal = found_in(text)
    if deal is None:
        return False, f"没有找到发牌原文：应从“{HEADING}”一行开始，接着“规则：”“种子：”“盐：”和每个座位一行“1号：身份”。"
    got = digest(deal)
    if got == wanted:
        return True, f"一致：这份发牌原文的 SHA-256 正是开始时公布的 {wanted}，种子和身份在游戏开始前就已确定。"
    return False, f"不一致：这份发牌原文的 SHA-256 是 {got}，开始时公布的是 {wanted}。原文被改动过，或不是这一局的。"
