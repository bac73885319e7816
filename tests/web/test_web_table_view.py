"""What the page is given beyond the position: names, running points, the hands at the end,
the house-rules form, and /docs without a CDN."""

from __future__ import annotations

from typing import Any

from canasta.interfaces.web.tables import Table
from canasta.interfaces.web.views import build_view, live_points
from canasta.position import state_from_json
from tests.web.positions import hand_played_out, mid_hand, table_row
from tests.web.support import new_table

POSITION = {
    "rules": "classic", "dealer": 3, "to_move": 0, "phase": "draw",
    "hands": [["As", "Ah", "Kc", "9s"], ["4c", "6c"], ["Td", "Jh"], ["Qs", "Qs"]],
    "stock": ["5d", "6d", "7d"], "pile": ["8h", "2c", "Qh", "3s"],
    "sides": [
        {"score": 1600, "melds": {}, "red_threes": ["3h"]},
        {"score": 0, "red_threes": ["3d"],
         "melds": {"K": ["Kh", "Kd", "Ks", "Ks", "Kh", "Kd", "Kc"],
                   "8": ["8c", "8d", "8h", "8s", "8s", "2d", "2h"], "7": ["7c", "7d", "7s"]}},
    ],
}


def test_live_points_count_melds_canastas_and_red_threes() -> None:
    us, them = live_points(state_from_json(POSITION))
    # not opened: the red three counts against the side, and the opening needs 90 at 1600
    assert us == {"melded": 0, "canastas": 0, "hidden": 0, "natural_canastas": 0,
                  "mixed_canastas": 0, "red_threes": -100, "total": -100, "opened": False,
                  "minimum": 90}
    assert them["melded"] == 70 + 90 + 15 and them["canastas"] == 500 + 300
    assert (them["natural_canastas"], them["mixed_canastas"]) == (1, 1)
    assert them["total"] == 175 + 800 + 100 and them["opened"] and them["minimum"] is None


def test_bots_have_friendly_names_with_their_level(client: Any) -> None:
    table_id, tokens = new_table(client, seats=["human", "bot:medium", "bot:easy", "bot:random"],
                                 names=["Ann", "bot:medium", "bot:easy", "bot:random"])
    view = client.get(f"/api/tables/{table_id}/view", params={"token": tokens[0]}).json()
    names = view["names"]
    assert names[0] == {"name": "Ann", "level": None, "bot": False}
    assert [n["level"] for n in names[1:]] == ["medium", "easy", "random"]
    assert len({n["name"] for n in names}) == 4 and not any("bot" in n["name"] for n in names)
    again = client.get(f"/api/tables/{table_id}/view").json()["names"]
    assert [n["name"] for n in again] == [n["name"] for n in names]  # fixed for the table


def test_every_hand_is_shown_once_the_hand_is_over() -> None:
    game = hand_played_out("classic")
    table = Table.from_row(table_row("ended", game))
    view = build_view(table, 0)
    state = game.state
    assert [len(h) for h in view["revealed"]] == [len(h) for h in state.hands]
    assert view["hand_points"] == [sum(state.rules.value_of[c] for c in h) for h in state.hands]
    # during the hand nobody's cards are revealed, and the others' hands are counts
    playing = build_view(Table.from_row(table_row("on", mid_hand("classic"))), 0)
    assert "revealed" not in playing and all(isinstance(h, int) for h in playing["hands"][1:])


def test_house_rules_form_and_an_impossible_combination(client: Any) -> None:
    form = client.get("/api/house-rules").json()
    fields = {f["name"] for g in form["groups"] for f in g["fields"]}
    assert {"target_score", "initial_meld_thresholds", "min_canastas_to_go_out",
            "pile_frozen_by_wild", "black_three_freezes_pile"} <= fields
    assert form["presets"]["classic-6p"]["target_score"] == 10000
    # where the published rules disagree (RULES §8.2)
    assert {"one_card_pile_take_ban", "last_red_three_may_meld", "ask_before_draw"} <= fields
    assert [form["presets"][p]["one_card_pile_take_ban"] for p in ("classic", "korean-old")] == [
        "always", "never"]
    assert form["presets"]["classic"]["initial_meld_thresholds"][1] == [0, 50]
    r = client.post("/api/tables", json={
        "rules": {"preset": "classic-3p", "permission_question_enabled": True},
        "seats": ["human", "bot", "bot"]})
    assert r.status_code == 422
    assert "asking a partner needs partnerships" in r.json()["error"]
    # people only: a bot partner could meld before the view is read (and open the side)
    table_id, tokens = new_table(client, rules={"preset": "classic", "target_score": 3000,
                                                "initial_meld_thresholds": [[None, 10], [0, 40]]},
                                 seats=["human"] * 4)
    view = client.get(f"/api/tables/{table_id}/view", params={"token": tokens[0]}).json()
    assert view["target"] == 3000 and view["live"][0]["minimum"] == 40


def test_docs_load_their_assets_from_the_server(client: Any) -> None:
    page = client.get("/docs").text
    assert "cdn" not in page.lower() and "/docs-assets/swagger-ui-bundle.js" in page
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        assert client.get(f"/docs-assets/{asset}").status_code == 200
