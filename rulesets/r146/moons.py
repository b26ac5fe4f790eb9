"""[146] 6L 新月扩展: the twelve big events of "本场新月设置" and the five small ones, in the post's order.

Each event is a declaration (`Moon`: its name, its kind, how long it lasts and the post's words, which
the 开门 post carries) and one function, run when the day it was drawn for opens. What an event leaves
standing (a leader's <统领>, the crystal ball, the trial lovers...) is kept under `carry["moon"]`; the
functions that follow an event are where the rest of the post meets it, called by the ruleset
(rulesets/r146/ruleset.py) at the point of the post's flow they belong to. Who draws which event, and
when, is rulesets/r146/draws.py.

Where an event meets the rest of the post the reading chosen is written next to it and listed in
docs/rules-146.md, section 9.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from engine.commands import Ballots
from engine.errors import Rejected
from engine.events import DeadlineEnd
from engine.game import Game
from engine.library.hunter import fire
from engine.skills import living_with_role, once_tonight
from engine.state import Pending, Player

from .common import PACK, WOLVES, ask_shot, fooled, labels, number, pack_alive, usable

# the night's 指杀 an event adds, as the settlement records them
HUNT = "捕猎"  # 狼族首领's <捕猎>
CONFUSED_KILL = "错乱杀人"  # 神经错乱: the seer's (or witch's, or hunter's) <杀人>
# "文明的狼人": "因<杀人>、<冲锋>、<捕猎>出局的角色"; 招魂术: "因指杀而出局"
BY_ATTACK = ("杀人", "冲锋", HUNT)


@dataclass(frozen=True)
class Moon:
    name: str
    big: bool  # 大新月 (a big event, drawn by the sheriff) or 小新月 (a small one, by the deputy)
    lasts: str  # 【事件有效期】
    text: str  # 【事件说明】 (with 【行动时限】), as the 开门 post gives it
    begins: Callable[[Game], None] | None = None
    needs_sheriff: bool = False  # 信用担保: "【事件条件】本场必须有警长。"

    @property
    def times(self) -> int:
        # 小新月: "每个新月可出现最多两次"; a big event is drawn from what "已经出现过的新月不会被重新抽取" leaves
        return 1 if self.big else 2


def standing(g: Game) -> dict:
    """What the events of this game left standing (to change it)."""
    return g.state.carry.setdefault("moon", {})


def held(g: Game) -> dict:
    """What the events of this game left standing (to read it)."""
    return g.state.carry.get("moon", {})


def publish(g: Game, names: list[str]) -> None:
    """The players today's event publishes, on its record (the transcript's `moons`)."""
    g.state.moons[-1]["published"] = list(names)


def _today(g: Game, name: str) -> bool:
    return g.phase == "day" and g.state.day.moon == name


# --- 猎人的愤怒 -------------------------------------------------------------------------------------------
FURY = "猎人的愤怒"
# a private-vote day's ballots go to the bot (it sent every player his identity), which counts them for the director
VOTE_BY_BOT = "私聊发给你身份的机器人QQ，发送“投票 角色 理由”（弃权：“投票 弃权 理由”），关门前可以改票"


def hunters_fury(g: Game) -> None:
    # "今天所有人不得参与讨论，直接开始投票。" "这轮投票持续一天，且必须通过QQ私聊给法官自己想要投票的对象与理由，在投票
    # 贴回贴投票者算作废票，并记作一张黄牌。"
    day = g.state.day
    day.private_votes = True
    hunter = living_with_role(g, "猎人")
    if hunter is None:
        g.tell("public", f"猎人的愤怒：猎人已出局，直接进入投票阶段：{VOTE_BY_BOT}。")
        return
    # "事件公布后，猎人必须立刻通过QQ告知法官一个角色名，使这名角色出局，遗言当天公示。之后进入当天投票阶段"
    day.vote_held = "猎人的愤怒：猎人开枪之后才进入投票阶段"
    g.tell("public", f"猎人的愤怒：等待猎人开枪，之后进入投票阶段（{VOTE_BY_BOT}）。")
    g.ask(hunter, FURY, "新月<猎人的愤怒>：请立刻发送“猎人的愤怒 座位号”，使一名其他角色出局（开门后1小时内；"
          "否则记黄牌一张，随机一名角色出局）。", "fury")


def fury_shot(g: Game, actor: Player, target) -> None:
    pending = g.pending_for(actor.name, FURY)
    t = g.living_target(target, FURY)
    if t.name == actor.name:
        # read as his <最后一枪>: "选择一名其他角色"
        raise Rejected(f"<{FURY}>须选择一名其他角色")
    g.settle(pending)
    g.tell(f"player:{actor.name}", f"已收到：{FURY} {g.label(t)}。")
    _fury_takes(g, t)


def _fury_takes(g: Game, t: Player) -> None:
    g.kill(t, FURY)
    g.publish_deaths([t.name], FURY, words_same_day=True)
    _open_vote(g)


def _open_vote(g: Game) -> None:
    if g.phase == "day" and g.state.day.moon == FURY:
        g.state.day.vote_held = None
        g.tell("public", f"猎人的愤怒：进入当天的投票阶段：{VOTE_BY_BOT}。")


def _fury_lapses(g: Game, hunter: Player) -> None:
    # "若猎人在开门以后一个小时以内未联系法官，则记作一张黄牌，随机一名角色出局，并进入当天的投票阶段。" The one drawn is
    # another than the hunter: it is his shot the event takes.
    g.tell("director", f"{g.label(hunter)} 未在开门后1小时内发动<{FURY}>：规则记黄牌一张（请发送“发牌 黄牌 {hunter.name}”）；随机一名角色出局。")
    choices = [p for p in g.state.alive() if p.name != hunter.name]
    if not choices:
        return _open_vote(g)
    g.tell("public", "猎人未在开门后1小时内开枪：随机一名角色出局。")
    _fury_takes(g, g.state.rng.choice(choices))


HUNTERS_FURY = Moon(FURY, True, "从公布时间到下一个游戏日开始。", (
    "猎人终于无法容忍自己在村中的身位低下，决定报复社会，直接枪杀一个人。村民们都惊呆了。于是，今天所有人不得参与讨论，直接开始投票。\n"
    "事件公布后，猎人必须立刻通过QQ告知法官一个角色名，使这名角色出局，遗言当天公示。之后进入当天投票阶段，这轮投票持续一天，"
    "且必须通过QQ私聊给法官自己想要投票的对象与理由，在投票贴回贴投票者算作废票，并记作一张黄牌。统计投票阶段，法官会汇总所有玩家"
    "的投票及理由，并公示在投票贴中。如果此事件公布时猎人已出局，将直接进入投票阶段。\n"
    "若猎人在开门以后一个小时以内未联系法官，则记作一张黄牌，随机一名角色出局，并进入当天的投票阶段。"), hunters_fury)


# --- 魔法水晶球 -----------------------------------------------------------------------------------------
def magic_crystal_ball(g: Game) -> None:
    # "事件发生后，法官将在每个讨论日一楼公示预言家昨晚<预言>对象的具体身份，但不会公布该身份对应哪名角色。" — from the
    # day it is announced: its 一楼 is the first after the event.
    standing(g)["crystal"] = True
    seen = crystal(g)
    if seen:
        g.state.announcements[-1]["crystal"] = seen
        g.tell("public", crystal_line(seen))


def crystal(g: Game) -> str | None:
    """The identity the seer checked last night (None: he checked nobody)."""
    s = g.state
    for f in reversed(s.feedback):
        if f["skill"] == "预言" and f["number"] == s.day_no - 1 and s.player(f["to"]).role == "预言家":
            return s.player(f["target"]).role
    return None


def crystal_line(identity: str) -> str:
    return f"魔法水晶球：预言家昨晚<预言>对象的身份是【{identity}】。"


MAGIC_CRYSTAL_BALL = Moon("魔法水晶球", True, "从公布时间到游戏结束。", (
    "预言家从一个外国魔法师那里高价购得了一个魔法水晶球。\n"
    "事件发生后，法官将在每个讨论日一楼公示预言家昨晚<预言>对象的具体身份，但不会公布该身份对应哪名角色。"), magic_crystal_ball)


# --- 神经错乱 -------------------------------------------------------------------------------------------
CONFUSION = "神经错乱"
# "预言家、女巫、猎人的其中之一失去原有技能，获得技能<杀人>", in the post's order, with what each loses
CONFUSED = (("预言家", ("预言",)), ("女巫", ("通灵", "救药", "毒药", "灵媒")), ("猎人", ("最后一枪",)))


def confusion(g: Game) -> None:
    # "从公布时间到下一个游戏日开始": its night is the one after its day
    standing(g)["confused_night"] = g.state.day_no


def confused_night(g: Game) -> None:
    """The night of 神经错乱 begins: who lost and gained what, for this night only."""
    if held(g).get("confused_night") != g.night.number:
        return
    n = g.night
    # "事件发生后，当晚狼群内角色失去技能<杀人>，获得技能<预言>。狼群内有几个狼，则可以获得几个预言结果，且狼人获得具体
    # 身份结果。" The 狼王 keeps <冲锋> and a leader his <捕猎>: the post takes <杀人> only.
    for p in pack_alive(g):
        n.granted.setdefault(p.name, set()).add("预言")
        n.suspended.setdefault(p.name, set()).add("杀人")
        g.tell(f"player:{p.name}", f"第{n.number}夜<神经错乱>：你今晚失去<杀人>，获得<预言>：发送“预言 座位号”得知一名角色的具体身份（关门后1小时内）。")
    # "假如此时预言家未出局，此时预言家失去<预言>，并获得<杀人>；假如预言家已经出局，此时女巫失去<通灵>、<解药>、<毒药>，
    # 并获得<杀人>；假如预言家、女巫均已出局，此时猎人失去<最后一枪>，并获得<杀人>；假如此时预言家、女巫、猎人均已出局，
    # 今晚无人拥有<杀人>技能。" (A witch of 招魂术 loses her <灵媒> with the rest: "失去原有技能".)
    for role, lose in CONFUSED:
        p = living_with_role(g, role)
        if p:
            n.granted.setdefault(p.name, set()).add("杀人")
            n.suspended.setdefault(p.name, set()).update(lose)
            g.tell(f"player:{p.name}", f"第{n.number}夜<神经错乱>：你今晚失去" + "、".join(f"<{s}>" for s in lose)
                   + "，获得<杀人>：发送“杀人 座位号”指杀一名角色（关门后1小时内）。下一个白天开始时技能恢复。")
            break


def confused_kill(g: Game, actor: Player, target) -> None:
    once_tonight(g, CONFUSED_KILL, actor.name, "杀人")
    t = g.living_target(target, "杀人")
    g.night.actions[CONFUSED_KILL] = (actor.name, t.name)
    g.mark_done(actor.name, "杀人")
    g.tell(f"player:{actor.name}", f"已收到：杀人 {g.label(t)}。")


def confused_foresight(g: Game, actor: Player, target) -> None:
    """A wolf's <预言> under 神经错乱: "狼人获得具体身份结果" (each wolf his own)."""
    key = f"预言:{actor.name}"
    once_tonight(g, key, actor.name, "预言")
    t = g.living_target(target, "预言")
    g.night.actions[key] = (actor.name, t.name)
    g.mark_done(actor.name, "预言")
    g.give_feedback(actor, "预言", t.name, t.role, f"预言结果（神经错乱）：{g.label(t)} 的身份是【{t.role}】")


