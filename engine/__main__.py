"""Command line: `python -m engine replay FILE.yaml`."""
import sys

from .replay import main

USAGE = "用法：python -m engine replay FILE.yaml"

if len(sys.argv) == 3 and sys.argv[1] == "replay":
    sys.stdout.reconfigure(encoding="utf-8")
    sys.exit(main(sys.argv[2]))
print(USAGE, file=sys.stderr)
sys.exit(2)
