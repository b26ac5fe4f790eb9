"""[M131] 粽子 — 13 players, two factions. Checkable against `docs/posts/M131-粽子.txt` line by line.

Each rule carries the post's words; where the post is ambiguous the reading chosen is written next
to it and listed in docs/rules-M131.md.
"""
from __future__ import annotations

from fractions import Fraction

from engine import skills
from engine.errors import Rejected
from engine.events import DeadlineEnd
from engine.game import Game
from engine.ruleset import DayLength, Quota, Role, Ruleset, Skill, TimeLimit
from engine.skills import living_with_role, once_tonight
from engine.state import Pending, Player

WOLVES, VILLAGE = "狼人阵营", "村民阵营"
PACK = "狼群"
SPECIALS = ("预言家", "女巫", "乌鸦", "锈盾守卫")


def _pack_member(g: Game, actor: Player, skill: str) -> None:
    # "所有狼人将在游戏开始后互知共群"; "感染白痴与狼人互知共群": the team skill belongs to the group.
    if actor.name not in g.state.teams.get(PACK, []):
        raise Rejected(f"只有狼群成员可以发动<{skill}>")


# --- start -----------------------------------------------------------------------------------------
def recognise(g: Game, actor: Player, target) -> None:
    # 认亲<强制><限定>: "游戏开始时，混血儿必须选择一名角色进行支持。此技能发动后，混血儿成为与该角色相同的阵营。"
    if "认亲" in actor.used:
        raise Rejected("<认亲>是限定技，已经发动过")
    t = g.living_target(target, "认亲")
    if t.name == actor.name:
        raise Rejected("<认亲>须选择一名其他角色")
    _side_with(actor, t)
    g.tell(f"player:{actor.name}", f"已收到：认亲 {g.label(t)}。")


def _side_with(actor: Player, t: Player) -> None:
    actor.used.add("认亲")
    actor.faction = t.faction
    actor.marks["认亲"] = t.name


# --- night: the pack ---------------------------------------------------------------------------------
def _pack_choice(g: Game, actor: Player, skill: str, target) -> Player | None:
    """The team's choice for `skill` tonight: its first one stands; no target is the team's pass."""
    _pack_member(g, actor, skill)
    if skill != "杀人" and g.state.carry.get("extra_tonight") != skill:
        raise Rejected(f"狼群今晚没有<{skill}>")
    once_tonight(g, skill, PACK)
    if target is None:
        skills.team_passes(g, actor, PACK, skill)  # 空刀
        return None
    t = g.living_target(target, skill)
    g.night.actions[skill] = (actor.name, t.name)
    g.mark_done(PACK, skill)
    return t


def kill(g: Game, actor: Player, target) -> None:
    # 杀人: "游戏日夜晚，该阵营共群的角色可以共同指杀一名角色。"
    if t := _pack_choice(g, actor, "杀人", target):
        g.tell(f"team:{PACK}", f"{actor.name} 提交了今晚的指杀：{g.label(t)}。已确认，不能更改。")


def extra_kill(g: Game, actor: Player, target) -> None:
    # 假痴不癫 (first case): "仅限下一个夜晚，狼人获得一个附加刀"
    if t := _pack_choice(g, actor, "附加刀", target):
        g.tell(f"team:{PACK}", f"{actor.name} 提交了今晚的附加刀：{g.label(t)}。已确认，不能更改。")


def inspect(g: Game, actor: Player, target) -> None:
    # 假痴不癫 (second case): "仅限下一个夜晚，狼人可以查验一名角色的具体身份。"
    if t := _pack_choice(g, actor, "查验", target):
        g.give_feedback(actor, "查验", t.name, t.role, f"查验结果：{g.label(t)} 的身份是【{t.role}】", audience=f"team:{PACK}")


# --- night: the village ------------------------------------------------------------------------------
def save(g: Game, actor: Player, target) -> None:
    # 救药<限定>: "女巫可以选择一名其他角色，对其使用救药。该角色当晚不会因被指杀而出局。<救药>发动后，
    # 在该夜晚不可发动技能<毒药>。<救药>使用后，失去技能<通灵>。" Note 5: "女巫全程不能自救。"
    skills.save(g, actor, target, slot="女巫", self_save_refusal="女巫全程不能自救：<救药>须选择一名其他角色")