CONFUSION_MOON = Moon(CONFUSION, True, "从公布时间到下一个游戏日开始。", (
    "春天来了，油菜花开了，花粉四处飘散，导致狼人、预言家、女巫、猎人神经错乱，误以为自己改变了身份。\n"
    "事件发生后，当晚狼群内角色失去技能<杀人>，获得技能<预言>。狼群内有几个狼，则可以获得几个预言结果，且狼人获得具体身份结果。\n"
    "预言家、女巫、猎人的其中之一失去原有技能，获得技能<杀人>。假如此时预言家未出局，此时预言家失去<预言>，并获得<杀人>；假如预言家"
    "已经出局，此时女巫失去<通灵>、<解药>、<毒药>，并获得<杀人>；假如预言家、女巫均已出局，此时猎人失去<最后一枪>，并获得<杀人>；"
    "假如此时预言家、女巫、猎人均已出局，今晚无人拥有<杀人>技能。\n"
    "下一个游戏日开始时，所有身份技能恢复为上一个游戏日结束时的状态"), confusion)


# --- 王对王 ---------------------------------------------------------------------------------------------
def king_against_king(g: Game) -> None:
    # "若长老与狼王若都存活，法官将在讨论日一楼公示这两名角色为“王”，但不公示他们的具体身份，并且当天这两名“王”只能投票给
    # 对方，其他玩家今天投票只能投票给“王”；若长老与狼王只有一个还存活，只公示这一名角色为“王”，但不公示他的具体身份，其他
    # 没有任何变化；若长老与狼王都已出局，今天没有任何变化。" A 弃权 is no vote for anyone and stays allowed.
    kings = sorted((p for p in (living_with_role(g, "长老"), living_with_role(g, "狼王")) if p), key=lambda p: p.seat)
    publish(g, [p.name for p in kings])
    if not kings:
        return
    g.tell("public", "王对王：今天的“王”是 " + labels(g, kings) + ("。两名“王”只能投票给对方，其他角色只能投票给“王”。" if len(kings) == 2 else "。"))
    if len(kings) == 2:
        a, b = kings
        only = g.state.day.only_for
        only[a.name], only[b.name] = frozenset({b.name}), frozenset({a.name})
        only["*"] = frozenset({a.name, b.name})


KING_AGAINST_KING = Moon("王对王", True, "从公布时间到下一个游戏日开始。", (
    "长老与狼王早已决定要与对方决一死战，于是，他们二位清晨纷纷来到投票台决战，力争将对方PK下去。\n"
    "事件发生后，若长老与狼王若都存活，法官将在讨论日一楼公示这两名角色为“王”，但不公示他们的具体身份，并且当天这两名“王”只能投票给"
    "对方，其他玩家今天投票只能投票给“王”；若长老与狼王只有一个还存活，只公示这一名角色为“王”，但不公示他的具体身份，其他没有任何变化；"
    "若长老与狼王都已出局，今天没有任何变化。"), king_against_king)


# --- 狼王的生日 -----------------------------------------------------------------------------------------
BIRTHDAY = "狼王的生日"


def wolf_kings_birthday(g: Game) -> None:
    # "事件发生后1小时内，狼群要决定是否启动此新月。"
    pack = pack_alive(g)
    if not pack:
        return
    standing(g)["birthday_day"] = g.state.day_no
    g.tell(f"team:{PACK}", f"新月<{BIRTHDAY}>：狼群可以在开门后1小时内决定是否启动：在群里发送“{BIRTHDAY}”启动（不启动则什么也不发生）。"
           "启动后立即公布狼群内存活角色名单；名单内的角色今天不能参与讨论、不能投票、不能成为投票对象，当晚不能使用任何技能，也不受其他"
           "玩家的技能影响；第二天回到游戏并获得<绑票>（投票多计一票）。")
    g.start_deadline(_birthday_key(g), [p.name for p in pack], BIRTHDAY, "birthday")


