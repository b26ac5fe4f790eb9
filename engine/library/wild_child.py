"""The wild child (野孩子): at the start he chooses a model; when the model goes out, he turns wolf.

Usual post: "榜样<强制><限定>：游戏开始时，野孩子选择一名其他角色作为榜样。榜样出局后，野孩子成为狼人阵营，加入狼群。"
<强制>: one who has not chosen when the first phase opens gets a model drawn from the game's seed. `becomes` and
`joins_team`: the faction he turns to and the group he joins (None: none, a lone wolf).
"""
from __future__ import annotations

from . import IDENTITY, Param, Part, entry
from .choosing import other_player

MODEL = "榜样"


@entry("野孩子", IDENTITY, "游戏开始时选择<榜样>；榜样出局后成为狼人阵营并加入狼群", ("榜样",),
       skill=Param("榜样", "技能在本帖中的名称"),
       becomes=Param(None, "榜样出局后他成为的阵营（如 狼人阵营）", required=True, names="阵营"),
       joins_team=Param(None, "他同时加入的群（None：不加入）", names="群"))
class WildChild(Part):
    def skills(self):
        return [self.skill(self.choose_model, self.p["skill"], "start", holders=self.holders)]

    def choose_model(self, g, actor, target) -> None:
        skill = self.p["skill"]
        t = other_player(g, actor, skill, target, limited=True)
        actor.used.add(skill)
        actor.marks[MODEL] = t.name
        g.tell(f"player:{actor.name}", f"已收到：{skill} {g.label(t)}。")

    def start_game(self, g) -> None:
        for p in g.state.with_role(*self.holders):
            if self.p["skill"] not in p.used:
                model = g.state.rng.choice([q for q in g.state.players if q.name != p.name])
                p.used.add(self.p["skill"])
                p.marks[MODEL] = model.name
                g.tell(f"player:{p.name}", f"你没有在游戏开始前选择榜样：已随机选择 {g.label(model)} 作为你的榜样。")
                g.tell("director", f"{g.label(p)} 未选择榜样，已随机选择 {g.label(model)}")

    def after_death(self, g, dead, cause) -> None:
        s = g.state
        for p in s.alive():
            if p.role in self.holders and p.marks.get(MODEL) == dead.name and p.faction != self.p["becomes"]:
                p.faction = self.p["becomes"]
                g.tell(f"player:{p.name}", f"你的榜样 {g.label(dead)} 出局：你成为{self.p['becomes']}。")
                team = self.p["joins_team"]
                if team:
                    g.set_team(team, [*s.teams.get(team, []), p.name])
