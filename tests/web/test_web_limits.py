"""The server under abuse: bounded rules, rate limits, a cap on tables, tables that leave
memory, and the smaller checks (Allow, names, the hint's schema, a failing push)."""

from __future__ import annotations

import dataclasses
import json
import time
import typing
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import update

from canasta.interfaces.web import lobby as lobby_module
from canasta.interfaces.web import schema
from canasta.interfaces.web.errors import Invalid
from canasta.interfaces.web.limits import (
    MAX_RULES_INTEGER,
    RateLimiter,
    check_table_rules,
    rules_integers,
)
from canasta.interfaces.web.lobby import Lobby
from canasta.interfaces.web.storage import IDLE, PLAYING, Storage
from canasta.rules import PRESETS, Rules
from tests.web.support import TestClient, new_table, running_app, table_socket, wait_for


def lobby_of(client: TestClient) -> Lobby:
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    return lobby


def stored_status(client: TestClient, table_id: str) -> str:
    row = lobby_of(client).db.storage.load_table(table_id)
    assert row is not None
    return row.status


# -- every integer of a rules object is bounded -----------------------------------------------

def integer_fields() -> list[str]:
    """The fields of Rules that hold one integer (or none), read from the class."""
    hints = typing.get_type_hints(Rules)
    return [f.name for f in dataclasses.fields(Rules)
            if f.init and hints[f.name] in (int, int | None)]


def test_the_integer_fields_are_found() -> None:
    assert {"red_three_value", "target_score", "num_jokers", "first_dealer",
            "max_meld_size"} <= set(integer_fields())


@pytest.mark.parametrize("name", integer_fields())
def test_every_integer_field_of_the_rules_is_bounded(client: TestClient, name: str) -> None:
    for value in (MAX_RULES_INTEGER + 1, -MAX_RULES_INTEGER - 1):
        r = client.post("/api/tables", json={"rules": {"preset": "classic", name: value}})
        assert r.status_code == 422, (name, value, r.text)
        assert name in r.json()["error"] and r.json()["code"] == "invalid"


@pytest.mark.parametrize("rules, where", [
    ({"preset": "classic", "card_values": {"K": 10**7}}, "card_values.K"),
    ({"preset": "classic", "red_three_schedule": {"4": -(10**9)}}, "red_three_schedule.4"),
    ({"preset": "classic", "initial_meld_thresholds": [[None, 15], [10**8, 50]]},
     "initial_meld_thresholds[1][0]"),
    ({"preset": "classic", "all_red_threes_value": 10**12}, "all_red_threes_value"),
])
def test_integers_inside_rules_tables_are_bounded(client: TestClient, rules: dict[str, Any],
                                                  where: str) -> None:
    r = client.post("/api/tables", json={"rules": rules})
    assert r.status_code == 422 and where in r.json()["error"], r.text


def test_a_number_of_4300_digits_is_refused_briefly(client: TestClient) -> None:
    body = '{"rules": {"preset": "classic", "red_three_value": ' + "9" * 4300 + "}}"
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422 and "red_three_value" in r.json()["error"]
    assert len(r.text) < 300


def test_the_bounds_are_read_from_the_rules_fields() -> None:
    """Checked on built rules too: a field added to Rules is covered without a list here."""
    for name in integer_fields():
        try:
            rules = PRESETS["classic"].replace(**{name: MAX_RULES_INTEGER + 1})
        except ValueError:
            continue  # the rules themselves refuse it
        assert (name, MAX_RULES_INTEGER + 1) in set(rules_integers(rules))
        with pytest.raises(Invalid, match=name):
            check_table_rules(rules)


def test_target_score_is_bounded(client: TestClient) -> None:
    r = client.post("/api/tables", json={"rules": {"preset": "classic", "target_score": 10**21}})
    assert r.status_code == 422 and "target_score" in r.json()["error"]
    r = client.post("/api/tables", json={"rules": {"preset": "classic", "target_score": 200_000}})
    assert r.status_code == 422 and "target_score up to 100000" in r.json()["error"]
    assert client.post("/api/tables", json={"rules": {"preset": "classic",
                                                      "target_score": 10_000}}).status_code == 201


# -- rate limits ---------------------------------------------------------------------------------

def test_rate_limiter_buckets() -> None:
    now = [0.0]
    limiter = RateLimiter(per_minute=6, burst=2, max_keys=3, clock=lambda: now[0])
    assert limiter.take("a") == 0 and limiter.take("a") == 0
    assert limiter.take("a") == pytest.approx(10.0)  # one more every 10 s
    assert limiter.take("b") == 0  # another key has its own bucket
    now[0] = 10.0
    assert limiter.take("a") == 0 and limiter.take("a") > 0
    for key in ("c", "d", "e"):
        limiter.take(key)
    assert len(limiter._buckets) == 3  # bounded: the oldest keys are forgotten
    assert RateLimiter(per_minute=0).take("x") == 0  # no limit