def _birthday_key(g: Game) -> str:
    return f"{BIRTHDAY}:day{g.state.day_no}"


def start_birthday(g: Game, actor: Player, target) -> None:
    s = standing(g)
    if s.get("birthday_day") != g.state.day_no:
        raise Rejected(f"现在不能启动<{BIRTHDAY}>：只有它公布后1小时内，狼群可以启动一次")
    if actor.name not in g.state.teams.get(PACK, []):
        raise Rejected(f"只有狼群内的角色可以启动<{BIRTHDAY}>")
    # "若启动此新月，则立即公布狼群内存活角色名单。所有名单内的角色之后不能参与讨论，不能投票，否则记作一张黄牌，投票无效，
    # 并且不能成为投票对象、当晚不能使用任何技能、也不受其他玩家的技能影响。"
    listed = pack_alive(g)
    del s["birthday_day"]
    s["birthday"] = {"day": g.state.day_no, "names": [p.name for p in listed]}
    g.emit(DeadlineEnd(_birthday_key(g)))
    day = g.state.day
    for p in listed:
        day.may_not_vote[p.name] = f"{BIRTHDAY}：名单内的角色不能投票（投票无效，规则记黄牌一张）"
        day.may_not_be_voted[p.name] = f"{BIRTHDAY}：名单内的角色不能成为投票对象"
    publish(g, [p.name for p in listed])
    g.tell("public", f"{BIRTHDAY}：狼群启动了此新月。名单：{labels(g, listed)}。名单内的角色之后不能参与讨论，不能投票，"
           "不能成为投票对象，当晚不能使用任何技能，也不受其他玩家的技能影响；第二天回到游戏，并获得<绑票>（投票多计一票）。")
    g.tell(f"team:{PACK}", f"{actor.name} 启动了<{BIRTHDAY}>，名单已公示。")


def birthday_night(g: Game) -> None:
    """"当晚不能使用任何技能": every skill of the list is taken for the night of the birthday."""
    b = held(g).get("birthday")
    if b and b["day"] == g.night.number:
        for name in b["names"]:
            g.night.suspended.setdefault(name, set()).add("*")


def birthday_immune(g: Game, p: Player) -> str | None:
    # "也不受其他玩家的技能影响": from the start until the next day opens (the list is away from the village).
    b = held(g).get("birthday")
    if b and b["day"] == g.state.day_no and p.name in b["names"]:
        return f"{p.name} 在<{BIRTHDAY}>的名单内，不受其他玩家的技能影响"
    return None


def ransom(g: Game, voter: str) -> Fraction:
    # "第二天名单内的角色将回到游戏，并获得如下技能。绑票<强制>——该角色的投票多计一票。此新月有效期结束后失去该技能。" — the
    # event lasts "从公布时间到下一个游戏日结束": the day after the birthday is <绑票>'s only day.
    b = held(g).get("birthday")
    return Fraction(1) if b and b["day"] + 1 == g.state.day_no and voter in b["names"] else Fraction(0)


WOLF_KINGS_BIRTHDAY = Moon(BIRTHDAY, True, "从公布时间到下一个游戏日结束。", (
    "狼人集体放假了，都去为狼王庆祝生日了，你听，他们在唱歌。“祝你生日快乐，祝你生日快乐！”\n"
    "事件发生后1小时内，狼群要决定是否启动此新月。若启动此新月，则立即公布狼群内存活角色名单。所有名单内的角色之后不能参与讨论，不能投票，"
    "否则记作一张黄牌，投票无效，并且不能成为投票对象、当晚不能使用任何技能、也不受其他玩家的技能影响。第二天名单内的角色将回到游戏，"
    "并获得如下技能。\n绑票<强制>——该角色的投票多计一票。\n此新月有效期结束后失去该技能。\n若不启动此新月，什么也不发生"), wolf_kings_birthday)


# --- 狼族首领 -------------------------------------------------------------------------------------------
LEADER = "狼族首领"


def wolf_leader(g: Game) -> None:
    # "事件发生后，当天狼群内角色可以通过讨论选举出一名首领" — until 关门
    pack = pack_alive(g)
    if not pack:
        return
    standing(g)["leader_day"] = g.state.day_no
    g.tell(f"team:{PACK}", f"新月<{LEADER}>：今天狼群可以选举一名首领（狼群中的狼人或狼王）：在群里发送“{LEADER} 座位号”（关门前）。"
           "首领失去原有技能，获得<统领>（计票时暗记减少两票）、<捕猎>（夜晚指杀一名角色，限一次）、<报复>（非因红牌出局时使一名角色立即出局）。")
    g.start_deadline(_leader_key(g), [p.name for p in pack], LEADER, "leader")


def _leader_key(g: Game) -> str:
    return f"{LEADER}:day{g.state.day_no}"


def elect_leader(g: Game, actor: Player, target) -> None:
    s = standing(g)
    if s.get("leader_day") != g.state.day_no:
        raise Rejected(f"现在不能选举<{LEADER}>：只有它公布当天，狼群可以选举一次")
    pack = g.state.teams.get(PACK, [])
    if actor.name not in pack:
        raise Rejected(f"只有狼群内的角色可以选举<{LEADER}>")
    t = g.living_target(target, LEADER)
    # "首领的身份可以为狼人/幼狼/狼王/赤狼/白狼/同意归群的雪狼" — of this line-up, a 狼人 or the 狼王 of the 狼群
    if t.name not in pack or t.role not in ("狼人", "狼王"):
        raise Rejected("首领须是狼群中的狼人或狼王")
    del s["leader_day"]
    s["leader"] = t.name
    g.emit(DeadlineEnd(_leader_key(g)))
    # "首领失去原有技能获得如下技能" — the pack's <杀人> and a 狼王's <冲锋>, for good: a red card found to have come
    # first for the pack's death that took his <冲锋> gives it back to no leader (engine/skills.py: charge_back)
    t.lost.update({"杀人", "冲锋"})
    t.marks.pop("冲锋", None)
    t.granted.update({"统领", HUNT, "报复"})
    g.tell(f"team:{PACK}", f"{actor.name} 提交了首领：{g.label(t)}。{t.name} 失去原有技能，获得<统领>、<捕猎>、<报复>；其余角色照常共同<杀人>。")
    g.tell(f"player:{t.name}", "你成为狼族首领：失去原有技能；<统领>：计票时暗记减少两票；<捕猎>：夜晚可以指杀一名角色（限一次，发送“捕猎 座位号”）；"
           "<报复>：非因红牌罚下出局时，可以选择一名其他角色立即出局。")


def lost_to_leadership(g: Game, actor: Player, skill: str) -> None:
    if leader(g) is actor:
        raise Rejected(f"狼族首领失去了原有技能（<{skill}>）")


def leader(g: Game) -> Player | None:
    name = held(g).get("leader")
    return g.state.player(name) if name else None


def hunt(g: Game, actor: Player, target) -> None:
    # "捕猎 —— 游戏日夜晚，可以指杀一名角色。首领使用<捕猎>后，失去<捕猎>。"
    if HUNT in actor.used:
        raise Rejected(f"<{HUNT}>已经用过")
    if wolves_lost(g, actor):
        raise Rejected(f"狼人阵营已经判负，失去了杀人技能（<{HUNT}>）")
    once_tonight(g, HUNT, actor.name)
    t = g.living_target(target, HUNT)
    actor.used.add(HUNT)
    g.night.actions[HUNT] = (actor.name, t.name)
    g.mark_done(actor.name, HUNT)
    g.tell(f"player:{actor.name}", f"已收到：{HUNT} {g.label(t)}。")