def poison(g: Game, actor: Player, target) -> None:
    # 毒药<限定>: "该角色在夜晚结束前出局。<毒药>发动后，在该夜晚不可发动技能<救药>。"
    skills.poison(g, actor, target, slot="女巫")


def foresee(g: Game, actor: Player, target) -> None:
    # 预言: "若该角色属于村民阵营，反馈<村民阵营>；否则，反馈<非村民阵营>。查验混血儿时，始终反馈<村民阵营>。"
    once_tonight(g, "预言", actor.name)
    t = g.living_target(target, "预言")
    g.night.actions["预言"] = (actor.name, t.name)
    g.mark_done(actor.name, "预言")
    result = VILLAGE if t.role == "混血儿" or t.faction == VILLAGE else "非" + VILLAGE
    g.give_feedback(actor, "预言", t.name, result, f"预言结果：{g.label(t)} 是<{result}>")


def slander(g: Game, actor: Player, target) -> None:
    # 诽谤: "乌鸦可以选择一名角色，不能连续两晚选择同一名角色。"
    # Nothing else tonight depends on the 诽谤, so the crow may change it until the night is settled.
    changing = "诽谤" in g.night.actions
    if not changing:
        once_tonight(g, "诽谤", actor.name)
    t = g.living_target(target, "诽谤")
    last = g.state.carry.get("crow_last")
    if last and last[0] == g.night.number - 1 and last[1] == t.name:
        raise Rejected(f"不能连续两晚诽谤同一名角色（昨晚已诽谤 {t.name}）")
    g.night.actions["诽谤"] = (actor.name, t.name)
    g.mark_done(actor.name, "诽谤")
    g.tell(f"player:{actor.name}", f"已{'改为' if changing else '收到'}：诽谤 {g.label(t)}。夜晚结算前可以更改。")


def last_guard(g: Game, actor: Player, target) -> None:
    # 最后的守护: "选择一名角色，反馈其是否在当晚受到伤害……然后锈盾守卫可以守护该角色"
    # The choice may change until its feedback is given; the answer is about the player chosen.
    if "最后的守护" in actor.lost:
        raise Rejected("锈盾守卫已失去技能<最后的守护>")
    changing = "最后的守护" in g.night.actions
    if changing and g.feedback_given(actor.name, "最后的守护"):
        raise Rejected("已经收到<最后的守护>的反馈，不能再更改目标")
    if not changing:
        once_tonight(g, "最后的守护", actor.name)
    t = g.living_target(target, "最后的守护")
    g.night.actions["最后的守护"] = (actor.name, t.name)
    g.mark_done(actor.name, "最后的守护")
    g.tell(f"player:{actor.name}", f"已{'改为' if changing else '收到'}：最后的守护 {g.label(t)}。狼群和女巫行动后反馈其是否受到伤害，收到反馈前可以更改。")


def protect(g: Game, actor: Player, target) -> None:
    # The second half of 最后的守护 ("然后锈盾守卫可以守护该角色"), named 守护 by SCENARIOS.md.
    if "最后的守护" not in g.night.actions:
        raise Rejected("请先发动<最后的守护>选择一名角色")
    if not g.feedback_given(actor.name, "最后的守护"):
        raise Rejected("还没有收到<最后的守护>的反馈，请等待反馈后再决定是否守护")
    if g.decided(actor.name, "守护"):
        raise Rejected("今晚已经决定过是否守护")
    g.night.actions["守护"] = (actor.name, g.night.actions["最后的守护"][1])
    g.mark_done(actor.name, "守护")
    g.tell(f"player:{actor.name}", f"已收到：守护 {g.label(g.state.player(g.night.actions['守护'][1]))}。")


# --- day -----------------------------------------------------------------------------------------------
def explode(g: Game, actor: Player, target) -> None:
    # 自爆: "除竞选日外的游戏日白天，发动者出局，然后当天不再进行投票，已发表的投票无效。该技能的发动将会公示。"
    # Note 4: "自爆不会立刻天黑。不能在警上自爆。"
    day = g.state.day
    if "exile" not in day.votes:
        raise Rejected("竞选日不能自爆")
    if "exile" in day.counted:
        raise Rejected("今天的投票已经结算，不能再自爆")
    day.called_off = True
    g.kill(actor, "自爆")
    g.tell("public", f"{g.label(actor)} 自爆出局，今天不再进行投票，已发表的投票无效。天不会立刻黑。")
    g.publish_deaths([actor.name], "自爆")


