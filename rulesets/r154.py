"""[154] 舟帝后宫 — 20 players, three factions, a hidden identity. Checkable against
`docs/posts/154-舟帝后宫.txt` line by line.

Each rule carries the post's words; where the post is ambiguous the reading chosen is written next
to it and listed in docs/rules-154.md.
"""
from __future__ import annotations

from fractions import Fraction

from engine import skills, votes
from engine.errors import Rejected
from engine.game import ABSTAIN, Game
from engine.ruleset import Quota, Role, Ruleset, Skill, TimeLimit
from engine.skills import living_with_role, night_target, once_tonight
from engine.state import Pending, Player

GHOSTS, SCHOLARS, YAO = "女鬼阵营", "书生阵营", "黑山老妖阵营"
COVEN, BROTHERS = "女鬼群", "兄弟群"
NING = "宁采臣"
# "书生阵营的书生（不含兄弟书生）": the 8 赶考书生, 宁采臣 among them while he is a 书生
SCHOLAR_ROLES = ("赶考书生", NING)
# 宁采臣's fate, in marks["命运"]; absent while he is still the 宁采臣 小倩 may find
FOUND, ORDINARY, FATED = "入群", "普通", "天命"
# every 吸精 of a night, in the post's night order: (2) 黑山老妖, (5) the ghosts
YAO_SUCK = "老妖吸精"
GHOST_SUCKS = ("吸精", "冲锋", "额外吸精")
# the night slots whose choice 通灵 senses
SUCK_SLOTS = ("黑山老妖", "吸精", "冲锋", "额外吸精")
# the cause a standing 吸精 gives its death: 冲锋 is the 姥姥's own ("可以吸食一名角色")
CAUSE = {YAO_SUCK: "吸精", "吸精": "吸精", "冲锋": "冲锋", "额外吸精": "吸精"}


def _ning(g: Game) -> Player | None:
    return next(iter(g.state.with_role(NING)), None)


def _fate(p: Player) -> str | None:
    return p.marks.get("命运")


def _pair(night: int) -> int:
    # 黑山老妖: "游戏日每两晚（1-2晚、3-4晚，以此类推）选择一晚"
    return (night + 1) // 2


def _yao_options(p: Player, night: int) -> list[str]:
    return [skill for skill in ("吸精", "妖隐") if _pair(p.marks.get(f"{skill}夜", 0)) != _pair(night)]


def _coven_member(g: Game, actor: Player, refusal: str) -> None:
    # 吸精: "该阵营共群的女鬼可以共同吸食一名角色" — the group's skill, 宁采臣 included once he joins it.
    if actor.name not in g.state.teams[COVEN]:
        raise Rejected(refusal)


def _ghosts_may_suck(g: Game) -> None:
    # "女鬼阵营优先判负后，女鬼阵营失去吸精技能。"
    if GHOSTS in g.state.lost:
        raise Rejected("女鬼阵营已经判负，失去了<吸精>")


# --- night: (1) 江湖郎中 ----------------------------------------------------------------------------
def needle(g: Game, actor: Player, target) -> None:
    # 针灸: "游戏日夜晚，江湖郎中可以针灸一名角色，使对其当晚的所有<吸精>无效。"
    night_target(g, actor, "针灸", target)


# --- night: (2) 黑山老妖 ----------------------------------------------------------------------------
def suck(g: Game, actor: Player, target) -> None:
    """吸精 is the ghosts' team skill and 黑山老妖's own, under one word."""
    if actor.role == "黑山老妖":
        return _yao_suck(g, actor, target)
    # 吸精: "游戏日夜晚，该阵营共群的女鬼可以共同吸食一名角色。"
    _coven_member(g, actor, "只有女鬼群成员（共同吸精）和黑山老妖可以发动<吸精>")
    _ghosts_may_suck(g)
    once_tonight(g, "吸精", COVEN)
    if target is None:
        return skills.team_passes(g, actor, COVEN, "吸精")
    t = g.living_target(target, "吸精")
    g.night.actions["吸精"] = (actor.name, t.name)
    g.mark_done(COVEN, "吸精")
    g.tell(f"team:{COVEN}", f"{actor.name} 提交了今晚的吸精：{g.label(t)}。已确认，不能更改。")


def _yao_decides(g: Game, actor: Player, skill: str) -> None:
    # "可以选择吸精一名角色或妖隐": one of the two a night, each once in its pair of nights.
    if g.decided(actor.name, "黑山老妖"):
        raise Rejected("黑山老妖今晚已经行动、放弃或超过时限")
    if skill not in _yao_options(actor, g.night.number):
        p = _pair(g.night.number)
        raise Rejected(f"第{2 * p - 1}-{2 * p}晚的<{skill}>已经用过：每两晚中只能有一晚{skill}")


def _yao_suck(g: Game, actor: Player, target) -> None:
    # 吸精: "游戏日每两晚（1-2晚、3-4晚，以此类推）选择一晚，可以吸精一名角色。"
    _yao_decides(g, actor, "吸精")
    t = g.living_target(target, "吸精")
    actor.marks["吸精夜"] = g.night.number
    g.night.actions[YAO_SUCK] = (actor.name, t.name)
    g.mark_done(actor.name, "黑山老妖")
    g.tell(f"player:{actor.name}", f"已收到：吸精 {g.label(t)}。")


