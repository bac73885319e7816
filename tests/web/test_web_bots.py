"""Bots at the server: a bot that fails, dawdles or cheats never stalls a table, and the
request limits hold."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

import pytest

from canasta import Action, Observation, parse_action
from canasta.bots import BOTS
from tests.web.support import TestClient, new_table, running_app, wait_for


class BrokenBot:
    name = "broken"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        raise RuntimeError("out of order")


class SleepyBot:
    name = "sleepy"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        time.sleep(0.5)
        return legal[0]


class CheatingBot:
    name = "cheating"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        return parse_action("meld JK JK JK JK")


@pytest.mark.parametrize("bot", [BrokenBot, SleepyBot, CheatingBot])
def test_a_failing_bot_is_stood_in_for(bot: type, sqlite_url: str,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, bot.name, bot)
    with running_app(sqlite_url, bot_timeout=0.1) as client:
        table_id, _ = new_table(client, seats=[f"bot:{bot.name}"] * 4, seed=3)
        wait_for(lambda: client.get(f"/api/tables/{table_id}/view").json()["version"] >= 6,
                 timeout=20)


def test_the_hint_names_the_bot_that_answered(client: TestClient,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4, seed=3)
    mover = client.get(f"/api/tables/{table_id}/view").json()["to_move"]
    monkeypatch.setitem(BOTS, "heuristic", BrokenBot)
    hint = client.get(f"/api/tables/{table_id}/hint", params={"token": tokens[mover]}).json()
    assert hint["bot"] == "fallback" and hint["explanation"] == "the bot failed"


def test_request_bodies_are_capped(client: TestClient) -> None:
    table_id, _ = new_table(client, seats=["human"] * 4)
    big = b'{"token": "' + b"x" * 70000 + b'", "action": "draw"}'
    r = client.post(f"/api/tables/{table_id}/actions", content=big,
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "too_large"

    def chunks() -> object:
        yield b'{"token": "'
        for _ in range(100):
            yield b"x" * 1000
        yield b'", "action": "draw"}'

    r = client.post(f"/api/tables/{table_id}/actions", content=chunks(),  # type: ignore[arg-type]
                    headers={"content-type": "application/json"})
    assert r.status_code == 413


SERVER_THAT_DIES = """
import asyncio, os, sys
from canasta import new_hand, get_rules
from canasta.interfaces.web.bot_runner import BotRunner

async def main():
    runner = BotRunner(workers=1)
    state = new_hand(get_rules("classic"), 1)
    await runner.decide("random", state, state.to_move, "seed")
    print(*runner._executor._processes, flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def test_bot_workers_end_when_the_server_is_killed() -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER_THAT_DIES], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert server.stdout is not None
        workers = [int(pid) for pid in server.stdout.readline().split()]
        assert workers and all(_alive(pid) for pid in workers)
    finally:
        server.kill()  # SIGKILL: the server cannot stop its pool
        server.wait()
    try:
        wait_for(lambda: not any(_alive(pid) for pid in workers), timeout=10)
    finally:
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is dead: its parent never reaps it
        return stat.read().split(") ")[-1][0] != "Z"
