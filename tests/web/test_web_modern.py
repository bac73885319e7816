"""Modern American at the web table (``/api/modern``): a hand played through the API, refusals
in words that change nothing, bad requests, and a game that survives a restart."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.web.support import running_app


def create(client: TestClient) -> tuple[str, str, dict[str, Any]]:
    r = client.post("/api/modern/tables")
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], data["token"], data["view"]


def play(client: TestClient, game: str, token: str, action: str) -> Any:
    return client.post(f"/api/modern/tables/{game}/actions", params={"token": token},
                       json={"action": action})


def test_a_hand_played_through_the_api(client: TestClient) -> None:
    game, token, view = create(client)
    position = view["position"]
    assert position["rules"] == "modern-american" and len(position["hands"][0]) >= 13
    assert isinstance(position["hands"][1], int) and isinstance(position["stock"], int)
    assert "turn_card" not in position and view["turn_card_drawn"] is False
    moves = 0
    while "result" not in view["position"]:
        assert view["legal"], view
        r = play(client, game, token, view["legal"][-1] if view["legal"][-1].startswith(
            "discard") else view["legal"][0])
        assert r.status_code == 200, r.text
        view = r.json()
        moves += 1
        assert moves < 400
    sides = view["position"]["result"]["sides"]
    assert [s["total"] for s in sides] == view["scores"]
    for side in (0, 1):
        melds = view["position"]["sides"][side]["melds"]
        assert sorted(view["canastas"][side]) == sorted(k for k, m in melds.items()
                                                          if len(m) == 7)
        assert len(view["canastas"][side]) == sides[side]["canastas"]
    assert view["moves"] and all(": " in m for m in view["moves"])
    r = client.post(f"/api/modern/tables/{game}/next", params={"token": token})
    assert r.status_code == 200 and r.json()["hand_number"] == 2


def test_refusals_say_the_rule_and_change_nothing(client: TestClient) -> None:
    game, token, view = create(client)
    r = play(client, game, token, "discard JK")
    assert r.status_code == 409
    words = r.json()["words"]
    assert words and "illegal action" not in words
    assert client.get(f"/api/modern/tables/{game}/view", params={"token": token}).json() == view
    r = play(client, game, token, "meld Zz")
    assert r.status_code == 422 and "unknown card" in r.json()["error"]
    r = client.post(f"/api/modern/tables/{game}/actions", params={"token": token},
                    content=b"{not json")
    assert r.status_code == 422
    assert play(client, game, "wrong", "draw").status_code == 403
    assert client.get("/api/modern/tables/nothing/view", params={"token": token}
                      ).status_code == 404
    r = client.post(f"/api/modern/tables/{game}/next", params={"token": token})
    assert r.status_code == 409 and "still being played" in r.json()["error"]


def test_a_game_survives_a_restart(sqlite_url: str) -> None:
    with running_app(sqlite_url) as client:
        game, token, view = create(client)
        view = play(client, game, token, view["legal"][0]).json()
    with running_app(sqlite_url) as again:
        r = again.get(f"/api/modern/tables/{game}/view", params={"token": token})
        assert r.status_code == 200 and r.json() == view


def test_house_rules_at_a_new_table(client: TestClient) -> None:
    r = client.post("/api/modern/tables", json={"house_rules": {"special_hands": "pagat"}})
    assert r.status_code == 201, r.text
    assert r.json()["view"]["rules"] == {"preset": "modern-american", "special_hands": "pagat"}
    r = client.post("/api/modern/tables", json={"house_rules": {"target_score": 10}})
    assert r.status_code == 422 and "cannot be set here" in r.json()["words"]
    r = client.post("/api/modern/tables", json={"house_rules": {"special_hands": "mine"}})
    assert r.status_code == 422 and "'cla' or 'pagat'" in r.json()["error"]
    r = client.post("/api/modern/tables", json={"house_rules": ["pagat"]})
    assert r.status_code == 422


def test_a_hint_from_the_search_bot_in_words(client: TestClient) -> None:
    game, token, view = create(client)
    hinted = 0
    while "result" not in view["position"] and hinted < 4:
        r = client.get(f"/api/modern/tables/{game}/hint", params={"token": token})
        assert r.status_code == 200, r.text
        hint = r.json()
        assert hint["action"] in view["legal"] and hint["bot"] == "modern-search"
        assert hint["words"] and not hint["words"][0].islower() and hint["words"].endswith(".")
        # the hint changes nothing; playing it is accepted
        assert client.get(f"/api/modern/tables/{game}/view", params={"token": token}
                          ).json() == view
        r = play(client, game, token, hint["action"])
        assert r.status_code == 200, r.text
        view = r.json()
        hinted += 1
    assert client.get(f"/api/modern/tables/{game}/hint", params={"token": "wrong"}
                      ).status_code == 403
