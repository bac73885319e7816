"""The table page as a player sees it, in a real browser (Playwright + Debian's Chromium).

Positions are built directly, not played through the browser: greedy bots advance a seeded hand
until both sides hold several melds and seat 0 is to draw, and the table is stored in the
server's database (:mod:`tests.web.positions`); one server resumes them all.

* One screen: at 1366×768 and at 390×844 (touch), on the player's turn mid-hand, in every
  preset, the hand, the pile's top card (and the card that froze it) and the buttons lie inside
  the viewport and the page does not scroll; the seats sit around the table from the player's.
* Live points: after a meld laid through the page, the side's running total is the server's;
  then a double tap on a card discards it.
* A full table (every side with five melds or more) on two sides of partners, three sides of
  two and three players, at both sizes: every meld, label, badge and red three, and every seat's
  name and marks, show whole without scrolling; a hand of 20 cards leaves a strip of each card.
* The end of a hand shows every seat's remaining cards and the breakdown; a row of 20 cards and
  its points fit the sheet at both sizes (nothing sticks out of it or of the screen).
* The house-rules form creates a table with the changed rules; an impossible combination gets
  the rules engine's own message.
* ``/docs`` loads with every request outside the server blocked.
* The rules the page states are the server's: a classic-6p-3x2 table says 2 canastas to go
  out; a pile frozen by a black three (house rule ``black_three_freezes_pile``) says so, with
  the card; a card of another rank tapped onto a meld is explained at once, nothing sent; the
  replay shows the positions the server plays again.

Screenshots are kept in ``artifacts/`` (git-ignored), named ``table-PRESET-WIDTH.png``,
``live-points.png``, ``full-table-KIND-WIDTH.png``, ``hand-end-WIDTH.png``, ``house-rules.png``,
``docs-offline.png``, ``frozen-black-three-WIDTH.png``, ``replay.png``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from canasta.family import all_presets, get_rules
from canasta.game import Game
from canasta.interfaces.web.views import table_rules
from tests.web.phone_checks import (
    SIZES,
    clipped,
    open_page,
    overflowing,
    serious_violations,
    short_strips,
    small_controls,
    small_text,
)
from tests.web.positions import (
    TOKEN,
    blocked_by_a_black_three,
    can_meld_after_drawing,
    crowded_table,
    frozen_by_black_three,
    hand_played_out,
    long_hand_played_out,
    melds_per_side,
    mid_hand,
    store_tables,
)
from tests.web.support import ARTIFACTS, LiveServer, serving

PRESET_NAMES = [name for name, rules in all_presets().items() if rules.num_players <= 6]
"""Every preset of every family: the one page draws them all."""
RAW_CARD = re.compile(r"(?<![\w])(JK|[2-9TJQKA][cdhs])(?![\w])")
"""A card in notation (``Kh``): the page writes cards with suit symbols."""
BLACK_THREE_FREEZES = get_rules("classic").replace(black_three_freezes_pile=True)
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


FULL = {"classic": ("classic", True), "6p-3x2": ("classic-6p-3x2", True),
        "3p": ("classic-3p", False)}
"""The full tables by name: a preset, and whether seat 0 hoards 20 cards (a side of two or more)
or melds like the others (a side of one): two sides of partners, three sides of two, three
players."""
MELDS = ".meld, .meld .card, .meld-label, .canasta-badge, .red-threes"
"""Every part of a side's melds that must show whole."""
PLATES = "[data-role=seat] .seat-who, [data-role=seat] .tag, [data-role=seat] .seat-count"
"""The parts of a seat's plate that must show whole: the name, the marks, the cards held."""


def cut_names(page: Any) -> list[str]:
    """The seats' names cut short (an ellipsis: the text is wider than its box)."""
    found: list[str] = page.eval_on_selector_all(
        "[data-role=seat] .seat-who",
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 0.5).map(e => e.textContent)")
    return found


@functools.cache
def full_table(kind: str) -> Game:
    """The full table ``kind`` of :data:`FULL` (built once: a few seconds)."""
    preset, hoard = FULL[kind]
    return crowded_table(preset, hoard=hoard)


def table_id(preset: str, size: str) -> str:
    return f"{preset}-{size}"




