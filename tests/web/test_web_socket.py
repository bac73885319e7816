"""The WebSocket: views pushed after every change, actions, and hostile messages."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.web.support import TestClient, new_table, running_app, table_socket, wait_for


def receive(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = ws.receive_json()
    return message


def next_view(ws: Any) -> dict[str, Any]:
    """Skip to the next view message."""
    while True:
        message = receive(ws)
        if message["type"] == "view":
            view: dict[str, Any] = message["view"]
            return view


def test_views_are_pushed_after_every_action_bots_included(client: TestClient) -> None:
    table_id, tokens = new_table(client, rules="classic-2p", seats=["human", "bot:random"],
                                 seed=6)
    with table_socket(client, table_id, tokens[0]) as ws:
        view = next_view(ws)
        assert view["seat"] == 0 and view["seats"][0]["connected"] is True
        assert isinstance(view["hands"][0], list) and isinstance(view["hands"][1], int)
        while not view["your_turn"]:  # the bot moves first
            view = next_view(ws)
        bot_lines = len(view["log"])
        assert bot_lines > 0 and all(line["seat"] == 1 for line in view["log"])
        # play our turn over the socket; every action comes back as a view
        seen = view["version"]
        while view["to_move"] == 0 and view["status"] == "playing":
            action = next(a for a in view["legal"] if a.startswith("discard")) \
                if view["phase"] == "play" else "draw"
            ws.send_json({"action": action})
            view = next_view(ws)
            assert view["version"] == seen + 1 and view["last_action"]["action"] == action
            seen = view["version"]
        # then the bot's actions are pushed one by one
        view = next_view(ws)
        assert view["last_action"]["seat"] == 1 and view["version"] == seen + 1


@pytest.mark.parametrize("message, code", [
    ("not json", "invalid"),
    ("[1, 2]", "invalid"),
    ("{}", "invalid"),
    ('{"type": "shout"}', "invalid"),
    ('{"type": "action"}', "invalid"),
    ('{"action": 5}', "invalid"),
    ('{"action": "draw", "seat": 3}', "invalid"),
    ('{"action": "dance"}', "bad_action"),
    ('{"action": "discard Zz"}', "bad_action"),
    ('{"action": "draw", "id": {"x": 1}}', "invalid"),
    (json.dumps({"action": "x" * 5000}), "invalid"),
    ("[" * 50000 + "]" * 50000, "invalid"),
    ('{"type": "next"}', "hand_not_over"),
    ('{"type": "hint"}', "not_your_turn"),
])
def test_malformed_messages_get_errors_and_change_nothing(client: TestClient, message: str,
                                                          code: str) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4, seed=12)
    waiting = (client.get(f"/api/tables/{table_id}/view").json()["to_move"] + 1) % 4
    before = client.get(f"/api/tables/{table_id}/view", params={"token": tokens[waiting]}).json()
    with table_socket(client, table_id, tokens[waiting]) as ws:
        next_view(ws)
        ws.send_text(message)
        reply = receive(ws)
        assert reply["type"] == "error" and reply["code"] == code, reply
        ws.send_bytes(b"\x00\x01")
        assert receive(ws)["type"] == "error"
        ws.send_json({"type": "ping", "id": "still-there"})
        assert receive(ws) == {"type": "pong", "id": "still-there"}
    after = client.get(f"/api/tables/{table_id}/view", params={"token": tokens[waiting]}).json()
    assert after == before


def test_illegal_and_out_of_turn_actions_over_the_socket(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4, seed=12)
    mover = client.get(f"/api/tables/{table_id}/view").json()["to_move"]
    with table_socket(client, table_id, tokens[mover]) as ws:
        view = next_view(ws)
        ws.send_json({"type": "action", "action": f"discard {view['hands'][mover][0]}", "id": 1})
        reply = receive(ws)
        assert reply["type"] == "error" and reply["code"] == "illegal" and reply["id"] == 1
        assert "illegal action" in reply["error"]
    other = (mover + 1) % 4
    with table_socket(client, table_id, tokens[other]) as ws:
        next_view(ws)
        ws.send_json({"action": "draw"})
        assert receive(ws)["code"] == "not_your_turn"


def test_spectators_watch_but_may_not_act(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4, seed=12)
    with table_socket(client, table_id) as ws:
        view = next_view(ws)
        assert view["seat"] is None and all(isinstance(h, int) for h in view["hands"])
        ws.send_json({"action": "draw"})
        assert receive(ws)["code"] == "spectator"
        ws.send_json({"type": "next"})
        assert receive(ws)["code"] == "spectator"
        mover = view["to_move"]
        r = client.post(f"/api/tables/{table_id}/actions",
                        json={"token": tokens[mover], "action": "draw"})
        assert r.status_code == 200
        pushed = next_view(ws)
        last = pushed["last_action"]
        assert {k: last[k] for k in ("seat", "action")} == {"seat": mover, "action": "draw"}
        # a red three drawn is laid face up: every seat is told which
        side = pushed["sides"][mover % len(pushed["sides"])]
        got = last.get("laid", [])
        assert got and side["red_threes"][-len(got):] == got
        assert all(isinstance(h, int) for h in pushed["hands"])


def test_bad_token_and_unknown_table_close_the_socket(client: TestClient) -> None:
    table_id, _ = new_table(client, seats=["human"] * 4)
    with table_socket(client, table_id, "forged") as ws:
        assert receive(ws)["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with table_socket(client, "nope") as ws:
        assert receive(ws)["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_a_long_table_id_is_not_echoed(client: TestClient) -> None:
    table_id = "x" * 5000
    with table_socket(client, table_id) as ws:
        reply = receive(ws)
        assert reply["code"] == "not_found" and len(reply["error"]) < 100, reply
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


@pytest.mark.parametrize("first, code, close", [
    ('{"type": "ping"}', "hello_first", 4422),
    ('{"action": "draw"}', "hello_first", 4422),
    ("not json", "invalid", 4422),
    ('{"type": "hello", "token": 5}', "invalid", 4422),
])
def test_the_first_message_must_be_a_hello(client: TestClient, first: str, code: str,
                                           close: int) -> None:
    table_id, _ = new_table(client, seats=["human"] * 4)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_text(first)
        assert receive(ws)["code"] == code
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == close


def test_a_token_in_the_url_is_refused(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4)
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
        assert receive(ws)["code"] == "token_in_url"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_no_hello_in_time_closes_the_socket(sqlite_url: str) -> None:
    with running_app(sqlite_url, hello_seconds=0.2) as client:
        table_id, _ = new_table(client, seats=["human"] * 4)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            assert receive(ws)["code"] == "no_hello"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4408


def test_a_second_hello_is_an_error(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4)
    with table_socket(client, table_id, tokens[1]) as ws:
        assert next_view(ws)["seat"] == 1
        ws.send_json({"type": "hello"})
        assert receive(ws)["code"] == "invalid"


@pytest.mark.parametrize("origin, allowed, opens", [
    (None, (), True),                            # not a browser
    ("http://testserver", (), True),             # the server's own page
    ("https://evil.example", (), False),         # a page elsewhere
    ("null", (), False),                         # a sandboxed or local page
    ("https://friend.example", ("https://friend.example",), True),
])
def test_pages_from_other_sites_may_not_open_a_socket(sqlite_url: str, origin: str | None,
                                                      allowed: tuple[str, ...],
                                                      opens: bool) -> None:
    headers = {"origin": origin} if origin else {}
    with running_app(sqlite_url, allowed_origins=allowed) as client:
        table_id, tokens = new_table(client, seats=["human"] * 4)
        if opens:
            with table_socket(client, table_id, tokens[0], headers=headers) as ws:
                assert next_view(ws)["seat"] == 0
        else:
            with pytest.raises(WebSocketDisconnect) as refused, \
                    table_socket(client, table_id, tokens[0], headers=headers):
                pass
            assert refused.value.code == 1008


def test_connections_show_in_the_seats_and_hints_come_back(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4, seed=12)
    mover = client.get(f"/api/tables/{table_id}/view").json()["to_move"]
    with table_socket(client, table_id, tokens[mover]) as ws:
        view = next_view(ws)
        assert view["seats"][mover]["connected"] is True
        ws.send_json({"type": "hint", "id": 7})
        reply = receive(ws)
        assert reply["type"] == "hint" and reply["id"] == 7
        assert reply["hint"]["action"] in view["legal"]
        ws.send_json({"type": "view"})
        assert next_view(ws) == view
    wait_for(lambda: not client.get(f"/api/tables/{table_id}/view").json()
             ["seats"][mover]["connected"])


def test_two_connections_of_one_seat_both_get_views(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4, seed=12)
    mover = client.get(f"/api/tables/{table_id}/view").json()["to_move"]
    with table_socket(client, table_id, tokens[mover]) as a, \
            table_socket(client, table_id, tokens[mover]) as b:
        next_view(a)
        next_view(b)
        a.send_json({"action": "draw"})
        for ws in (a, b):
            view = next_view(ws)
            while view["last_action"] is None:  # the other connection's arrival
                view = next_view(ws)
            assert view["last_action"]["seat"] == mover
            assert view["last_action"]["action"] == "draw"


def test_spectators_never_lock_a_player_out(sqlite_url: str) -> None:
    limits = {"max_spectators_per_table": 2, "max_connections_per_seat": 2}
    with running_app(sqlite_url, **limits) as client, ExitStack() as stack:
        table_id, tokens = new_table(client, seats=["human"] * 4, seed=12)
        for _ in range(2):
            next_view(stack.enter_context(table_socket(client, table_id)))
        with table_socket(client, table_id) as third:
            assert receive(third)["code"] == "too_many_listeners"
        for _ in range(2):  # the seat's own connections are counted apart
            seat = stack.enter_context(table_socket(client, table_id, tokens[0]))
            assert next_view(seat)["seat"] == 0
        with table_socket(client, table_id, tokens[0]) as third:
            assert receive(third)["code"] == "too_many_listeners"
        with table_socket(client, table_id, tokens[1]) as other:
            assert next_view(other)["seat"] == 1
