"""[146] What every part of the post speaks of: its factions and groups, the lovers, the idiot who played
dumb, whether a player may still use a skill, and the new moons' shots."""
from __future__ import annotations

from engine.errors import Rejected
from engine.game import Game
from engine.library.hunter import ask_holding_night
from engine.state import Player
from engine.typed import number as read_number

WOLVES, VILLAGE, BLACK = "狼人阵营", "村民阵营", "黑情侣阵营"
PACK, COUPLE, SISTERS = "狼群", "情侣群", "姐妹群"


def lovers(g: Game) -> list[Player]:
    return [g.state.player(n) for n in g.state.carry.get("lovers", [])]


def fooled(p: Player) -> bool:
    """The idiot who stayed by <装傻>: "不能成为投票对象，不能参与投票，不能继任警长"."""
    return p.role == "白痴" and "装傻" in p.used


def usable(g: Game, p: Player | None, skill: str) -> bool:
    """`p` is alive and may use `skill` tonight: neither lost for good nor taken for the phase."""
    return p is not None and p.alive and skill not in p.lost and skill not in p.used and not g.suspended(p, skill)


def pack_alive(g: Game) -> list[Player]:
    """The living members of the 狼群, in seat order."""
    pack = set(g.state.teams.get(PACK, ()))
    return [p for p in g.state.players if p.alive and p.name in pack]


def labels(g: Game, players: list[Player]) -> str:
    return "、".join(g.label(p) for p in players)


def number(target, low: int, high: int, word: str) -> int:
    """A whole number the player sends (a card, 神秘的UFO's number), from `low` to `high`."""
    value = read_number(str(target) if target is not None else "", 6)
    if value is None or not low <= value <= high:
        raise Rejected(f"<{word}>须为 {low}–{high} 之间的整数：请发送“{word} {low}”到“{word} {high}”之间的一个")
    return value


# --- a shot when one goes out: the wolf leader's <报复>, shaped like the hunter's <最后一枪> (the library's) ------
def ask_shot(g: Game, p: Player, skill: str) -> None:
    """Ask `p`, just out, for his shot (fired as the hunter's: engine/library/hunter.py, `fire`), with the hunter's
    limits: in a night's settlement the rest of it waits for him ("收到反馈后半小时"); by day his limit is 30 minutes
    after 关门, as the post gives it for one voted out."""
    send = f"发送“{skill} 座位号”使一名其他角色立即出局，或“放弃”"
    if g.phase == "night":
        ask_holding_night(g, p, skill, f"你已出局：可以<{skill}>，{send}（30分钟内有效）。", "feedback")
    else:
        g.ask(p, skill, f"你已出局：可以<{skill}>，{send}（关门后30分钟内有效）。", "day")