@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server over a database holding every table the tests need."""
    folder = tmp_path_factory.mktemp("table-page")
    url = f"sqlite:///{folder / 'tables.sqlite3'}"
    games = {table_id(preset, size): mid_hand(preset) for preset in PRESET_NAMES for size in SIZES}
    games["meld"] = mid_hand("classic", accept=can_meld_after_drawing)
    games.update({f"ended-{size}": long_hand_played_out() for size in SIZES})
    frozen = mid_hand(BLACK_THREE_FREEZES, accept=frozen_by_black_three)
    games.update({f"black3-{size}": frozen for size in SIZES})
    games["blocked"] = mid_hand("classic", min_melds=1, accept=blocked_by_a_black_three)
    games["onto"] = mid_hand("classic", seed=5)
    games["keys"] = mid_hand("classic", seed=7)
    games["hint"] = mid_hand("classic", seed=9)
    games["over"] = hand_played_out(get_rules("classic").replace(target_score=50))
    games.update({f"full-{kind}-{size}": full_table(kind) for kind in FULL for size in SIZES})
    store_tables(url, games)
    yield from serving(url, folder / "server.log")


def seat_link(server: LiveServer, table: str) -> str:
    return f"{server.url}/#/table/{table}?token={TOKEN}"


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return [b for b in (el.bounding_box() for el in page.query_selector_all(selector)) if b]


def assert_in_viewport(page: Any, selector: str, what: str) -> None:
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    found = boxes(page, selector)
    assert found, f"no {what} ({selector})"
    for box in found:
        assert box["x"] >= -0.5 and box["y"] >= -0.5, f"{what} starts off screen: {box}"
        assert box["x"] + box["width"] <= width + 0.5, f"{what} runs off the right: {box}"
        assert box["y"] + box["height"] <= height + 0.5, f"{what} is below the fold: {box}"


@pytest.mark.parametrize("size", list(SIZES))
def test_the_turn_fits_one_screen_in_every_preset(browser: Any, server: LiveServer,
                                                  size: str) -> None:
    """One page goes from table to table (a preset each), as a player opening a link."""
    page = open_page(browser, size)
    for preset in PRESET_NAMES:
        page.goto(seat_link(server, table_id(preset, size)))
        try:
            check_turn(page, preset, size)
        except AssertionError as e:
            raise AssertionError(f"{preset} at {size}: {e}") from None
    # a spectator sees the same table from seat 0, every plate and no hand
    page.goto(f"{server.url}/#/watch/{table_id('classic-6p', size)}")
    page.wait_for_selector("[data-role=seat][data-seat='0']")
    assert page.locator("[data-role=seat]").count() == 6
    assert page.locator("[data-role=hand] .card").count() == 0
    assert not page.errors, page.errors
    page.close()


def check_turn(page: Any, preset: str, size: str) -> None:
    rules = get_rules(preset)
    page.wait_for_selector("[data-role=hand] .card")
    page.wait_for_selector("#btn-draw:not([disabled])")
    page.click("#btn-draw")
    page.wait_for_selector("#btn-discard")
    page.wait_for_timeout(300)  # the arrival animations end
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"table-{preset}-{SIZES[size][0]}.png"))

    # the hand, the pile's top card (and what froze it), the stock and the buttons: in view
    assert_in_viewport(page, "[data-role=hand] .card", "a card of the hand")
    assert_in_viewport(page, "[data-role=pile] .card.top, [data-role=pile] .empty-slot",
                       "the pile's top card")
    if page.query_selector("[data-role=pile] .freezer"):
        assert_in_viewport(page, "[data-role=pile] .freezer .card", "the card that froze it")
    assert_in_viewport(page, "[data-role=stock]", "the stock")
    assert_in_viewport(page, "[data-role=actions] button", "a button")
    scroll = page.evaluate("() => [document.scrollingElement.scrollHeight, innerHeight,"
                           " document.scrollingElement.scrollWidth, innerWidth]")
    assert scroll[0] <= scroll[1] and scroll[2] <= scroll[3], f"the page scrolls: {scroll}"

    # every seat has its plate, around the table from this seat
    plates = page.query_selector_all("[data-role=seat]")
    assert sorted(int(p.get_attribute("data-seat")) for p in plates) == list(
        range(rules.num_players))
    pile = page.query_selector("[data-role=pile]").bounding_box()
    spots = {p.get_attribute("data-spot"): p.bounding_box() for p in plates}
    if "left" in spots and "right" in spots:
        assert spots["left"]["x"] < spots["right"]["x"]
    for spot in ("top", "top-left", "top-right", "left", "right"):
        if spot in spots and (size == "laptop" or spot.startswith("top")):
            assert spots[spot]["y"] < pile["y"] + pile["height"], f"{spot} sits below the pile"
    if size == "laptop" and "left" in spots:
        assert spots["left"]["x"] < pile["x"] < spots["right"]["x"]

    # bots have distinct friendly names with their level; the talk reads without notation
    names = page.eval_on_selector_all(
        "[data-role=seat]:not(.me) .seat-name", "els => els.map(e => e.firstChild.textContent)")
    assert len(set(names)) == rules.num_players - 1 and not any("bot" in n for n in names)
    assert page.locator("[data-role=seat]:not(.me) .tag.bot", has_text="medium").count() == (
        rules.num_players - 1)
    labels = page.eval_on_selector_all("[data-role=seat]:not(.me)",
                                        "els => els.map(e => e.getAttribute('aria-label'))")
    assert all("a medium bot" in label for label in labels), labels
    # every side's melds, labels, badges and red threes, and every plate, show whole
    assert not clipped(page, MELDS), clipped(page, MELDS)
    assert not clipped(page, PLATES), clipped(page, PLATES)
    assert not cut_names(page), cut_names(page)
    talk = page.inner_text("#talk")
    assert talk.strip() and not RAW_CARD.search(talk), talk

    # the rules line is the server's: the preset's canastas to go out, in the family's word
    # for a canasta
    need = rules.min_canastas_to_go_out
    word = table_rules(rules)["canasta_name"][0 if need == 1 else 1]
    assert f"{need} {word} to go out" in page.inner_text("#rules-line")


def test_live_points_after_a_meld(browser: Any, server: LiveServer) -> None:
    page = open_page(browser, "laptop")
    page.goto(seat_link(server, "meld"))
    page.wait_for_selector("[data-role=hand] .card")
    page.click("#btn-draw")
    page.wait_for_selector("#btn-discard")
    view = httpx.get(f"{server.url}/api/tables/meld/view", params={"token": TOKEN}).json()
    side = view["seat"] % len(view["sides"])
    meld = next(a for a in view["legal"] if a.startswith("meld ") and ":" not in a)
    cards = meld.split()[1:]
    owner = view["facts"]["melds_of"][view["seat"]]
    before = view["facts"]["table_points"][owner]
    for card in cards:  # select the meld's cards by tapping them
        page.locator(f"[data-role=hand] .card[data-card='{card}']:not(.selected)").first.click(
            position={"x": 8, "y": 12})
    selected = sum(view["card_points"][c] for c in cards)
    assert page.inner_text("#sel-points") == f"{selected} pts"  # counted before it is laid
    page.click("#btn-meld")
    page.wait_for_function("n => document.querySelectorAll('[data-role=hand] .card').length"
                           " === n", arg=len(view["hands"][view["seat"]]) - len(cards))
    after = httpx.get(f"{server.url}/api/tables/meld/view",
                      params={"token": TOKEN}).json()["facts"]["table_points"][owner]
    assert after["melds"] == before["melds"] + selected
    shown = page.inner_text(f".side.mine .live[data-side='{side}'] .live-total")
    assert shown == f"+{after['total']}" and f"melds {after['melds']}" in page.inner_text(
        f".side.mine .live[data-side='{side}']")
    page.screenshot(path=str(ARTIFACTS / "live-points.png"))

    # a double tap on a card discards it (phones have no room for dragging)
    card = page.locator("[data-role=hand] .card").last
    discard = card.get_attribute("data-card")
    card.dblclick(position={"x": 8, "y": 12})
    page.wait_for_function("c => document.querySelector('[data-role=pile] .card.top')"
                           "?.dataset.card === c || !document.querySelector('#btn-discard')",
                           arg=discard)
    log = httpx.get(f"{server.url}/api/tables/meld/view").json()["log"]
    assert {"seat": 0, "action": f"discard {discard}"} in log
    assert not page.errors, page.errors
    page.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_end_of_a_hand_shows_every_hand(browser: Any, server: LiveServer,
                                            size: str) -> None:
    page = open_page(browser, size)
    page.goto(seat_link(server, f"ended-{size}"))
    page.wait_for_selector("#score-breakdown #revealed")
    view = httpx.get(f"{server.url}/api/tables/ended-{size}/view",
                     params={"token": TOKEN}).json()
    rows = page.query_selector_all("#revealed .revealed")
    assert len(rows) == len(view["revealed"]) == 4
    for row, cards, points in zip(rows, view["revealed"], view["hand_points"]):
        assert len(row.query_selector_all(".card")) == len(cards)
        assert row.inner_text().strip().endswith(f"−{points}" if cards else "went out")
    breakdown = page.inner_text("#score-breakdown")
    for line in ("Cards melded", "Canasta bonuses", "Red threes", "Going out",
                 "Cards left in hand", "Hand total", "Game score", "went out"):
        assert line in breakdown
    assert_in_viewport(page, "#next-hand", "the next-hand button")
    # a long row of cards (seat 0 holds over 20) overlaps more: its points show beside it
    assert max(len(cards) for cards in view["revealed"]) >= 20
    assert not overflowing(page, "#score-breakdown"), overflowing(page, "#score-breakdown")
    page.screenshot(path=str(ARTIFACTS / f"hand-end-{SIZES[size][0]}.png"))
    assert not page.errors, page.errors
    page.close()


@pytest.mark.parametrize("kind", list(FULL))
@pytest.mark.parametrize("size", list(SIZES))
def test_a_full_table_fits(browser: Any, server: LiveServer, size: str,
                           kind: str) -> None:
    """Every side with five melds or more (canastas, a meld of nine), on two sides of partners,
    three sides of two and three players; a hand of 20 cards where seat 0 has partners: nothing
    sticks out, every card of the hand shows a strip one can tap, every meld and every plate can
    be seen whole, with nothing to scroll to."""
    game = full_table(kind)
    page = open_page(browser, size)
    page.goto(seat_link(server, f"full-{kind}-{size}"))
    page.wait_for_selector("[data-role=hand] .card")
    page.click("#btn-draw")
    page.wait_for_selector("#btn-discard")
    page.wait_for_timeout(300)  # the arrival animations end
    page.screenshot(path=str(ARTIFACTS / f"full-table-{kind}-{SIZES[size][0]}.png"))
    held = len(game.state.hands[0]) + game.rules.draw_count
    assert page.locator("[data-role=hand] .card").count() == held
    assert held == 20 or not FULL[kind][1]
    assert_in_viewport(page, "[data-role=hand] .card", "a card of the hand")
    strips = short_strips(page)
    assert strips["count"] == held and not strips["short"], strips
    assert not overflowing(page, ".felt, .hand-zone"), overflowing(page, ".felt, .hand-zone")
    assert page.locator(".meld").count() == sum(melds_per_side(game))
    assert page.locator(".side").count() == len(game.state.melds)
    assert not clipped(page, MELDS), clipped(page, MELDS)
    assert not clipped(page, PLATES), clipped(page, PLATES)
    assert not cut_names(page), cut_names(page)
    if size == "phone":
        assert not small_controls(page), small_controls(page)
    assert not small_text(page), small_text(page)
    assert not page.errors, page.errors
    page.close()


FIRST_PERSON = re.compile(r"\b(I|I'm|me|my|mine|we|us|our|ours)\b", re.IGNORECASE)


def test_the_hint_speaks_to_the_player(browser: Any, server: LiveServer) -> None:
    """The hint's reason shows in the status line in the second person (the server's
    ``words``), not in the bot's voice; a tap on it shows all of it."""
    page = open_page(browser, "phone")
    page.goto(seat_link(server, "hint"))
    page.wait_for_selector("[data-role=hand] .card")
    page.tap("#btn-draw")
    page.wait_for_selector("#btn-discard")
    # the hint the page itself was sent: a search bounded by time may choose otherwise when
    # asked again on a busy machine
    with page.expect_response(lambda r: r.url.startswith(f"{server.url}/api/tables/hint/hint")
                              and r.request.method == "GET", timeout=30_000) as sent:
        page.tap("#hint-btn")
    hint = sent.value.json()
    reason = page.wait_for_selector("[data-role=status] .hint-reason", timeout=20_000)
    text = reason.inner_text()
    page.screenshot(path=str(ARTIFACTS / "hint-390.png"), animations="disabled")
    # the server's words, cards drawn (the reason of the heuristic; the search's figures vary)
    cards = re.compile(r"\S*[♣♦♥♠]|\bJoker\b|\b(JK|[2-9TJQKA][cdhs])\b")
    assert cards.sub("", text).split(";")[0] == cards.sub("", hint["words"]).split(";")[0]
    assert not clipped(page, "[data-role=status] .hint-action, [data-role=status] #hint-play")
    assert not small_controls(page), small_controls(page)
    page.tap("[data-role=status] .hint-body")  # the whole reason, in place (no toast)
    page.wait_for_selector("[data-role=status] .hint-body[aria-expanded=true]")
    page.screenshot(path=str(ARTIFACTS / "hint-reason-390.png"))
    assert page.locator(".toast").count() == 0
    assert not clipped(page, "[data-role=status] .hint-reason")
    assert not FIRST_PERSON.search(text) and text[0].isupper(), text
    assert not text.lower().startswith(hint["action"].lower()), text
    assert not page.errors, page.errors
    page.close()