def wolves_lost(g: Game, chief: Player) -> bool:
    # "狼人阵营优先判负后，狼人阵营失去杀人技能" — every skill of the faction that takes a player out: the leader's
    # <捕猎> and <报复> as the pack's <杀人> and the 狼王's <冲锋> (docs/rules-146.md, A 6)
    return chief.faction == WOLVES and WOLVES in g.state.lost


def revenge(g: Game, actor: Player, target) -> None:
    # "报复 —— 首领并非因为红牌罚下而出局时，可以选择一名其他角色，对其报复。该角色立即出局。" — shaped like the hunter's
    # <最后一枪>, with his limits (the post gives <报复> none of its own).
    if target is not None and wolves_lost(g, actor):
        raise Rejected("狼人阵营已经判负，失去了杀人技能（<报复>）：请发送“放弃”")
    fire(g, actor, target, "报复")


def command(g: Game) -> dict[str, Fraction]:
    # "统领<强制> —— 计算投票数量时暗记减少两票。"
    p = leader(g)
    return {p.name: Fraction(-2)} if p and p.alive else {}


def unmarked(g: Game, counts: dict[str, Fraction]) -> dict[str, Fraction]:
    """"暗记": the thread is told the votes the leader received, not the mark."""
    p = leader(g)
    if not p or p.name not in counts:
        return counts
    shown = dict(counts)
    shown[p.name] += 2
    if shown[p.name] == 0:
        del shown[p.name]  # nobody voted for him: he is not in the thread's count
    return shown


WOLF_LEADER = Moon(LEADER, True, "从公布时间开始到游戏结束。", (
    "狼人们为了更加团结一致对抗强势的村民，决定推选出一名首领来带领他们走向胜利。\n"
    "事件发生后，当天狼群内角色可以通过讨论选举出一名首领，首领的身份可以为狼人/幼狼/狼王/赤狼/白狼/同意归群的雪狼，首领失去原有技能获得如下技能：\n"
    "统领<强制> —— 计算投票数量时暗记减少两票。\n"
    "捕猎 —— 游戏日夜晚，可以指杀一名角色。首领使用<捕猎>后，失去<捕猎>。\n"
    "报复 —— 首领并非因为红牌罚下而出局时，可以选择一名其他角色，对其报复。该角色立即出局。"), wolf_leader)


# --- 信用担保 -------------------------------------------------------------------------------------------
GUARANTEE = "信用担保"


def _vouchers(g: Game) -> list[Player]:
    """Who takes part: the living, but the idiot who played dumb ("不能成为投票对象，不能参与投票")."""
    return [p for p in g.state.alive() if not fooled(p)]


def credit_guarantee(g: Game) -> None:
    # "事件发生后，所有人不得参与讨论，投票改为担保投票。" … "如果N小于5，则什么也不发生。" (N counts those who take part;
    # with fewer than five the day keeps its ordinary vote.)
    n = len(_vouchers(g))
    if n < 5:
        g.tell("public", f"信用担保：存活角色少于5人（{n}人），什么也不发生。")
        return
    standing(g)["guarantee"] = {"day": g.state.day_no, "chain": []}
    g.state.day.vote_held = "今天是<信用担保>：投票改为担保投票（发送“担保 座位号”），没有放逐投票"
    g.tell("public", "信用担保：所有人不得参与讨论，投票改为担保投票。警长先选择一位其他角色担保，被担保的角色依次选择一位未被担保的非警长"
           f"角色投担保票。第{n - 2}位投完担保票之后，没有获得担保票的非警长角色将被投票出局。")
    sheriff_for_guarantee(g)


def sheriff_for_guarantee(g: Game) -> None:
    """"警长在投票贴选择一位其他角色进行担保投票": the sheriff opens the chain — today's at 开门, or the heir his
    predecessor names by day (one killed the night before still owes his 殉职 when the day opens)."""
    st = held(g).get("guarantee")
    if st and st["day"] == g.state.day_no and g.phase == "day" and not st.get("began") and g.state.sheriff:
        st["began"] = True
        _ask_voucher(g, g.state.player(g.state.sheriff))


def _ask_voucher(g: Game, p: Player) -> None:
    g.tell(f"player:{p.name}", "信用担保：轮到你担保，请发送“担保 座位号”选择一位未被担保的非警长角色（对象错误时由导演随机指定）。")


def vouch(g: Game, actor: Player, target) -> None:
    st = held(g).get("guarantee")
    if not st or st["day"] != g.state.day_no or st.get("done"):
        raise Rejected(f"今天没有进行中的<{GUARANTEE}>")
    chain = st["chain"]
    turn = g.state.sheriff if not chain else chain[-1]
    if actor.name != turn:
        raise Rejected(f"现在轮到 {turn or '警长'} 担保" + ("" if chain else "（警长先担保）"))
    t = g.find(target) if target is not None else None
    open_ = [p for p in _vouchers(g) if p.name != g.state.sheriff and p.name not in chain and p.name != actor.name]
    if t not in open_:
        # "如果投票对象错误，由导演随机指定对象完成投票。"
        t = g.state.rng.choice(open_)
        g.tell("public", f"信用担保：{actor.name} 的担保对象错误，由导演随机指定 {g.label(t)}")
    _vouched(g, actor, t)


def _vouched(g: Game, actor: Player, t: Player) -> None:
    st = standing(g)["guarantee"]
    st["chain"].append(t.name)
    g.tell("public", f"信用担保：{g.label(actor)} 担保 {g.label(t)}")
    g.tell(f"player:{actor.name}", f"已收到：担保 {g.label(t)}。")
    # "当第N-2位投票的角色投完担保票之后（N为存活角色数），没有获得担保票的非警长角色将被投票出局。"
    left = [p for p in _vouchers(g) if p.name != g.state.sheriff and p.name not in st["chain"]]
    if len(left) > 1:
        return _ask_voucher(g, t)
    st["done"] = True
    g.state.day.vote_held = "今天的<信用担保>已经结束，没有放逐投票"
    if left:
        g.tell("public", f"信用担保：{g.label(left[0])} 没有获得担保票，被投票出局")
        g.rules.exile(g, left[0])
    g.rules.vote_over(g)


def guarantee_closes(g: Game) -> None:
    """关门 with the chain unfinished: the director completes it at random, as for a wrong target (read
    as a careful director would: nobody can save the last one by never answering). A chain no sheriff
    opened by 关门 (the badge still owed: the hand-over's limit runs past 关门) never began: "警长在投票贴选择
    一位其他角色进行担保投票" — nobody goes out."""
    st = held(g).get("guarantee")
    if not st or st["day"] != g.state.day_no or st.get("done"):
        return
    if not st.get("began") or not (st["chain"] or g.state.sheriff):
        st["done"] = True
        g.tell("public", "信用担保：关门时没有警长开始担保投票，今天无人被投票出局。")
        g.tell("director", "信用担保：警徽在关门时仍未移交，担保投票没有开始，无人出局")
        return
    while not st.get("done") and g.phase == "day":
        chain = st["chain"]
        actor = g.state.player(chain[-1] if chain else g.state.sheriff)
        g.tell("director", f"{g.label(actor)} 关门前没有担保：由导演随机指定（未投票者规则记黄牌一张）")
        open_ = [p for p in _vouchers(g) if p.name != g.state.sheriff and p.name not in chain and p.name != actor.name]
        _vouched(g, actor, g.state.rng.choice(open_))


