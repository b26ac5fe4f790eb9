"""[146] Who draws the new moons, from which deck, and when.

"自第二个讨论日开始，每个双数日采用大新月（对局势有影响，警长抽）。每个单数日采用小新月（对局势影响极小，执警抽）。"
决策<强制>: "在单数日投票结束时，警长需要在投票贴里选择下一次大新月事件。" 辅策<强制>: "在双数日投票结束时，执警需要在投票
贴里选择下一次小新月事件。" 行动时限: "警长、执警在关门半小时内需要发动抽取新月技能，关门三十分钟后仍未发动技能，视为放弃技能，
由导演随机新月，随机方式游戏结束后公示。" 吉普赛人: "窥月——吉普赛人能够得知当晚警长所选新月"; "占卜<限定>——吉普赛人能够重新
抽取新月。仅此一次且新月将会被重新排序。备注：已经出现过的新月不会被重新抽取".

The drawer picks a card number of a face-down deck, shuffled from the game's seed when the day's vote
ends; the director's random draw and the gypsy's redraw come from the same seed. A drawer out by the
vote that ends his day still draws: "猎人、警长、执警、白痴被投票出局时需要发动技能". How each event was
drawn is told to the director and kept in the log.
"""
from __future__ import annotations

from engine.errors import Rejected
from engine.game import Game
from engine.skills import living_with_role
from engine.state import Player

from .common import number, usable
from . import moons
from .moons import UFO, Moon

SHERIFF_DRAW, DEPUTY_DRAW, REDRAW, PEEK = "决策", "辅策", "占卜", "窥月"
NONE = "none"  # `moons: none`: a game without new moons


def configure(value) -> list[str]:
    """The events in play: the post's configuration, `none`, or a list of the post's event names."""
    if value is None:
        return [m.name for m in moons.EVENTS]
    if value == NONE:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("moons 应为 none 或新月事件名的列表")
    unknown = [v for v in value if v not in moons.BY_NAME]
    if unknown:
        raise ValueError("没有这些新月事件：" + "、".join(unknown))
    return list(dict.fromkeys(value))


def in_play(g: Game) -> list[Moon]:
    return [moons.BY_NAME[name] for name in g.state.options["moons"]]


def big_day(day_no: int) -> bool | None:
    """A day's kind of event: True a big one (day 2, 4, 6...), False a small one (day 3, 5...), None: none."""
    return None if day_no < 2 else day_no % 2 == 0


def deck(g: Game, big: bool, excluding: tuple[str, ...] = ()) -> list[str]:
    """The events still drawable: a big one that has not appeared, a small one that appeared less than
    twice; 信用担保 only while there is a sheriff ("本场必须有警长")."""
    appeared = [m["event"] for m in g.state.moons]
    return [m.name for m in in_play(g) if m.big == big and appeared.count(m.name) < m.times and m.name not in excluding
            and not (m.needs_sheriff and not g.state.sheriff)]


def pending_draw(g: Game) -> dict | None:
    """The draw for the next day, made or still to make."""
    d = g.state.carry.get("draw")
    return d if d and d["day"] == g.state.day_no + 1 else None


def ask(g: Game) -> None:
    """The day's vote is over (or the day closes without one): the drawer is asked for a card."""
    s = g.state
    big = big_day(s.day_no + 1)
    if not in_play(g) or big is None or pending_draw(g) or s.phase != "day":
        return
    cards = deck(g, big)
    s.rng.shuffle(cards)
    s.carry["draw"] = {"day": s.day_no + 1, "big": big, "deck": cards, "event": None, "how": ""}
    kind = "大新月" if big else "小新月"
    if not cards:
        s.carry["draw"]["how"] = "无可抽取"
        g.tell("director", f"第{s.day_no + 1}天没有可以抽取的{kind}")
        return
    skill = SHERIFF_DRAW if big else DEPUTY_DRAW
    name = s.sheriff if big else s.carry.get("deputy")
    if name is None:
        return director_draws(g, f"没有{'警长' if big else '执警'}")
    g.ask(s.player(name), skill, f"请<{skill}>第{s.day_no + 1}天的{kind}：桌上有 {len(cards)} 张背面朝上的牌，发送“{skill} 1”到"
          f"“{skill} {len(cards)}”选择一张（关门后30分钟内，否则由导演随机抽取）。", "draw")
    g.pending_for(name, skill).outlives_close = True