def test_house_rules_create_a_table(browser: Any, server: LiveServer) -> None:
    page = open_page(browser, "laptop")
    page.goto(server.url + "/")
    page.wait_for_selector("#house-rules")
    page.click("#house-rules summary")
    assert page.input_value("#rule-target_score") == "5000"  # the preset's values filled in
    assert page.input_value("#rule-min_canastas_to_go_out") == "1"
    page.fill("#rule-target_score", "3000")
    page.fill("#rule-min_canastas_to_go_out", "2")
    page.uncheck("#rule-pile_frozen_by_wild")
    assert "3 changed" in page.inner_text("#house-rules summary")
    page.screenshot(path=str(ARTIFACTS / "house-rules.png"), full_page=True)
    page.click("#create-table")
    page.wait_for_url(re.compile(r"#/table/"))  # one person and bots: straight to the table
    table = re.search(r"#/table/([^?]+)", page.url).group(1)
    rules = httpx.get(f"{server.url}/api/tables/{table}/view").json()["rules"]
    # the table lists the house rules in force, in words
    page.wait_for_selector("#house-list li")
    listed = page.eval_on_selector_all("#house-list li", "els => els.map(e => e.textContent)")
    assert len(listed) == 3 and not any("_" in t for t in listed), listed
    page.goto(server.url + "/")
    page.wait_for_selector("#house-rules")
    assert rules == {"preset": "classic", "target_score": 3000, "min_canastas_to_go_out": 2,
                     "pile_frozen_by_wild": False}

    # an impossible combination: the engine's own words
    page.select_option("#preset", "classic-3p")
    if not page.is_visible("#rule-permission_question_enabled"):
        page.click("#house-rules summary")
    page.check("#rule-permission_question_enabled")
    page.click("#create-table")
    page.wait_for_selector("#create-error:not([hidden])")
    assert "asking a partner needs partnerships" in page.inner_text("#create-error")
    assert not page.errors, page.errors
    page.close()