CREDIT_GUARANTEE = Moon(GUARANTEE, True, "从公布时间到下一个游戏日开始。", (
    "【事件条件】本场必须有警长。\n“你是我的最好朋友，一定不会是狼人。”\n"
    "事件发生后，所有人不得参与讨论，投票改为担保投票。警长在投票贴选择一位其他角色进行担保投票，被担保的角色依次在投票贴选择一位未被担保的"
    "非警长角色投担保票。如果投票对象错误，由导演随机指定对象完成投票。当第N-2位投票的角色投完担保票之后（N为存活角色数），没有获得担保票的"
    "非警长角色将被投票出局。如果N小于5，则什么也不发生。"), credit_guarantee, needs_sheriff=True)


# --- 招魂术 ---------------------------------------------------------------------------------------------
MEDIUM = "灵媒"


def seance(g: Game) -> None:
    # "事件发生后，女巫失去<通灵>、<救药>与<毒药>，并获得如下技能" — a witch the elder's curse took her skills from gains
    # <灵媒> all the same: the curse took the skills she had ("女巫……将失去技能"), an event's grant is new, as
    # 神经错乱 gives a cursed seer <杀人> ("假如此时预言家未出局"). A curse after the event takes <灵媒> with the rest.
    standing(g)["seance"] = True
    for witch in g.state.with_role("女巫"):
        witch.lost.update({"通灵", "救药", "毒药"})
        witch.granted.add(MEDIUM)
        if witch.alive:
            g.tell(f"player:{witch.name}", "新月<招魂术>：你失去<通灵>、<救药>与<毒药>，获得<灵媒>：夜晚发送“灵媒 座位号”选择一名角色，"
                   "如果当晚这名角色因指杀而出局，他依然可以参与下一个游戏日的讨论。")


def medium(g: Game, actor: Player, target) -> None:
    # "灵媒—— 游戏日夜晚，女巫可以选择一名角色，如果当晚这名角色因指杀而出局，他依然可以参与下一个游戏日的讨论。"
    if MEDIUM in actor.lost:
        raise Rejected(f"{actor.name} 已经失去了<{MEDIUM}>")
    once_tonight(g, MEDIUM, actor.name)
    t = g.living_target(target, MEDIUM)
    g.night.actions[MEDIUM] = (actor.name, t.name)
    g.mark_done(actor.name, MEDIUM)
    g.tell(f"player:{actor.name}", f"已收到：{MEDIUM} {g.label(t)}。")


def speakers(g: Game) -> list[str]:
    """Who went out last night by a 指杀 and was the witch's <灵媒>: still in today's discussion."""
    n = g.state.night
    chosen = n.actions.get(MEDIUM) if n else None
    if not chosen:
        return []
    p = g.state.player(chosen[1])
    gone = p.death and p.death[0] == "night" and p.death[1] == n.number and p.death[2] in BY_ATTACK
    return [p.name] if gone else []


SEANCE = Moon("招魂术", True, "从公布时间开始到游戏结束。", (
    "魔法大师女巫突然对通灵术产生的兴趣与灵感，并想做出一些尝试，于是她决定放弃自己的老本行。\n"
    "事件发生后，女巫失去<通灵>、<救药>与<毒药>，并获得如下技能：\n"
    "灵媒—— 游戏日夜晚，女巫可以选择一名角色，如果当晚这名角色因指杀而出局，他依然可以参与下一个游戏日的讨论。"), seance)


# --- 文明的狼人 ------------------------------------------------------------------------------------------
def civilised_wolves(g: Game) -> None:
    standing(g)["civilised"] = True


def funerals(g: Game) -> None:
    """The night is settled: "狼群内角色每晚可以得知因<杀人>、<冲锋>、<捕猎>出局的角色的具体身份"."""
    if not held(g).get("civilised"):
        return
    n = g.night
    gone = [p for p in g.state.players if p.death and p.death[:2] == ("night", n.number) and p.death[2] in BY_ATTACK]
    pack = pack_alive(g)
    if not gone or not pack:
        return
    for p in gone:
        for wolf in pack:
            g.state.feedback.append({"to": wolf.name, "skill": "文明的狼人", "phase": "night", "number": n.number,
                                     "target": p.name, "result": p.role})
    text = "文明的狼人：" + "；".join(f"{g.label(p)} 的身份是【{p.role}】" for p in gone) + "。"
    g.tell(f"team:{PACK}", text)
    g.tell("director", f"已发给狼群的反馈：{text}")


CIVILISED_WOLVES = Moon("文明的狼人", True, "从公布时间到游戏结束。", (
    "狼人们觉得将人杀害并把被害者曝尸荒野实在太不文明了，于是他们决定以后杀人时，为被害者进行一段简短的葬礼。在这个过程中狼人们发现了一些东西……\n"
    "事件发生后，狼群内角色每晚可以得知因<杀人>、<冲锋>、<捕猎>出局的角色的具体身份。"), civilised_wolves)


# --- 神秘的UFO -------------------------------------------------------------------------------------------
UFO = "神秘的UFO"
DIGITS = "数字"


def mysterious_ufo(g: Game) -> None:
    # "事件发生当日，法官将公布随机的三名电梯楼相邻的玩家被UFO光线笼罩。" — three living neighbours in seat order, from a
    # seat drawn from the seed (or the director's `from`), wrapping round.
    living = g.state.alive()
    start = g.state.carry.pop("ufo_from", None)
    if start is not None:
        seat = g.state.player(start).seat
        first = next((i for i, p in enumerate(living) if p.seat >= seat), 0)
    else:
        first = g.state.rng.randrange(len(living))
    three = [living[(first + k) % len(living)] for k in range(min(3, len(living)))]
    standing(g)["ufo"] = {"day": g.state.day_no, "three": [p.name for p in three], "numbers": {}}
    publish(g, [p.name for p in three])
    g.tell("public", f"神秘的UFO：{labels(g, three)} 被UFO光线笼罩。三人须在关门前私聊发给你们身份的机器人QQ，发送“数字 0-99之间的整数”（未提交视为0）；"
           "投票结算后、入夜前，其中一人将被UFO带走（没有遗言）。")
    for p in three:
        g.ask(p, DIGITS, f"新月<{UFO}>：你被UFO光线笼罩。请在关门前发送“数字 0-99之间的整数”（未提交则自动为0）。", "ufo")


def digit(g: Game, actor: Player, target) -> None:
    # "三名玩家必须分别提交一个0-99的数字"; one who is out has nothing to send
    if not actor.alive:
        raise Rejected(f"{actor.name} 已出局，不能提交数字")
    n = number(target, 0, 99, DIGITS)
    g.settle(g.pending_for(actor.name, DIGITS))
    standing(g)["ufo"]["numbers"][actor.name] = n
    g.tell(f"player:{actor.name}", f"已收到：数字 {n}。")


def ufo_takes(g: Game) -> None:
    # "在投票结算后，即将入夜前，法官将使用这三个数字以及预先规定好的随机算法，使其中一名玩家出局。" The algorithm: the
    # sum of the three numbers mod 3 picks one of the three in the order published. "三名需要提交数字的角色，必须于当日关门前
    # 私聊法官提交数字，否则自动选择数字0。" "如该玩家已经在投票结算阶段死亡，则UFO不会带走任何人。"
    ufo = held(g).get("ufo")
    if not ufo or ufo["day"] != g.state.day_no or ufo.get("done"):
        return
    ufo["done"] = True
    for p in [q for q in g.state.pending if q.skill == DIGITS]:
        g.settle(p)
        g.tell("director", f"{p.who} 未在关门前提交数字，自动为0")
    total = sum(ufo["numbers"].get(n, 0) for n in ufo["three"])
    chosen = g.state.player(ufo["three"][total % len(ufo["three"])])
    g.tell("director", "神秘的UFO：" + "、".join(f"{n} {ufo['numbers'].get(n, 0)}" for n in ufo["three"]) + f"，和 {total}，选中 {chosen.name}")
    if not chosen.alive:
        g.tell("public", "神秘的UFO：被选中的角色已经出局，UFO没有带走任何人。")
        return
    g.kill(chosen, UFO)
    g.publish_deaths([chosen.name], UFO)


