"""Command line: `python -m engine replay FILE.yaml`, `python -m engine simulate RULESET ...`."""
import sys

from .replay import main

USAGE = "用法：python -m engine replay FILE.yaml\n      python -m engine simulate RULESET --games N --seed S（详见 --help）"

sys.stdout.reconfigure(encoding="utf-8")
if len(sys.argv) >= 2 and sys.argv[1] == "simulate":
    from .balance import main as simulate

    sys.exit(simulate(sys.argv[2:]))
if len(sys.argv) == 3 and sys.argv[1] == "replay":
    sys.exit(main(sys.argv[2]))
print(USAGE, file=sys.stderr)
sys.exit(2)