def test_api_docs_work_without_the_internet(browser: Any, server: LiveServer) -> None:
    page = open_page(browser, "laptop")
    outside: list[str] = []

    def only_the_server(route: Any) -> None:
        if route.request.url.startswith(server.url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_server)
    page.goto(server.url + "/docs")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "canasta" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock-summary-path")  # the operations are listed
    assert not outside, outside
    page.screenshot(path=str(ARTIFACTS / "docs-offline.png"))
    page.close()


def test_the_page_marks_its_parts(server: LiveServer) -> None:
    """The public contract: data-role names in the page's code (the browser tests above find
    the parts by them)."""
    root = Path(__file__).resolve().parents[2] / "src/canasta/interfaces/web/static/js/table.js"
    source = root.read_text()
    for role in ("hand", "pile", "stock", "actions", "seat"):
        assert re.search(rf"""(data-role"?: "{role}"|role: "{role}")""", source), role


def test_a_6_player_3_team_table_needs_2_canastas(browser: Any, server: LiveServer) -> None:
    page = open_page(browser, "laptop")
    page.goto(seat_link(server, table_id("classic-6p-3x2", "laptop")))
    page.wait_for_selector("#rules-line")
    assert page.inner_text("#rules-line").startswith("2 canastas to go out")
    assert "Classic — 6 players, 3 teams of 2" in page.inner_text(".table-title")
    assert not page.errors, page.errors
    page.close()


