"""The faction shares of a simulation as a PNG bar chart (matplotlib, the optional extra `[sim]`)."""
from __future__ import annotations

INSTALL = "画图需要 matplotlib：pip install 'banshabot[sim]'（或 pip install matplotlib）。胜率表照常输出。"
# fonts that hold the faction names, tried in order (matplotlib falls back glyph by glyph)
CJK_FONTS = ["Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei",
             "SimHei", "Microsoft YaHei", "PingFang SC", "Heiti SC", "DejaVu Sans"]


class MissingPlotting(RuntimeError):
    def __init__(self):
        super().__init__(INSTALL)


def draw(path: str, title: str, runs: list[tuple[str, list[tuple]]], games: int) -> None:
    """`runs`: (which players, [(faction, wins, share, low, high)...]) for each run, drawn side by side."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise MissingPlotting() from exc
    import logging
    import warnings

    # without a CJK font the names show as boxes: the chart still says what it must, so no warning per glyph
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", message="Glyph .* missing from font", category=UserWarning)
    plt.rcParams["font.family"] = CJK_FONTS
    factions = list(dict.fromkeys(f for _, rows in runs for f, *_ in rows))
    width = 0.8 / len(runs)
    fig, ax = plt.subplots(figsize=(2 + 1.6 * len(factions), 4.5), dpi=110)
    for k, (label, rows) in enumerate(runs):
        by = {f: (share, low, high) for f, _, share, low, high in rows}
        xs = [i + (k - (len(runs) - 1) / 2) * width for i in range(len(factions))]
        values = [100 * by.get(f, (0, 0, 0))[0] for f in factions]
        errors = [[100 * (by.get(f, (0, 0, 0))[0] - by.get(f, (0, 0, 0))[1]) for f in factions],
                  [100 * (by.get(f, (0, 0, 0))[2] - by.get(f, (0, 0, 0))[0]) for f in factions]]
        bars = ax.bar(xs, values, width, yerr=errors, capsize=4, label=label)
        ax.bar_label(bars, labels=[f"{v:.1f}%" for v in values], padding=3)
    ax.set_xticks(range(len(factions)), factions)
    ax.set_ylabel("胜率 %（95% 区间）")
    ax.set_ylim(0, 105)
    ax.set_title(f"{title} 模拟 {games} 局")
    if len(runs) > 1:
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