MYSTERIOUS_UFO = Moon(UFO, True, "公布后的当日。", (
    "最近村子里出现了一个神秘的飞碟，部分村民家被奇怪的光所笼罩。村民们开始担心这些人里将会有一个被UFO带走。\n"
    "事件发生当日，法官将公布随机的三名电梯楼相邻的玩家被UFO光线笼罩。然后三名玩家必须分别提交一个0-99的数字。在投票结算后，即将入夜前，"
    "法官将使用这三个数字以及预先规定好的随机算法，使其中一名玩家出局。出局的玩家将没有遗言，也不占用遗言次数。如果出局的玩家是情侣之一，"
    "另一名情侣无须殉情，且其阵营不改变。如该玩家已经在投票结算阶段死亡，则UFO不会带走任何人。\n"
    "【行动时限】三名需要提交数字的角色，必须于当日关门前私聊法官提交数字，否则自动选择数字0。"), mysterious_ufo)


# --- 试验鸳鸯 -------------------------------------------------------------------------------------------
TRIAL = "试验鸳鸯"


def trial_lovers(g: Game) -> None:
    # "事件发生后，白痴必须立刻通过QQ告知导演选择两名角色" — the idiot who played dumb too: he is still in the game.
    idiot = living_with_role(g, "白痴")
    if idiot is None:
        g.tell("director", f"{TRIAL}：白痴已出局，试验品情侣不产生")
        return
    g.ask(idiot, TRIAL, f"新月<{TRIAL}>：请立刻发送“{TRIAL} 座位号 座位号”选择两名角色成为试验品情侣（他们不互知、不共群；其中一人出局时，"
          "另一人代替其出局）。开门后1小时内有效，否则记黄牌一张，试验品情侣不产生。", "trial")


def pair(g: Game, actor: Player, target) -> None:
    if not isinstance(target, list) or len(target) != 2:
        raise Rejected(f"<{TRIAL}>须选择两名角色：请发送“{TRIAL} 座位号 座位号”")
    a, b = (g.living_target(t, TRIAL) for t in target)
    if a.name == b.name:
        raise Rejected(f"<{TRIAL}>须选择两名不同的角色")
    g.settle(g.pending_for(actor.name, TRIAL))
    # "这两名角色成为不互知、不共群的“试验品情侣”": only the idiot and the director know
    standing(g)["trial"] = [a.name, b.name]
    g.tell(f"player:{actor.name}", f"已收到：{TRIAL} {g.label(a)}、{g.label(b)}。")


def trial_partner(g: Game, p: Player) -> Player | None:
    """The living trial lover who would go out in `p`'s place."""
    pair_ = held(g).get("trial")
    if not pair_ or p.name not in pair_:
        return None
    other = g.state.player(pair_[1] if pair_[0] == p.name else pair_[0])
    return other if other.alive else None


def stand_in(g: Game, p: Player, cause: str) -> tuple[Player, str] | None:
    # "当试验品情侣中其中一名角色出局时，另一名角色代替其出局。" Once: the pair is then spent. A red card is the player's own
    # penalty and nobody takes it for him.
    other = trial_partner(g, p)
    if other is None or cause == "红牌":
        return None
    if g.phase == "night" and any(name == other.name for name, _ in g.night.held or ()):
        # both of the pair go out in this night's settlement: neither can go out in the other's place, and
        # each goes out by his own 指杀, whatever their order
        return None
    del standing(g)["trial"]
    line = f"试验鸳鸯生效：{g.label(other)} 代替 {g.label(p)} 出局"
    if g.phase == "night":  # "夜晚期间需要公示的内容全部在下一个白天开始时公布"
        standing(g).setdefault("at_dawn", []).append(line)
        g.tell("director", line + "（开门时公示）")
    else:
        g.tell("public", line)
    return other, TRIAL


TRIAL_LOVERS = Moon(TRIAL, True, "从公布时间开始到游戏结束。", (
    "情人节到了，默默无闻的白痴决定当一回月老，但他由于只是个半吊子技术，红线中途断了，于是，村内产生了一对试验品情侣。\n"
    "事件发生后，白痴必须立刻通过QQ告知导演选择两名角色，这两名角色成为不互知、不共群的“试验品情侣”。当试验品情侣中其中一名角色出局时，"
    "另一名角色代替其出局。\n若白痴在开门以后一个小时以内未联系导演，则记作一张黄牌，“试验品情侣”不产生。"), trial_lovers)


# --- 不满情绪 -------------------------------------------------------------------------------------------
DISCONTENT = "不满情绪"


def discontent(g: Game) -> None:
    g.tell("public", f"{DISCONTENT}：若今天第一轮被投票出局的角色为村民，当天立即进行第二轮投票（{VOTE_BY_BOT}）。")


def second_round(g: Game, kind: str, result: str | None) -> None:
    # "事件发生后，若当天第一轮被投票出局的角色为村民，当天立即进行第二轮投票，投票期间所有角色不参与讨论。这轮投票持续一天，
    # 且必须通过QQ私聊给导演自己想要投票的对象与理由" — "为村民": the identity 村民, of the one who goes out by the vote: a
    # 村民 whose trial lover goes out in his place (试验鸳鸯: "另一名角色代替其出局") stays, and nobody went out by the vote.
    day = g.state.day
    if kind != "exile" or not _today(g, DISCONTENT) or day.counted.count("exile") != 1 or not result:
        return
    top = g.state.player(result)
    if top.role == "村民" and trial_partner(g, top) is None:
        day.rounds["exile"] = 2
        day.private_votes = True
        g.tell("public", f"{DISCONTENT}：第一轮被投票出局的角色为村民，立即进行第二轮投票：所有角色不参与讨论，{VOTE_BY_BOT}，"
               "在投票帖回帖投票者算作废票。")


DISCONTENT_MOON = Moon(DISCONTENT, True, "从公布时间到下一个游戏日开始。", (
    "由于对糟糕的投票结果感到失望，村民们无法克制追求正义的欲望，大家决定再发起一轮投票。\n"
    "事件发生后，若当天第一轮被投票出局的角色为村民，当天立即进行第二轮投票，投票期间所有角色不参与讨论。这轮投票持续一天，且必须通过QQ私聊"
    "给导演自己想要投票的对象与理由，在投票帖回帖投票者算作废票，并记作一张黄牌。统计投票阶段，导演会汇总所有玩家的投票及理由，并公示在投票帖中。"), discontent)


# --- the private votes of 猎人的愤怒 and 不满情绪 -------------------------------------------------------------
PRIVATE_BALLOT = "投票"