def test_a_black_three_on_top_blocks_the_pile(browser: Any, server: LiveServer) -> None:
    """The badge and the refusal say what the server says blocks the pile."""
    view = httpx.get(f"{server.url}/api/tables/blocked/view", params={"token": TOKEN}).json()
    assert view["facts"]["pile"]["blocked"] == "a black three is on top"
    page = open_page(browser, "phone")
    page.goto(seat_link(server, "blocked"))
    page.wait_for_selector(".badge.blocked")
    assert page.inner_text(".badge.blocked").strip() == "blocked: a black three is on top"
    status = page.inner_text("[data-role=status]")
    assert "draw" in status and "take the pile" not in status, status
    page.wait_for_timeout(300)  # the arrival animations end
    page.screenshot(path=str(ARTIFACTS / "blocked-black-three-390.png"))
    assert not page.errors, page.errors
    page.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_pile_frozen_by_a_black_three_says_so(browser: Any, server: LiveServer,
                                                size: str) -> None:
    table = f"black3-{size}"
    view = httpx.get(f"{server.url}/api/tables/{table}/view", params={"token": TOKEN}).json()
    freeze = view["facts"]["pile"]
    assert freeze["why"] == "a black three is in it" and freeze["frozen_by"]
    card = freeze["frozen_by"]
    pretty = f"3{SUIT_SYMBOLS[card[1]]}"
    title = f"frozen: a black three is in it ({pretty})"
    page = open_page(browser, size)
    page.goto(seat_link(server, table))
    page.wait_for_selector("#pile-frozen")
    assert page.get_attribute("#pile-frozen", "title") == title
    assert "a black three is in it" in page.inner_text("#pile-frozen")
    assert page.locator(f"[data-role=pile] .freezer .card[data-card='{card}']").count() == 1
    assert_in_viewport(page, "[data-role=pile] .freezer .card", "the card that froze it")
    assert page.get_attribute("[data-role=pile] .freezer", "title") == (
        f"{pretty} froze the pile: a black three is in it")
    house = page.get_attribute("#rules-line .house-rules", "title")
    assert house == "A black three discarded freezes the pile: yes"
    page.wait_for_timeout(300)  # the arrival animations end
    page.screenshot(path=str(ARTIFACTS / f"frozen-black-three-{SIZES[size][0]}.png"))
    # a spectator is told the freeze that holds for everyone: the same
    page.goto(f"{server.url}/#/watch/{table}")
    page.wait_for_selector("#pile-frozen")
    assert page.get_attribute("#pile-frozen", "title") == title
    assert not page.errors, page.errors
    page.close()


