"""What the people at a table share beyond the cards: the chat (stored with the table, shown to
the seats and the spectators, bounded in length and rate) and the rematch (the same seats at a
new table, every seat's link still good)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from canasta.family import get_rules
from tests.web.positions import TOKEN, hand_played_out, mid_hand, store_tables
from tests.web.support import new_table, running_app, table_socket


def say(client: TestClient, table_id: str, token: str, text: str) -> Any:
    return client.post(f"/api/tables/{table_id}/chat", json={"token": token, "text": text})


def test_a_line_is_shown_to_everyone_and_kept(sqlite_url: str) -> None:
    with running_app(sqlite_url, chat_per_minute=3) as client:
        table_id, tokens = new_table(client, seats=["human"] * 4,
                                     names=["Ann", "Bob", "Cy", "Di"])
        r = say(client, table_id, tokens[1], "<b>good luck</b> & have fun")
        assert r.status_code == 200
        with table_socket(client, table_id) as watcher:
            watcher.receive_json()
            with table_socket(client, table_id, tokens[2]) as ws:
                ws.receive_json()
                ws.send_json({"type": "chat", "text": "thanks"})
                while True:  # a view for each change: the connection, then the line
                    pushed = watcher.receive_json()["view"]
                    if len(pushed["chat"]) == 2:
                        break
        assert pushed["chat"] == [{"seat": 1, "name": "Bob", "text": "<b>good luck</b> & have fun"},
                                  {"seat": 2, "name": "Cy", "text": "thanks"}]
        assert pushed["version"] == 0  # talk is no move
        # bounded: length, invisible or control characters, and how often
        assert say(client, table_id, tokens[1], "x" * 201).status_code == 422
        assert say(client, table_id, tokens[1], "a\u202eb").status_code == 422
        assert say(client, table_id, tokens[1], "   ").status_code == 422
        assert say(client, table_id, "no-such-token", "hi").status_code == 403
        assert say(client, table_id, tokens[1], "one").status_code == 200
        assert say(client, table_id, tokens[1], "two").status_code == 200
        r = say(client, table_id, tokens[1], "three")
        assert r.status_code == 429 and "Retry-After" in r.headers
    with running_app(sqlite_url) as again:  # stored with the table
        chat = again.get(f"/api/tables/{table_id}/view").json()["chat"]
        assert [line["text"] for line in chat][-2:] == ["one", "two"]


def test_a_rematch_seats_everyone_again(sqlite_url: str) -> None:
    store_tables(sqlite_url, {"over": hand_played_out(get_rules("classic").replace(
        target_score=50)), "on": mid_hand("classic")})
    with running_app(sqlite_url) as client:
        r = client.post("/api/tables/on/rematch", json={"token": TOKEN})
        assert r.status_code == 409 and r.json()["code"] == "game_not_over"
        assert client.get("/api/tables/over/view").json()["rematch"] is None
        r = client.post("/api/tables/over/rematch", json={"token": TOKEN})
        assert r.status_code == 200
        again = r.json()["table_id"]
        assert again != "over"
        assert client.post("/api/tables/over/rematch",
                           json={"token": TOKEN}).json()["table_id"] == again
        old = client.get("/api/tables/over/view").json()
        new = client.get(f"/api/tables/{again}/view", params={"token": TOKEN}).json()
        assert old["rematch"] == again and new["seat"] == 0 and new["status"] == "playing"
        assert new["rules"] == old["rules"] and new["hand_number"] == 1
        assert [n["name"] for n in new["names"]] == [n["name"] for n in old["names"]]
        assert [s["bot"] for s in new["seats"]] == [s["bot"] for s in old["seats"]]
    with running_app(sqlite_url) as client:  # stored: the rematch is still the rematch
        assert client.get("/api/tables/over/view").json()["rematch"] == again
