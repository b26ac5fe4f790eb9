"""Command line: `python -m engine replay FILE.yaml`, `python -m engine replay FILE.yaml... --check`,
`python -m engine simulate RULESET ...`."""
import sys

from .replay import check_files, main

USAGE = """用法：
  python -m engine replay FILE.yaml               重放一局，在标准输出打印记录（JSON）
  python -m engine replay FILE.yaml ... --check   重放每个文件并与其 expect: 段比对
  python -m engine simulate RULESET --games N --seed S   模拟许多局，统计各阵营胜率（详见 --help）"""


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
    print(USAGE, file=sys.stderr)
    return 2


sys.stdout.reconfigure(encoding="utf-8")
sys.exit(run(sys.argv[1:]))
