"""[154] 舟帝后宫: what the post has that no library entry says — its hidden 宁采臣 and 小倩 who looks for him.
`rulesets/r154.yaml` names this module (`code:`); importing it registers the two identities, and `RULESET`
is the ruleset the file becomes. Every rule carries the post's words (docs/posts/154-舟帝后宫.txt).

宁采臣【隐藏身份】: "懵逼赶考——收到身份为【赶考书生】，同众书生无异。并不知道自己是宁采臣。" His fate, in
marks["命运"]: absent while he is still the 宁采臣 小倩 may find; 入群 once she has; 天命 once the taoist checked
him; 普通 after three nights unfound ("宁采臣三日未进两狼将转化普通赶考书生").
"""
from __future__ import annotations

from fractions import Fraction

from engine.errors import Rejected
from engine.words import ABSTAIN
from engine.library import IDENTITY, Param, Part, entry
from engine.rulefile import FileRuleset
from engine.skills import once_tonight

FOUND, ORDINARY, FATED = "入群", "普通", "天命"


def _fate(p) -> str | None:
    return p.marks.get("命运")


def _ning(g):
    return next(iter(g.state.with_role(g.rules.ning)), None)


@entry("小倩", IDENTITY, "前三夜<执子之手>寻找宁采臣，找到则他加入本阵营和群；宁采臣因本群吸精出局时<殉情>（154独有）",
       ("执子之手", "殉情"),
       ghost_sucks=Param(None, "使她殉情的本群吸精（结算步骤）", required=True, kind=list))
class Qian(Part):
    slots = ("执子之手",)

    def skills(self):
        return [self.skill(self.search, "执子之手", "night", ("寻找", "找"), holders=self.holders)]

    def search(self, g, actor, target) -> None:
        # 执子之手: "前三个游戏日夜晚，小倩会优先其阵营在存活名单中寻找宁采臣。搜寻成功，则宁采臣加入女鬼阵营，入群。"
        if g.night.number > 3:
            raise Rejected("<执子之手>只能在前三个夜晚发动")
        ning = _ning(g)
        if ning and _fate(ning) == FOUND:
            raise Rejected("你已经找到了宁采臣，不需要再发动<执子之手>")
        once_tonight(g, "执子之手", actor.name)
        t = g.living_target(target, "执子之手")
        # 命中注定: after 天命 "与小倩一刀两断"; after three nights "转化普通赶考书生": no longer to be found.
        found = t.role == g.rules.ning and _fate(t) is None
        g.night.actions["执子之手"] = (actor.name, t.name)
        g.mark_done(actor.name, "执子之手")
        g.give_feedback(actor, "执子之手", t.name, found,
                        f"执子之手：{g.label(t)} " + ("正是宁采臣！他加入女鬼阵营和女鬼群。" if found else "不是宁采臣。"))
        if found:
            self.join(g, t)

    def join(self, g, ning) -> None:
        # "宁采臣进入女鬼群后，身份变鬼，胜利条件同女鬼阵营。"
        faction = self.rules.role(self.holders[0]).faction
        ning.faction = faction
        ning.marks["命运"] = FOUND
        # he learns who he is before the group's invitation reaches him
        g.tell(f"player:{ning.name}", f"你就是宁采臣：小倩找到了你。你现在属于{faction}，加入{self.team}，胜利条件同{faction}，可以与{self.team}共同<吸精>。")
        g.set_team(self.team, g.state.teams[self.team] + [ning.name])
        g.tell(f"team:{self.team}", f"小倩找到了宁采臣：{g.label(ning)} 加入{faction}和{self.team}。")
        g.tell("director", f"{g.label(ning)}（宁采臣）加入{faction}")
        # a change of faction can meet a win or loss condition at once ("游戏状态满足……游戏立即结束")
        g.rules.check_end(g)

    def open_slots(self, g):
        qian = self.holder(g)
        ning = _ning(g)
        if qian and g.night.number <= 3 and not (ning and _fate(ning) == FOUND) and not g.decided(qian.name, "执子之手"):
            return [(qian.name, "执子之手")]
        return []

    def begin_night(self, g) -> None:
        for who, slot in self.open_slots(g):
            self.rules.prompt(g, who, slot, "你可以<执子之手>寻找宁采臣（发送“执子之手 座位号”）")

    def after_death(self, g, p, cause) -> None:
        if p.role == self.rules.ning:
            self.xunqing(g, p, cause)

    def xunqing(self, g, ning, cause: str) -> None:
        # 殉情【强制技】: "若女鬼阵营当晚吸精之人为宁采臣，小倩痛不欲生，当即殉情出局。" and "因女鬼阵营<吸精>死亡时，
        # 小倩触发<殉情>": when the ghosts' 吸精 (the group's, 冲锋 or 额外吸精) takes him out. Not after 天命
        # ("与小倩一刀两断") nor three nights ("被吸精小倩不再殉情"). Once they share the group any going out does
        # ("但小倩采臣共群后会触发<殉情>" — even a red card). "游戏进行期间以任何方式出局的角色均不公示其身份": only
        # "因女鬼阵营<吸精>死亡时，小倩触发<殉情>，两人出局后，公示身份" — not after any other way out.
        fate = _fate(ning)
        by_ghosts = cause in ("吸精", "冲锋") and g.phase == "night" and ning.name in self.rules.harm_targets(g, self.p["ghost_sucks"])
        qian = next(iter(g.state.with_role(*self.holders)), None)
        if qian and qian.alive and (fate == FOUND or (fate is None and by_ghosts)):
            if by_ghosts:
                g.state.carry["reveal"] = [ning.name, qian.name]
            g.kill(qian, "殉情")


