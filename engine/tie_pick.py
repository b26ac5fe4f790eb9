"""The sheriff's pick on a tie (a file's `ties: {exile: sheriffs_pick}`), the usual post's "放逐投票平票时，由警长在平票者中
决定一名出局；警长放弃或未在时限内决定，则无人出局。"

Readings chosen where such posts are silent: the sheriff of the moment of the count decides, by private message,
among the tied only (himself too, if he is one of them); with no living sheriff then, nobody goes out. One he names
goes out as the day's exile, at once, with everything an exile brings (a 翻牌白痴 still shows his card, a hunter
shoots). He decides within the file's `limits.tie_pick` and before the day ends at the latest (关门, or the next
开门 where a day follows the day): the day's exile is known when the next phase begins, since who acts then depends
on it. A sheriff who lets the time pass, sends 放弃, or goes out before deciding sends nobody.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import Rejected
from .ruleset import Skill

if TYPE_CHECKING:
    from .game import Game
    from .state import Player

RULE = "sheriffs_pick"
PICK = "决定"  # what the sheriff sends: "决定 座位号"
LIMIT = "tie_pick"  # the key of his time in the file's `limits`
LAPSED = "pick_lapsed"  # the sheriff who went out before deciding, until his going out is published


def applies(g: Game, kind: str) -> bool:
    """Whether the post's tie rule for this kind of vote is the sheriff's pick."""
    return getattr(g.rules, "ties", {}).get(kind) == RULE


def tied_for_pick(g: Game, kind: str, top: list[str]) -> tuple[str, ...]:
    """The tied whom the sheriff picks among after this count: none where the file's rule is another, there is no
    tie, or no living sheriff."""
    s = g.state
    if not applies(g, kind) or len(top) < 2 or not s.sheriff or not s.player(s.sheriff).alive:
        return ()
    return tuple(top)


def ask(g: Game, tied: tuple[str, ...]) -> None:
    s = g.state
    names = _names(g, tied)
    g.ask(s.player(s.sheriff), PICK, f"今天的放逐投票平票：请在 {names} 中决定放逐一名，发送“{PICK} 座位号”（最迟在今天结束前；"
          f"不决定请发送“放弃”，则无人出局）。时限：{g.rules.limits[LIMIT].text}", LIMIT, context=tied)


def pick(g: Game, actor: Player, target) -> None:
    pending = g.pending_for(actor.name, PICK)
    names = _names(g, pending.context)
    if target is None:
        raise Rejected(f"请发送“{PICK} 座位号”，在 {names} 中决定一名出局；不决定请发送“放弃”")
    t = g.find(target)
    if t.name not in pending.context:
        raise Rejected(f"只能在平票者中决定：{names}")
    if not t.alive:
        raise Rejected(f"{g.label(t)} 已出局，请在其他平票者中决定")
    g.settle(pending)
    g.tell(f"player:{actor.name}", f"已收到：决定放逐 {g.label(t)}。")
    g.tell("public", f"放逐投票平票，警长 {g.label(actor)} 决定放逐 {g.label(t)}。")
    g.rules.exile(g, t)


def day_ends(g: Game, why: str) -> None:
    """The day's end ends the sheriff's time (关门, or 开门 of a day that follows it): an undecided tie sends nobody."""
    for pending in [q for q in g.state.pending if q.skill == PICK]:
        g.settle(pending)
        lapse(g, pending.who, why)


def sheriff_out(g: Game, p: Player) -> None:
    """The sheriff went out before deciding: told once his going out is public (`published`)."""
    if pending := g.pending_for(p.name, PICK):
        g.settle(pending)
        g.state.carry[LAPSED] = p.name


def published(g: Game, names: list[str]) -> None:
    if g.state.carry.get(LAPSED) in names:
        lapse(g, g.state.carry.pop(LAPSED), "已出局")


def lapse(g: Game, sheriff: str, why: str) -> None:
    g.tell("public", f"警长{why}，平票无人出局。")
    g.tell("director", f"{sheriff} {why}：平票无人出局")


def skill() -> Skill:
    return Skill(PICK, "decision", pick, aliases=("平票",))


def _names(g: Game, tied) -> str:
    return "、".join(g.label(g.state.player(n)) for n in tied)
