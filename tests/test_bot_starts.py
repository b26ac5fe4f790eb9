"""bot.py starts a NoneBot server that OneBot can connect to, with no .env needed."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STARTUP_LIMIT = 20.0  # seconds


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _accepts_connections(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


@pytest.mark.slow
def test_bot_listens_on_port_from_environment(tmp_path):
    port = _free_port()
    # The environment beats any developer's .env, so the test sees the same bot everywhere.
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "PYTHONDONTWRITEBYTECODE": "1", "SUPERUSERS": "[]"}
    top_level_before = {p.name for p in ROOT.iterdir()}
    log = tmp_path / "bot.log"

    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "bot.py"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + STARTUP_LIMIT
            listening = False
            while time.monotonic() < deadline and proc.poll() is None:
                if _accepts_connections(port):
                    listening = True
                    break
                time.sleep(0.2)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    output = log.read_text(encoding="utf-8", errors="replace")
    assert listening, f"bot.py did not accept connections on port {port}:\n{output}"
    # started with no directors, it says so: nobody could create a game on it
    assert "SUPERUSERS 为空" in output, output
    assert (ROOT / "data").is_dir()
    stray = {p.name for p in ROOT.iterdir()} - top_level_before - {"data"}
    assert not stray, f"bot.py left files in the project root: {sorted(stray)}"


@pytest.mark.slow
@pytest.mark.parametrize("make", ["directory", "not-a-database", "hash-in-folder"])
def test_an_unusable_database_stops_the_bot_with_a_clear_message(tmp_path, make):
    db = tmp_path / "game.sqlite3"
    if make == "directory":
        db.mkdir()
    elif make == "hash-in-folder":
        db = tmp_path / "第#1局" / "game.sqlite3"
    else:
        db.write_text("this is not SQLite")
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(_free_port()), "PYTHONDONTWRITEBYTECODE": "1",
           "BANSHABOT_DATABASE_URL": f"sqlite://{db}"}
    try:
        proc = subprocess.run([sys.executable, "bot.py"], cwd=ROOT, env=env, capture_output=True, timeout=STARTUP_LIMIT * 2)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"bot.py kept running on an unusable database:\n{exc.stdout}")
    output = (proc.stdout + proc.stderr).decode("utf-8", errors="replace")
    assert proc.returncode != 0
    assert (f"数据库地址 sqlite://{db} 含有“#”" if make == "hash-in-folder" else f"无法打开数据库 {db}") in output, output