@entry("宁采臣", IDENTITY, "隐藏身份：被道士预言则道士<天命>出局、他接任警长；投票书生阵营累计<以爱之名>痴情指数（154独有）",
       ("以爱之名", "命中注定"),
       team_skill=Param(None, "痴情指数满3点时女鬼群获得一夜的附加技能", required=True, kind=str),
       team=Param(None, "获得附加技能的群", required=True, kind=str),
       good=Param(None, "以爱之名所计的阵营", required=True, kind=str))
class Ning(Part):
    def foreseen(self, g, taoist, t) -> None:
        # 命中注定【强制技】: "被道士<预言>时反馈<书生阵营>，道士因此出局" — only while he is still the 宁采臣 to be
        # found: once in the ghost group "身份变鬼"; after three nights "被预言不会弹死道士". 天命: "若当晚预言技能所指
        # 正是宁采臣，则道士遭遇天命反噬，当即出局。" — "与小倩一刀两断，永保书生阵营。"
        if not (t.role in self.holders and _fate(t) is None):
            return
        t.marks["命运"] = FATED
        g.night.actions["天命"] = (taoist.name, t.name)
        g.tell(f"player:{taoist.name}", "你遭遇天命反噬，当即出局（天亮时公示）。")
        g.tell("director", f"{g.label(taoist)} 预言到宁采臣 {g.label(t)}，天命反噬出局；宁采臣永保书生阵营")

    def steps(self):
        return {"天命": self.settle}

    def settle(self, g, out):
        if "天命" in g.night.actions:
            out.append((g.night.actions["天命"][0], "天命"))
        return out

    def after_death(self, g, p, cause) -> None:
        if cause == "天命":
            self.heir(g, p)

    def heir(self, g, taoist) -> None:
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


class R154(FileRuleset):
    """154's ruleset: the file's, with what its hidden 宁采臣 changes beyond one part's hooks."""

    ning = "宁采臣"

    def part(self, cls) -> Part:
        return next(p for p in self.parts if isinstance(p, cls))

    def foreseen(self, g, seer, target) -> None:
        self.part(Ning).foreseen(g, seer, target)

    def told_as(self, g, p) -> str:
        # "你就是宁采臣": once 小倩 has found him he knows; until then he is a 赶考书生 to himself too
        return self.ning if p.role == self.ning and _fate(p) == FOUND else super().told_as(g, p)

    def today_votes(self, g) -> frozenset[str]:
        # 警长：1人. A 宁采臣 who took the badge by 命中注定 in night 1 holds the one badge: no election follows,
        # even when he went out the same night and the badge is passing on by <殉职>.
        held = self.day_votes(g.state.day_no)
        return held - {"election"} if g.state.carry.get("badge_taken") else held

    def morning(self, g, night_deaths: list[str]) -> None:
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

    def published(self, g, names: list[str]) -> None:
        super().published(g, names)
        # 命中注定: "因女鬼阵营<吸精>死亡时，小倩触发<殉情>，两人出局后，公示身份。"
        couple = g.state.carry.get("reveal")
        if couple and set(couple) <= set(names):
            del g.state.carry["reveal"]
            ning, qian = (g.state.player(n) for n in couple)
            g.tell("public", f"身份公示：{g.label(ning)} 是宁采臣，{g.label(qian)} 是小倩（殉情）")

    def counted(self, g, kind: str, ballots: list[tuple[str, str, Fraction]], result: str | None) -> None:
        # 以爱之名【隐藏技】: "除警长票外投票每一位书生阵营之人，增加一点痴情指数（包括弃票）。" 弃票 is read as both
        # a 弃权 ballot and no valid ballot at all (the post's "没有投票（或弃票）"): every exile count in which
        # he did not vote for someone outside the 书生阵营. "累计3点痴情指数，女鬼阵营当晚可额外吸精一人" — at every
        # third point, like the post's "三张【蓝牌】升级为一张【黄牌】". The points count in whatever he has become
        # ("投票书生阵营产生的痴情指数任然有效").
        ning = _ning(g)
        part = self.part(Ning)
        if kind != "exile" or ning is None or not ning.alive:
            return
        vote = next((target for voter, target, _ in ballots if voter == ning.name), ABSTAIN)
        if vote != ABSTAIN and g.state.player(vote).faction != part.p["good"]:
            return
        ning.marks["痴情"] = ning.marks.get("痴情", 0) + 1
        g.tell("director", f"宁采臣 {g.label(ning)} 的痴情指数：{ning.marks['痴情']}")
        if ning.marks["痴情"] % 3 == 0:
            self.team_part(part.p["team"]).grant_next_night(g, part.p["team_skill"])
            g.tell("director", "痴情指数累计3点：女鬼阵营今晚可以额外吸精一人")

    def last_words_budget(self, g) -> int:
        # "宁采臣变女鬼后，遗言数量+1。"
        ning = _ning(g)
        return super().last_words_budget(g) + (1 if ning and _fate(ning) == FOUND else 0)


RULESET = R154