def hide(g: Game, actor: Player, target) -> None:
    # 妖隐: "游戏日每两晚（1-2晚、3-4晚，以此类推）选择一晚，可以发动妖隐。<妖隐>发动的夜晚，黑山老妖被有效吸精时
    # 不会出局；当道士查验老妖时，反馈为<书生阵营>。"
    _yao_decides(g, actor, "妖隐")
    actor.marks["妖隐夜"] = g.night.number
    g.night.actions["妖隐"] = (actor.name, None)
    g.mark_done(actor.name, "黑山老妖")
    g.tell(f"player:{actor.name}", "已收到：妖隐。今晚被吸精不会出局，被道士查验为书生阵营。")


# --- night: (3) 小倩 ------------------------------------------------------------------------------------
def search(g: Game, actor: Player, target) -> None:
    # 执子之手: "前三个游戏日夜晚，小倩会优先其阵营在存活名单中寻找宁采臣。搜寻成功，则宁采臣加入女鬼阵营，入群。"
    if g.night.number > 3:
        raise Rejected("<执子之手>只能在前三个夜晚发动")
    ning = _ning(g)
    if ning and _fate(ning) == FOUND:
        raise Rejected("你已经找到了宁采臣，不需要再发动<执子之手>")
    once_tonight(g, "执子之手", actor.name)
    t = g.living_target(target, "执子之手")
    # 命中注定: after 天命 "与小倩一刀两断"; after three nights "转化普通赶考书生": no longer to be found.
    found = t.role == NING and _fate(t) is None
    g.night.actions["执子之手"] = (actor.name, t.name)
    g.mark_done(actor.name, "执子之手")
    g.give_feedback(actor, "执子之手", t.name, found,
                    f"执子之手：{g.label(t)} " + ("正是宁采臣！他加入女鬼阵营和女鬼群。" if found else "不是宁采臣。"))
    if found:
        _join_ghosts(g, t)


def _join_ghosts(g: Game, ning: Player) -> None:
    # "宁采臣进入女鬼群后，身份变鬼，胜利条件同女鬼阵营。"
    ning.faction = GHOSTS
    ning.marks["命运"] = FOUND
    # he learns who he is before the group's invitation reaches him
    g.tell(f"player:{ning.name}", "你就是宁采臣：小倩找到了你。你现在属于女鬼阵营，加入女鬼群，胜利条件同女鬼阵营，可以与女鬼群共同<吸精>。")
    g.set_team(COVEN, g.state.teams[COVEN] + [ning.name])
    g.tell(f"team:{COVEN}", f"小倩找到了宁采臣：{g.label(ning)} 加入女鬼阵营和女鬼群。")
    g.tell("director", f"{g.label(ning)}（宁采臣）加入女鬼阵营")
    # a change of faction can meet a win or loss condition at once ("游戏状态满足……游戏立即结束")
    g.rules.check_end(g)


# --- night: (4) 除妖道士 ---------------------------------------------------------------------------------
def foresee(g: Game, actor: Player, target) -> None:
    # 预言: "除妖道士可以选择一名角色查验其阵营。" The result waits for 黑山老妖 (2) and 小倩 (3): both act
    # before him and both can change it (妖隐, a 宁采臣 found). It waits even when his target is neither,
    # so the delay itself tells him nothing.
    once_tonight(g, "预言", actor.name)
    t = g.living_target(target, "预言")
    g.night.actions["预言"] = (actor.name, t.name)
    g.mark_done(actor.name, "预言")
    g.tell(f"player:{actor.name}", f"已收到：预言 {g.label(t)}。结果随后反馈。")


def _foresee_result(g: Game, taoist: Player) -> None:
    a = g.night.actions
    t = g.state.player(a["预言"][1])
    # 命中注定【强制技】: "被道士<预言>时反馈<书生阵营>，道士因此出局" — only while he is still the 宁采臣 to be
    # found: once in the ghost group "身份变鬼"; after three nights "被预言不会弹死道士".
    fated = t.role == NING and _fate(t) is None
    hidden = "妖隐" in a and t.role == "黑山老妖"
    # "若该角色属于书生阵营，反馈<书生阵营>；否则，反馈<非书生阵营>。"
    result = SCHOLARS if fated or hidden or t.faction == SCHOLARS else "非" + SCHOLARS
    g.give_feedback(taoist, "预言", t.name, result, f"预言结果：{g.label(t)} 是<{result}>")
    if fated:
        # 天命: "若当晚预言技能所指正是宁采臣，则道士遭遇天命反噬，当即出局。" — "与小倩一刀两断，永保书生阵营。"
        t.marks["命运"] = FATED
        a["天命"] = (taoist.name, t.name)
        g.tell(f"player:{taoist.name}", "你遭遇天命反噬，当即出局（天亮时公示）。")
        g.tell("director", f"{g.label(taoist)} 预言到宁采臣 {g.label(t)}，天命反噬出局；宁采臣永保书生阵营")


# --- night: (5) 女鬼阵营 ------------------------------------------------------------------------------
def charge(g: Game, actor: Player, target) -> None:
    # 冲锋: "游戏日夜晚，可以吸食一名角色。当任意一名女鬼群内角色因除红牌罚下以外的原因出局后，姥姥失去<冲锋>。"
    if "冲锋" in actor.lost:
        raise Rejected("树精姥姥已经失去<冲锋>：女鬼群内已有角色出局")
    _ghosts_may_suck(g)
    night_target(g, actor, "冲锋", target)