def private_ballot(g: Game, actor: Player, target, reason: str | None) -> None:
    # "这轮投票持续一天，且必须通过QQ私聊给法官自己想要投票的对象与理由" — until the day closes, and a new ballot
    # replaces the one before (the thread's "改票" rules are for ballots posted there)
    day = g.state.day
    if not day.private_votes:
        raise Rejected("今天不是私聊投票日：请在投票帖投票")
    if day.vote_held:
        raise Rejected(day.vote_held)
    if day.counted.count("exile") >= day.rounds.get("exile", 1):
        raise Rejected("今天的私聊投票已经统计，不能再投票或改票")
    if target is None:
        raise Rejected("请发送“投票 角色 理由”（弃权：“投票 弃权 理由”）")
    t = "弃权" if str(target).strip() == "弃权" else g.find(target).name
    if problem := g.rules.ballot_problem(g, "exile", actor.name, t):
        raise Rejected(problem)
    why = (reason or "").strip()
    if not why:
        raise Rejected("请附上投票理由：发送“投票 角色 理由”")
    changed = day.private_ballots.pop(actor.name, None) is not None
    day.private_ballots[actor.name] = (t, why)  # a changed ballot counts as posted when it was changed
    shown = t if t == "弃权" else g.label(g.state.player(t))
    g.tell(f"player:{actor.name}", f"已{'改为' if changed else '收到'}：投票 {shown}（理由：{why}）。关门前可以改票：重新发送即可。")
    tacit_warning(g, actor.name)


def tacit_warning(g: Game, voter: str) -> None:
    """A ballot that breaks a joint rule as the ballots now stand (146: the sisters' <默契>) is told to
    those it binds at once, while they may still change: at 关门 their ballots would be void, and the
    count would show the thread a void pair (docs/rules-146.md, reading 16)."""
    day = g.state.day
    problems = g.rules.joint_problems(g, "exile", [(v, t) for v, (t, _) in day.private_ballots.items()])
    if voter not in problems:
        return
    for name, problem in problems.items():
        g.tell(f"player:{name}", f"注意：{problem}。关门时仍是如此，这张票就不计入（公示的计票只列为无效票，不写原因）；关门前改票即可。")


def count_private(g: Game) -> None:
    """关门 counts the day's private ballots ("统计投票阶段") if the director has not."""
    day = g.state.day
    if day.private_votes and day.private_ballots and not day.vote_held and day.counted.count("exile") < day.rounds.get("exile", 1):
        g.count(Ballots("exile", tuple((voter, t) for voter, (t, _) in day.private_ballots.items()), whole=True))


def publish_private(g: Game, kind: str) -> None:
    # "统计投票阶段，法官会汇总所有玩家的投票及理由，并公示在投票贴中"
    day = g.state.day
    if kind != "exile" or not day.private_votes or not day.private_ballots:
        return
    # every ballot as cast, with its reason, and nothing more: which of them counted is the count's,
    # published beside it, where a void ballot is listed as every count lists one (a mark here would
    # show the thread the sisters' pair: docs/rules-146.md, reading 16)
    lines = []
    for voter, (t, why) in day.private_ballots.items():
        shown = t if t == "弃权" else g.label(g.state.player(t))
        lines.append(f"{g.label(g.state.player(voter))} → {shown}：{why}")
    g.tell("public", f"第{g.state.day_no}天私聊投票汇总：\n" + "\n".join(lines))


# why a 违规 voids the day's vote of one who posted his ballot in the thread on a private-vote day
THREAD_VOTE = "在投票帖回帖投票（今天须私聊导演投票），算作废票"


def thread_votes(g: Game, kind: str) -> list[tuple[str, str]]:
    """Who posted his ballot in the thread on a private-vote day (`违规`): one of the count's 无效票."""
    day = g.state.day
    if kind != "exile" or not day.private_votes:
        return []
    return [(name, "在投票帖回帖投票，今天须私聊导演投票") for name, why in day.may_not_vote.items() if why == THREAD_VOTE]


def breach(g: Game, p: Player) -> None:
    """`违规`: the director records that `p` broke the rule the day's event sets."""
    day = g.state.day
    director, player = "director", f"player:{p.name}"
    if day.private_votes:
        # "在投票贴回贴投票者算作废票，并记作一张黄牌"
        day.may_not_vote[p.name] = THREAD_VOTE
        day.private_ballots.pop(p.name, None)
        g.tell(player, "你在投票帖回帖投票：今天须私聊导演投票，你今天的投票作废。")
        g.tell(director, f"{g.label(p)} 在投票帖回帖投票：今天的投票作废，已记黄牌一张（有误请用“撤销”撤回这条违规）。")
        g.give_card("黄牌", p, "在投票帖回帖投票者算作废票，并记作一张黄牌")
    elif day.moon == "无我无狼":
        # "所有讨论人不得使用”我“以及”狼“这两个汉字。违反规定者，当日投票无效。"
        day.may_not_vote[p.name] = "无我无狼：使用了“我”或“狼”，当日投票无效"
        g.tell(player, "你在讨论中使用了“我”或“狼”（无我无狼）：你今天的投票无效。")
        g.tell(director, f"{g.label(p)} 违反无我无狼：当日投票无效。")
    elif day.moon in ("英语考试", "古文考试"):
        # "初次违反规定者，导演将令其使用英语的时间翻倍至12小时（加速则为6小时）。再次违反规定者，处蓝牌一张且禁言直至12（或6）小时结束。"
        times = standing(g).setdefault("breaches", {})
        key = f"{g.state.day_no}:{p.name}"
        times[key] = times.get(key, 0) + 1
        doubled = 6 if g.state.carry.get("sped_up") else 12
        if times[key] == 1:
            g.tell(director, f"{g.label(p)} 初次违反{day.moon}：规则令其时间翻倍至{doubled}小时（开门后{doubled}小时内），请在讨论帖公示。")
        else:
            g.tell(director, f"{g.label(p)} 再次违反{day.moon}：规则处蓝牌一张（请发送“发牌 蓝牌 {p.name}”）且禁言直至{doubled}小时结束。")
    elif day.moon == "赞美小居":
        g.tell(director, f"{g.label(p)} 违反赞美小居：规则令其在下一讨论日只能使用动物叫声进行发言，请在讨论帖公示。")
    elif day.moon == "giegie加油":
        g.tell(director, f"{g.label(p)} 违反giegie加油：规则处蓝牌一张（请发送“发牌 蓝牌 {p.name}”）。")
    else:
        raise Rejected("今天没有可以违反的新月规则（私聊投票日、无我无狼、英语考试、赞美小居、giegie加油、古文考试）")


def speech_window(g: Game) -> tuple[str, int] | None:
    """英语考试, 古文考试: "自讨论日开门时至开门后6小时（若进程已加速则为3小时）"."""
    if g.phase == "day" and g.state.day.moon in ("英语考试", "古文考试"):
        return g.state.day.moon, (3 if g.state.carry.get("sped_up") else 6) * 60
    return None


def day_options(g: Game, name: str) -> list[str]:
    """What `name` may send today because of an event (for `帮助`)."""
    s, held_ = g.state, held(g)
    p = s.player(name)
    if g.phase != "day" or not p.alive:
        return []
    day, out = s.day, []
    if day.private_votes and not day.vote_held and day.counted.count("exile") < day.rounds.get("exile", 1):
        out.append("私聊投票：发送“投票 角色 理由”（关门前可以改票）")
    if name in s.teams.get(PACK, []):
        if held_.get("birthday_day") == s.day_no:
            out.append(f"狼群可以启动<{BIRTHDAY}>：发送“{BIRTHDAY}”（开门后1小时内）")
        if held_.get("leader_day") == s.day_no:
            out.append(f"狼群可以选举首领：发送“{LEADER} 座位号”（关门前）")
    st = held_.get("guarantee")
    if st and st["day"] == s.day_no and not st.get("done") and name == (st["chain"][-1] if st["chain"] else s.sheriff):
        out.append("轮到你担保：发送“担保 座位号”")
    return out