def _pinned(g: Game, big: bool, allowed: list[str]) -> str | None:
    """The event the director fixed for this kind of draw, used once."""
    pins = g.state.carry.get("pins", {})
    event = pins.get("big" if big else "small")
    if event is None or event not in allowed:
        return None
    del pins["big" if big else "small"]
    return event


def _drawn(g: Game, event: str, how: str) -> None:
    d = pending_draw(g) or g.state.carry["draw"]
    d["event"], d["how"] = event, how
    g.tell("director", f"第{d['day']}天的{'大' if d['big'] else '小'}新月：{event}（{how}）")
    if d["big"] and g.phase == "night":
        peek(g)


def choose(g: Game, actor: Player, target) -> None:
    """<决策> / <辅策>: the drawer takes card `target` of the face-down deck."""
    d = g.state.carry["draw"]
    skill = SHERIFF_DRAW if d["big"] else DEPUTY_DRAW
    k = number(target, 1, len(d["deck"]), skill)
    g.settle(g.pending_for(actor.name, skill))
    event = _pinned(g, d["big"], d["deck"])
    g.tell(f"player:{actor.name}", f"已收到：{skill} 第{k}张。新月将在开门时公布。")
    _drawn(g, event or d["deck"][k - 1], f"{g.label(actor)} {skill}第{k}张" + ("，导演指定" if event else ""))


def director_draws(g: Game, why: str) -> None:
    """"由导演随机新月，随机方式游戏结束后公示": a card drawn from the game's seed."""
    d = g.state.carry["draw"]
    event = _pinned(g, d["big"], d["deck"])
    _drawn(g, event or g.state.rng.choice(d["deck"]), f"{why}，导演" + ("指定" if event else "随机抽取（游戏种子）"))


def expire(g: Game, who: Player) -> None:
    director_draws(g, f"{g.label(who)} 未在关门后30分钟内抽取")


# --- the gypsy --------------------------------------------------------------------------------------------
def _gypsy(g: Game) -> Player | None:
    return living_with_role(g, "吉普赛人")


def may_redraw(g: Game) -> bool:
    """Tonight the gypsy may still redraw the big event the sheriff's draw gives tomorrow."""
    d = pending_draw(g)
    gypsy = _gypsy(g)
    return (g.phase == "night" and not g.night.resolved and d is not None and d["big"]
            and usable(g, gypsy, REDRAW) and not g.decided(gypsy.name, REDRAW) and len(deck(g, True)) > 1)


def peek(g: Game) -> None:
    """<窥月>: the gypsy learns the big event drawn for tomorrow, the night it is drawn."""
    d = pending_draw(g)
    gypsy = _gypsy(g)
    if not (d and d["big"] and d["event"]) or not usable(g, gypsy, PEEK) or g.feedback_given(gypsy.name, PEEK):
        return
    text = f"窥月：警长今晚选择的新月是【{d['event']}】。"
    if may_redraw(g):
        text += "你可以发送“占卜”重新抽取（限定，全局一次），关门后1小时内有效；不占卜请发送“放弃”。"
    g.give_feedback(gypsy, PEEK, None, d["event"], text)
    if may_redraw(g):
        g.start_deadline(g.night_key(gypsy.name, REDRAW), [gypsy.name], REDRAW, "night")


def slots(g: Game) -> list[tuple[str, str]]:
    """The night waits for the sheriff's draw while the gypsy could still redraw it, then for her."""
    if not may_redraw(g):
        return []
    d = pending_draw(g)
    if d["event"] is None:
        asked = next((p for p in g.state.pending if p.skill == SHERIFF_DRAW), None)
        return [(asked.who, SHERIFF_DRAW)] if asked else []
    return [(_gypsy(g).name, REDRAW)] if g.feedback_given(_gypsy(g).name, PEEK) else []


