"""What the page is given beyond the observation: names, the family's facts (running points,
the pile's freeze), the hands at the end, the house-rules form, the rules a screen states, the
replay's positions, and /docs without a CDN; and that the page's code holds no rule of its
own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from canasta.actions import format_action
from canasta.cards import card_names
from canasta.family import all_presets, family_of
from canasta.family import get_rules as family_rules
from canasta.interfaces.web.messages import TableView
from canasta.interfaces.web.tables import Table
from canasta.interfaces.web.views import (
    build_view,
    preset_lines,
    replay_of,
    seat_observation,
    table_rules,
)
from canasta.position import state_from_json
from canasta.rules import get_rules, rules_from_json
from tests.web.positions import frozen_by_black_three, hand_played_out, mid_hand, table_row
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


def facts_of(state: Any, seat: int | None) -> dict[str, Any]:
    """The facts a seat's view carries (``None``: a spectator's)."""
    family = family_of(state.rules)
    facts: dict[str, Any] = family.facts(seat_observation(family, state, seat)[0])
    return facts


def test_the_facts_count_melds_canastas_and_red_threes() -> None:
    facts = facts_of(state_from_json(POSITION), 0)
    us, them = facts["table_points"]
    # not opened: the red three counts against the side, and the opening needs 90 at 1600
    assert us["total"] == -100 and us["laid"] == -100 and facts["melds"][0] == []
    assert facts["opening_minimum"][0] == 90
    assert them["melds"] == 70 + 90 + 15 and them["canastas"] == 500 + 300
    assert sorted(m["canasta"] or "" for m in facts["melds"][1]) == ["", "mixed", "natural"]
    assert them["total"] == 175 + 800 + 100


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
    fields = {f["name"] for g in form["families"][0]["groups"] for f in g["fields"]}
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
    assert view["target"] == 3000 and view["facts"]["opening_minimum"][0] == 40


def test_docs_load_their_assets_from_the_server(client: Any) -> None:
    page = client.get("/docs").text
    assert "cdn" not in page.lower() and "/docs-assets/swagger-ui-bundle.js" in page
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        assert client.get(f"/docs-assets/{asset}").status_code == 200


# -- the rules a screen states, and the pile's freeze: the server's, never the page's ----------

FROZEN_BY_BLACK_THREE = {
    "rules": {"preset": "classic", "black_three_freezes_pile": True},
    "dealer": 3, "to_move": 0, "phase": "draw",
    "hands": [["As", "Ah", "Kc", "9s"], ["4c", "6c"], ["Td", "Jh"], ["Qs", "Qd"]],
    "stock": ["5d", "6d", "7d"], "pile": ["8h", "9c", "3s", "Qh", "4d"], "pile_frozen": True,
    "sides": [{"score": 0, "melds": {}, "red_threes": []},
              {"score": 0, "red_threes": [], "melds": {"7": ["7c", "7d", "7s"]}}],
}


def test_table_rules_state_the_engines_rules() -> None:
    six = table_rules(get_rules("classic-6p-3x2"))
    assert six["label"] == "Classic — 6 players, 3 teams of 2"
    assert (six["players"], six["sides"], six["canastas_to_go_out"], six["canasta_size"]) == (
        6, 3, 2, 7)
    assert six["custom"] is False and six["house_rules"] == []
    assert table_rules(get_rules("classic-2p"))["ask_partner"] is False
    assert table_rules(get_rules("classic-2p"))["draw_count"] == 2
    # a completed meld in the family's word
    assert six["canasta_name"] == ["canasta", "canastas"]
    assert table_rules(family_rules("hand-and-foot"))["canasta_name"] == ["book", "books"]
    # every preset of every family has its game's name; the lobby lists them all
    assert [p["name"] for p in preset_lines()] == list(all_presets())
    assert all(not p["label"].startswith(p["name"]) for p in preset_lines())
    assert {"name": "classic", "label": "Classic — 4 players, partners", "family": "classic",
            "title": "Classic Canasta", "players": 4, "sides": 2,
            "target": 5000} in preset_lines()
    house = table_rules(rules_from_json({"preset": "classic", "black_three_freezes_pile": True,
                                         "min_canastas_to_go_out": 2}))
    assert house["custom"] and house["canastas_to_go_out"] == 2
    assert [r["text"] for r in house["house_rules"]] == [
        "A black three discarded freezes the pile: yes", "Canastas needed to go out: 2"]


def pile_of(state: Any, seat: int | None) -> dict[str, Any]:
    pile: dict[str, Any] = facts_of(state, seat)["pile"]
    return {k: pile[k] for k in ("frozen", "why", "frozen_by", "blocked")}


def test_the_pile_frozen_by_a_black_three_says_so() -> None:
    state = state_from_json(FROZEN_BY_BLACK_THREE)
    frozen = {"frozen": True, "why": "a black three is in it", "frozen_by": "3s",
              "blocked": None}
    assert pile_of(state, 0) == frozen  # seat 0's side has not melded: frozen anyway
    assert pile_of(state, None) == frozen
    unfrozen = state_from_json({**FROZEN_BY_BLACK_THREE, "pile_frozen": False,
                                "pile": ["8h", "9c", "Qh", "4d"]})
    assert pile_of(unfrozen, 0) == {"frozen": True, "why": "your side has not melded",
                                    "frozen_by": None, "blocked": None}
    assert pile_of(unfrozen, 1)["frozen"] is False
    assert pile_of(unfrozen, None)["frozen"] is False  # spectators: the freeze for everyone


@pytest.mark.parametrize(("top", "blocked"), [
    ("3c", "a black three is on top"), ("2d", "a wild card is on top"),
    ("JK", "a wild card is on top"), ("3h", "a red three is on top"), ("Qh", None)])
def test_the_view_says_when_the_top_card_blocks_the_pile(top: str, blocked: str | None) -> None:
    state = state_from_json({**FROZEN_BY_BLACK_THREE, "pile": ["8h", "9c", "3s", "Qh", top]})
    assert pile_of(state, 1)["blocked"] == blocked
    assert pile_of(state, None)["blocked"] == blocked


def test_a_view_carries_the_rules_and_the_freeze() -> None:
    game = mid_hand(get_rules("classic").replace(black_three_freezes_pile=True),
                    accept=frozen_by_black_three)
    view = build_view(Table.from_row(table_row("b3", game)), 0)
    assert view["facts"]["pile"]["why"] == "a black three is in it"
    assert view["facts"]["pile"]["frozen_by"] in ("3c", "3s")
    assert view["table_rules"]["house_rules"][0]["field"] == "black_three_freezes_pile"
    assert TableView.model_validate(view).facts["pile"] == view["facts"]["pile"]


def test_a_replay_is_every_position_the_engine_plays_again() -> None:
    game = hand_played_out(get_rules("classic").replace(target_score=50))
    record = game.record
    table = Table.from_row(table_row("replayed", game))
    data = replay_of(table)
    assert data["table_rules"]["target_score"] == 50
    assert data["players"] == list(table.game.players)
    assert data["names"][0]["name"] == "Ann" and "p0" not in str(data["names"])
    (hand,) = data["hands"]
    assert hand["actions"] == list(record.hands[0].actions)
    assert len(hand["positions"]) == len(hand["actions"]) + 1
    last, result = hand["positions"][-1], game.state.result
    assert result is not None
    assert last["phase"] == "over" and last["result"]["went_out"] == result.went_out
    assert last["hands"] == [card_names(h) for h in game.state.hands]
    assert last["stock"] == len(game.state.stock)
    assert last["facts"]["melds"] and data["score_sheet"][0]["ending"]["words"]


def test_the_replay_waits_for_the_end_of_the_game(client: Any) -> None:
    table_id, _ = new_table(client, seats=["human"] * 4)
    r = client.get(f"/api/tables/{table_id}/replay")
    assert r.status_code == 409 and r.json()["code"] == "game_not_over"


JS = Path(__file__).resolve().parents[2] / "src/canasta/interfaces/web/static/js"
CARD_POINTS = {5, 10, 20, 50, 100, 300, 500}


def test_the_page_holds_no_rule() -> None:
    """The page states the server's rule facts (table_rules, card_points, live, pile_freeze):
    no preset, canasta size, opening minimum or card-points table of its own."""
    assert not (JS / "rules.js").exists()
    for path in sorted(JS.glob("*.js")):
        source = path.read_text()
        for name in all_presets():
            assert f'"{name}"' not in source and f"'{name}'" not in source, (path.name, name)
        # nor a family: what differs between families comes with the view's facts
        assert not re.search(r"modern|isModern|american", source, re.IGNORECASE), path.name
        for word in ("classic-", "CANASTA_SIZE", "initial_meld_thresholds", "cardValue",
                     "min_canastas_to_go_out", "rules.js", "HAND_SIZE", "PRESETS"):
            assert word not in source, (path.name, word)
        # a canasta's size: a meld's cards counted against a number
        assert not re.search(r"cards\.length\s*>=\s*\d|>=\s*7\b", source), path.name
        # an object literal whose numbers are all card points: a values table
        for block in re.findall(r"\{[^{}]*\}", source):
            pairs = re.findall(r"""(?:\w+|"[^"]*")\s*:\s*(\d+)\b""", block)
            numbers = {int(n) for n in pairs}
            assert not (len(pairs) >= 3 and numbers <= CARD_POINTS), (path.name, block[:80])
        assert not re.search(r"return\s+(?:20|50|100)\b", source), path.name
        # what blocks the pile comes with the view (pile_freeze.blocked), not from the top card
        assert not re.search(r"is(?:BlackThree|RedThree|Wild)\(top\)", source), path.name


