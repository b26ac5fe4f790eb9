"""The deal anyone can verify: its hash is posted at 开始, its text revealed in the 树洞 at the end, and
`python -m engine verify` (or sha256 by hand) checks the one against the other."""
from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from engine.commitment import deal_text, digest, found_in, verify

ROOT = Path(__file__).resolve().parents[1]
SALT = "0123456789abcdef0123456789abcdef"
BY_HAND = "版杀发牌 v1\n规则：M131\n种子：424242\n盐：0123456789abcdef0123456789abcdef\n1号：狼人\n2号：预言家\n3号：村民"


def test_the_canonical_text_is_the_documented_one_and_hashes_as_sha256_does():
    text = deal_text("M131", 424242, SALT, ["狼人", "预言家", "村民"])
    assert text == BY_HAND  # the format engine/commitment.py documents, to the character
    assert digest(text) == hashlib.sha256(BY_HAND.encode("utf-8")).hexdigest()


def test_the_deal_is_found_in_a_whole_pasted_log_whatever_a_forum_did_to_its_line_ends():
    pasted = ("#1 粽子（M131）\r\n种子：424242\r\n身份：\r\n1号 甲：狼人\r\n发牌原文（其 SHA-256 应与开始时公布的一致）：\r\n"
              + "\r\n".join(f"  {line}  " for line in BY_HAND.split("\n")) + "\r\n记录：\r\n[第1条] 关门")
    assert found_in(pasted) == BY_HAND
    assert found_in("种子：424242\n1号：狼人") is None


def test_verify_says_whether_the_revealed_deal_is_the_promised_one():
    promised = hashlib.sha256(BY_HAND.encode("utf-8")).hexdigest()
    same, words = verify(BY_HAND, promised.upper())
    assert same and words.startswith("一致")
    swapped = BY_HAND.replace("1号：狼人\n2号：预言家", "1号：预言家\n2号：狼人")
    same, words = verify(swapped, promised)
    assert not same and words.startswith("不一致") and promised in words
    same, words = verify(BY_HAND, "abc")
    assert not same and "64位十六进制" in words
    same, words = verify("随便什么", promised)
    assert not same and "没有找到发牌原文" in words


@pytest.mark.parametrize("from_stdin", [False, True])
def test_python_m_engine_verify(tmp_path, from_stdin):
    promised = hashlib.sha256(BY_HAND.encode("utf-8")).hexdigest()
    revealed = tmp_path / "树洞.txt"
    revealed.write_text(BY_HAND + "\n", encoding="utf-8")

    def run(posted: str) -> subprocess.CompletedProcess:
        args = [sys.executable, "-m", "engine", "verify", posted] + ([] if from_stdin else [str(revealed)])
        return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=60,
                              input=BY_HAND if from_stdin else None)

    ok = run(promised)
    assert ok.returncode == 0 and ok.stdout.startswith("一致"), ok.stderr
    wrong = run("0" * 64)
    assert wrong.returncode == 1 and wrong.stdout.startswith("不一致")


async def test_the_hash_posted_at_the_start_checks_the_deal_the_log_reveals(clean, banshabot):
    """Through the service: 开始 tells the director the hash to post; the 树洞 at the end holds a text
    that hashes to it and that names this game's seed and every seat's identity."""
    import re

    from bot_helpers import DIRECTOR, PLAYERS, drain, texts_to
    from engine import FactionLoss
    from service.history import treehole

    service = banshabot.service
    row = await service.create(str(DIRECTOR), "M131", "")
    t = await service.table(row.id)
    await service.set_roster(t, [(name, str(qq)) for name, qq, _ in PLAYERS])
    await service.assign(t, None)  # dealt from the seed
    await service.start(t)
    promise = next(text for text in texts_to(await drain(), DIRECTOR) if text.startswith("【可公示】发牌承诺"))
    posted = re.search(r"[0-9a-f]{64}", promise).group()
    assert str(t.row.seed) not in promise and t.row.salt not in promise  # nothing to find the deal by

    await service.submit(t, FactionLoss("狼人阵营"), source="test")
    await drain()
    log = "\n".join(await treehole(t))
    same, words = verify(log, posted)
    assert same, words
    by_hand = "\n".join(["版杀发牌 v1", "规则：M131", f"种子：{t.row.seed}", f"盐：{t.row.salt}"]
                        + [f"{s.seat}号：{s.role}" for s in t.seats])
    assert found_in(log) == by_hand and hashlib.sha256(by_hand.encode("utf-8")).hexdigest() == posted