def test_a_card_of_another_rank_onto_a_meld_is_explained(browser: Any,
                                                         server: LiveServer) -> None:
    page = open_page(browser, "laptop")
    page.goto(seat_link(server, "onto"))
    page.wait_for_selector("#btn-draw:not([disabled])")
    page.click("#btn-draw")
    page.wait_for_selector("#btn-discard")
    view = httpx.get(f"{server.url}/api/tables/onto/view", params={"token": TOKEN}).json()
    side = view["seat"] % len(view["sides"])
    rank = next(r for r in view["sides"][side]["melds"] if r != "3")
    card = next(c for c in view["hands"][0] if c != "JK" and c[0] not in ("2", rank))
    page.locator(f"[data-role=hand] .card[data-card='{card}']").first.click(
        position={"x": 8, "y": 12})
    page.click(f".side.mine .meld[data-rank='{rank}']")
    page.wait_for_selector("#move-error:not([hidden])")
    plural = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "T": "tens", "9": "nines",
              "8": "eights", "7": "sevens", "6": "sixes", "5": "fives", "4": "fours"}[rank]
    shown = "10" if card[0] == "T" else card[0]
    assert page.inner_text("#move-error .msg-text") == (
        f"{shown}{SUIT_SYMBOLS[card[1]]} cannot join the {plural}: a meld holds cards of one "
        "rank, with wild cards")
    page.screenshot(path=str(ARTIFACTS / "meld-onto-message.png"))
    # nothing was sent: the hand and the log are as they were
    after = httpx.get(f"{server.url}/api/tables/onto/view", params={"token": TOKEN}).json()
    assert after["log"] == view["log"] and after["hands"][0] == view["hands"][0]
    assert not page.errors, page.errors
    page.close()


