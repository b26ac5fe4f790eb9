"""A finished game's 揭秘 page, for the forum's 揭秘帖: the seed, every identity and how each player
went out, every phase's entries of the log (night actions, counts, draws) and the new moons. No QQ
number is on it, a player's or a director's. Everything written by players or directors is escaped as text."""
from __future__ import annotations

from html import escape

from . import desk_view
from .games import Table
from .models import CommandRow

STYLE = """body{font:15px/1.55 system-ui,"PingFang SC","Microsoft YaHei",sans-serif;margin:0;padding:12px;color:#222;background:#fafafa}
h1{font-size:19px;margin:4px 0 10px}h2{font-size:16px;margin:18px 0 6px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;width:100%;background:#fff}td,th{border:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top}
.out{color:#999}ul{list-style:none;padding:0;margin:4px 0}li{margin:2px 0;word-break:break-all}p{margin:4px 0}"""

MISSING = ("<!doctype html><html lang=zh-CN><meta charset=utf-8><meta name=viewport content='width=device-width,initial-scale=1'>"
           f"<title>揭秘页</title><style>{STYLE}</style><h1>没有这个揭秘页</h1>"
           "<p>这局游戏的揭秘页还没有公开（游戏结束后由导演发送“揭秘 公开”）。</p></html>")


def _page(title: str, body: list[str]) -> str:
    return ("<!doctype html><html lang=zh-CN><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<title>{escape(title)}</title><style>{STYLE}</style>" + "".join(body) + "</html>")


async def render(t: Table) -> str:
    rows = await CommandRow.filter(game_id=t.row.id).order_by("seq")
    line = desk_view.timeline(t, rows)
    g = t.game
    title = f"#{t.row.id} {t.row.title}（{t.row.ruleset}）揭秘"
    body = [f"<h1>{escape(title)}</h1>"]
    if g and g.state.winner:
        body.append(f"<p><b>结果：{escape(g.state.winner)}获胜</b></p>")
    body.append(f"<p>种子：{t.row.seed}（身份分配和每一次随机结果都由它决定）</p>")
    body.append("<h2>身份</h2><table><tr><th>座位</th><th>角色</th><th>身份</th><th>结局</th></tr>")
    for s in desk_view.seats(t, line):
        out = s["out"] or "存活"
        told = s["identity"] + (f"（后为{s['faction']}）" if s["faction"] and not s["identity"].endswith(s["faction"]) else "")
        body.append(f"<tr class='{'' if s['alive'] else 'out'}'><td>{s['seat']}</td><td>{escape(s['name'])}</td>"
                    f"<td>{escape(told)}</td><td>{escape(out)}</td></tr>")
    body.append("</table>")
    moons = desk_view.moons(t)
    if moons and moons["announced"]:  # "随机方式游戏结束后公示"
        body.append("<h2>新月</h2><ul>" + "".join(f"<li>{escape(m)}</li>" for m in moons["announced"]) + "</ul>")
    phases: dict[str, list[str]] = {}
    for entry in desk_view.log(t, rows, line):
        text = entry["text"]
        for qq in t.row.directors:  # a public page: the directors' QQ numbers stay theirs
            text = text.replace(f"导演 {qq}：", "导演：")
        phases.setdefault(entry["phase"], []).append(escape(text))
    for c in line.tallies:  # each count as the thread read it, under its day
        phases.setdefault(f"第{c['day']}天", []).append(escape(c["text"]).replace("\n", "<br>"))
    for phase, items in phases.items():
        body.append(f"<h2>{escape(phase)}</h2><ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>")
    return _page(title, body)