def redraw(g: Game, actor: Player, target) -> None:
    # 占卜<限定>: "吉普赛人能够重新抽取新月。仅此一次且新月将会被重新排序。备注：已经出现过的新月不会被重新抽取" — from the
    # reshuffled deck, the event just drawn left out. She is not told what it gives.
    if REDRAW in actor.used:
        raise Rejected(f"<{REDRAW}>是限定技，已经用过")
    if REDRAW in actor.lost or PEEK in actor.lost:
        raise Rejected(f"{actor.name} 已经失去了<{REDRAW}>")
    d = pending_draw(g)
    if not (d and d["big"] and d["event"] and g.feedback_given(actor.name, PEEK)):
        raise Rejected(f"现在不能<{REDRAW}>：只有在得知警长所选新月（窥月）的当晚可以重新抽取")
    if g.decided(actor.name, REDRAW):
        raise Rejected(f"今晚已经放弃<{REDRAW}>或已超过时限")
    cards = deck(g, True, excluding=(d["event"],))
    if not cards:
        raise Rejected("没有其他可以抽取的新月")
    g.state.rng.shuffle(cards)
    before = d["event"]
    actor.used.add(REDRAW)
    g.mark_done(actor.name, REDRAW)
    g.tell(f"player:{actor.name}", "已收到：占卜。新月已重新抽取，将在开门时公布。")
    event = _pinned(g, True, cards)
    _drawn(g, event or cards[0], f"吉普赛人 {g.label(actor)} 占卜重新抽取（原为{before}）" + ("，导演指定" if event else ""))


# --- the director, and the day it opens ------------------------------------------------------------------
def fix(g: Game, event: str, start: str | None, drawn: bool = False) -> None:
    """`新月 事件名` / `{moon: EVENT}`: the next draw of that kind yields `event`; `drawn`: a draw of
    that kind still asked of its drawer was made on the forum, and is made now."""
    if not in_play(g):
        raise Rejected("本局没有新月事件")
    m = next((m for m in in_play(g) if m.name == event), None)
    if m is None:
        raise Rejected(f"本局没有新月「{event}」。本局新月：" + "、".join(x.name for x in in_play(g)))
    d = g.state.carry.get("draw")
    waiting = d["event"] if d and d["day"] > g.state.day_no and d["big"] == m.big else None
    if m.name not in deck(g, m.big) or m.name == waiting:
        raise Rejected(f"{m.name} 已经用完或已经抽出，不能再指定" + ("（本场必须有警长）" if m.needs_sheriff and not g.state.sheriff else ""))
    if start is not None:
        if m.name != UFO:
            raise Rejected(f"只有{UFO}可以指定起始角色")
        start = g.find(start).name
        g.state.carry["ufo_from"] = start
    g.state.carry.setdefault("pins", {})["big" if m.big else "small"] = m.name
    g.tell("director", f"已指定下一次{'大' if m.big else '小'}新月：{m.name}" + (f"（从 {start} 起）" if start else ""))
    asked = next((p for p in g.state.pending if p.skill == (SHERIFF_DRAW if m.big else DEPUTY_DRAW)), None)
    if drawn and asked:
        g.settle(asked)
        g.tell(f"player:{asked.who}", f"导演已按论坛上的抽取确定新月，你不需要再<{asked.skill}>。")
        director_draws(g, "论坛抽取")


def today(g: Game) -> Moon | None:
    """The day opened: the event drawn for it, now announced (the transcript's `moons`)."""
    s = g.state
    d = s.carry.get("draw")
    if not d or d["day"] != s.day_no:
        return None
    del s.carry["draw"]
    if not d["event"]:
        return None
    s.day.moon = d["event"]
    s.moons.append({"day": s.day_no, "event": d["event"], "draw": d["how"]})
    return moons.BY_NAME[d["event"]]