# --- 单数日小新月: "此类新月对场面局势影响极小。仅作娱乐使用。每个新月可出现最多两次。" Their penalties are the director's. ----
NO_ME_NO_WOLF = Moon("无我无狼", False, "当日。", "所有讨论人不得使用”我“以及”狼“这两个汉字。违反规定者，当日投票无效。")
ENGLISH_EXAM = Moon("英语考试", False, "自讨论日开门时至开门后6小时（若进程已加速则为3小时）。", (
    "自讨论日开门时至开门后6小时（若进程已加速则为3小时），所有玩家必须使用英语发言。除人名、地名等特殊词外，不得使用拼音代替。可以使用小镇表情。"
    "初次违反规定者，导演将令其使用英语的时间翻倍至12小时（加速则为6小时）。再次违反规定者，处蓝牌一张且禁言直至12（或6）小时结束。"
    "使用英语期间，必须依旧遵守相关规定，不得使用粗俗语或贴脸发言等。"))
PRAISE_XIAOJU = Moon("赞美小居", False, "当日。", (
    "所有人在讨论日开始发言第一帖或在该讨论日发表三帖赞美小居（赞美泡泡、花千树或者小猪也算通过）的发言，每一帖字数为15字及以上。"
    "违者将在下一讨论日只能使用动物叫声进行发言。"))
GIEGIE = Moon("giegie加油", False, "当日。", "所有人在讨论日中必须为自己喜欢的创造营选手拉票，拉票发言不得少于三帖，否则视为违规，处蓝牌一张。")
CLASSICAL_EXAM = Moon("古文考试", False, "自讨论日开门时至开门后6小时（若进程已加速则为3小时）。", (
    "自讨论日开门时至开门后6小时（若进程已加速则为3小时），所有玩家必须使用文言文发言。除人名、地名等特殊词外，不得使用拼音代替。可以使用小镇表情。"
    "初次违反规定者，导演将令其使用文言文的时间翻倍至12小时（加速则为6小时）。再次违反规定者，处蓝牌一张且禁言直至12（或6）小时结束。"
    "使用文言文期间，必须依旧遵守相关规定，不得使用粗俗语或贴脸发言等。"))

# "★本场新月设置：猎人的愤怒、魔法水晶球、神经错乱、王对王、狼王的生日、狼族首领、信用担保、招魂术、文明的狼人、神秘的UFO、
# 试验鸳鸯、不满情绪" and the five of "单数日小新月", in the post's order
EVENTS = (
    HUNTERS_FURY, MAGIC_CRYSTAL_BALL, CONFUSION_MOON, KING_AGAINST_KING, WOLF_KINGS_BIRTHDAY, WOLF_LEADER,
    CREDIT_GUARANTEE, SEANCE, CIVILISED_WOLVES, MYSTERIOUS_UFO, TRIAL_LOVERS, DISCONTENT_MOON,
    NO_ME_NO_WOLF, ENGLISH_EXAM, PRAISE_XIAOJU, GIEGIE, CLASSICAL_EXAM,
)
BY_NAME = {m.name: m for m in EVENTS}
CHOICE = "新月事件"  # what a game's `moons` option chooses from, as the game keeps it (R146.choices)


# --- where the events meet the post's flow (called by the ruleset) ----------------------------------------
def morning(g: Game) -> tuple[dict, list[str]]:
    """What the 开门 announcement carries for the events standing: the crystal ball's identity, the
    <灵媒>'s speaker."""
    extra, lines = {}, list(standing(g).pop("at_dawn", []))
    if held(g).get("crystal") and (seen := crystal(g)):
        extra["crystal"] = seen
        lines.append(crystal_line(seen))
    if speaks := speakers(g):
        extra["speaks"] = speaks
        lines.append("招魂术：" + "、".join(speaks) + " 虽已出局，依然可以参与今天的讨论。")
    return extra, lines


def tonight(g: Game) -> None:
    """A night begins: what an event changes for it."""
    confused_night(g)
    birthday_night(g)


def kill_slots(g: Game) -> list[tuple[str, str]]:
    """The night's 指杀 an event adds (one <杀人> under 神经错乱, the leader's <捕猎>), as (who, slot)."""
    out = []
    n = g.night
    for p in g.state.alive() if n.granted else ():
        if "杀人" in n.granted.get(p.name, ()) and not g.decided(p.name, "杀人"):
            out.append((p.name, "杀人"))
    chief = leader(g)
    if usable(g, chief, HUNT) and not wolves_lost(g, chief) and not g.decided(chief.name, HUNT):
        out.append((chief.name, HUNT))
    return out


def night_slots(g: Game) -> list[tuple[str, str]]:
    """The night's other decisions an event adds (each wolf's <预言> under 神经错乱, the witch's <灵媒>), as (who, slot)."""
    out = []
    n = g.night
    for p in g.state.alive() if n.granted else ():
        if "预言" in n.granted.get(p.name, ()) and p.role != "预言家" and not g.decided(p.name, "预言"):
            out.append((p.name, "预言"))
    witch = living_with_role(g, "女巫")
    if held(g).get("seance") and usable(g, witch, MEDIUM) and not g.decided(witch.name, MEDIUM):
        out.append((witch.name, MEDIUM))
    return out


def closing(g: Game) -> None:
    """关门: "在投票结算后，即将入夜前" the UFO takes one; a birthday or a leader not decided today is not
    decided."""
    if g.phase == "day":
        ufo_takes(g)
    # an hour after 开门 has passed by 关门: the hunter's shot and the idiot's pair not sent are let go
    for pending in [p for p in g.state.pending if p.skill in (FURY, TRIAL)]:
        g.settle(pending)
        expire(g, pending)
    s = standing(g)
    for key, deadline in (("birthday_day", _birthday_key), ("leader_day", _leader_key)):
        if s.get(key) == g.state.day_no:
            del s[key]
            g.emit(DeadlineEnd(deadline(g)))


def timeout(g: Game, key: str) -> list[str]:
    s = standing(g)
    if key == _birthday_key(g) and s.get("birthday_day") == g.state.day_no:
        del s["birthday_day"]
        g.tell(f"team:{PACK}", f"<{BIRTHDAY}>未在1小时内启动：什么也不发生。")
        return [key]
    if key == _leader_key(g) and s.get("leader_day") == g.state.day_no:
        del s["leader_day"]
        g.tell(f"team:{PACK}", f"今天没有选出<{LEADER}>：不再选举。")
        return [key]
    return []


def expire(g: Game, pending: Pending) -> bool:
    """A decision an event asked for was not made in time: the post's consequence. False: not an event's."""
    who = g.state.player(pending.who)
    if pending.skill == FURY:
        _fury_lapses(g, who)
    elif pending.skill == TRIAL:
        g.tell("director", f"{g.label(who)} 未在开门后1小时内选择试验品情侣：规则记黄牌一张（请发送“发牌 黄牌 {who.name}”），试验品情侣不产生。")
    elif pending.skill == DIGITS:
        g.tell("director", f"{pending.who} 未在关门前提交数字，自动为0")
    else:
        return False
    return True


def after_death(g: Game, p: Player, cause: str) -> None:
    """What a death means for the events standing."""
    if g.pending_for(p.name, FURY):
        # "如果此事件公布时猎人已出局，将直接进入投票阶段" — the same for a hunter sent off before he shot
        g.settle(g.pending_for(p.name, FURY))
        _open_vote(g)
    if leader(g) is p and cause != "红牌" and "报复" not in p.lost and not g.suspended(p, "报复") and not wolves_lost(g, p):
        ask_shot(g, p, "报复")
