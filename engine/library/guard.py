"""The guard (守卫) of today's 狼人杀: each night he guards one player from the wolves' kill, never the same player
two nights running; one guarded and saved by the witch the same night (同守同救) dies or lives as the post says.

Usual post: "守卫：每晚可以守护一名角色（可以守护自己），使其当晚不会因被指杀而出局；不能连续两晚守护同一名角色。
同守同救，则该角色仍然出局。" The guard does not stop the witch's 毒药 (`protects_from`).
"""
from __future__ import annotations

from . import IDENTITY, NightSkill, Param, entry
from .choosing import choose


@entry("守卫", IDENTITY, "夜晚<守护>一名角色，使其当晚不因被指杀出局；不能连续两晚守护同一人；同守同救可设为出局或不出局",
       ("守护",),
       skill=Param("守护", "技能在本帖中的名称"),
       aliases=Param(["守"], "简写"),
       protects_from=Param(["杀人"], "守护使之无效的伤害（结算步骤，如 [杀人]；毒药通常不在其中）"),
       self_guard=Param(True, "能否守护自己"),
       same_save_dies=Param(True, "同守同救：被守护又被<救药>救下的角色是否仍然出局"),
       save_skill=Param("救药", "女巫救人的技能名称（同守同救所指）"),
       ask=Param("你可以<守护>一名角色（发送“守护 座位号”），不能连续两晚守护同一名角色", "每晚告知他的话"))
class Guard(NightSkill):
    def use(self, g, actor, target) -> None:
        choose(g, actor, self.p["skill"], target, not_self=not self.p["self_guard"], not_twice=True)

    def guarded(self, g) -> str | None:
        a = g.night.actions.get(self.p["skill"])
        return a[1] if a else None

    def spares(self, g, name, cause) -> bool:
        return cause in self.p["protects_from"] and self.guarded(g) == name

    def steps(self):
        return {"同守同救": self.settle}

    def settle(self, g, out):
        # 同守同救: the guard's protection and the witch's save cancel out, the kill stands
        name, a = self.guarded(g), g.night.actions
        save = a.get(self.p["save_skill"])
        if self.p["same_save_dies"] and name and save and save[1] == name:
            cause = next((k for k in self.p["protects_from"] if k in a and a[k][1] == name
                          and self.rules.step_owner[k].acting(g, k)), None)
            if cause and all(n != name for n, _ in out):
                out.append((name, cause))
        return out