def test_the_replay_shows_the_servers_positions(browser: Any, server: LiveServer) -> None:
    replay = httpx.get(f"{server.url}/api/tables/over/replay")
    assert replay.status_code == 200, replay.text
    (hand,) = replay.json()["hands"]
    last = hand["positions"][-1]
    page = open_page(browser, "laptop")
    page.goto(f"{server.url}/#/replay/over")
    page.wait_for_selector("#replay-controls")
    steps = len(hand["actions"])
    assert page.inner_text("#replay-step") == f"0 / {steps}"
    page.keyboard.press("End")
    page.wait_for_function("t => document.querySelector('#replay-step').textContent === t",
                           arg=f"{steps} / {steps}")
    ending = replay.json()["score_sheet"][0]["ending"]
    assert ending["words"] in page.inner_text("#replay-caption")
    shown = page.eval_on_selector_all(".replay-seat", "els => els.map(e =>"
                                      " e.querySelectorAll('.card').length)")
    assert shown == [len(h) for h in last["hands"]]
    melds = page.locator(".side .meld").count()
    assert melds == sum(len(s["melds"]) for s in last["sides"])
    # "Table" goes back to the table: this browser holds no seat there, so it watches
    assert page.get_attribute("#replay-table", "href") == "#/watch/over"
    page.screenshot(path=str(ARTIFACTS / "replay.png"))
    assert not page.errors, page.errors
    page.close()


def test_a_turn_by_keyboard_at_a_laptop(browser: Any, server: LiveServer) -> None:
    """Every control has a name and a key: the stock and the pile are buttons, a card is
    selected with Space, Discard pressed with Enter; axe-core finds nothing serious."""
    page = open_page(browser, "laptop")
    page.goto(seat_link(server, "keys"))
    page.wait_for_selector("[data-role=hand] .card")
    assert not serious_violations(page), serious_violations(page)
    assert not small_text(page), small_text(page)
    page.focus("[data-role=stock]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#btn-discard")
    view = httpx.get(f"{server.url}/api/tables/keys/view", params={"token": TOKEN}).json()
    card = next(a.split()[1] for a in view["legal"] if a.startswith("discard "))
    page.focus(f"[data-role=hand] .card[data-card='{card}']")
    page.keyboard.press("Space")
    page.wait_for_selector(f"[data-role=hand] .card.selected[data-card='{card}']")
    page.keyboard.press("Escape")  # Escape puts the selection back, Undo brings it again
    page.wait_for_selector("[data-role=hand] .card.selected", state="detached")
    page.focus("#btn-undo")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"[data-role=hand] .card.selected[data-card='{card}']")
    page.focus("#btn-discard")
    page.keyboard.press("Enter")
    page.wait_for_function("c => document.querySelector('[data-role=pile] .card.top')"
                           "?.dataset.card === c || !document.querySelector('#btn-discard')",
                           arg=card)
    log = httpx.get(f"{server.url}/api/tables/keys/view").json()["log"]
    assert {"seat": 0, "action": f"discard {card}"} in [
        {k: e[k] for k in ("seat", "action")} for e in log]
    assert not serious_violations(page), serious_violations(page)
    page.screenshot(path=str(ARTIFACTS / "keyboard-1366.png"))
    assert not page.errors, page.errors
    page.close()