def test_table_creation_is_rate_limited_per_client(sqlite_url: str) -> None:
    with running_app(sqlite_url, tables_per_minute=3) as client:
        for _ in range(3):
            new_table(client, seats=["human"] * 4)
        r = client.post("/api/tables", json={"seats": ["human"] * 4})
        assert r.status_code == 429 and r.json()["code"] == "too_many_requests"
        assert 1 <= int(r.headers["retry-after"]) <= 20
        # a request that is refused anyway spends nothing
        assert client.post("/api/tables", json={"rules": "whist"}).status_code == 422


def test_hints_are_rate_limited_per_seat(sqlite_url: str) -> None:
    with running_app(sqlite_url, hints_per_minute=1) as client:
        table_id, tokens = new_table(client, seats=["human"] * 4, seed=2)
        mover = client.get(f"/api/tables/{table_id}/view").json()["to_move"]
        hint = f"/api/tables/{table_id}/hint"
        first = client.get(hint, params={"token": tokens[mover]})
        assert first.status_code == 200
        # asked again before anything is played: the same hint, and nothing spent
        for _ in range(3):
            again = client.get(hint, params={"token": tokens[mover]})
            assert again.status_code == 200 and again.json() == first.json()
        r = client.post(f"/api/tables/{table_id}/actions",
                        json={"action": "draw", "token": tokens[mover]})
        assert r.status_code == 200
        r = client.get(hint, params={"token": tokens[mover]})  # a new position: a new search
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        with table_socket(client, table_id, tokens[mover]) as ws:
            ws.receive_json()
            ws.send_json({"type": "hint", "id": 3})
            reply = ws.receive_json()
            assert reply["code"] == "too_many_requests" and reply["id"] == 3


# -- a cap on tables, and tables leaving memory ---------------------------------------------------

def test_a_full_server_refuses_new_tables(sqlite_url: str) -> None:
    with running_app(sqlite_url, max_tables=2) as client:
        new_table(client, seats=["human"] * 4)
        new_table(client, seats=["human"] * 4)
        r = client.post("/api/tables", json={"seats": ["human"] * 4})
        assert r.status_code == 503 and r.json()["code"] == "server_full"
        assert int(r.headers["retry-after"]) > 0
        assert len(lobby_of(client).tables) == 2


def finished_table(client: TestClient) -> str:
    table_id, _ = new_table(client, rules={"preset": "classic", "target_score": 1},
                            seats=["bot:random"] * 4, seed=3)
    wait_for(lambda: client.get(f"/api/tables/{table_id}/view").json()["status"] == "game_over",
             timeout=60)
    return table_id


def test_a_finished_table_makes_room_and_stays_readable(sqlite_url: str) -> None:
    with running_app(sqlite_url, max_tables=2) as client:
        done = finished_table(client)
        record = client.get(f"/api/tables/{done}/record").json()
        new_table(client, seats=["human"] * 4)
        new_table(client, seats=["human"] * 4)  # the finished table leaves memory for it
        assert done not in lobby_of(client).tables
        assert client.get(f"/api/tables/{done}/view").status_code == 503  # full: no room
    with running_app(sqlite_url) as client:
        assert client.get(f"/api/tables/{done}/record").json() == record


def test_finished_tables_leave_memory(sqlite_url: str) -> None:
    with running_app(sqlite_url, finished_table_seconds=0.2) as client:
        done = finished_table(client)
        record = client.get(f"/api/tables/{done}/record").json()
        wait_for(lambda: done not in lobby_of(client).tables)
        assert client.get(f"/api/tables/{done}/record").json() == record
        assert client.get(f"/api/tables/{done}/view").json()["status"] == "game_over"


def test_idle_tables_are_put_away_and_come_back(sqlite_url: str) -> None:
    with running_app(sqlite_url, table_idle_seconds=0.3) as client:
        table_id, tokens = new_table(client, seats=["human"] * 4, seed=9)
        watched, _ = new_table(client, seats=["human"] * 4, seed=9)
        before = client.get(f"/api/tables/{table_id}/view", params={"token": tokens[0]}).json()
        with table_socket(client, watched) as ws:
            ws.receive_json()
            wait_for(lambda: table_id not in lobby_of(client).tables)
            assert stored_status(client, table_id) == IDLE
            idle = client.get("/api/tables", params={"status": "idle"}).json()
            assert [t["table_id"] for t in idle] == [table_id]
            assert watched in lobby_of(client).tables  # someone is watching it
        # a request brings the table back, as it was
        after = client.get(f"/api/tables/{table_id}/view", params={"token": tokens[0]}).json()
        assert after == before and table_id in lobby_of(client).tables
        assert stored_status(client, table_id) == PLAYING