def fury(g: Game, actor: Player, target) -> None:
    # 姥姥之怒【限定技】: "任意游戏日夜晚，在该阵营吸食角色时，可以附加姥姥之怒。被附加此技能死去的角色立即出局，蛊女和
    # 郎中技能皆对其束手无策。此技能每局游戏仅限使用一次。" Attached to the group's 吸精 of the night: sent with a
    # target it is that 吸精 ("姥姥之怒 座位号"); sent bare it joins the 吸精 already sent, until the night
    # settles. Nothing waits for it: 通灵 comes once the 吸精 is in, and the fury may follow it.
    if "姥姥之怒" in actor.used:
        raise Rejected("<姥姥之怒>每局游戏仅限使用一次，已经用过")
    _ghosts_may_suck(g)
    sent = g.night.actions.get("吸精")
    if sent is None and g.decided(COVEN, "吸精"):
        raise Rejected("女鬼群今晚已经放弃<吸精>或已超过时限：<姥姥之怒>没有可以附加的吸精")
    if sent is None and target is None:
        raise Rejected("女鬼群今晚还没有<吸精>：发送“姥姥之怒 座位号”吸精并附加姥姥之怒，或在女鬼群吸精之后发送“姥姥之怒”")
    t = g.living_target(target, "姥姥之怒") if target is not None else g.state.player(sent[1])
    if sent and t.name != sent[1]:
        raise Rejected(f"女鬼群今晚已经吸精 {g.label(g.state.player(sent[1]))}：<姥姥之怒>只能附加到这次吸精（发送“姥姥之怒”）")
    actor.used.add("姥姥之怒")
    g.night.actions["姥姥之怒"] = (actor.name, t.name)
    if sent:
        g.tell(f"team:{COVEN}", f"{actor.name} 为今晚的吸精 {g.label(t)} 附加了<姥姥之怒>。已确认，不能更改。")
        return
    g.night.actions["吸精"] = (actor.name, t.name)
    g.mark_done(COVEN, "吸精")
    g.tell(f"team:{COVEN}", f"{actor.name} 提交了今晚的吸精：{g.label(t)}，附加<姥姥之怒>。已确认，不能更改。")


def extra_suck(g: Game, actor: Player, target) -> None:
    # 以爱之名: "累计3点痴情指数，女鬼阵营当晚可额外吸精一人。" — named 额外吸精 after these words.
    _coven_member(g, actor, "只有女鬼群成员可以发动<额外吸精>")
    if not g.state.carry.get("extra_tonight"):
        raise Rejected("女鬼阵营今晚没有额外吸精")
    _ghosts_may_suck(g)
    once_tonight(g, "额外吸精", COVEN)
    if target is None:
        return skills.team_passes(g, actor, COVEN, "额外吸精")
    t = g.living_target(target, "额外吸精")
    g.night.actions["额外吸精"] = (actor.name, t.name)
    g.mark_done(COVEN, "额外吸精")
    g.tell(f"team:{COVEN}", f"{actor.name} 提交了今晚的额外吸精：{g.label(t)}。已确认，不能更改。")


# --- night: (6) 苗疆蛊女 ------------------------------------------------------------------------------
def save(g: Game, actor: Player, target) -> None:
    # 救药: "蛊女可以选择一名角色，对其使用救药。该角色当晚不会因被吸精而出局。<救药>发动后，在该夜晚不可发动技能
    # <毒药>。<救药>使用后，蛊女失去技能<救药>。蛊女失去<救药>技能后，失去技能<通灵>。" — "一名角色": herself too.
    skills.save(g, actor, target, slot="蛊女", self_save_refusal=None)


def poison(g: Game, actor: Player, target) -> None:
    # 毒药: "该角色在夜晚结束前出局。<毒药>发动后，蛊女失去技能<毒药>，且在该夜晚不可发动技能<救药>。"
    skills.poison(g, actor, target, slot="蛊女")


# --- decisions --------------------------------------------------------------------------------------
def last_blade(g: Game, actor: Player, target) -> None:
    # 最后一刀: "当刀客并非因红牌罚下而出局后，刀客可以选择一名其他角色，对其开刀。该角色立即出局。"
    pending = g.pending_for(actor.name, "最后一刀")
    if target is None:
        g.settle(pending)
        g.tell(f"player:{actor.name}", "已收到：放弃<最后一刀>。")
        return
    t = g.living_target(target, "最后一刀")  # "其他角色": he is out himself by now
    g.settle(pending)
    g.tell(f"player:{actor.name}", f"已收到：最后一刀 {g.label(t)}。")
    g.kill(t, "最后一刀")
    # "投票结束后，因……刀客<最后一刀>而出局而角色……立即公示"
    g.publish_deaths([t.name], "最后一刀")


def hand_over(g: Game, actor: Player, target) -> None:
    # 殉职<强制>: "警长并非因红牌罚下而出局后，须选择一名未出局的角色来继任警长。" — no tearing the badge here.
    skills.hand_over(g, actor, target)


