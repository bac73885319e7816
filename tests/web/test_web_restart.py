"""A real server (uvicorn in a subprocess) killed with SIGKILL mid-hand comes back with every
table exactly as it was, and play goes on: people's tables and bots' tables alike. Runs on a
SQLite file and on PostgreSQL."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import httpx

from tests.web.support import LiveServer, new_table, sit_down, wait_for


def get(http: httpx.Client, path: str, **params: str) -> Any:
    r = http.get(path, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def human_to_move(http: httpx.Client, table_id: str, tokens: dict[int, str]) -> int:
    """Wait until the bots are done and a human is to move; returns the seat."""
    view = wait_for(lambda: (v := get(http, f"/api/tables/{table_id}/view"))["to_move"]
                    in tokens and v["status"] == "playing" and v)
    seat: int = view["to_move"]
    return seat


def play_turns(http: httpx.Client, table_id: str, tokens: dict[int, str], count: int,
               rng: random.Random) -> None:
    sit_down(http, table_id, tokens)
    for _ in range(count):
        seat = human_to_move(http, table_id, tokens)
        mine = get(http, f"/api/tables/{table_id}/view", token=tokens[seat])
        r = http.post(f"/api/tables/{table_id}/actions",
                      json={"token": tokens[seat], "action": rng.choice(mine["legal"])})
        assert r.status_code == 200, r.text


def is_continuation(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """``after`` is ``before`` with more actions (and maybe more hands)."""
    old, new = before["hands"], after["hands"]
    if len(new) < len(old):
        return False
    for i, hand in enumerate(old):
        acts = new[i]["actions"]
        same = acts == hand["actions"] if i < len(old) - 1 else \
            acts[:len(hand["actions"])] == hand["actions"]
        if not same or new[i]["dealer"] != hand["dealer"]:
            return False
    return True


def test_a_killed_server_resumes_every_table(database_url: str,
                                             live_server: Callable[..., LiveServer]) -> None:
    server = live_server(database_url, "--bot-delay", "0.01", "--bot-workers", "1")
    rng = random.Random(5)
    with httpx.Client(base_url=server.url, timeout=10) as http:
        table_id, tokens = new_table(http, seats=["human", "bot:random", "human", "bot:random"],
                                     seed=77)
        bots_id, _ = new_table(http, seats=["bot:random"] * 4, seed=78)
        play_turns(http, table_id, tokens, 10, rng)
        human_to_move(http, table_id, tokens)
        before = {seat: get(http, f"/api/tables/{table_id}/view", token=token)
                  for seat, token in tokens.items()}
        before[None] = get(http, f"/api/tables/{table_id}/view")
        record = get(http, f"/api/tables/{table_id}/record")
        assert before[None]["version"] >= 10 and before[None]["status"] == "playing"
        bots_record = wait_for(lambda: (r := get(http, f"/api/tables/{bots_id}/record"))
                               ["hands"][0]["actions"] and r)

    server.kill()  # mid-hand, the bots' table mid-turn
    server.args = ("--bot-delay", "0", "--bot-workers", "0")
    server.start()

    with httpx.Client(base_url=server.url, timeout=10) as http:
        for seat, token in tokens.items():
            assert get(http, f"/api/tables/{table_id}/view", token=token) == before[seat]
        assert get(http, f"/api/tables/{table_id}/view") == before[None]
        assert get(http, f"/api/tables/{table_id}/record") == record
        assert is_continuation(bots_record, get(http, f"/api/tables/{bots_id}/record"))
        # play goes on: the humans act, the bots answer, the bots' table keeps playing
        play_turns(http, table_id, tokens, 4, rng)
        after = get(http, f"/api/tables/{table_id}/record")
        assert is_continuation(record, after) and after != record
        count = sum(len(h["actions"]) for h in bots_record["hands"])
        wait_for(lambda: sum(len(h["actions"]) for h in
                             get(http, f"/api/tables/{bots_id}/record")["hands"]) > count + 20)
