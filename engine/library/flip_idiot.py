"""The idiot of today's 狼人杀 (翻牌白痴): exiled by vote, he shows his card and stays, without a vote from then on.

Usual post: "翻牌：白痴被投票放逐时，可以翻开身份牌，免于出局；此后不能投票（可以发言）。白痴因其他原因出局时正常出局。"
Automatic by default (no answer asked): the post calls it a card shown, not a choice. `once`: the second exile takes
him out. `keeps_badge`: a sheriff who shows his card stays sheriff (else the badge is lost, no successor).

146's 白痴 is this idiot asked first: "装傻 —— 当白痴因投票而即将出局时，可以避免出局，并公示。发动此技能时，若白痴是
警长，须移交警长。发动此技能后，白痴不能成为投票对象，不能参与投票，不能继任警长" — `asks` (he stays until he
answers; 放弃 or his limit sends him out by his day's vote), `unvotable`, `hands_over` and `no_heir`.
"""
from __future__ import annotations

from . import IDENTITY, Param, Part, entry

SHOWN = "翻牌"  # the mark: the day he showed his card


@entry("翻牌白痴", IDENTITY, "被投票放逐时<翻牌>免于出局，此后不能投票；第二次被放逐则出局", ("翻牌",),
       skill=Param("翻牌", "技能在本帖中的名称"),
       once=Param(True, "翻牌只能一次：再次被放逐时出局"),
       keeps_badge=Param(False, "警长翻牌后是否仍是警长（否：警徽流失）"),
       shown=Param("{who} 被放逐，<翻牌>：身份是白痴，免于出局。此后他不能投票。", "翻牌时公示的话"),
       told=Param("你<{skill}>免于出局。此后你不能投票。", "翻牌时告诉他的话"),
       barred=Param("白痴已翻牌", "翻牌后他投票（或被投票）时的拒绝"),
       asks=Param(None, "被放逐时先问他是否发动（不设：自动翻牌）：问他的话"),
       limit=Param(None, "答复的时限（时限表中的键；设 asks 时必填）"),
       unvotable=Param(False, "翻牌后也不能成为投票对象"),
       hands_over=Param(None, "警长翻牌后须移交警徽（<殉职>）：问他的话（不设：按 keeps_badge）"),
       no_heir=Param(None, "翻牌后不能继任警长：选他继任时的拒绝（不设：可以继任）"))
class FlipIdiot(Part):
    def skills(self):
        if not self.p["asks"]:
            return []
        return [self.skill(self.use, self.p["skill"], "decision", takes_target=False)]

    def shown(self, p) -> bool:
        return p.role in self.holders and SHOWN in p.marks

    def exile_instead(self, g, p) -> bool:
        skill = self.p["skill"]
        if p.role not in self.holders or (self.p["once"] and SHOWN in p.marks) or skill in p.lost:
            return False
        if self.p["asks"]:
            # he stays until he answers, asked the moment the vote sends him out
            g.ask(p, skill, self.p["asks"], self.p["limit"], context=g.state.day_no)
        else:
            self.show(g, p)
            g.tell("public", self.p["shown"].format(who=g.label(p)))
            g.tell(f"player:{p.name}", self.p["told"].format(skill=skill))
            self.badge(g, p)
        return True

    def use(self, g, actor, target) -> None:
        g.settle(g.pending_for(actor.name, self.p["skill"]))
        actor.used.add(self.p["skill"])
        self.show(g, actor)
        g.tell("public", self.p["shown"].format(who=g.label(actor)))
        g.tell(f"player:{actor.name}", self.p["told"].format(skill=self.p["skill"]))
        self.badge(g, actor)

    def show(self, g, p) -> None:
        p.marks[SHOWN] = g.state.day_no
        self.no_vote(g)

    def badge(self, g, p) -> None:
        s = g.state
        if s.sheriff != p.name or self.p["keeps_badge"]:
            return
        s.sheriff = None
        if self.p["hands_over"]:
            self.rules.badge_vacated(g, p, self.p["hands_over"])
        else:
            g.tell("public", f"{g.label(p)} 翻牌后警徽流失，本局不再有警长")

    def no_vote(self, g) -> None:
        day = g.state.day
        if day is None:
            return  # answered after 关门: from the next day on
        for p in g.state.alive():
            if self.shown(p):
                day.may_not_vote[p.name] = self.p["barred"]
                if self.p["unvotable"]:
                    day.may_not_be_voted[p.name] = self.p["barred"]

    def begin_day(self, g) -> None:
        self.no_vote(g)

    def heir_problem(self, g, p) -> str | None:
        return self.p["no_heir"] if self.p["no_heir"] and self.shown(p) else None

    def after_death(self, g, p, cause) -> None:
        # one out before answering has nothing left to avoid
        if self.p["asks"] and (pending := g.pending_for(p.name, self.p["skill"])):
            g.settle(pending)

    def expire(self, g, pending) -> None:
        # "白痴、猎人视为放弃发动技能": the vote's result stands
        who = g.state.player(pending.who)
        if pending.skill != self.p["skill"] or not who.alive:
            return
        g.tell("director", f"{who.name} 未发动<{pending.skill}>，按投票结果出局")
        sheriff = g.state.sheriff == who.name
        g.kill(who, "投票", at=("day", pending.context))
        g.publish_deaths([who.name], "放逐投票")
        if sheriff and g.phase != "over":
            # his time was the badge's too: "警长随机移交给在场的一名未出局角色"
            self.rules.badge_lapsed(g, who, f"{g.label(who)} 未移交警徽")
