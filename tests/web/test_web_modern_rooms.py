"""Modern American rooms of the lobby (``POST /api/tables`` with ``modern-american``): two
people and two bots of the family at one table, each person seeing only their own hand, a
spectator seeing no hidden card, refusals that change nothing, a restart that keeps the game,
and the WebSocket pushing one person's move to the other."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.web.support import new_table, running_app, sit_down, table_socket, wait_for

SEATS = ["human", "bot:modern-random", "human", "bot:modern-greedy"]


def view(client: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/tables/{table_id}/view", params={"token": token} if token else {})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def room(client: TestClient, **body: Any) -> tuple[str, dict[int, str]]:
    body.setdefault("rules", "modern-american")
    body.setdefault("seats", SEATS)
    table_id, tokens = new_table(client, **body)
    sit_down(client, table_id, tokens)
    return table_id, tokens


def person_to_move(client: TestClient, table_id: str, tokens: dict[int, str]) -> int:
    """Wait until the bots have played to a person's turn; that person's seat."""
    def ready() -> int | None:
        for seat, token in tokens.items():
            if view(client, table_id, token)["your_turn"]:
                return seat + 1  # truthy for seat 0 too
        return None
    return int(wait_for(ready)) - 1


def act(client: TestClient, table_id: str, token: str, action: str) -> Any:
    return client.post(f"/api/tables/{table_id}/actions", json={"token": token,
                                                                "action": action})


def test_each_person_sees_only_their_own_hand_and_a_spectator_none(client: TestClient) -> None:
    table_id, tokens = room(client, seed=11)
    seat = person_to_move(client, table_id, tokens)
    mine = view(client, table_id, tokens[seat])
    assert mine["family"] == "modern-american" and mine["seat"] == seat
    assert [s["controller"] for s in mine["seats"]] == ["human", "bot", "human", "bot"]
    assert [s["bot"] for s in mine["seats"]] == [None, "modern-random", None, "modern-greedy"]
    for who, token in tokens.items():
        position = view(client, table_id, token)["position"]
        assert position["seat"] == who and "turn_card" not in position
        assert isinstance(position["stock"], int)
        for other, hand in enumerate(position["hands"]):
            assert isinstance(hand, list) == (other == who), (who, other)
    assert mine["legal"] and mine["your_turn"]
    other = 2 - seat
    theirs = view(client, table_id, tokens[other])
    assert theirs["legal"] == [] and theirs["your_turn"] is False
    watcher = view(client, table_id)
    position = watcher["position"]
    assert watcher["seat"] is None and watcher["legal"] == [] and watcher["your_turn"] is False
    assert all(isinstance(h, int) for h in position["hands"]) and isinstance(position["stock"], int)
    assert "turn_card" not in position and "kept" not in position["turn"]
    assert all(line["action"] == "lays the threes (and may keep one)"
               for line in watcher["log"] if line["action"].startswith(("keep", "lays")))
    # the record of a game in play has no deck
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert record["complete"] is False and all("deck" not in h for h in record["hands"])


def test_a_refused_request_changes_nothing(client: TestClient) -> None:
    table_id, tokens = room(client, seed=12)
    seat = person_to_move(client, table_id, tokens)
    before = view(client, table_id, tokens[seat])
    card = before["position"]["hands"][seat][0]
    assert before["position"]["phase"] in ("draw", "threes")
    r = act(client, table_id, tokens[seat], f"discard {card}")  # before drawing
    assert r.status_code == 409 and r.json()["code"] == "illegal" and r.json()["words"]
    r = act(client, table_id, tokens[2 - seat], "draw")  # out of turn
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    r = act(client, table_id, tokens[seat], "meld Zz Zz Zz")
    assert r.status_code == 422 and "unknown card" in r.json()["error"]
    r = act(client, table_id, "not-a-token", "draw")
    assert r.status_code == 403
    r = client.post(f"/api/tables/{table_id}/actions", content=b"{not json",
                    headers={"content-type": "application/json"})
    assert r.status_code == 422
    r = client.post(f"/api/tables/{table_id}/next", json={"token": tokens[seat]})
    assert r.status_code == 409 and r.json()["code"] == "hand_not_over"
    after = view(client, table_id, tokens[seat])
    assert after["version"] == before["version"] and after["position"] == before["position"]


def test_a_new_room_takes_the_family_s_bots_and_house_rules_only(client: TestClient) -> None:
    r = client.post("/api/tables", json={"rules": "modern-american",
                                         "seats": ["human", "bot:heuristic", "human", "bot"]})
    assert r.status_code == 422 and "modern-heuristic" in r.json()["error"]
    r = client.post("/api/tables", json={"rules": "classic",
                                         "seats": ["human", "bot:modern-random", "human", "bot"]})
    assert r.status_code == 422
    r = client.post("/api/tables", json={"rules": "modern-american", "seats": ["human"] * 3})
    assert r.status_code == 422 and "4 seats" in r.json()["error"]
    r = client.post("/api/tables", json={"rules": {"preset": "modern-american",
                                                   "target_score": 10}})
    assert r.status_code == 422 and "cannot be set here" in r.json()["error"]
    # levels and every bot of the family; the humans have not sat down, so nobody plays yet
    table_id, _ = new_table(client, rules={"preset": "modern-american",
                                                "special_hands": "pagat"},
                                 seats=["human", "bot:hard", "human", "bot:modern-search"])
    seen = view(client, table_id)
    assert [s["bot"] for s in seen["seats"]] == [None, "modern-search", None, "modern-search"]
    assert seen["rules"] == {"preset": "modern-american", "special_hands": "pagat"}
    assert seen["waiting_for"] == [0, 2] and seen["log"] == []


def test_a_room_survives_a_restart(sqlite_url: str) -> None:
    with running_app(sqlite_url) as client:
        table_id, tokens = room(client, seed=13)
        seat = person_to_move(client, table_id, tokens)
        played = view(client, table_id, tokens[seat])
        while "draw" not in played["legal"]:  # a three kept or laid first
            played = act(client, table_id, tokens[seat], played["legal"][0]).json()
        version = played["version"]
        played = act(client, table_id, tokens[seat], "draw").json()
        assert played["version"] == version + 1 and played["your_turn"]  # still this turn
    with running_app(sqlite_url) as again:
        back = view(again, table_id, tokens[seat])
        for key in ("version", "position", "legal", "log", "scores", "rules"):
            assert back[key] == played[key], key
        assert act(again, table_id, tokens[seat], back["legal"][-1]).status_code == 200


def test_the_second_person_receives_the_first_person_s_move(client: TestClient) -> None:
    table_id, tokens = room(client, seed=14)
    seat = person_to_move(client, table_id, tokens)
    other = 2 - seat
    with table_socket(client, table_id, tokens[seat]) as mine, \
            table_socket(client, table_id, tokens[other]) as theirs:
        now = mine.receive_json()["view"]
        assert now["your_turn"]
        seen = theirs.receive_json()["view"]
        action = now["legal"][0]
        mine.send_json({"type": "action", "action": action})
        while True:  # connection notices may come first
            message = theirs.receive_json()
            assert message["type"] == "view"
            pushed = message["view"]
            if pushed["version"] > seen["version"]:
                break
        assert pushed["last_action"]["seat"] == seat
        assert pushed["seat"] == other and isinstance(pushed["position"]["hands"][other], list)
        assert isinstance(pushed["position"]["hands"][seat], int)


def test_a_hand_to_its_end_the_next_deal_and_the_replay(client: TestClient) -> None:
    table_id, tokens = room(client, seed=15, seats=["human", "bot:modern-random",
                                                    "bot:modern-random", "bot:modern-random"])
    token = tokens[0]
    seen = view(client, table_id, token)
    assert client.get(f"/api/tables/{table_id}/replay").status_code == 409
    for _ in range(300):
        seen = view(client, table_id, token)
        if seen["status"] != "playing":
            break
        if seen["your_turn"]:
            legal = seen["legal"]
            choice = next((a for a in reversed(legal) if a.startswith("discard")), legal[0])
            assert act(client, table_id, token, choice).status_code == 200
    assert seen["status"] == "hand_over" and seen["next_hand"] == "request"
    result = seen["position"]["result"]
    assert seen["scores"] == [s["total"] for s in result["sides"]]
    assert seen["score_sheet"][0]["scores"] == seen["scores"]
    replay = client.get(f"/api/tables/{table_id}/replay").json()
    positions = replay["hands"][0]["positions"]
    assert len(positions) == len(replay["hands"][0]["actions"]) + 1
    assert all(isinstance(h, list) for h in positions[-1]["hands"])  # face up, once over
    r = client.post(f"/api/tables/{table_id}/next", json={"token": token})
    assert r.status_code == 200 and r.json()["hand_number"] == 2
    assert r.json()["position"]["dealer"] == 1


def test_the_family_s_bots_decide_in_a_worker_from_the_position_s_json() -> None:
    from canasta.interfaces.web.bot_runner import random_decision
    from canasta.interfaces.web.bot_workers import decide, position_json
    from canasta.modern_american.action_text import parse_action
    from canasta.modern_american.play import apply, legal_actions, new_hand

    h = new_hand(seed=21)
    for _ in range(5):
        here = decide("modern-greedy", h, h.to_move, "seed")
        assert decide("modern-greedy", position_json(h), h.to_move, "seed") == here
        h = apply(h, parse_action(h, here.action))
    stand_in = random_decision(h, "seed", "the bot failed")
    assert stand_in.bot == "fallback" and parse_action(h, stand_in.action) in legal_actions(h)


def test_hints_and_the_list_of_bots(client: TestClient) -> None:
    table_id, tokens = room(client, seed=16)
    seat = person_to_move(client, table_id, tokens)
    legal = view(client, table_id, tokens[seat])["legal"]
    hint = client.get(f"/api/tables/{table_id}/hint", params={"token": tokens[seat]})
    assert hint.status_code == 200 and hint.json()["action"] in legal
    assert hint.json()["bot"] == "modern-search" and hint.json()["words"]
    r = client.get(f"/api/tables/{table_id}/hint", params={"token": tokens[2 - seat]})
    assert r.status_code == 409
    bots = client.get("/api/bots").json()["modern_american"]
    assert {"modern-random", "modern-greedy", "modern-heuristic", "modern-search"} <= set(
        bots["bots"]) and bots["levels"]["hard"] == "modern-search"


def test_a_seat_handed_to_a_bot_of_the_family_and_claimed_back(client: TestClient) -> None:
    table_id, tokens = new_table(client, rules="modern-american", seats=SEATS)
    r = client.post(f"/api/tables/{table_id}/seats/2/bot",
                    json={"token": tokens[2], "bot": "heuristic"})
    assert r.status_code == 422 and "modern-" in r.json()["error"]
    r = client.post(f"/api/tables/{table_id}/seats/2/bot", json={"token": tokens[2],
                                                                 "bot": "easy"})
    assert r.status_code == 200 and r.json()["seats"][2]["bot"] == "modern-greedy"
    r = client.post(f"/api/tables/{table_id}/seats/2/claim", json={"token": tokens[2]})
    assert r.status_code == 200 and r.json()["seats"][2]["controller"] == "human"
