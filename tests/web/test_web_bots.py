"""Bots at the server: a bot that fails, dawdles or cheats never stalls a table, and the
request limits hold."""

from __future__ import annotations

import random
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