def hand_over(g: Game, actor: Player, target) -> None:
    # 殉职: "警长并非因红牌罚下而出局后，可以选择一名未出局的角色来继任警长。" Note 3: "可以撕警徽。"
    skills.hand_over(g, actor, target)


def _slander_key(g: Game) -> str:
    return f"公示:诽谤:day{g.state.day_no}"


class M131(Ruleset):
    id = "M131"
    title = "[M131]粽子"
    # "本场版杀为13人局，身份配置为：3狼人，感染白痴，4村民，预言家，女巫，乌鸦，锈盾守卫，混血儿"
    roles = (
        Role("狼人", WOLVES, 3, team=PACK, summary="夜晚与狼群共同<杀人>；除竞选日外的白天可以<自爆>"),
        Role("感染白痴", WOLVES, 1, team=PACK, summary="与狼人共群；<假痴不癫>：被投票出局后狼群下一夜获得附加刀或查验；可以<自爆>"),
        Role("村民", VILLAGE, 4, summary="没有技能"),
        Role("预言家", VILLAGE, 1, summary="夜晚<预言>一名角色的阵营"),
        Role("女巫", VILLAGE, 1, summary="<通灵>得知被指杀的角色；<救药>（限定，不能自救）；<毒药>（限定）；同一夜不能同时使用"),
        Role("乌鸦", VILLAGE, 1, summary="夜晚<诽谤>一名角色，其下一个游戏日的放逐投票多计一票；不能连续两晚选同一人"),
        Role("锈盾守卫", VILLAGE, 1, summary="夜晚<最后的守护>：得知一名角色当晚是否受到伤害，然后可以守护他"),
        Role("混血儿", VILLAGE, 1, summary="游戏开始时必须<认亲>一名角色，成为与其相同的阵营；被查验始终为村民阵营"),
    )
    first_phase = "night"  # Note 1: "先进行第一夜操作，再进行警长竞选。"
    sheriff_weight = Fraction(3, 2)  # Note 3: "警长投票记为1.5票"
    announce_order = "seat"  # "公示出局名单时按出局角色的电梯楼顺序排序。"
    badge_may_be_torn = True  # Note 3: "可以撕警徽。"
    substitutes = Quota(1, "每名角色仅限更换一次替补。无法继续进行游戏的角色无法更换替补时红牌罚下。")
    limits = {
        "night": TimeLimit("close", 60, "关门一个小时后，预言家、女巫、乌鸦、锈盾守卫未与导演取得联系，视为放弃夜晚行动。狼队在关门一个小时后仍未提交刀人目标，视为放弃出刀"),
        "feedback": TimeLimit("now", 30, "女巫<通灵>、锈盾守卫<最后的守护>收到反馈后半小时，仍未给导演答复，视为放弃技能行使。"),
        "badge": TimeLimit("close", 30, "警长被投票出局或在第一夜出局，关门三十分钟后仍未与导演取得联系，视为放弃移交警长。"),
        "slander": TimeLimit("close", -60, "乌鸦诽谤对象在关门前1小时公示。"),
    }
    # 行动时限, as the post writes it
    deadline_rules = (
        "警长被投票出局时需要发动技能；夜晚预言家、女巫、乌鸦、锈盾守卫需要发动技能。在关门时间段，无法与导演取得联系，且提前未与导演说明自己的在线情况者，记一张黄牌，情况分为以下数种。",
        "警长被投票出局或在第一夜出局，关门三十分钟后仍未与导演取得联系，视为放弃移交警长。",
        "关门一个小时后，预言家、女巫、乌鸦、锈盾守卫未与导演取得联系，视为放弃夜晚行动。狼队在关门一个小时后仍未提交刀人目标，视为放弃出刀，这个时间也可能根据女巫、锈盾守卫的需求提前。",
        "女巫<通灵>、锈盾守卫<最后的守护>收到反馈后半小时，仍未给导演答复，视为放弃技能行使。",
        "在次日游戏日开始前，有遗言权利的出局玩家未提交遗言，视为放弃遗言。",
    )
    # 讨论日长短: "一般讨论日持续一天，本局周末不延时。" and "当日申请人数在讨论日结束三个小时前（一般为最后一个自然日的
    # 18:00）" — a day ends at 21:00 of the natural day after the one it opened on (docs/rules-M131.md, Ambiguity 22).
    day_length = DayLength(1, 21 * 60, weekend=False, first_exempt=False,
                           text="一般讨论日持续一天，本局周末不延时（讨论日结束三个小时前一般为最后一个自然日的18:00）")
    change_cutoff = Quota(60, "关门前一小时不允许改票或代投，执行加速时不允许改票。")
    speed_up_voids_changes = "执行加速时，所有人不可改票，且发言不足或未投票者将不被判罚。"
    # "未出局角色可在进程帖中申请加速或延时。当日申请人数在讨论日结束三个小时前（一般为最后一个自然日的18:00）大于等于
    # 存活人数的一半，即判定加速或延迟成功。" / "延迟成功时，不再视为“执行加速”状态。" The post does not say by how much
    # a 延时 extends the day; as "一般讨论日持续一天", it extends it by one day (docs/rules-M131.md, Ambiguity 23).
    delay = "延迟成功时，不再视为“执行加速”状态。"
    asks_cutoff = Quota(180, "当日申请人数在讨论日结束三个小时前（一般为最后一个自然日的18:00）大于等于存活人数的一半，即判定加速或延迟成功。")
    potion_slot = "女巫"
    skills = {
        s.name: s
        for s in (
            Skill("认亲", "start", recognise, aliases=("认",), holders=("混血儿",)),
            Skill("杀人", "night", kill, aliases=("刀", "杀"), team=True),
            Skill("附加刀", "night", extra_kill, aliases=("附加",), team=True),
            Skill("查验", "night", inspect, team=True),
            Skill("救药", "night", save, aliases=("救",), holders=("女巫",)),
            Skill("毒药", "night", poison, aliases=("毒",), holders=("女巫",)),
            Skill("预言", "night", foresee, aliases=("查", "验"), holders=("预言家",)),
            Skill("诽谤", "night", slander, aliases=("诽",), holders=("乌鸦",)),
            Skill("最后的守护", "night", last_guard, aliases=("守护目标", "选"), holders=("锈盾守卫",)),
            Skill("守护", "night", protect, aliases=("守",), takes_target=False, holders=("锈盾守卫",)),
            Skill("自爆", "day", explode, aliases=("爆",), takes_target=False, holders=("狼人", "感染白痴")),
            Skill("殉职", "decision", hand_over, aliases=("移交", "警徽")),
        )
    }

    # --- phases: night 1 → 警长竞选日 → 讨论日 → night 2 → 讨论日 ... ----------------------------------
    def day_votes(self, day_no: int) -> frozenset[str]:
        # "游戏第一个夜晚后，进入警长竞选日" … "进入下一天讨论日"
        return frozenset({"election"}) if day_no == 1 else frozenset({"exile"})

    def day_follows_day(self, day_no: int) -> bool:
        return day_no == 1

    def start_game(self, g: Game) -> None:
        # "游戏开始，混血儿选择认亲目标。" 认亲 is <强制>: a half-blood who has not chosen when the first
        # night opens gets a target drawn from the game's seed (the post names no time limit).
        for p in g.state.with_role("混血儿"):
            if "认亲" not in p.used:
                choice = g.state.rng.choice([q for q in g.state.players if q.name != p.name and q.alive])
                _side_with(p, choice)
                g.tell(f"player:{p.name}", f"你没有在游戏开始前认亲。<认亲>是强制技，已随机认亲 {g.label(choice)}，你成为与其相同的阵营。")
                g.tell("director", f"{g.label(p)} 未选择认亲目标，已随机认亲 {g.label(choice)}")
        for team, members in g.state.teams.items():
            g.set_team(team, members)

    # --- the night -------------------------------------------------------------------------------------
    def _pack_alive(self, g: Game) -> list[Player]:
        return [p for p in map(g.state.player, g.state.teams[PACK]) if p.alive]

    def begin_night(self, g: Game) -> None:
        s = g.state
        # 假痴不癫: "仅限下一个夜晚"
        s.carry["extra_tonight"] = s.carry.pop("next_night_extra", None)
        extra = s.carry["extra_tonight"]
        pack = self._pack_alive(g)
        if pack:
            text = f"第{g.night.number}夜：狼群可以<杀人>：发送“杀人 座位号”（全队放弃发送“杀人 空”），关门后1小时内有效。"
            if extra:
                text += f"<假痴不癫>生效：今晚狼群还可以<{extra}>一名角色（发送“{extra} 座位号”）。"
            g.tell(f"team:{PACK}", text)
        for who, slot in self.awaiting(g):
            if slot == "女巫" and "通灵" not in s.player(who).lost:
                # her time limit starts with her <通灵> feedback
                g.tell(f"player:{who}", f"第{g.night.number}夜：狼群行动后你会收到<通灵>反馈，之后30分钟内决定是否使用药。")
                continue
            members = [p.name for p in pack] if who == PACK else [who]
            g.start_deadline(g.night_key(who, slot), members, slot, "night")
            if slot == "女巫":  # she used 救药 and lost 通灵: only 毒药 is left
                g.tell(f"player:{who}", f"第{g.night.number}夜：你可以使用<毒药>（发送“毒药 座位号”），关门后1小时内有效；不使用请发送“放弃”。")
            elif who != PACK:
                g.tell(f"player:{who}", f"第{g.night.number}夜：你可以发动<{slot}>（发送“{slot} 座位号”），关门后1小时内有效；不发动请发送“放弃”。")

    def _witch_done(self, g: Game) -> bool:
        w = living_with_role(g, "女巫")
        return w is None or g.decided(w.name, "女巫") or {"救药", "毒药"} <= w.used

    def _attacks_in(self, g: Game, with_extra: bool) -> bool:
        slots = ["杀人"] + (["附加刀"] if with_extra and g.state.carry.get("extra_tonight") == "附加刀" else [])
        return all(s in g.night.actions or g.decided(PACK, s) or not self._pack_alive(g) for s in slots)

    def awaiting(self, g: Game) -> list[tuple[str, str]]:
        s, n = g.state, g.night
        out: list[tuple[str, str]] = []
        if self._pack_alive(g):
            for slot in ["杀人"] + ([s.carry["extra_tonight"]] if s.carry.get("extra_tonight") else []):
                if slot not in n.actions and not g.decided(PACK, slot):
                    out.append((PACK, slot))
        w = living_with_role(g, "女巫")
        if w and not self._witch_done(g):
            out.append((w.name, "女巫"))
        for role, slot in (("预言家", "预言"), ("乌鸦", "诽谤")):
            p = living_with_role(g, role)
            if p and not g.decided(p.name, slot):
                out.append((p.name, slot))
        guard = living_with_role(g, "锈盾守卫")
        if guard and "最后的守护" not in guard.lost:
            if not g.decided(guard.name, "最后的守护"):
                out.append((guard.name, "最后的守护"))
            elif "最后的守护" in n.actions and not g.decided(guard.name, "守护"):
                out.append((guard.name, "守护"))
        return out

    def pass_night(self, g: Game, who: str, slot: str) -> None:
        g.mark_done(who, slot)
        if slot == "最后的守护":  # choosing nobody leaves nothing to protect
            g.mark_done(who, "守护")

    def _harmed(self, g: Game, name: str) -> bool:
        # "受到伤害（包括狼人<杀人>、感染白痴<假痴不癫>附加刀、女巫<毒药>）"; "若某角色被狼人刀了，
        # 然后又被女巫救了，则视为没有受到伤害。"
        a = g.night.actions
        killed = "杀人" in a and a["杀人"][1] == name and not ("救药" in a and a["救药"][1] == name)
        return killed or any(k in a and a[k][1] == name for k in ("附加刀", "毒药"))

    def route_feedback(self, g: Game) -> None:
        if g.night.resolved:
            return
        a = g.night.actions
        w = living_with_role(g, "女巫")
        # 通灵<强制>: "游戏日夜晚，反馈被指杀的角色。" — the team's 指杀 only: the 附加刀 "不会被女巫<通灵>得知".
        if w and "通灵" not in w.lost and not g.feedback_given(w.name, "通灵") and self._attacks_in(g, with_extra=False):
            attacked = [a["杀人"][1]] if "杀人" in a else []
            g.give_feedback(w, "通灵", None, attacked, skills.sensed(g, attacked, "指杀"))
            if not self._witch_done(g):
                g.tell(f"player:{w.name}", "请在30分钟内决定：救药 座位号 / 毒药 座位号 / 放弃。")
                g.start_deadline(g.night_key(w.name, "女巫"), [w.name], "女巫", "feedback")
        guard = living_with_role(g, "锈盾守卫")
        # The guard learns whether the target was harmed once every harm of the night is known: the
        # attacks and the witch's decision.
        if (guard and "最后的守护" in a and not g.feedback_given(guard.name, "最后的守护")
                and self._attacks_in(g, with_extra=True) and self._witch_done(g)):
            target = a["最后的守护"][1]
            harmed = self._harmed(g, target)
            g.give_feedback(guard, "最后的守护", target, harmed,
                            f"最后的守护：{g.label(g.state.player(target))} 今晚{'受到了' if harmed else '没有受到'}伤害。30分钟内发送“守护”守护他，或“放弃”。")
            g.start_deadline(g.night_key(guard.name, "守护"), [guard.name], "守护", "feedback")

    def resolve_night(self, g: Game) -> list[tuple[str, str]]:
        s, a = g.state, g.night.actions
        out: list[tuple[str, str]] = []
        # (6) 指杀结算: "被指杀的角色如果是<救药>的目标，此次有效指杀不会导致角色出局。二、被指杀的角色出局。"
        if "杀人" in a and not ("救药" in a and a["救药"][1] == a["杀人"][1]):
            out.append((a["杀人"][1], "杀人"))
        # (7) 附加刀结算 — "救药对<假痴不癫>的附加刀无效。"
        if "附加刀" in a:
            out.append((a["附加刀"][1], "附加刀"))
        # (8) 毒药结算
        if "毒药" in a:
            out.append((a["毒药"][1], "毒药"))
        # (9) 最后的守护结算: "若出局角色被锈盾守卫选择并守护，则其不出局。"
        if "最后的守护" in a:
            guard = s.player(a["最后的守护"][0])
            target = a["最后的守护"][1]
            harmed = any(name == target for name, _ in out)
            if "守护" in a and harmed:
                # "成功守护一名角色后，锈盾守卫失去技能。"
                out = [(n, c) for n, c in out if n != target]
                guard.lost.add("最后的守护")
                g.tell(f"player:{guard.name}", "守护成功，你失去了技能<最后的守护>。")
            last = s.carry.get("guard_last")
            # "若锈盾守卫连续两晚选择同一名角色，且该角色这两晚均未受到伤害，则锈盾守卫也会失去技能。"
            if last and last == (g.night.number - 1, target, False) and not harmed:
                guard.lost.add("最后的守护")
                g.tell(f"player:{guard.name}", "你连续两晚选择了同一名未受伤害的角色，失去了技能<最后的守护>。")
            s.carry["guard_last"] = (g.night.number, target, harmed)
        if "诽谤" in a:
            s.carry["crow_last"] = (g.night.number, a["诽谤"][1])
            s.carry["slander_next"] = a["诽谤"][1]
        seen: set[str] = set()
        out = [(n, c) for n, c in out if not (n in seen or seen.add(n))]
        if g.night.number == 1:
            # "第一个夜晚需要公示的信息以及出局名单在警长竞选完毕之后公布" with "不区分警上与警下，所有玩家都可以投票和
            # 被投票" and "警长……在第一夜出局": night 1's victims go out when the list is published after the
            # election. Until then they are told nothing and take part in it; the list is the night's.
            s.carry["held_deaths"] = out
            g.night.deaths.extend(n for n, _ in out)
            if out:
                g.tell("director", "第一夜出局：" + "、".join(f"{g.label(s.player(n))}（{c}）" for n, c in out)
                       + "。名单在警长竞选完毕之后公布；在此之前他们不会被告知，仍可以投票和被投票。")
            return []
        return out

    # --- the day -----------------------------------------------------------------------------------------
    def morning(self, g: Game, night_deaths: list[str]) -> None:
        # "第一个夜晚需要公示的信息以及出局名单在警长竞选完毕之后公布。" — night 1's list waits (resolve_night).
        if g.state.day_no > 1 and "held_deaths" in g.state.carry:
            # the election was never counted: night 1's list goes out with day 2's 开门, as night 1's
            self._night_one_out(g, earlier=True)
        elif g.state.day_no > 1:
            g.announce(night_deaths)

    def after_election(self, g: Game, elected: str | None) -> None:
        super().after_election(g, elected)
        self._night_one_out(g)

    def _night_one_out(self, g: Game, earlier: bool = False) -> None:
        """Night 1's victims go out and are published: after the election, or at day 2's 开门 when it was
        never counted. One elected is "警长……在第一夜出局": asked for <殉职> as he goes out (after_death).
        One a red card took out meanwhile is out already and not on the list."""
        s = g.state
        if "held_deaths" not in s.carry:
            return
        out = []
        for name, cause in s.carry.pop("held_deaths"):
            if s.player(name).alive:
                out.append(name)
                g.kill(s.player(name), cause, at=("night", 1))
        g.fresh[:] = [n for n in g.fresh if n not in out]  # published in the list below, not by day
        g.announce(out, earlier=earlier)

    def begin_day(self, g: Game) -> None:
        s = g.state
        # 诽谤: "其在下一个游戏日投票时被投票数多计一票" and "诽谤仅对放逐投票有效，对警长竞选投票无效" — the
        # next game day after night 1 is the 警长竞选日, so night 1's 诽谤 counts nowhere.
        s.carry["slander_today"] = s.carry.pop("slander_next", None)
        target = s.carry["slander_today"]
        if target and "exile" in s.day.votes:
            g.start_deadline(_slander_key(g), [], "公示被诽谤的角色", "slander")

    def timeout(self, g: Game, key: str) -> list[str]:
        s = g.state
        if key == _slander_key(g) and g.phase == "day" and s.carry.get("slander_today") and not s.carry.get("slander_shown"):
            s.carry["slander_shown"] = True
            g.tell("public", f"乌鸦诽谤的角色：{g.label(s.player(s.carry['slander_today']))}（今天放逐投票多计一票）")
            return [key]
        return []

    def closing(self, g: Game) -> None:
        # "乌鸦诽谤对象在关门前1小时公示" belongs to the day: a day closed before that hour publishes nothing in
        # the night (the count, if made, named the 诽谤 among its weights).
        s = g.state
        if s.carry.get("slander_today") and "exile" in s.day.votes and not s.carry.pop("slander_shown", False):
            g.emit(DeadlineEnd(_slander_key(g)))
            g.tell("director", "今天提前关门，乌鸦诽谤的公示时间（关门前1小时）未到：不再公示。")

    def count_notes(self, g: Game, kind: str, ballots: list) -> list[tuple[str, bool]]:
        notes = super().count_notes(g, kind, ballots)
        if kind == "exile" and (bonus := self.exile_bonus(g)):
            notes += [(f"乌鸦诽谤：{g.label(g.state.player(name))} 多计一票", True) for name in bonus]
        return notes

    def no_vote_card(self, g: Game) -> str | None:
        # 投票规则: "讨论结束时，未回复投票帖者将被判罚黄牌"; 潜水: "在未执行加速的讨论日未投票" (黄牌);
        # 讨论日长短: "执行加速时，所有人不可改票，且发言不足或未投票者将不被判罚。"
        if g.state.carry.get("sped_up"):
            return None
        return "讨论结束时，未回复投票帖者将被判罚黄牌（执行加速时不判罚）"

    def day_options(self, g: Game, name: str) -> list[str]:
        # 自爆: "除竞选日外的游戏日白天" — a wolf's (the 感染白痴's too) for as long as today's vote is not counted
        p, day = g.state.player(name), g.state.day
        if (g.phase == "day" and p.alive and p.role in ("狼人", "感染白痴") and "exile" in day.votes
                and "exile" not in day.counted and not day.called_off):
            return ["<自爆>：发送“自爆”（你出局，今天不再投票，已发表的投票无效）"]
        return []

    def exile_bonus(self, g: Game) -> dict[str, Fraction]:
        target = g.state.carry.get("slander_today")
        if target and g.state.player(target).alive:
            return {target: Fraction(1)}
        return {}

    # --- deaths --------------------------------------------------------------------------------------------
    def after_death(self, g: Game, p: Player, cause: str) -> None:
        s = g.state
        if s.carry.get("badge_of") == p.name and cause != "红牌":
            # 殉职: "警长并非因红牌罚下而出局后，可以选择一名未出局的角色来继任警长" — every way out but the red card.
            # The limit "警长被投票出局或在第一夜出局，关门三十分钟后" names the two whose death is published at a
            # 关门 (the count; night 1's list after the election); a sheriff out on a later night has it from
            # the 关门 of the day his death is published. Asked when the death is public: at once by day,
            # at 开门 after a night.
            g.when_public("殉职", p)
        if p.role == "感染白痴" and cause == "投票":
            # 假痴不癫<强制>: "若其是第一个在白天出局的狼人 … 附加刀 …；若其不是第一个在白天出局的狼人 … 查验".
            # Its own <自爆> "不会触发<假痴不癫>" (cause 自爆 never reaches here).
            earlier = [q for q in s.players if q.name in s.teams[PACK] and q.name != p.name and q.death and q.death[0] == "day"]
            s.carry["next_night_extra"] = "查验" if earlier else "附加刀"

    def red_card_instead(self, g: Game, p: Player, cancelled: list[str]) -> list[str]:
        s = g.state
        changes = []
        if p.role == "感染白痴" and s.carry.pop("next_night_extra", None):
            # 假痴不癫<强制>: "当感染白痴因投票出局时" — he did not go out by the vote.
            changes.append("取消<假痴不癫>：狼群下一个夜晚没有附加刀或查验")
        if "殉职" in cancelled:
            # "红牌罚下出局的角色……不能发动警长<殉职>": nobody succeeds him.
            g.tell("public", f"{g.label(p)} 被红牌罚下，不能发动<殉职>，本局不再有警长")
            changes.append("本局不再有警长")
        return changes

    def public(self, g: Game, what: str, p: Player) -> None:
        # 殉职, once the sheriff's death is public (Game.when_public)
        g.ask(p, "殉职", "你已出局，可以<殉职>：发送“殉职 座位号”移交警徽，或“殉职 撕”撕毁警徽（关门后30分钟内有效）。", "badge")

    def expire(self, g: Game, pending: Pending) -> None:
        if pending.skill == "殉职":
            # "关门三十分钟后仍未与导演取得联系，视为放弃移交警长。"
            g.tell("public", f"{pending.who} 未移交警徽，本局不再有警长")

    def has_last_words(self, g: Game, p: Player, cause: str) -> bool:
        # Note 8 and 遗言: "第一夜出局的人有遗言，之后白天出局的人有遗言，之后夜晚出局的人无遗言。"
        # "红牌罚下出局的角色没有遗言权利"
        if cause == "红牌":
            return False
        return g.phase == "day" or (g.phase == "night" and g.night.number == 1)

    # --- win and loss ----------------------------------------------------------------------------------------
    def check_end(self, g: Game) -> None:
        s = g.state
        if s.phase == "over":
            return
        # "一个阵营判负时，另外一个阵营自动获胜。"
        if WOLVES in s.lost:
            return g.win(VILLAGE)
        if VILLAGE in s.lost:
            return g.win(WOLVES)

        # every living player holds one vote, the sheriff his 1.5 (counted once: win checks run often)
        alive = s.alive()
        wolf_votes = Fraction(sum(p.faction == WOLVES for p in alive))
        total = Fraction(len(alive))
        sheriff = s.player(s.sheriff) if s.sheriff else None
        if sheriff is not None and sheriff.alive:
            total += self.sheriff_weight - 1
            if sheriff.faction == WOLVES:
                wolf_votes += self.sheriff_weight - 1
        # 狼人阵营 胜: "狼人阵营持有的票数占总票数的一半或一半以上。"
        wolves_win = total > 0 and wolf_votes * 2 >= total
        # 村民阵营 负: "预言家、女巫、乌鸦、锈盾守卫出局" / "全部村民出局"
        village_lost = all(not p.alive for p in s.with_role(*SPECIALS)) or all(not p.alive for p in s.with_role("村民"))
        # 狼人阵营 负: "狼群内的角色全部出局"
        wolves_lost = all(not s.player(n).alive for n in s.teams[PACK])
        # "若两个阵营同时达到胜利条件，则狼人阵营获胜。"
        if wolves_win or village_lost:
            g.win(WOLVES)
        elif wolves_lost:
            g.win(VILLAGE)

    def surrender_voters(self, g: Game, faction: str) -> list[str]:
        # 投降: "狼人阵营可以由阵营中的某一角色发起投降 … 需要询问狼群中所有角色 … （包括已出局角色）"
        return list(g.state.teams[PACK]) if faction == WOLVES else []
