"""Helpers of the web table's tests: apps on a database, tables, waiting, a real server.

System tests need services that a developer machine may lack: PostgreSQL (the URL of a
database the tests may create schemas in, in ``CANASTA_TEST_POSTGRES_URL``) and Chromium
(``/usr/bin/chromium``). Without them those tests are skipped with the reason shown by
``pytest -rs``; with ``CANASTA_REQUIRE_SYSTEM_TESTS=1`` (set by ``.ci/run``) they fail instead.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette would rather have another HTTP client
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from canasta.interfaces.web.app import create_app
from canasta.interfaces.web.settings import Settings

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, which the browser tests drive (Playwright's own download is not used)."""
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
"""Where the browser tests leave their screenshots."""
POSTGRES_ENV = "CANASTA_TEST_POSTGRES_URL"
REQUIRE_ENV = "CANASTA_REQUIRE_SYSTEM_TESTS"


def system_test_missing(reason: str) -> None:
    """Skip (on a developer machine) or fail (in CI) for a missing service."""
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{reason} ({REQUIRE_ENV}=1)")
    pytest.skip(reason)


def wait_for(predicate: Callable[[], Any], timeout: float = 10.0, step: float = 0.01) -> Any:
    """Poll until ``predicate()`` is truthy; returns its value or fails the test."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {predicate}")
        time.sleep(step)


def make_settings(url: str, **changes: Any) -> Settings:
    """Settings for tests: bots in threads, no delay, the random bot by default."""
    base: dict[str, Any] = {"database_url": url, "bot_delay": 0.0, "bot_workers": 0,
                            "default_bot": "random", "hint_bot": "heuristic"}
    base.update(changes)
    return Settings(**base)


@contextlib.contextmanager
def running_app(url: str, **changes: Any) -> Iterator[TestClient]:
    """A started app (lifespan run) on ``url``."""
    with TestClient(create_app(make_settings(url, **changes))) as client:
        yield client


def new_table(client: Any, **body: Any) -> tuple[str, dict[int, str]]:
    """Create a table (with a TestClient or an httpx client); returns its id and the tokens by
    seat."""
    body.setdefault("rules", "classic")
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["table_id"], {s["seat"]: s["token"] for s in data["seats"]}


def sit_down(client: Any, table_id: str, tokens: dict[int, str]) -> None:
    """Every person at the table sits down (a view with each seat's token): the bots of a new
    table wait until then."""
    for token in tokens.values():
        r = client.get(f"/api/tables/{table_id}/view", params={"token": token})
        assert r.status_code == 200, r.text


@contextlib.contextmanager
def table_socket(client: TestClient, table_id: str, token: str | None = None,
                 **options: Any) -> Iterator[Any]:
    """A WebSocket to a table that has said hello (with ``token``: a seat's; else a
    spectator's)."""
    with client.websocket_connect(f"/ws/tables/{table_id}", **options) as ws:
        ws.send_json({"type": "hello", "token": token} if token else {"type": "hello"})
        yield ws


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """``canasta serve`` in a subprocess."""

    def __init__(self, database_url: str, log_path: Path, *args: str) -> None:
        self.database_url = database_url
        self.log_path = log_path
        self.args = args
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.started = False

    def start(self, timeout: float = 30.0) -> None:
        """Start the server and wait until it answers. On a first start, a port taken
        meanwhile by another test is traded for a free one; a restart keeps its port."""
        for _ in range(3):
            if self._start(timeout):
                self.started = True
                return
            if self.started or "address already in use" not in self.log_path.read_text():
                break
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}"
        pytest.fail(f"the server did not start: {self.log_path.read_text()[-2000:]}")

    def _start(self, timeout: float) -> bool:
        import httpx

        log = open(self.log_path, "ab")  # noqa: SIM115 - the child keeps it open
        self.process = subprocess.Popen(
            [sys.executable, "-m", "canasta.interfaces.cli", "serve", "--port", str(self.port),
             "--database", self.database_url, "--log-level", "warning", *self.args],
            stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1.0).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        return False

    def kill(self) -> None:
        """SIGKILL, like a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it lingers."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def chromium() -> Iterator[Any]:
    """Headless Debian Chromium driven by Playwright's sync API (skipped, or failed where the
    system tests are required, when either is missing)."""
    if not CHROMIUM.exists():
        system_test_missing(f"the browser tests need Chromium at {CHROMIUM} "
                            "(apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        system_test_missing("the browser tests need playwright (pip install -e .[dev])")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def serving(url: str, log: Path) -> Iterator[LiveServer]:
    """A live server over the database at ``url``, bots playing at once and in-process, for
    as long as the generator runs (a module fixture yields from it)."""
    live = LiveServer(url, log, "--bot-delay", "0", "--bot-workers", "0")
    live.start()
    try:
        yield live
    finally:
        live.stop()
