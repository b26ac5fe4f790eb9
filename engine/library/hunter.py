"""The hunter (154 绝命刀客, 146 猎人): going out other than by a red card, he may take one other player out with him.

最后一刀: "当刀客并非因红牌罚下而出局后，刀客可以选择一名其他角色，对其开刀。该角色立即出局。" and "投票结束后，因……
刀客<最后一刀>而出局而角色……立即公示". Asked when his death is public: at once by day, at 开门 after a night.
146: "如果在此流程中，猎人一旦出局，猎人需立即决定<最后一枪>，被枪杀的角色立即在猎人出局之后出局" — with `holds_night`,
one who goes out in a night's settlement is asked at once and the settlement waits for him; his victim goes out with
the night's list. A shot is asked after everything else his going out brings (a lover's 殉情 comes first).
"""
from __future__ import annotations

from ..errors import Rejected
from . import IDENTITY, Param, Part, entry


# whether, and how, one out in a night's settlement is asked at once: every shooter's parameters
AT_ONCE = dict(
    holds_night=Param(False, "在夜晚结算中出局时立即决定，结算等他的答复（否：开门公示后再问）"),
    night_limit=Param("feedback", "在夜晚结算中出局时答复的时限（时限表中的键）"),
    night_ask=Param("你已出局：可以<{skill}>，发送“{skill} 座位号”使一名其他角色立即出局，或“放弃”（30分钟内有效）。",
                    "在夜晚结算中出局时问他的话"))


@entry("绝命刀客", IDENTITY, "非因红牌出局后可以<最后一刀>使一名其他角色立即出局", ("最后一刀",),
       skill=Param("最后一刀", "技能在本帖中的名称"),
       aliases=Param(["开刀", "刀"], "简写"),
       limit=Param("blade", "答复的时限（时限表中的键）"),
       ask=Param("你已出局，可以<最后一刀>：发送“最后一刀 座位号”使一名其他角色立即出局，或“放弃”（关门后30分钟内有效）。", "出局时问他的话"),
       **AT_ONCE)
class Hunter(Part):
    decides_last = 1

    def skills(self):
        return [self.skill(self.shoot, self.p["skill"], "decision", self.p["aliases"])]

    def shoot(self, g, actor, target) -> None:
        fire(g, actor, target, self.p["skill"])

    def after_death(self, g, p, cause) -> None:
        # a shot lost before (an elder's curse) or taken for the night (146's 神经错乱) is not asked for
        skill = self.p["skill"]
        if p.role not in self.holders or cause == "红牌" or skill in p.lost or g.suspended(p, skill):
            return
        if self.p["holds_night"] and g.phase == "night":
            ask_holding_night(g, p, skill, self.p["night_ask"].format(skill=skill), self.p["night_limit"])
        else:
            g.when_public(skill, p)

    def public(self, g, what, p) -> None:
        if what == self.p["skill"]:
            g.ask(p, self.p["skill"], self.p["ask"], self.p["limit"])

    def expire(self, g, pending) -> None:
        if pending.skill == self.p["skill"]:
            g.tell("director", f"{pending.who} 未在时限内发动<{pending.skill}>，视为放弃")
            g.rules.answered(g, g.state.player(pending.who))


def ask_holding_night(g, p, skill: str, text: str, limit: str) -> None:
    """Ask `p`, out in a night's settlement, for his shot now: the rest of the settlement waits for his answer."""
    g.ask(p, skill, text, limit)
    g.pending_for(p.name, skill).holds_night = True


def fire(g, actor, target, skill: str) -> None:
    """A shot asked of `actor` (a hunter's, 146's leader's <报复>): "选择一名其他角色……该角色立即出局。" No target lets it go."""
    pending = g.pending_for(actor.name, skill)
    if target is None:
        g.settle(pending)
        g.tell(f"player:{actor.name}", f"已收到：放弃<{skill}>。")
        return g.rules.answered(g, actor)
    t = g.find(target)
    if t.name == actor.name:
        raise Rejected(f"<{skill}>须选择一名其他角色")
    # "已经公示的出局角色……不允许被选为技能或投票的目标": one who went out in this night's settlement and is not yet
    # announced may be named; the shot is spent on him, and he learns nothing
    if t.alive or not (g.phase == "night" and t.name in g.night.deaths):
        t = g.living_target(target, skill)
    g.settle(pending)
    g.tell(f"player:{actor.name}", f"已收到：{skill} {g.label(t)}。")
    g.kill(t, skill)
    # A shot that holds the night's settlement joins the night's list, published at 开门; any other is published at
    # once: "投票结束后，因投票而触发的……猎人<最后一枪>、以及被枪杀的角色立即公示" — even when a hunter voted out answers
    # after 关门, within his time.
    if not pending.holds_night:
        g.publish_deaths([t.name], skill)
    g.rules.answered(g, actor)  # what waited for his shot (the badge: "依次发动<最后一枪>、<殉职>")
