"""Command line: `python -m engine replay FILE.yaml`, `python -m engine replay FILE.yaml... --check`,
`python -m engine simulate RULESET ...`, `python -m engine verify HASH [FILE]`, `python -m engine roles`,
`python -m engine check FILE`."""
import sys
from pathlib import Path

from .commitment import verify
from .replay import check_files, main

USAGE = """用法：
  python -m engine replay FILE.yaml               重放一局，在标准输出打印记录（JSON）
  python -m engine replay FILE.yaml ... --check   重放每个文件并与其 expect: 段比对
  python -m engine simulate RULESET --games N --seed S   模拟许多局，统计各阵营胜率（详见 --help）
  python -m engine verify 哈希 [文件]             核对公布的发牌原文（文件或标准输入，可以是整个树洞）与开始时公布的哈希
  python -m engine roles                          列出身份与技能库：每行一个，名称、技能、参数
  python -m engine check 规则文件.yaml            检查一个规则帖文件，指出出错的键与行"""


def check_deal(posted: str, source: str | None) -> int:
    """`verify`: 0 when the revealed deal hashes to the posted hash, 1 when not, 2 when unreadable."""
    try:
        text = Path(source).read_text(encoding="utf-8-sig") if source else sys.stdin.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"无法读取 {source}：{exc}", file=sys.stderr)
        return 2
    same, words = verify(text, posted)
    print(words)
    return 0 if same else 1


def run(args: list[str]) -> int:
    if args[:1] == ["simulate"]:
        from .balance import main as simulate

        return simulate(args[1:])
    if args[:1] == ["replay"]:
        files = [a for a in args[1:] if a != "--check"]
        unknown = [a for a in files if a.startswith("--")]
        if files and not unknown:
            if "--check" in args[1:]:
                return check_files(files)
            if len(files) == 1:
                return main(files[0])
    if args == ["roles"]:
        from .library.listing import main as roles

        return roles()
    if args[:1] == ["check"] and len(args) == 2:
        from .rulecheck import main as check

        return check(args[1])
    if args[:1] == ["verify"] and len(args) in (2, 3):
        return check_deal(args[1], args[2] if len(args) == 3 else None)
    print(USAGE, file=sys.stderr)
    return 2


sys.stdout.reconfigure(encoding="utf-8")
sys.stdin.reconfigure(encoding="utf-8")
sys.exit(run(sys.argv[1:]))