def test_an_idle_bot_table_stops_playing(sqlite_url: str) -> None:
    with running_app(sqlite_url, table_idle_seconds=0.3, bot_delay=0.05) as client:
        table_id, _ = new_table(client, seats=["bot:random"] * 4, seed=9)
        wait_for(lambda: table_id not in lobby_of(client).tables)
        played = lobby_of(client).stats.actions["bot"]
        assert played > 0
        time.sleep(0.3)  # six bot moves' time
        assert lobby_of(client).stats.actions["bot"] == played
        assert stored_status(client, table_id) == IDLE


def test_start_up_replays_only_live_tables(sqlite_url: str) -> None:
    with running_app(sqlite_url) as client:
        old, _ = new_table(client, seats=["human"] * 4, seed=1)
        recent, _ = new_table(client, seats=["human"] * 4, seed=2)
        over = finished_table(client)
    storage = Storage(sqlite_url)
    with storage.engine.begin() as conn:  # the old table saw nothing for a day
        conn.execute(update(schema.tables).where(schema.tables.c.id == old)
                     .values(updated_at=datetime.now(UTC) - timedelta(days=1)))
    storage.close()
    with running_app(sqlite_url, table_idle_seconds=3600) as client:
        assert set(lobby_of(client).tables) == {recent}
        assert stored_status(client, old) == IDLE
        assert client.get(f"/api/tables/{old}/view").status_code == 200  # back on request
        assert client.get(f"/api/tables/{over}/view").json()["status"] == "game_over"


def test_start_up_replays_at_most_max_tables(sqlite_url: str) -> None:
    with running_app(sqlite_url) as client:
        for seed in range(3):
            new_table(client, seats=["human"] * 4, seed=seed)
    with running_app(sqlite_url, max_tables=2) as client:
        assert len(lobby_of(client).tables) == 2


# -- a failing push never fails a stored action ---------------------------------------------------

def test_a_failing_push_does_not_fail_the_action(client: TestClient,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4, seed=12)
    mover = client.get(f"/api/tables/{table_id}/view").json()["to_move"]
    real = lobby_module.build_view

    def spectators_view_fails(table: Any, seat: int | None) -> dict[str, Any]:
        if seat is None:
            raise RuntimeError("the spectators' view cannot be built")
        return real(table, seat)

    with table_socket(client, table_id) as spectator:
        spectator.receive_json()
        monkeypatch.setattr(lobby_module, "build_view", spectators_view_fails)
        r = client.post(f"/api/tables/{table_id}/actions",
                        json={"token": tokens[mover], "action": "draw"})
        assert r.status_code == 200 and r.json()["last_action"]["action"] == "draw"
    monkeypatch.setattr(lobby_module, "build_view", real)
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert record["hands"][0]["actions"] == ["draw"]


# -- the smaller checks ---------------------------------------------------------------------------

@pytest.mark.parametrize("method, path, allow", [
    ("DELETE", "/api/tables", "GET, POST"),
    ("PUT", "/api/tables/abc/actions", "POST"),
    ("POST", "/api/tables/abc/view", "GET"),
    ("PATCH", "/api/health", "GET"),
])
def test_a_405_says_which_methods_are_allowed(client: TestClient, method: str, path: str,
                                              allow: str) -> None:
    r = client.request(method, path)
    assert r.status_code == 405 and r.headers["allow"] == allow
    assert r.json()["code"] == "http_405"


def test_an_unknown_api_path_is_a_404_whatever_the_method(client: TestClient) -> None:
    assert client.delete("/api/nothing").status_code == 404


def test_the_hint_needs_its_token_in_the_schema(client: TestClient) -> None:
    operation = client.get("/openapi.json").json()["paths"]["/api/tables/{table_id}/hint"]["get"]
    token = next(p for p in operation["parameters"] if p["name"] == "token")
    assert token["in"] == "query" and token["required"] is True
    assert "429" in operation["responses"]


@pytest.mark.parametrize("name, why", [
    ("\u202eevil", "text-direction"),
    ("ann\u2066", "text-direction"),
    ("\u200b\u200b", "visible"),
    ("\u200d", "visible"),
    ("   ", "visible"),
    ("\u3000\u00a0", "visible"),
])
def test_names_that_show_nothing_or_turn_text_are_refused(client: TestClient, name: str,
                                                          why: str) -> None:
    body = json.dumps({"seats": ["human"] * 4, "names": [name, "b", "c", "d"]})
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422 and why in r.json()["error"], r.text
    assert "\u202e" not in r.text and "\u2066" not in r.text  # nor echoed


@pytest.mark.parametrize("name", ["Zoë", "李", "ann bob", "🂡 ace", "👩\u200d💻"])
def test_ordinary_names_are_taken(client: TestClient, name: str) -> None:
    r = client.post("/api/tables", json={"seats": ["human"] * 4, "names": [name, "b", "c", "d"]})
    assert r.status_code == 201, r.text