class R154(Ruleset):
    id = "154"
    title = "[154]『舟帝后宫~爱欲の罪与罚』"
    # "★20人局（1树精姥姥，1小倩，3女鬼，1黑山老妖，1除妖道士，1苗疆蛊女，1绝命刀客，1江湖郎中，2兄弟考生，8赶考书生）"
    # "八人人中包含宁采臣" and "兄弟赶考书生不存在宁采臣": one of the 8 赶考书生 is secretly 宁采臣.
    # 女鬼阵营: "开局与小倩和其他女鬼共群"; 兄弟考生: "导演会为女鬼阵营，兄弟赶考书生各自建立一个QQ群".
    roles = (
        Role("树精姥姥", GHOSTS, 1, team=COVEN, summary="与女鬼群共同<吸精>；<冲锋>：每晚可以另外吸精一名角色，女鬼群内有角色非因红牌出局后失去；<姥姥之怒>（每局一次）：附加到女鬼群当晚的吸精（“姥姥之怒 座位号”吸精并附加，或吸精之后发送“姥姥之怒”），该吸精不能被救药和针灸阻止"),
        Role("小倩", GHOSTS, 1, team=COVEN, summary="与女鬼群共同<吸精>；<执子之手>：前三夜每晚寻找一次宁采臣，找到则他加入女鬼阵营；<殉情>（强制）：宁采臣因女鬼阵营吸精出局时殉情出局"),
        Role("女鬼", GHOSTS, 3, team=COVEN, summary="与女鬼群共同<吸精>"),
        Role("黑山老妖", YAO, 1, summary="每两晚（1-2、3-4…）中一晚可以<吸精>一名角色，一晚可以<妖隐>：当晚被吸精不出局，被道士查验为书生阵营"),
        Role("除妖道士", SCHOLARS, 1, summary="夜晚<预言>一名角色是否属于书生阵营"),
        Role("苗疆蛊女", SCHOLARS, 1, summary="<通灵>（强制）得知当晚被吸精的角色；<救药>（一次，可以自救）；<毒药>（一次）；同一夜只能用其中一种"),
        Role("绝命刀客", SCHOLARS, 1, summary="非因红牌出局后可以<最后一刀>使一名其他角色出局"),
        Role("江湖郎中", SCHOLARS, 1, summary="夜晚<针灸>一名角色，使其当晚被吸精无效；同一角色累计两次空针出局"),
        Role("兄弟考生", SCHOLARS, 2, team=BROTHERS, summary="与另一名兄弟考生共群商量；没有技能"),
        Role("赶考书生", SCHOLARS, 8, summary="没有技能"),
        Role(NING, SCHOLARS, 1, hidden_as="赶考书生", summary="（隐藏身份：本人收到的身份是赶考书生）<以爱之名>、<命中注定>"),
    )
    first_phase = "night"  # 总体流程: "0、分发身份。1、所有角色的阵营确定。……2、进入夜晚"
    sheriff_weight = Fraction(3, 2)  # 带队<强制>: "计算投票数量时警长投出的票计为1.5票。"
    announce_order = "death"  # "公示出局名单时按角色出局的顺序排序。"
    # 红牌: "判下红牌的同时，导演有权视情况决定是否直接使该玩家所在的阵营判负" — never by count.
    red_cards_to_lose = None
    # "游戏状态满足某阵营胜利条件之一，游戏立即结束" … "宣布阵营获得胜利会立即终止一切结算。"
    judge_each_death = True
    # "并在投票结束前一个半至两个小时之间提醒玩家投票": at the start of that window, two hours before 关门, so that a
    # reminder sent a little late still falls inside it (docs/rules-*.md)
    vote_reminder = TimeLimit("close", -120, "导演会在投票结束前一个半至两个小时之间提醒玩家投票。")
    limits = {
        "night": TimeLimit("close", 30, "关门半小时后，郎中、道士、小倩、刀客、女鬼阵营/黑山老妖未与导演取得联系，均为放弃夜晚行动。"),
        "蛊女": TimeLimit("clock", 22 * 60, "夜晚十点前、蛊女仍未给导演答复，视为放弃夜晚行动。"),
        "badge": TimeLimit("close", 30, "警长被投票出局，关门三十分钟后仍未与导演取得联系，警长随机指定。"),
        "blade": TimeLimit("close", 30, "关门半小时后，郎中、道士、小倩、刀客、女鬼阵营/黑山老妖未与导演取得联系，均为放弃夜晚行动。"),
    }
    # 行动时限, as the post writes it
    deadline_rules = (
        "警长在投票结束后需要发动技能；",
        "警长被投票出局，关门三十分钟后仍未与导演取得联系，警长随机指定。随机移交的方式由导演组提前安排，游戏结束以后公示。",
        "关门半小时后，郎中、道士、小倩、刀客、女鬼阵营/黑山老妖未与导演取得联系，均为放弃夜晚行动。",
        "夜晚十点前、蛊女仍未给导演答复，视为放弃夜晚行动。",
        "在次日游戏日开始前，有遗言权利的出局玩家未提交遗言，视为放弃遗言。",
    )
    # 讨论日长短: the post sets none ("投票帖与讨论日一同开门，一同关门"): the director names each closing time.
    change_cutoff = Quota(60, "白天结束前一个小时不得改票，时间以论坛发帖时间为准。")
    potion_slot = "蛊女"
    harm_word = "吸精"  # <通灵>: "得知当晚被吸精的角色"
    # "游戏进行期间以任何方式出局的角色均不公示其身份": only 小倩 can 殉情, so the word would name her and 宁采臣
    secret_causes = frozenset({"殉情"})

    def told_as(self, g: Game, p: Player) -> str:
        # "你就是宁采臣": once 小倩 has found him he knows; until then he is a 赶考书生 to himself too
        return NING if p.role == NING and _fate(p) == FOUND else super().told_as(g, p)

    def slot_text(self, g: Game, who: str, slot: str) -> str | None:
        # 黑山老妖: "游戏日每两晚（1-2晚、3-4晚，以此类推）选择一晚，可以吸精……选择一晚，可以发动妖隐" — what this pair of nights leaves him
        if slot == "黑山老妖":
            left = _yao_options(g.state.player(who), g.night.number)
            return " / ".join([{"吸精": "吸精 座位号", "妖隐": "妖隐"}[o] for o in left] + ["放弃"])
        return None

    def speed_up_needed(self, living: int) -> int:
        # 玩家须知 8: "若场上未出局的玩家过半数同意加速则执行加快进程" — more than half
        return living // 2 + 1

    def no_vote_card(self, g: Game) -> str | None:
        # 投票规则: "没有投票（或弃票）的玩家将记作一张黄牌"; 潜水: "在未加快进程的任一讨论日未投票" — a sped-up day's is not judged
        if g.state.carry.get("sped_up"):
            return None
        return "没有投票（或弃票）的玩家将记作一张黄牌（加快进程后不判罚）"

    def no_vote_cards(self, g: Game) -> tuple[str, ...]:
        return () if g.state.carry.get("sped_up") else ("黄牌",)

    skills = {
        s.name: s
        for s in (
            # team: the ghosts' 吸精 is sent for the group by any living member; 黑山老妖 sends his own
            Skill("吸精", "night", suck, aliases=("吸",), team=True),
            Skill("冲锋", "night", charge, aliases=("冲",), holders=("树精姥姥",)),
            Skill("姥姥之怒", "night", fury, aliases=("怒",), holders=("树精姥姥",), attaches_to="吸精"),
            Skill("额外吸精", "night", extra_suck, aliases=("痴情", "额外"), team=True),
            Skill("执子之手", "night", search, aliases=("寻找", "找"), holders=("小倩",)),
            Skill("妖隐", "night", hide, aliases=("隐",), takes_target=False, holders=("黑山老妖",)),
            Skill("预言", "night", foresee, aliases=("查", "验"), holders=("除妖道士",)),
            Skill("救药", "night", save, aliases=("救",), holders=("苗疆蛊女",)),
            Skill("毒药", "night", poison, aliases=("毒",), holders=("苗疆蛊女",)),
            Skill("针灸", "night", needle, aliases=("针",), holders=("江湖郎中",)),
            Skill("最后一刀", "decision", last_blade, aliases=("开刀", "刀")),
            Skill("殉职", "decision", hand_over, aliases=("移交", "警徽")),
        )
    }

    # --- phases: night 1 → day 1 (election and exile) → night 2 → day 2 (exile) ... ---------------------
    def day_votes(self, day_no: int) -> frozenset[str]:
        # "第一天讨论日结束，最先高票者当选警长，出人票最高者出局。" The 用语定义 says "第一天白天，获得投票最多
        # 的角色将成为警长。第二天及以后的白天，获得投票最多的角色将出局" — the 流程 holds both on day 1; so do we.
        return frozenset({"election", "exile"}) if day_no == 1 else frozenset({"exile"})

    def today_votes(self, g: Game) -> frozenset[str]:
        # 警长：1人. A 宁采臣 who took the badge by 命中注定 in night 1 holds the one badge: no election follows,
        # even when he went out the same night and the badge is passing on by <殉职>.
        held = self.day_votes(g.state.day_no)
        return held - {"election"} if g.state.carry.get("badge_taken") else held

    def tie_rule(self, g: Game, kind: str) -> votes.TieRule:
        # 竞岗<强制>: "最先获得投票数最多的角色当选警长。"; exile: "平票则无人出局。"
        return votes.first_to_reach if kind == "election" else votes.nobody

    def start_game(self, g: Game) -> None:
        # "女鬼，姥姥，小倩共群，兄弟考生共群。"
        for team, members in g.state.teams.items():
            g.set_team(team, members)

    # --- the night ------------------------------------------------------------------------------------
    def _coven_alive(self, g: Game) -> list[str]:
        return [n for n in g.state.teams[COVEN] if g.state.player(n).alive]

    def begin_night(self, g: Game) -> None:
        s, n = g.state, g.night.number
        # 以爱之名: "女鬼阵营当晚可额外吸精一人" — the night after the vote that made the points.
        s.carry["extra_tonight"] = s.carry.pop("extra_next", False)
        asks = {
            "针灸": "你可以<针灸>一名角色（发送“针灸 座位号”）",
            "执子之手": "你可以<执子之手>寻找宁采臣（发送“执子之手 座位号”）",
            "预言": "你可以<预言>一名角色（发送“预言 座位号”）",
            "冲锋": "你可以<冲锋>吸食一名角色（发送“冲锋 座位号”）",
        }
        for who, slot in self.awaiting(g):
            key = g.night_key(who, slot)
            if who == COVEN:
                g.start_deadline(key, self._coven_alive(g), slot, "night")
            elif slot == "蛊女":
                g.start_deadline(key, [who], slot, "蛊女")
                left = [f"{k} 座位号" for k in ("救药", "毒药") if k not in s.player(who).used]
                g.tell(f"player:{who}", f"第{n}夜：" + ("女鬼和黑山老妖行动后你会收到<通灵>反馈，" if "救药 座位号" in left else "")
                       + "夜晚十点前决定：" + " / ".join(left + ["放弃"]) + "。")
            else:
                g.start_deadline(key, [who], slot, "night")
                text = asks.get(slot) or "你今晚可以" + "或".join(
                    {"吸精": "<吸精>一名角色（发送“吸精 座位号”）", "妖隐": "<妖隐>（发送“妖隐”）"}[o]
                    for o in _yao_options(s.player(who), n))
                g.tell(f"player:{who}", f"第{n}夜：{text}，关门后半小时内有效；不发动请发送“放弃”。")
        if any(who == COVEN for who, _ in self.awaiting(g)):
            text = f"第{n}夜：女鬼群可以<吸精>一名角色（发送“吸精 座位号”），关门后半小时内有效。"
            if s.carry["extra_tonight"]:
                text += "今晚女鬼阵营还可以<额外吸精>一人（发送“额外吸精 座位号”）。"
            g.tell(f"team:{COVEN}", text)

    def awaiting(self, g: Game) -> list[tuple[str, str]]:
        """The open decisions, in the post's night order."""
        s, n = g.state, g.night.number
        out: list[tuple[str, str]] = []

        def ask(p: Player | None, slot: str, holds: bool = True) -> None:
            if p and holds and not g.decided(p.name, slot):
                out.append((p.name, slot))

        ask(living_with_role(g, "江湖郎中"), "针灸")
        yao = living_with_role(g, "黑山老妖")
        ask(yao, "黑山老妖", bool(yao and _yao_options(yao, n)))
        ning = _ning(g)
        ask(living_with_role(g, "小倩"), "执子之手", n <= 3 and not (ning and _fate(ning) == FOUND))
        ask(living_with_role(g, "除妖道士"), "预言")
        if GHOSTS not in s.lost:
            for slot in ("吸精", "额外吸精") if s.carry.get("extra_tonight") else ("吸精",):
                if self._coven_alive(g) and not g.decided(COVEN, slot):
                    out.append((COVEN, slot))
            lao = living_with_role(g, "树精姥姥")
            ask(lao, "冲锋", bool(lao and "冲锋" not in lao.lost))
        gu = living_with_role(g, "苗疆蛊女")
        ask(gu, "蛊女", bool(gu and not {"救药", "毒药"} <= gu.used))
        return out

    def _sucks(self, g: Game) -> list[tuple[str, str]]:
        """Tonight's 吸精, as (slot, target) in the night order; the ghosts' only while they have it."""
        a = g.night.actions
        slots = (YAO_SUCK,) + (GHOST_SUCKS if GHOSTS not in g.state.lost else ())
        return [(slot, a[slot][1]) for slot in slots if slot in a]

    def route_feedback(self, g: Game) -> None:
        if g.night.resolved:
            return
        waiting = {slot for _, slot in self.awaiting(g)}
        taoist = living_with_role(g, "除妖道士")
        if taoist and "预言" in g.night.actions and not g.feedback_given(taoist.name, "预言") \
                and not waiting & {"黑山老妖", "执子之手"}:
            _foresee_result(g, taoist)
        gu = living_with_role(g, "苗疆蛊女")
        # 通灵【强制技】: "游戏日夜晚，感知被吸精的角色。" — once every 吸精 of the night is in, 黑山老妖's included.
        if gu and "通灵" not in gu.lost and not g.feedback_given(gu.name, "通灵") and not waiting & set(SUCK_SLOTS):
            seat = {p.name: p.seat for p in g.state.players}
            sucked = sorted({t for _, t in self._sucks(g)}, key=seat.get)
            g.give_feedback(gu, "通灵", None, sucked, skills.sensed(g, sucked, "吸精"))

    def resolve_night(self, g: Game) -> list[tuple[str, str]]:
        """The night's deaths in the order they go out: (4) 天命, (5) 姥姥之怒 ("立即出局"), the second empty
        needle (known once every 吸精 is in), then the 吸精 that stand after (6) the 蛊女, then 毒药
        ("在夜晚结束前出局")."""
        s, a = g.state, g.night.actions
        out: list[tuple[str, str]] = []
        if "天命" in a:
            out.append((a["天命"][0], "天命"))
        sucks = self._sucks(g)
        hidden = a["妖隐"][0] if "妖隐" in a else None
        needled = a["针灸"][1] if "针灸" in a else None
        saved = a["救药"][1] if "救药" in a else None
        raging = "姥姥之怒" in a and GHOSTS not in s.lost
        # 姥姥之怒: "蛊女和郎中技能皆对其束手无策" — the post names only those two, so 妖隐 ("被有效吸精时不会出局")
        # still holds against it.
        if raging and a["吸精"][1] != hidden:
            out.append((a["吸精"][1], "吸精"))
        # 针灸: "若该角色没有成为吸精目标，累计一次空针。一名角色累计两次空针时立即出局。"
        if needled and needled not in {t for _, t in sucks}:
            p = s.player(needled)
            p.marks["空针"] = p.marks.get("空针", 0) + 1
            if p.marks["空针"] == 2:
                out.append((needled, "针灸"))
        for slot, target in sucks:
            if raging and slot == "吸精":
                continue
            # 针灸 "使对其当晚的所有<吸精>无效"; 救药 "该角色当晚不会因被吸精而出局" ("<救药><针灸>同时发生在一人身上时，
            # 救治仍然有效"); 妖隐 "被有效吸精时不会出局".
            if target not in (needled, saved, hidden):
                out.append((target, CAUSE[slot]))
        if "毒药" in a:
            out.append((a["毒药"][1], "毒药"))
        return out

    # --- the day ----------------------------------------------------------------------------------------
    def morning(self, g: Game, night_deaths: list[str]) -> None:
        s = g.state
        ning = _ning(g)
        # "因本次规则屠书生，宁采臣三日未进两狼将转化普通赶考书生" — three nights have passed without 小倩 finding him.
        if s.night_no == 3 and ning and _fate(ning) is None:
            ning.marks["命运"] = ORDINARY
            g.tell("director", f"{g.label(ning)}（宁采臣）三夜未被找到，转化为普通赶考书生")
        g.announce(night_deaths)
        if g.phase == "over":
            return
        heir = s.carry.pop("heir", None)
        if heir:
            # 命中注定: "道士因此出局后，强制公示接任警长。" — posted even when he went out later that night
            # and the badge is passing on.
            g.tell("public", f"{g.label(s.player(heir))} 接任警长")

    def published(self, g: Game, names: list[str]) -> None:
        # 命中注定: "因女鬼阵营<吸精>死亡时，小倩触发<殉情>，两人出局后，公示身份。"
        couple = g.state.carry.get("reveal")
        if couple and set(couple) <= set(names):
            del g.state.carry["reveal"]
            ning, qian = (g.state.player(n) for n in couple)
            g.tell("public", f"身份公示：{g.label(ning)} 是宁采臣，{g.label(qian)} 是小倩（殉情）")

    def counted(self, g: Game, kind: str, ballots: list[tuple[str, str, Fraction]], result: str | None) -> None:
        # 以爱之名【隐藏技】: "除警长票外投票每一位书生阵营之人，增加一点痴情指数（包括弃票）。" 弃票 is read as both
        # a 弃权 ballot and no valid ballot at all (the post's "没有投票（或弃票）"): every exile count in which
        # he did not vote for someone outside the 书生阵营. "累计3点痴情指数，女鬼阵营当晚可额外吸精一人" — at every
        # third point, like the post's "三张【蓝牌】升级为一张【黄牌】". The points count in whatever he has become
        # ("投票书生阵营产生的痴情指数任然有效").
        ning = _ning(g)
        if kind != "exile" or ning is None or not ning.alive:
            return
        vote = next((target for voter, target, _ in ballots if voter == ning.name), ABSTAIN)
        if vote != ABSTAIN and g.state.player(vote).faction != SCHOLARS:
            return
        ning.marks["痴情"] = ning.marks.get("痴情", 0) + 1
        g.tell("director", f"宁采臣 {g.label(ning)} 的痴情指数：{ning.marks['痴情']}")
        if ning.marks["痴情"] % 3 == 0:
            g.state.carry["extra_next"] = True
            g.tell("director", "痴情指数累计3点：女鬼阵营今晚可以额外吸精一人")

    # --- deaths -----------------------------------------------------------------------------------------
    def after_death(self, g: Game, p: Player, cause: str) -> None:
        s = g.state
        if cause != "红牌":
            skills.charge_lost(g, p, COVEN, "树精姥姥")
        if cause == "天命":
            self._heir(g, p)
        if p.role == NING:
            self._xunqing(g, p, cause)
        if s.carry.get("badge_of") == p.name:
            del s.carry["badge_of"]
            if cause == "红牌":
                # "红牌罚下的警长警徽随机移交。"
                self._random_sheriff(g, f"{g.label(p)} 被红牌罚下")
            else:
                g.when_public("殉职", p)
        if p.role == "绝命刀客" and cause != "红牌":
            g.when_public("最后一刀", p)

    def _heir(self, g: Game, taoist: Player) -> None:
        # 命中注定: "道士因此出局后，强制公示接任警长。" 宁采臣 takes the badge from whoever holds it, or takes it
        # while nobody does; a taoist who held it is not asked to <殉职>.
        ning = _ning(g)
        if not ning.alive:
            return
        s = g.state
        if s.carry.get("badge_of") == taoist.name:
            del s.carry["badge_of"]
        s.sheriff = ning.name
        s.carry["heir"] = ning.name
        s.carry["badge_taken"] = True
        g.tell(f"player:{ning.name}", "你接任了警长（天亮时公示）。")
        g.tell("director", f"{g.label(ning)}（宁采臣）强制接任警长")

    def _xunqing(self, g: Game, ning: Player, cause: str) -> None:
        # 殉情【强制技】: "若女鬼阵营当晚吸精之人为宁采臣，小倩痛不欲生，当即殉情出局。" and "因女鬼阵营<吸精>死亡时，
        # 小倩触发<殉情>": when the ghosts' 吸精 (the group's, 冲锋 or 额外吸精) takes him out. Not after 天命
        # ("与小倩一刀两断") nor three nights ("被吸精小倩不再殉情"). Once they share the group any going out does
        # ("但小倩采臣共群后会触发<殉情>" — even a red card). "游戏进行期间以任何方式出局的角色均不公示其身份": only
        # "因女鬼阵营<吸精>死亡时，小倩触发<殉情>，两人出局后，公示身份" — not after any other way out.
        fate = _fate(ning)
        by_ghosts = cause in ("吸精", "冲锋") and g.phase == "night" and any(
            slot in GHOST_SUCKS and target == ning.name for slot, target in self._sucks(g))
        qian = next(iter(g.state.with_role("小倩")), None)
        if qian and qian.alive and (fate == FOUND or (fate is None and by_ghosts)):
            if by_ghosts:
                g.state.carry["reveal"] = [ning.name, qian.name]
            g.kill(qian, "殉情")

    def red_card_instead(self, g: Game, p: Player, cancelled: list[str]) -> list[str]:
        # "红牌罚下出局的角色没有遗言权利，不能发动以下技能：刀客<最后一刀>、警长<殉职>。但小倩采臣共群后会触发<殉情>。
        # 红牌罚下的警长警徽随机移交。" A 殉情 stands; so does a blade already fallen.
        changes = skills.charge_back(g, p, COVEN, g.state.with_role("树精姥姥"))
        if "殉职" in cancelled:
            self._random_sheriff(g, f"{g.label(p)} 被红牌罚下")
            changes.append(f"警徽随机移交给 {g.label(g.state.player(g.state.sheriff))}" if g.state.sheriff else "没有可以继任警长的角色")
        return changes

    def public(self, g: Game, skill: str, p: Player) -> None:
        # asked when the death is public: at once by day, at 开门 after a night (Game.when_public)
        if skill == "殉职":
            g.ask(p, "殉职", "你已出局，须<殉职>：发送“殉职 座位号”选择一名未出局的角色继任警长（关门后30分钟内，否则警长随机指定）。", "badge")
        else:
            g.ask(p, "最后一刀", "你已出局，可以<最后一刀>：发送“最后一刀 座位号”使一名其他角色出局，或“放弃”（关门后30分钟内有效）。", "blade")

    def _random_sheriff(self, g: Game, why: str) -> None:
        skills.random_sheriff(g, why, g.state.alive())

    def expire(self, g: Game, pending: Pending) -> None:
        if pending.skill == "殉职":
            # "警长被投票出局，关门三十分钟后仍未与导演取得联系，警长随机指定。"
            self._random_sheriff(g, f"{pending.who} 未移交警徽")
        else:
            g.tell("director", f"{pending.who} 未在时限内发动<{pending.skill}>，视为放弃")

    def has_last_words(self, g: Game, p: Player, cause: str) -> bool:
        # 遗言: "遗言数量等于女鬼的数量，靠前出局且可以留下遗言的角色会收到可以留下遗言的通知。放弃遗言不会使留遗言的权利
        # 留给以后出局的角色。宁采臣变女鬼后，遗言数量+1。" 女鬼 here is every member of the 女鬼阵营 (the post calls the
        # whole group "女鬼", and 宁采臣 turning adds one): 5, or 6 once he has joined. "红牌罚下出局的角色没有遗言权利".
        if cause == "红牌":
            return False
        ning = _ning(g)
        budget = sum(r.count for r in self.roles if r.faction == GHOSTS) + (1 if ning and _fate(ning) == FOUND else 0)
        return len(g.state.last_words) < budget

    # --- win and loss -----------------------------------------------------------------------------------
    def check_end(self, g: Game) -> None:
        s = g.state
        if s.phase == "over":
            return
        if GHOSTS in s.lost and not s.carry.get("ghosts_told"):
            # "女鬼阵营优先判负后，女鬼阵营失去吸精技能。此事件发生时会通知女鬼阵营。"
            s.carry["ghosts_told"] = True
            g.tell(f"team:{COVEN}", "女鬼阵营已被判负：女鬼阵营失去<吸精>技能（不公示）。")
        living = s.alive()
        # "已经被判负的阵营无法再次达到胜利条件。"
        if GHOSTS not in s.lost:
            ghosts = [p for p in living if p.faction == GHOSTS]
            # 女鬼阵营 胜 1: "女鬼阵营存活的人数占总存活人数的一半或一半以上。"
            # 女鬼阵营 胜 2: "书生阵营和黑山老妖阵营判负。"
            if (living and 2 * len(ghosts) >= len(living)) or {SCHOLARS, YAO} <= set(s.lost):
                return g.win(GHOSTS)
        # "游戏状态满足某阵营失败条件之一，该阵营优先判负。" — in the post's order.
        losses = (
            (GHOSTS, all(not p.alive for p in s.players if p.faction == GHOSTS)),  # "女鬼阵营的角色全部出局"
            # "书生阵营的书生（不含兄弟书生）全部出局"
            (SCHOLARS, all(not p.alive for p in s.players if p.role in SCHOLAR_ROLES and p.faction == SCHOLARS)),
            (YAO, all(not p.alive for p in s.with_role("黑山老妖"))),  # "黑山老妖出局"
        )
        for faction, out in losses:
            if out and faction not in s.lost:
                g.lose(faction)  # judges the game again: a loss can leave one faction standing
                if s.phase == "over":
                    return
        # "场上仅有一个阵营尚未被判负，游戏立即结束，宣布此阵营胜利。"
        left = [f for f in (GHOSTS, SCHOLARS, YAO) if f not in s.lost]
        if len(left) == 1:
            g.win(left[0])

    def surrender_voters(self, g: Game, faction: str) -> list[str]:
        # 投降: "女鬼阵营、黑山老妖阵营均可以由阵营中的某一角色发起投降。投降发起后，女鬼阵营的投降需要询问女鬼群中所有
        # 角色。当所有被询问的角色（包括已出局角色）同意投降，投降有效。" 黑山老妖阵营 is 黑山老妖 alone.
        if faction == GHOSTS:
            return list(g.state.teams[COVEN])
        if faction == YAO:
            return [p.name for p in g.state.with_role("黑山老妖")]
        return []
