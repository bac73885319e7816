"""The HTTP API: tables, views, actions, errors, hands, seats, records, hints."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from canasta import GameRecord, observe, replay
from canasta.game import Game
from canasta.interfaces.web.lobby import Lobby
from canasta.rules import get_rules
from tests.web.support import (
    TestClient,
    new_table,
    running_app,
    sit_down,
    table_socket,
    wait_for,
)

FOUR = ["human", "bot:random", "human", "bot:random"]


def lobby_of(client: TestClient) -> Lobby:
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    return lobby


def view(client: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    params = {"token": token} if token else {}
    r = client.get(f"/api/tables/{table_id}/view", params=params)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def human_turn(client: TestClient, table_id: str, tokens: dict[int, str]) -> tuple[int, str]:
    """Every person sits down (the bots wait for them), then wait until a human seat is to
    move (bots play at once); returns it and its token."""
    sit_down(client, table_id, tokens)

    def mover() -> tuple[int, str] | None:
        v = view(client, table_id)
        if v["status"] != "playing":
            return None
        seat = v["to_move"]
        return (seat, tokens[seat]) if seat in tokens else None
    found: tuple[int, str] = wait_for(mover)
    return found


def play(client: TestClient, table_id: str, token: str, action: str) -> Any:
    return client.post(f"/api/tables/{table_id}/actions", json={"token": token, "action": action})


# -- tables ---------------------------------------------------------------------------------------

def test_create_table_gives_tokens_for_human_seats_only(client: TestClient) -> None:
    r = client.post("/api/tables", json={"rules": "classic", "seats": FOUR,
                                         "names": ["ann", "b1", "bob", "b2"], "seed": 7})
    assert r.status_code == 201
    data = r.json()
    assert [s["seat"] for s in data["seats"]] == [0, 2]
    tokens = [s["token"] for s in data["seats"]]
    assert len(set(tokens)) == 2 and all(len(t) >= 32 for t in tokens)
    v = view(client, data["table_id"])
    assert v["players"] == ["ann", "b1", "bob", "b2"]
    assert [s["controller"] for s in v["seats"]] == ["human", "bot", "human", "bot"]
    assert v["seats"][1]["bot"] == "random"


def test_same_seed_same_deal(client: TestClient) -> None:
    a, ta = new_table(client, seats=["human", "human", "human", "human"], seed=99)
    b, tb = new_table(client, seats=["human", "human", "human", "human"], seed=99)
    assert view(client, a, ta[2])["hands"][2] == view(client, b, tb[2])["hands"][2]


@pytest.mark.parametrize("body, fragment", [
    ({"rules": "whist"}, "unknown preset"),
    ({"rules": {"preset": "classic", "colour": 1}}, "unknown rules field"),
    ({"rules": 5}, "rules"),
    ({"seats": ["human", "bot:random"]}, "needs 4 seats"),
    ({"seats": ["human", "bot:nonsense", "human", "human"]}, "nonsense"),
    ({"seats": ["human", "robot", "human", "human"]}, "seats"),
    ({"seed": -1}, "seed"),
    ({"seed": 2**70}, "seed"),
    ({"seed": "x"}, "seed"),
    ({"names": ["a", "b"]}, "needs 4 names"),
    ({"names": ["a\nb", "b", "c", "d"]}, "names"),
    ({"token": "x"}, "token"),
    # the wrong JSON type is refused, never coerced
    ({"seed": True}, "seed"),
    ({"seed": "1"}, "seed"),
    ({"auto_next": "yes"}, "auto_next"),
    ({"seats": ["human", "bot: ", "human", "human"]}, "after the colon"),
    # a table's size and its bots' search are bounded: one request must not stall the server
    ({"rules": {"preset": "classic", "num_players": 8}}, "num_players"),
    ({"rules": {"preset": "classic-2p", "num_decks": 100, "hand_size": 2000}}, "num_decks"),
    ({"rules": {"preset": "classic", "num_jokers": 5_000_000}}, "num_jokers"),
    ({"seats": ["human", "bot:ismcts:seconds=100000", "human", "human"]}, "seconds"),
    ({"seats": ["human", "bot:ismcts:iterations=1000000000", "human", "human"]}, "iterations"),
])
def test_create_table_refuses_bad_input(client: TestClient, body: dict[str, Any],
                                        fragment: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    assert fragment in r.json()["error"]
    assert r.json()["code"] == "invalid"


def test_create_table_refuses_bad_json(client: TestClient) -> None:
    r = client.post("/api/tables", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 422
    assert r.json() == {"error": "invalid request: the body is not valid JSON", "code": "invalid",
                        "words": "Invalid request: the body is not valid JSON."}


def test_json_nested_too_deep_is_invalid_not_a_bad_request(client: TestClient) -> None:
    r = client.post("/api/tables", content=b"[" * 60_000,
                    headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "invalid"


def test_list_meta_presets_bots_health_openapi(client: TestClient) -> None:
    table_id, _ = new_table(client, seats=FOUR)
    lines = client.get("/api/tables").json()
    assert table_id in [t["table_id"] for t in lines]
    assert "classic" in client.get("/api/meta").json()["presets"]
    assert "random" in client.get("/api/bots").json()["bots"]
    presets = client.get("/api/presets").json()["presets"]
    assert {"name": "classic", "label": "Classic — 4 players, partners", "family": "classic",
            "title": "Classic Canasta", "players": 4, "sides": 2, "target": 5000} in presets
    assert {"name": "modern-american", "label": "Modern American — 4 players, partners",
            "family": "modern-american", "title": "Modern American Canasta", "players": 4,
            "sides": 2, "target": 8500} in presets
    assert client.get("/api/health").json()["ok"] is True
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/tables", "/api/tables/{table_id}/view", "/api/tables/{table_id}/actions",
                 "/api/tables/{table_id}/record", "/api/tables/{table_id}/hint",
                 "/api/tables/{table_id}/next", "/api/tables/{table_id}/seats/{seat}/bot"):
        assert path in paths
    assert client.get("/").status_code == 200


# -- views ----------------------------------------------------------------------------------------

def test_seat_view_is_the_observation_plus_the_table(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=FOUR, seed=3)
    seat, token = human_turn(client, table_id, tokens)
    v = view(client, table_id, token)
    state = lobby_of(client).tables[table_id].game.state
    position = observe(state, seat).to_json()
    assert {k: v[k] for k in position} == position
    assert v["seat"] == seat and v["your_turn"] and v["legal"]
    assert all(isinstance(h, int) for s, h in enumerate(v["hands"]) if s != seat)
    assert isinstance(v["stock"], int)
    other = next(s for s in tokens if s != seat)
    w = view(client, table_id, tokens[other])
    assert w["your_turn"] is False and w["legal"] == []
    assert w["hands"][other] == sorted(w["hands"][other], key=lambda c: v["hands"].count(c)) or \
        isinstance(w["hands"][other], list)
    assert isinstance(w["hands"][seat], int)


def test_spectator_view_has_no_hand(client: TestClient) -> None:
    table_id, _ = new_table(client, seats=FOUR)
    v = view(client, table_id)
    assert v["seat"] is None and v["legal"] == [] and v["your_turn"] is False
    assert all(isinstance(h, int) for h in v["hands"])
    assert isinstance(v["stock"], int)
    assert v["status"] == "playing" and v["hand_number"] == 1


def test_view_token_may_come_in_a_header(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=FOUR)
    r = client.get(f"/api/tables/{table_id}/view", headers={"X-Canasta-Token": tokens[2]})
    assert r.json()["seat"] == 2


def test_unknown_table_and_wrong_token(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=FOUR)
    for path in ("/api/tables/nope/view", "/api/tables/nope/record", "/api/tables/a%2Fb/view",
                 "/api/tables/" + "x" * 40 + "/view"):
        r = client.get(path)
        assert r.status_code in (404, 422), path
        assert "error" in r.json()
    assert play(client, "nope", tokens[0], "draw").status_code == 404
    r = client.get(f"/api/tables/{table_id}/view", params={"token": "forged"})
    assert r.status_code == 403 and r.json()["code"] == "bad_token"
    _, other_tokens = new_table(client, seats=FOUR)
    assert play(client, table_id, other_tokens[0], "draw").status_code == 403


# -- actions --------------------------------------------------------------------------------------

def test_actions_apply_and_bots_answer(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=FOUR, seed=11)
    seat, token = human_turn(client, table_id, tokens)
    before = view(client, table_id, token)
    r = play(client, table_id, token, before["legal"][0])
    assert r.status_code == 200
    after = r.json()
    assert after["version"] == before["version"] + 1
    assert after["last_action"] == {"seat": seat, "action": before["legal"][0]}
    # play on until a bot has acted after us
    for _ in range(30):
        v = view(client, table_id, token)
        if v["your_turn"]:
            assert play(client, table_id, token, v["legal"][-1]).status_code == 200
        if any(line["seat"] in (1, 3) for line in v["log"][len(before["log"]) + 1:]):
            break
        seat, token = human_turn(client, table_id, tokens)
    else:
        pytest.fail("no bot acted")


def test_illegal_action_is_refused_and_changes_nothing(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=FOUR, seed=5)
    seat, token = human_turn(client, table_id, tokens)
    before = view(client, table_id, token)
    assert before["phase"] == "draw"
    r = play(client, table_id, token, "discard " + before["hands"][seat][0])
    assert r.status_code == 409
    body = r.json()
    assert body["code"] == "illegal" and body["error"].startswith("illegal action 'discard")
    assert view(client, table_id, token) == before


def test_action_out_of_turn_is_refused(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4, seed=5)
    v = view(client, table_id)
    waiting = next(s for s in tokens if s != v["to_move"])
    r = play(client, table_id, tokens[waiting], "draw")
    assert r.status_code == 409
    assert r.json() == {"error": f"not your turn: p{v['to_move']} is to move",
                        "code": "not_your_turn",
                        "words": f"Not your turn: seat {v['to_move'] + 1} is to move."}


@pytest.mark.parametrize("action, code", [
    ("dance", "bad_action"), ("discard Xx", "bad_action"), ("meld", "bad_action"),
    ("draw 7h", "bad_action"), ("", "invalid"), ("x" * 301, "invalid"),
])
def test_malformed_actions_get_422(client: TestClient, action: str, code: str) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4)
    r = play(client, table_id, tokens[1], action)
    assert r.status_code == 422 and r.json()["code"] == code


@pytest.mark.parametrize("body", [
    {}, {"token": "t"}, {"action": "draw"}, {"token": 5, "action": "draw"},
    {"token": "t", "action": ["draw"]}, {"token": "t", "action": "draw", "seat": 1}, [],
])
def test_malformed_bodies_get_422(client: TestClient, body: Any) -> None:
    table_id, _ = new_table(client, seats=["human"] * 4)
    r = client.post(f"/api/tables/{table_id}/actions", json=body)
    assert r.status_code == 422 and "error" in r.json()


def test_random_text_never_breaks_the_server(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4, seed=1)
    to_move = view(client, table_id)["to_move"]
    token = tokens[to_move]
    before = view(client, table_id, token)
    rng = random.Random(0)
    alphabet = "drawmeldiscaketpsno AKQJT98765432chdsjk:,10\u00e9\u0000\ud7ff-"
    for _ in range(150):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 30)))
        r = play(client, table_id, token, text)
        assert r.status_code in (200, 409, 422), (text, r.text)
        if r.status_code == 200:
            break
        assert view(client, table_id, token) == before


# -- hands and the game ---------------------------------------------------------------------------

def finish_hand(client: TestClient, table_id: str, tokens: dict[int, str],
                rng: random.Random) -> dict[str, Any]:
    """The humans sit down and play random legal actions until the hand is over."""
    sit_down(client, table_id, tokens)
    for _ in range(3000):
        v = view(client, table_id)
        if v["status"] != "playing":
            return v
        seat = v["to_move"]
        if seat in tokens:
            mine = view(client, table_id, tokens[seat])
            if mine["your_turn"]:
                r = play(client, table_id, tokens[seat], rng.choice(mine["legal"]))
                assert r.status_code == 200, r.text
    pytest.fail("the hand did not end")


def test_next_hand_is_dealt_on_request(client: TestClient) -> None:
    table_id, tokens = new_table(client, rules="classic-2p", seats=["human", "bot:random"],
                                 seed=21)
    v = finish_hand(client, table_id, tokens, random.Random(1))
    assert v["status"] == "hand_over" and v["phase"] == "over" and v["next_hand"] == "request"
    assert len(v["score_sheet"]) == 1 and v["scores"] == v["score_sheet"][0]["scores"]
    assert v["result"]["sides"][0]["total"] == v["scores"][0]
    mine = view(client, table_id, tokens[0])
    assert mine["legal"] == [] and not mine["your_turn"]
    r = play(client, table_id, tokens[0], "draw")
    assert r.status_code == 409 and r.json()["code"] == "hand_over"
    assert client.post(f"/api/tables/{table_id}/next", json={"token": "x"}).status_code == 403
    r = client.post(f"/api/tables/{table_id}/next", json={"token": tokens[0]})
    assert r.status_code == 200
    w = r.json()
    assert w["hand_number"] == 2 and w["status"] == "playing" and w["dealer"] == 1
    assert w["log"] == [] or w["log"][0]["seat"] == 0
    assert len(w["score_sheet"]) == 1 and w["version"] == v["version"] + 1
    r = client.post(f"/api/tables/{table_id}/next", json={"token": tokens[0]})
    assert r.status_code == 409 and r.json()["code"] == "hand_not_over"


def test_bot_table_plays_a_whole_game_and_its_record_replays(client: TestClient) -> None:
    rules = {"preset": "classic", "target_score": 300}
    table_id, tokens = new_table(client, rules=rules, seats=["bot:random"] * 4, seed=8)
    assert tokens == {}
    during = client.get(f"/api/tables/{table_id}/record").json()
    assert during["complete"] is False and all("deck" not in h for h in during["hands"])
    v = wait_for(lambda: (w := view(client, table_id))["status"] == "game_over" and w,
                 timeout=60)
    assert v["winner"] is not None and v["next_hand"] == "auto"
    assert max(v["scores"]) >= 300
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert "complete" not in record and all(len(h["deck"]) == 108 for h in record["hands"])
    assert len(record["hands"]) == v["hand_number"] == len(v["score_sheet"])
    hands = list(replay(GameRecord.from_json(record)))
    assert list(hands[-1].scores) == v["scores"]
    assert client.get(f"/api/tables/{table_id}/record").json() == record


# -- seats ----------------------------------------------------------------------------------------

def test_hand_a_seat_to_a_bot_and_claim_it_back(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=["human", "human", "bot:random", "bot:random"],
                                 seed=4)
    r = client.post(f"/api/tables/{table_id}/seats/1/bot", json={"token": tokens[0]})
    assert r.status_code == 403 and r.json()["code"] == "not_idle"
    r = client.post(f"/api/tables/{table_id}/seats/1/bot",
                    json={"token": tokens[1], "bot": "random"})
    assert r.status_code == 200
    assert r.json()["seats"][1] == {"seat": 1, "name": "p1", "controller": "bot",
                                    "bot": "random", "connected": False}
    r = client.post(f"/api/tables/{table_id}/seats/1/bot", json={"token": tokens[1]})
    assert r.status_code == 409 and r.json()["code"] == "seat_is_bot"
    # seat 1's bot plays: wait for a seat-1 action
    wait_for(lambda: any(line["seat"] == 1 for line in view(client, table_id)["log"])
             or view(client, table_id)["to_move"] == 0)
    v = view(client, table_id, tokens[1])
    assert v["legal"] == [] and v["seat"] == 1
    if v["to_move"] == 1 and v["status"] == "playing":
        assert play(client, table_id, tokens[1], "draw").json()["code"] == "bot_seat"
    r = client.post(f"/api/tables/{table_id}/seats/1/claim", json={"token": tokens[0]})
    assert r.status_code == 403
    r = client.post(f"/api/tables/{table_id}/seats/1/claim", json={"token": tokens[1]})
    assert r.status_code == 200 and r.json()["seats"][1]["controller"] == "human"
    assert client.post(f"/api/tables/{table_id}/seats/9/claim",
                       json={"token": tokens[1]}).status_code == 422
    r = client.post(f"/api/tables/{table_id}/seats/1/bot",
                    json={"token": tokens[1], "bot": "nonsense"})
    assert r.status_code == 422


def test_an_idle_seat_may_be_handed_to_a_bot_by_another_player(sqlite_url: str) -> None:
    with running_app(sqlite_url, idle_seconds=0.0) as client:
        table_id, tokens = new_table(client, seats=["human", "human", "bot:random",
                                                    "bot:random"])
        r = client.post(f"/api/tables/{table_id}/seats/1/bot", json={"token": tokens[0]})
        assert r.status_code == 200 and r.json()["seats"][1]["controller"] == "bot"
        assert r.json()["seat"] == 0


def bots_first(seats: list[str]) -> int:
    """A seed whose first hand opens with a bot's turn at a classic table of ``seats``."""
    return next(s for s in range(100)
                if seats[Game(get_rules("classic"), seed=s).state.to_move] != "human")