def test_the_log_says_what_a_take_took_and_which_red_threes_were_laid() -> None:
    """Every seat reads, for each action of the hand, the pile's size and top card a take took
    and the red threes an action laid: the facts the engine played, action by action."""
    from canasta.cards import format_card
    from canasta.deal import new_hand
    from canasta.engine import apply

    game = mid_hand("classic", min_melds=3)
    table = Table.from_row(table_row("facts", game))
    log = build_view(table, 1)["log"]
    hand = game.record.hands[0]
    state = new_hand(game.rules, deck=hand.deck, dealer=hand.dealer)
    takes = reds = 0
    for entry, line in zip(log, hand.actions, strict=True):
        side = state.to_move % game.rules.num_sides
        after = apply(state, line)
        assert entry["action"] == line and entry["seat"] == state.to_move
        if line.startswith("take"):
            takes += 1
            assert entry["took"] == len(state.pile) and entry["top"] == format_card(state.pile[-1])
        else:
            assert "took" not in entry
        laid = card_names(after.red_threes[side])[len(state.red_threes[side]):]
        assert entry.get("laid", []) == laid
        reds += bool(laid)
        state = after
    assert takes  # the seeded hand holds takes, so the check above ran
    # the facts are kept and extended: the same after one more action
    assert build_view(table, 2)["log"] == log


