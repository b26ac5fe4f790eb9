"""The storage tests and the NoneBot tests once more, on PostgreSQL.

tortoise's models work with one kind of database per process, so they run in a pytest process of
their own, on a database of the session's throwaway cluster (tests/pg_cluster.py): there the bot's
own database is PostgreSQL too (tests/conftest.py). The end-to-end tests run the bot on each kind
of database themselves (tests/test_e2e.py).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_storage_and_the_bot_on_postgresql(postgres):
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob("test_bot_*.py"))
    files.append("tests/test_storage.py")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files],
                         cwd=ROOT, capture_output=True, text=True, timeout=600,
                         env={**os.environ, "BANSHABOT_TEST_CLUSTER": postgres.address})
    assert run.returncode == 0, run.stdout[-8000:] + run.stderr[-3000:]
    assert " passed" in run.stdout and " failed" not in run.stdout and " error" not in run.stdout