def test_the_bots_wait_until_every_person_sits_down(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=FOUR, seed=bots_first(FOUR))
    time.sleep(0.3)  # the bots would have played by now (no delay)
    watched = view(client, table_id)  # a spectator sits nobody down
    assert watched["version"] == 0 and watched["log"] == [] and watched["waiting_for"] == [0, 2]
    assert view(client, table_id, tokens[0])["waiting_for"] == [2]  # seat 0 sits down
    time.sleep(0.3)
    assert view(client, table_id)["version"] == 0
    with table_socket(client, table_id, tokens[2]) as ws:  # the last one sits down: play starts
        assert ws.receive_json()["view"]["waiting_for"] == []
        wait_for(lambda: view(client, table_id)["log"])
    assert view(client, table_id)["waiting_for"] == []


def test_a_seat_handed_to_a_bot_is_awaited_no_more(sqlite_url: str) -> None:
    with running_app(sqlite_url, idle_seconds=0.0) as client:
        table_id, tokens = new_table(client, seats=FOUR, seed=bots_first(FOUR))
        r = client.post(f"/api/tables/{table_id}/seats/2/bot", json={"token": tokens[0]})
        assert r.status_code == 200 and r.json()["waiting_for"] == []
        wait_for(lambda: view(client, table_id)["log"])


