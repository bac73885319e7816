"""Every family plays at the tables of the lobby, through the same API and the same view:
Modern American (the second family) with two people and two bots, each person seeing only their
own hand, a spectator no hidden card, a kept three told to nobody else, refusals that change
nothing, the family's bots by level, a restart, a hand to its end with its replay, and the
games of the former one-person page brought over by the migration."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient

from canasta.family import families
from tests.web.support import new_table, running_app, sit_down, table_socket, wait_for

FAMILY = "modern-american"
SEATS = ["human", "bot:random", "human", "bot:easy"]


def view(client: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/tables/{table_id}/view", params={"token": token} if token else {})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def room(client: TestClient, **body: Any) -> tuple[str, dict[int, str]]:
    body.setdefault("rules", FAMILY)
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


def test_every_family_is_offered_with_its_presets_bots_and_house_rules(
        client: TestClient) -> None:
    names = [f.name for f in families()]
    presets = client.get("/api/presets").json()["presets"]
    assert [p["family"] for p in presets if p["name"] in names] == names
    bots = {b["family"]: b for b in client.get("/api/bots").json()["families"]}
    assert set(bots) == set(names)
    assert all(set(b["levels"]) == {"easy", "medium", "hard", "expert"} for b in bots.values())
    forms = {f["family"]: f for f in client.get("/api/house-rules").json()["families"]}
    fields = {f["name"]: f for g in forms[FAMILY]["groups"] for f in g["fields"]}
    assert fields["special_hands"]["choice_labels"][0].startswith("the 11 hands")
    assert forms[FAMILY]["presets"][FAMILY]["special_hands"] == "cla"


def test_each_person_sees_only_their_own_hand_and_a_spectator_none(client: TestClient) -> None:
    table_id, tokens = room(client, seed=11)
    seat = person_to_move(client, table_id, tokens)
    mine = view(client, table_id, tokens[seat])
    assert mine["family"] == FAMILY and mine["seat"] == seat
    assert [s["controller"] for s in mine["seats"]] == ["human", "bot", "human", "bot"]
    assert [n["level"] for n in mine["names"]] == [None, "random", None, "easy"]
    assert not any("bot" in n["name"] or "modern" in n["name"] for n in mine["names"])
    facts = mine["facts"]
    assert facts["family"] == FAMILY and "W" in facts["meld_keys"]
    assert facts["canastas_to_go_out"] == 2 and facts["notes"]
    for who, token in tokens.items():
        seen = view(client, table_id, token)
        assert seen["seat"] == who and isinstance(seen["stock"], int)
        for other, hand in enumerate(seen["hands"]):
            assert isinstance(hand, list) == (other == who), (who, other)
    assert mine["legal"] and mine["your_turn"]
    theirs = view(client, table_id, tokens[2 - seat])
    assert theirs["legal"] == [] and theirs["your_turn"] is False
    watcher = view(client, table_id)
    assert watcher["seat"] is None and watcher["legal"] == [] and watcher["your_turn"] is False
    assert all(isinstance(h, int) for h in watcher["hands"])
    assert "kept" not in watcher["turn"]
    # which three another player keeps is never shown: the verb and the words only
    kept = [line for line in watcher["log"] if line["action"].startswith("keep")]
    assert all(line["action"] == "keep" and "words" in line for line in kept)
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert record["complete"] is False and all("deck" not in h for h in record["hands"])
    assert all(a == "keep" or not a.startswith("keep") for h in record["hands"]
               for a in h["actions"])


def test_a_refused_request_changes_nothing(client: TestClient) -> None:
    table_id, tokens = room(client, seed=12)
    seat = person_to_move(client, table_id, tokens)
    before = view(client, table_id, tokens[seat])
    card = before["hands"][seat][0]
    r = act(client, table_id, tokens[seat], f"discard {card}")  # before drawing
    assert r.status_code == 409 and r.json()["code"] == "illegal" and r.json()["words"]
    r = act(client, table_id, tokens[2 - seat], "draw")  # out of turn
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    r = act(client, table_id, tokens[seat], "meld Zz Zz Zz")
    assert r.status_code == 422 and r.json()["code"] == "bad_action"
    r = client.post(f"/api/tables/{table_id}/next", json={"token": tokens[seat]})
    assert r.status_code == 409 and r.json()["code"] == "hand_not_over"
    after = view(client, table_id, tokens[seat])
    assert after["version"] == before["version"] and after["hands"] == before["hands"]


def test_a_new_table_takes_the_family_s_bots_and_house_rules(client: TestClient) -> None:
    r = client.post("/api/tables", json={"rules": FAMILY, "seats": ["human"] * 3})
    assert r.status_code == 422 and "4 seats" in r.json()["error"]
    r = client.post("/api/tables", json={"rules": {"preset": FAMILY, "no_such_rule": 1}})
    assert r.status_code == 422 and "no_such_rule" in r.json()["error"]
    r = client.post("/api/tables", json={"rules": FAMILY,
                                         "seats": ["human", "bot:ismcts", "human", "bot"]})
    assert r.status_code == 422
    # levels, names and older names of the family's bots; nobody plays before people sit down
    table_id, _ = new_table(client, rules={"preset": FAMILY, "special_hands": "pagat"},
                            seats=["human", "bot:hard", "human", "bot:modern-greedy"])
    seen = view(client, table_id)
    assert [s["bot"] for s in seen["seats"]] == [None, "hard", None, "modern-greedy"]
    assert [n["level"] for n in seen["names"]] == [None, "hard", None, "easy"]
    assert seen["rules"] == {"preset": FAMILY, "special_hands": "pagat"}
    assert seen["table_rules"]["house_rules"][0]["text"] == (
        "Special hands: the 4 hands of the older rules")
    assert seen["waiting_for"] == [0, 2] and seen["log"] == []


def test_a_table_survives_a_restart(sqlite_url: str) -> None:
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
        for key in ("version", "hands", "pile", "legal", "log", "scores", "rules", "facts"):
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
        mine.send_json({"type": "action", "action": now["legal"][0]})
        while True:  # connection notices may come first
            message = theirs.receive_json()
            assert message["type"] == "view"
            pushed = message["view"]
            if pushed["version"] > seen["version"]:
                break
        assert pushed["last_action"]["seat"] == seat
        assert pushed["seat"] == other and isinstance(pushed["hands"][other], list)
        assert isinstance(pushed["hands"][seat], int)


def test_a_hand_to_its_end_the_next_deal_and_the_replay(client: TestClient) -> None:
    table_id, tokens = room(client, seed=15, seats=["human", "bot:random", "bot:random",
                                                    "bot:random"])
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
    line = seen["score_sheet"][0]
    assert seen["scores"] == line["totals"] == line["scores"]
    assert line["ending"]["words"] and line["score"][0]["total"] == line["totals"][0]
    assert all(isinstance(h, list) for h in seen["revealed"])
    replay = client.get(f"/api/tables/{table_id}/replay").json()
    hand = replay["hands"][0]
    assert len(hand["positions"]) == len(hand["actions"]) + 1 == len(hand["moves"]) + 1
    assert all(isinstance(h, list) for h in hand["positions"][-1]["hands"])  # face up, once over
    assert replay["score_sheet"][0]["totals"] == line["totals"]
    r = client.post(f"/api/tables/{table_id}/next", json={"token": token})
    assert r.status_code == 200 and r.json()["hand_number"] == 2 and r.json()["dealer"] == 1


def test_the_family_s_bots_decide_in_a_worker_from_the_position_s_json() -> None:
    from canasta.family import family_of, get_rules
    from canasta.interfaces.web.bot_runner import random_decision
    from canasta.interfaces.web.bot_workers import decide, position_json

    rules = get_rules(FAMILY)
    family = family_of(rules)
    h = family.new_hand(rules, 21)
    for _ in range(5):
        here = decide("easy", h, h.to_move, "seed")
        assert decide("easy", position_json(h), h.to_move, "seed") == here
        h = family.apply(h, family.parse_action(rules, here.action))
    stand_in = random_decision(h, "seed", "the bot failed")
    assert stand_in.bot == "fallback"
    assert family.parse_action(rules, stand_in.action) in family.legal_actions(h)


def test_hints_come_from_the_family_s_bot(client: TestClient) -> None:
    table_id, tokens = room(client, seed=16)
    seat = person_to_move(client, table_id, tokens)
    legal = view(client, table_id, tokens[seat])["legal"]
    hint = client.get(f"/api/tables/{table_id}/hint", params={"token": tokens[seat]})
    assert hint.status_code == 200 and hint.json()["action"] in legal and hint.json()["words"]
    r = client.get(f"/api/tables/{table_id}/hint", params={"token": tokens[2 - seat]})
    assert r.status_code == 409


def test_a_seat_handed_to_a_bot_of_the_family_and_claimed_back(client: TestClient) -> None:
    table_id, tokens = new_table(client, rules=FAMILY, seats=SEATS)
    r = client.post(f"/api/tables/{table_id}/seats/2/bot",
                    json={"token": tokens[2], "bot": "ismcts"})
    assert r.status_code == 422
    r = client.post(f"/api/tables/{table_id}/seats/2/bot", json={"token": tokens[2],
                                                                 "bot": "easy"})
    assert r.status_code == 200 and r.json()["seats"][2]["bot"] == "easy"
    r = client.post(f"/api/tables/{table_id}/seats/2/claim", json={"token": tokens[2]})
    assert r.status_code == 200 and r.json()["seats"][2]["controller"] == "human"


# -- the games of the former one-person page ----------------------------------------------------

def old_game(seed: int = 7, actions: int = 30) -> tuple[dict[str, Any], int]:
    """A record as the former one-person page stored it (``p0: draw`` lines; three bots), and
    the version its view reaches."""
    from canasta.cards import format_card
    from canasta.family import family_of, get_rules

    rules = get_rules(FAMILY)
    family = family_of(rules)
    deck = family.shuffled_pack(rules, seed)
    h = family.new_hand(rules, deck=deck, dealer=0)
    lines = []
    for _ in range(actions):
        action = family.legal_actions(h)[0]
        lines.append(f"p{h.to_move}: {family.format_action(rules, action)}")
        h = family.apply(h, action)
    record = {"rules": FAMILY, "players": ["you", "bot:modern-heuristic",
                                           "bot:modern-heuristic", "bot:modern-heuristic"],
              "seed": seed, "hands": [{"dealer": 0, "deck": [format_card(c) for c in deck],
                                       "actions": lines}]}
    return record, len(lines)


def test_a_game_of_the_former_page_plays_on_at_its_table(database_url: str) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    from canasta.interfaces.web.storage import MIGRATIONS, Storage, engine_url
    from canasta.interfaces.web.tables import hash_token

    storage = Storage(database_url)  # the schema the former page stored its games in
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with storage.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
    storage.close()
    record, version = old_game()
    engine = create_engine(engine_url(database_url))
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO canasta_modern_games (id, token_hash, record, updated_at) "
                          "VALUES ('old-game', :hash, :record, :at)"),
                     {"hash": hash_token("old-token"), "record": json.dumps(record),
                      "at": datetime.now(UTC)})
    engine.dispose()
    with running_app(database_url) as client:  # migrates on start-up
        seen = view(client, "old-game", "old-token")
        assert seen["family"] == FAMILY and seen["seat"] == 0 and seen["version"] == version
        assert [s["controller"] for s in seen["seats"]] == ["human", "bot", "bot", "bot"]
        assert [n["level"] for n in seen["names"]][1:] == ["medium"] * 3
        assert seen["log"][0]["seat"] == 1 and not seen["log"][0]["action"].startswith("p")
        lines = client.get("/api/tables").json()
        assert "old-game" in [line["table_id"] for line in lines]
        person_to_move(client, "old-game", {0: "old-token"})
        legal = view(client, "old-game", "old-token")["legal"]
        assert act(client, "old-game", "old-token", legal[0]).status_code == 200
        assert client.get("/modern.html", follow_redirects=False).headers["location"] == "/"


def test_each_family_seats_its_own_bots_and_hint_level() -> None:
    from canasta.bots import bot_table
    from canasta.interfaces.web.games import hint_bot, seat_bot

    for family in families():
        assert seat_bot(family, "") == "medium"
        assert hint_bot(family, "") == bot_table(family).hint_level
        assert hint_bot(family, "no-such-bot") == bot_table(family).hint_level
        assert seat_bot(family, "random") == "random"  # a bot of every family


def test_a_family_plays_at_the_web_table_by_registration_alone(sqlite_url: str) -> None:
    """Toy Rummy (examples/toy_family.py), which states only the protocol's first facts and
    has no bot of its own, plays at a table, shows its views and replays, with no web code
    of its own."""
    import importlib
    import sys
    from pathlib import Path

    from canasta.bots import bot_table

    examples = str(Path(__file__).resolve().parents[2] / "examples")
    sys.path.insert(0, examples)
    toy = importlib.import_module("toy_family")
    toy.register()
    bot_table(toy.FAMILY)  # read once its registration is in
    try:
        with running_app(sqlite_url) as client:
            assert "toy-rummy" in [p["name"] for p in client.get("/api/presets").json()["presets"]]
            table_id, tokens = new_table(client, rules="toy-rummy", seats=["human", "bot"])
            for _ in range(200):
                seen = view(client, table_id, tokens[0])
                if seen["status"] != "playing":
                    break
                if seen["your_turn"]:
                    assert act(client, table_id, tokens[0], seen["legal"][0]).status_code == 200
            assert seen["family"] == "toy-rummy" and seen["facts"]["canasta_size"] == 3
            assert seen["status"] in ("hand_over", "game_over") and seen["score_sheet"]
            assert view(client, table_id)["seat"] is None
            replay = client.get(f"/api/tables/{table_id}/replay")
            assert replay.status_code == 200 and replay.json()["hands"][0]["positions"]
    finally:
        toy.unregister()
        sys.path.remove(examples)
