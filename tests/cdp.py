"""Headless Chromium driven through the Chrome DevTools protocol: open a page, run JavaScript in it,
read what it shows, take a screenshot. Debian's `chromium` package, no driver or browser download.

`available()` says why there is none; the browser tests skip then, unless BANSHABOT_TEST_BROWSER=
require (CI, whose .ci/run installs Chromium) makes them fail instead.
"""
from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest
import websockets

BINARY = os.environ.get("BANSHABOT_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def require_browser() -> None:
    if BINARY is None:
        if os.environ.get("BANSHABOT_TEST_BROWSER") == "require":
            pytest.fail("Chromium is required for the browser tests (apt-get install chromium)")
        pytest.skip("no Chromium here (apt-get install chromium)")


class Chromium:
    """One headless Chromium with one page, `width` CSS pixels wide (a phone's by default)."""

    def __init__(self, profile: Path, width: int = 390, height: int = 844):
        self.profile, self.width, self.height = profile, width, height
        self.proc: subprocess.Popen | None = None
        self.ws = None
        self.ids = itertools.count(1)

    async def start(self) -> None:
        self.proc = subprocess.Popen(
            [BINARY, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
             "--disable-extensions", "--disable-background-networking", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", f"--window-size={self.width},{self.height}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        port = await asyncio.to_thread(self._port)
        # what Chromium still writes is read and dropped: a full pipe would stop it
        threading.Thread(target=self.proc.stderr.read, daemon=True).start()
        pages = await asyncio.to_thread(self._targets, port)
        self.ws = await websockets.connect(pages[0]["webSocketDebuggerUrl"], max_size=None)
        await self.send("Page.enable")
        await self.send("Emulation.setDeviceMetricsOverride",
                        {"width": self.width, "height": self.height, "deviceScaleFactor": 2, "mobile": True})

    def _port(self) -> int:
        give_up = time.monotonic() + 60
        while time.monotonic() < give_up:
            line = self.proc.stderr.readline().decode(errors="replace")
            if m := re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line):
                return int(m[1])
            if not line and self.proc.poll() is not None:
                break
        raise AssertionError("Chromium did not start its DevTools server")

    @staticmethod
    def _targets(port: int) -> list[dict]:
        from urllib.request import urlopen

        with urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as answer:
            return [t for t in json.load(answer) if t["type"] == "page"]

    async def send(self, method: str, params: dict | None = None) -> dict:
        n = next(self.ids)
        await self.ws.send(json.dumps({"id": n, "method": method, "params": params or {}}))
        while True:  # events in between are of no interest here
            message = json.loads(await self.ws.recv())
            if message.get("id") == n:
                if "error" in message:
                    raise AssertionError(f"{method}: {message['error']}")
                return message["result"]

    async def open(self, url: str) -> None:
        await self.send("Page.navigate", {"url": url})

    async def js(self, expression: str):
        result = await self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def until(self, expression: str, timeout: float, what: str):
        give_up = time.monotonic() + timeout
        while True:
            value = await self.js(expression)
            if value:
                return value
            if time.monotonic() > give_up:
                text = await self.js("document.body.innerText")
                raise AssertionError(f"timed out after {timeout}s waiting for {what}; the page shows:\n{text}")
            await asyncio.sleep(0.1)

    async def screenshot(self, path: Path) -> None:
        shot = await self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
        path.write_bytes(base64.b64decode(shot["data"]))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
