"""How long the vote parsers take on the worst pastes a director can send, at growing sizes.

    .venv/bin/python benchmarks/vote_parse.py

Each shape is one the former regular expressions backtracked on (a long run without a separator, a
post full of 投票对象, long runs of spaces), or a Discuz! copy's (heads with 发表于 and the posts they
quote); every line should grow in proportion to the size,
and the largest (the director's message limit) stay in milliseconds.
"""
from __future__ import annotations

import time

from service import parse

NAMES = ["果果", "橘子", "香蕉", "葡萄", "西瓜"]
SHAPES = {
    "one long word": lambda n: "果" * n,
    "words without a separator": lambda n: "果果橘子 " * (n // 5),
    "compact votes": lambda n: "果果:橘子 " * (n // 6),
    "a post full of 投票对象": lambda n: "果果\n" + "投票对象 " * (n // 5),
    "spaces before a reason": lambda n: "果果\n投票对象：橘子" + " " * n + "投票理由",
    "floors of digits": lambda n: "3楼 果果\n投票对象：橘子\n投票理由：好\n" + "1" * n,
    # Discuz!'s copy: heads with 发表于, quotes of them, a time followed by a long run of spaces
    "quoted posts with times": lambda n: ("果果 发表于 2026-12-2 10:00\n果果 发表于 2026-12-2 09:00\n投票对象：橘子 投票理由：好\n"
                                          "改票对象：西瓜 改票理由：换\n") * (n // 60),
    "a post full of 改票对象": lambda n: "果果 发表于 2026-12-2 10:00\n果果 发表于 2026-12-2 09:00\n" + "改票对象 " * (n // 5),
    "spaces after 发表于": lambda n: "果果 发表于 2026" + " " * n + "-12-2",
    # a whole page copied: profiles, floor marks and buttons around each post; names on line after line before
    # one 发表于 (each read as the author until the next); a mobile copy's times alone under the names
    "a desktop page copy": lambda n: ("果果\n15\n主题\n120\n帖子\n注册会员\nRank: 2\nUID 10086\n发消息\n沙发\n"
                                      "发表于 2026-12-2 10:23:45 | 只看该作者\n投票对象：橘子\n投票理由：好\n回复\n举报\n") * (n // 110),
    "names before one 发表于": lambda n: "果果 发表于 2026-12-2 10:00\n投票对象：橘子\n" + "橘子\n" * (n // 3) + "发表于 2026-12-2 11:00",
    "a mobile page copy": lambda n: "沙发 果果\n2026-12-2 10:23\n投票对象：橘子 投票理由：好\n" * (n // 40),
}


def main() -> None:
    sizes = [parse.DIRECTOR_LIMIT // 4, parse.DIRECTOR_LIMIT // 2, parse.DIRECTOR_LIMIT]
    print(f"{'shape':<28}" + "".join(f"{n:>12,}" for n in sizes))
    for shape, make in SHAPES.items():
        row = []
        for n in sizes:
            text = make(n)
            start = time.perf_counter()
            try:
                parse.votes(text, NAMES)
            except parse.ParseError:
                pass
            row.append(time.perf_counter() - start)
        print(f"{shape:<28}" + "".join(f"{s * 1000:>10.1f}ms" for s in row))


if __name__ == "__main__":
    main()