def test_refusals_in_a_players_words() -> None:
    """The engine's texts stay its own; the page's words drop the notation."""
    from canasta.interfaces.web.errors import Conflict
    from canasta.interfaces.web.words import player_words

    engine = ("illegal action 'meld 2c': wild cards cannot be melded alone: name the meld "
              "they join (e.g. 'meld 7: 2c')")
    out = Conflict(engine).to_json()
    assert out["error"] == engine
    words = out["words"]
    assert "illegal action" not in words and "meld 7" not in words and "'" not in words
    assert words.startswith("Wild cards cannot be melded alone")
    for message in ("illegal action 'take': the turn starts with 'draw' or 'take'",
                    "illegal action 'pass': 'pass' is only allowed once the stock is exhausted",
                    "min_canastas_to_go_out must be at least 1",
                    "illegal action 'discard 7h': you must draw first"):
        text = player_words(message)
        assert not re.search(r"illegal action|'\w+'|\b[a-z]+_[a-z]+\b", text), text
        assert text.lstrip("“")[0].isupper() and text.endswith(".")
    assert "Canastas needed to go out" in player_words("min_canastas_to_go_out must be 1")


def test_choices_and_house_rules_in_force_read_as_words(client: Any) -> None:
    form = client.get("/api/house-rules").json()
    for group in (g for family in form["families"] for g in family["groups"]):
        for field in group["fields"]:
            if field["kind"] == "choice":
                labels = field["choice_labels"]
                assert len(labels) == len(field["choices"])
                assert not any("_" in label or label in (">=", ">") for label in labels)
    rules = get_rules("classic").replace(stock_exhausted_rule="void_draw", target_comparison=">")
    texts = [r["text"] for r in table_rules(rules)["house_rules"]]
    assert not any("_" in t or ">" in t for t in texts), texts


def test_a_hand_that_is_over_has_its_replay_while_the_game_goes_on(sqlite_url: str) -> None:
    from tests.web.positions import store_tables
    from tests.web.support import running_app

    game = hand_played_out("classic")
    assert not game.is_over and game.state.is_over
    store_tables(sqlite_url, {"one-hand": game})
    with running_app(sqlite_url) as client:
        r = client.get("/api/tables/one-hand/replay")
    assert r.status_code == 200, r.text
    (hand,) = r.json()["hands"]
    assert hand["actions"] == list(game.actions)
    assert hand["positions"][-1]["phase"] == "over"


FIRST_PERSON = re.compile(r"\b(I|I'm|me|my|mine|we|us|our|ours)\b", re.IGNORECASE)


def test_a_hint_is_said_to_the_player() -> None:
    """The bot's reasons, in positions met along greedy hands, read in the second person: no
    "I", "my" or "our" left, the restated action dropped, a sentence."""
    import random

    from canasta.bots import explain, make_bot
    from canasta.interfaces.web.words import hint_words
    from canasta.legal import legal_actions
    from canasta.observation import observe

    bot, greedy = make_bot("heuristic"), make_bot("greedy")
    said: dict[str, str] = {}
    for preset in ("classic", "classic-2p"):
        game = mid_hand(preset, min_melds=0)
        rng = random.Random(0)
        while not game.state.is_over and len(said) < 60:
            state = game.state
            legal = legal_actions(state)
            action, why = explain(bot, observe(state, state.to_move), legal, rng)
            said[why] = hint_words(why, format_action(action)) or ""
            game.apply(greedy.choose(observe(state, state.to_move), legal, rng))
    spoken = [why for why in said if FIRST_PERSON.search(why)]
    assert spoken, "no reason in the bot's first person was met"  # the rewrite is exercised
    for why, words in said.items():
        assert not FIRST_PERSON.search(words), (why, words)
        assert "legal action" not in words and not re.match(r"(discard|meld|take) \S+:", words)
        assert words[0].isupper() and words.endswith("."), words
    assert hint_words("discard 4h: my pair of fours is the one to break", "discard 4h") == (
        "Your pair of fours is the one to break.")
    assert hint_words("no: I still have cards to lay down first", "no") == (
        "You still have cards to lay down first.")
    assert hint_words("ask partner before going out (the hand may end any moment)", "ask") == (
        "Ask your partner before going out (the hand may end any moment).")