# -- hints ----------------------------------------------------------------------------------------

def test_hint(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4, seed=2)
    v = view(client, table_id)
    mover, waiting = v["to_move"], (v["to_move"] + 1) % 4
    r = client.get(f"/api/tables/{table_id}/hint", params={"token": tokens[mover]})
    assert r.status_code == 200
    hint = r.json()
    assert hint["action"] in view(client, table_id, tokens[mover])["legal"]
    assert hint["bot"] in ("heuristic", "greedy", "random")
    r = client.get(f"/api/tables/{table_id}/hint", params={"token": tokens[waiting]})
    assert r.status_code == 409
    assert client.get(f"/api/tables/{table_id}/hint").status_code == 422
    assert client.get(f"/api/tables/{table_id}/hint", params={"token": "x"}).status_code == 403


def test_stats_count_actions(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4, seed=2)
    v = view(client, table_id)
    assert play(client, table_id, tokens[v["to_move"]], "draw").status_code == 200
    stats = client.get("/api/stats").json()
    assert stats["human"]["actions"] == 1 and stats["human"]["p50_ms"] is not None


# -- trust -----------------------------------------------------------------------------------------

def test_every_view_holds_only_what_its_seat_may_see(client: TestClient) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4, seed=17)
    lobby = lobby_of(client)
    rng = random.Random(17)
    for _ in range(60):
        state = lobby.tables[table_id].game.state
        if state.is_over:
            break
        for seat, token in tokens.items():
            v = view(client, table_id, token)
            assert {k: v[k] for k in observe(state, seat).to_json()} == \
                observe(state, seat).to_json()
            assert all(isinstance(h, int) for s, h in enumerate(v["hands"]) if s != seat)
            assert isinstance(v["stock"], int)
        public = view(client, table_id)
        assert all(isinstance(h, int) for h in public["hands"])
        assert public["hands"] == [len(h) for h in state.hands]
        mover = view(client, table_id, tokens[state.to_move])
        assert play(client, table_id, tokens[state.to_move],
                    rng.choice(mover["legal"])).status_code == 200


def test_a_double_submitted_action_counts_once(client: TestClient) -> None:
    from concurrent.futures import ThreadPoolExecutor

    table_id, tokens = new_table(client, seats=["human"] * 4, seed=17)
    token = tokens[view(client, table_id)["to_move"]]
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda _: play(client, table_id, token, "draw").status_code,
                              range(8)))
    assert sorted(codes) == [200] + [409] * 7
    assert client.get(f"/api/tables/{table_id}/record").json()["hands"][0]["actions"] == ["draw"]
