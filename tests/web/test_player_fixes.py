"""What a newcomer met at the table, on a phone (390×844, touch) and at a laptop (1366×768), each
checked in a real browser (Playwright + Debian's Chromium), and what players expect of an app:

* a turn: a refusal shows whole (1); Take pile with nothing chosen says which cards and how
  (10); a hint asked while a refusal shows takes its place (3), says the move whole, in a
  player's words, with what a search found only on request (2, 12); the hand keeps the room of
  two rows, so a draw that starts a second row moves nothing (11), with strips one can read
  (13); the "to play" chip holds on one line (11); a new meld goes at the end of the side's
  melds, so those a player taps stay put (11);
* keys at a laptop: one Tab to the cards, focus kept on a card after Space, keys for draw,
  meld and discard, listed under "?" (15);
* the end of a hand and of a game: every revealed card shows (5), a rematch with the same seats
  in one tap (14), no "a bot is playing your seat" once the game is over (14), the game in this
  browser's history with its result, the replay's way back to the seat (6) and its names (7),
  the ace of spades in words (8);
* the rules page: card values, no contradiction, nothing axe-core finds serious (9);
* the table's talk: a quick phrase and a line, shown to a seat and a spectator, as text;
* a guided first hand of each family: the guide says what to do, and follows the moves;
* a server restart: the page says it cannot reach the server, then takes it back (4).

Screenshots in ``artifacts/``: ``fix-turn-WIDTH.png``, ``fix-hint-WIDTH.png``,
``fix-end-WIDTH.png``, ``fix-laid-WIDTH.png``, ``fix-rules-WIDTH.png``, ``fix-talk-WIDTH.png``,
``fix-guide-FAMILY-WIDTH.png``, ``fix-keys-1366.png``, ``fix-restart-390.png``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from canasta.family import families, get_rules
from tests.web.phone_checks import (
    SIZES,
    clipped,
    open_page,
    serious_violations,
    short_strips,
)
from tests.web.positions import TOKEN, hand_played_out, mid_hand, store_tables
from tests.web.support import ARTIFACTS, LiveServer, serving, wait_for

RAW_CARD = re.compile(r"(?<![\w])(JK|[2-9TJQKA][cdhs])(?![\w])")
TEXT_FITS = """sel => [...document.querySelectorAll(sel)].filter(e => e.offsetParent)
  .every(e => e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1)"""
"""Every shown element of ``sel`` holds its text whole (nothing cut by its own overflow)."""


def hand_of(size: int) -> Any:
    return lambda game: len(game.state.hands[0]) == size


def a_new_meld_sorts_first(game: Any) -> bool:
    """After the draw, seat 0 may lay a new meld of naturals whose rank the table shows before
    one of its side's melds (aces first)."""
    from canasta.engine import apply
    from canasta.legal import legal_actions

    drawn = apply(game.state, "draw")
    if drawn.to_move != 0:
        return False
    melded = [r for r, m in enumerate(drawn.melds[0]) if m is not None]
    return any(a.verb == "meld" and len(a.groups) == 1 and ":" not in str(a)
               and drawn.melds[0][a.groups[0].rank] is None
               and a.groups[0].rank > min(melded, default=99) for a in legal_actions(drawn))


def can_take(game: Any) -> bool:
    from canasta.legal import legal_actions

    return any(a.verb == "take" and a.groups for a in legal_actions(game.state))




@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("player-fixes")
    url = f"sqlite:///{folder / 'tables.sqlite3'}"
    games: dict[str, Any] = {}
    for size in SIZES:
        games[f"turn-{size}"] = mid_hand("classic", min_melds=1, accept=hand_of(10))
        games[f"take-{size}"] = mid_hand("classic", min_melds=1, accept=can_take)
        games[f"laid-{size}"] = mid_hand("classic", min_melds=1, accept=a_new_meld_sorts_first)
        games[f"over-{size}"] = hand_played_out(get_rules("classic").replace(target_score=50))
    store_tables(url, games, people={f"over-{size}": {0: ("p0", TOKEN)} for size in SIZES})
    yield from serving(url, folder / "server.log")


def tap(page: Any, selector: str) -> None:
    page.locator(selector).first.click(position={"x": 8, "y": 12})


def top_of(page: Any, selector: str) -> float:
    box: dict[str, float] = page.locator(selector).first.bounding_box()
    return box["y"]


@pytest.mark.parametrize("size", list(SIZES))
def test_a_turn_says_everything_whole_and_keeps_still(browser: Any,
                                                      server: LiveServer, size: str) -> None:
    page = open_page(browser, size)
    page.goto(f"{server.url}/#/table/take-{size}?token={TOKEN}")
    page.wait_for_selector("[data-role=hand] .card")
    # (10) Take pile with nothing chosen: which cards, and how
    page.click("#btn-take", force=True)  # a button that cannot act says why
    page.wait_for_selector("#move-error:not([hidden])")
    said = page.inner_text("#move-error")
    assert "then tap Take pile" in said and "Choose the cards" in said, said
    # (1) the refusal shows whole, inside the screen, and moves nothing below it
    assert page.evaluate(TEXT_FITS, "#move-error .msg-text"), said
    assert not clipped(page, "#move-error")
    # (3) a hint asked while a refusal shows takes its place; (2, 12) the move whole, in words
    with page.expect_response(lambda r: "/hint" in r.url, timeout=30_000) as sent:
        page.click("#hint-btn")
    hint = sent.value.json()
    page.wait_for_selector("#hint:not([hidden])")
    assert page.is_hidden("#move-error")
    move = page.inner_text("#hint-action")
    assert move[0].isupper() and not RAW_CARD.search(move), move
    assert move.lower().startswith(hint["action"].split()[0]), (move, hint)
    assert page.evaluate(TEXT_FITS, "#hint-action")
    reason = page.inner_text("#hint-reason")
    assert not re.search(r"played out|deals|by about \d+", reason), reason
    if hint.get("details"):  # what the search found: on request only
        assert page.locator("#hint-details").count() == 0
        page.click("#hint .hint-body")
        assert "deals" in page.inner_text("#hint-details")
    assert not clipped(page, "#hint .hint-action, #hint-play, #hint .close")
    page.screenshot(path=str(ARTIFACTS / f"fix-hint-{SIZES[size][0]}.png"))
    # (11) a draw that starts a second row of cards moves nothing; (13) strips to read
    page.goto(f"{server.url}/#/table/turn-{size}?token={TOKEN}")
    page.wait_for_selector("[data-role=hand] .card")
    before = {sel: top_of(page, sel) for sel in ("main.felt", "#hand-zone", "#actions")}
    page.click("[data-role=stock]")
    page.wait_for_selector("#btn-discard")
    page.wait_for_timeout(300)
    after = {sel: top_of(page, sel) for sel in before}
    assert before == after, (before, after)
    if size == "phone":
        strips = short_strips(page)
        assert strips["count"] >= 11 and not strips["short"], strips
        widths = page.eval_on_selector_all(
            "[data-role=hand] .card", "els => els.map(e => e.getBoundingClientRect().left)")
        rows: dict[int, list[float]] = {}
        for el_left, el_top in zip(widths, page.eval_on_selector_all(
                "[data-role=hand] .card", "els => els.map(e => Math.round(e.offsetTop))"),
                strict=True):
            rows.setdefault(el_top, []).append(el_left)
        steps = [b - a for row in rows.values() for a, b in itertools.pairwise(row)]
        assert min(steps) >= 33.5, steps
    # (11) the "to play" chip holds on one line
    chips = page.eval_on_selector_all(".turn-chip",
                                      "els => els.map(e => e.getClientRects().length)")
    assert all(n == 1 for n in chips), chips
    page.screenshot(path=str(ARTIFACTS / f"fix-turn-{SIZES[size][0]}.png"))
    assert not page.errors, page.errors
    page.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_new_meld_leaves_the_others_in_place(browser: Any, server: LiveServer,
                                               size: str) -> None:
    """(11) the side's melds stay where the player's finger is: a new meld goes at the end."""
    page = open_page(browser, size)
    page.goto(f"{server.url}/#/table/laid-{size}?token={TOKEN}")
    page.wait_for_selector("[data-role=hand] .card")
    page.click("[data-role=stock]")
    page.wait_for_selector("#btn-discard")
    view = httpx.get(f"{server.url}/api/tables/laid-{size}/view",
                     params={"token": TOKEN}).json()
    ranks = [m["key"] for m in view["facts"]["melds"][0]]
    order = view["facts"]["meld_keys"]
    new = next(a for a in view["legal"] if a.startswith("meld ") and ":" not in a
               and "," not in a and a.split()[1][0] not in ranks
               and order.index(a.split()[1][0]) < order.index(ranks[-1]))
    mine = ".side.mine .meld"
    boxes = {r: page.locator(f"{mine}[data-rank='{r}']").bounding_box() for r in ranks}
    for card in new.split()[1:]:
        page.locator(f"[data-role=hand] .card[data-card='{card}']:not(.selected)").first.click(
            position={"x": 8, "y": 12})
    page.click("#btn-meld")
    key = new.split()[1][0]
    page.wait_for_selector(f"{mine}[data-rank='{key}']")
    shown = page.eval_on_selector_all(mine, "els => els.map(e => e.dataset.rank)")
    assert shown == [*ranks, key], shown
    after = {r: page.locator(f"{mine}[data-rank='{r}']").bounding_box() for r in ranks}
    assert all((after[r]["x"], after[r]["y"]) == (boxes[r]["x"], boxes[r]["y"]) for r in ranks), \
        (boxes, after)
    page.screenshot(path=str(ARTIFACTS / f"fix-laid-{SIZES[size][0]}.png"))
    assert not page.errors, page.errors
    page.close()


def test_keys_reach_the_hand_and_play_it(browser: Any, server: LiveServer) -> None:
    page = open_page(browser, "laptop")
    page.goto(f"{server.url}/#/table/turn-laptop?token={TOKEN}")
    page.wait_for_selector("[data-role=hand] .card")
    page.keyboard.press("Tab")  # (15) the first Tab offers the cards
    assert page.evaluate("document.activeElement.id") == "skip-to-hand"
    page.keyboard.press("Enter")
    assert page.evaluate("!!document.activeElement.closest('[data-role=hand]')")
    view = httpx.get(f"{server.url}/api/tables/turn-laptop/view", params={"token": TOKEN}).json()
    if "draw" in view["legal"]:
        page.keyboard.press("d")  # draw
        page.wait_for_selector("#btn-discard")
        view = httpx.get(f"{server.url}/api/tables/turn-laptop/view",
                         params={"token": TOKEN}).json()
    card = next(a.split()[1] for a in view["legal"] if a.startswith("discard "))
    page.focus(f"[data-role=hand] .card[data-card='{card}']")
    page.keyboard.press("Space")
    page.wait_for_selector(f"[data-role=hand] .card.selected[data-card='{card}']")
    # the focus stays on the card after the hand is drawn again
    assert page.evaluate("document.activeElement.dataset.card") == card
    page.keyboard.press("?")
    page.wait_for_selector("#keys-help")
    listed = page.inner_text("#keys-help")
    assert all(k in listed for k in ("draw", "meld", "discard", "hint", "undo"))
    page.wait_for_timeout(300)  # the dialog's entrance ends
    page.screenshot(path=str(ARTIFACTS / "fix-keys-1366.png"))
    page.keyboard.press("Escape")
    page.focus(f"[data-role=hand] .card[data-card='{card}']")
    page.keyboard.press("x")  # discard the selected card (the bots may play on at once)
    wait_for(lambda: {"seat": 0, "action": f"discard {card}"} in [
        {k: m[k] for k in ("seat", "action")} for m in httpx.get(
            f"{server.url}/api/tables/turn-laptop/view").json()["log"]], timeout=15)
    assert not page.errors, page.errors
    page.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_end_of_a_game_shows_all_and_offers_a_rematch(browser: Any,
                                                          server: LiveServer, size: str) -> None:
    table = f"over-{size}"
    page = open_page(browser, size)
    page.goto(f"{server.url}/#/table/{table}?token={TOKEN}")
    page.wait_for_selector("#score-breakdown")
    # (5) every card left in a hand shows: no card hidden behind the next
    hidden = page.eval_on_selector_all("#revealed .revealed .card", """els => els.filter((e, i) => {
        const n = els[i + 1]; if (!n || n.parentElement !== e.parentElement) return false;
        return n.getBoundingClientRect().left - e.getBoundingClientRect().left < 6; })
        .map(e => e.dataset.card)""")
    assert not hidden, hidden
    # (14) a bot playing the seat is not said once the game is over
    httpx.post(f"{server.url}/api/tables/{table}/seats/0/bot", json={"token": TOKEN})
    page.reload()
    page.wait_for_selector("#score-breakdown")
    assert page.locator(".badge.botseat").count() == 0
    page.screenshot(path=str(ARTIFACTS / f"fix-end-{SIZES[size][0]}.png"))
    # (8) the ace of spades, and every card, in words in the moves
    words = page.evaluate("async () => (await import('/js/cards.js')).moveWords("
                          "{action: 'discard As'})")
    assert words == "discarded A♠", words
    # (14) a rematch with the same seats, in one tap; the token holds its seat there
    page.click("#rematch")
    page.wait_for_url(re.compile(r"#/table/(?!over)"))
    page.wait_for_selector("[data-role=hand] .card")
    again = re.search(r"#/table/([^?]+)", page.url).group(1)
    assert httpx.get(f"{server.url}/api/tables/{table}/view").json()["rematch"] == again
    # this browser's games: the finished one with its result, and the replay's way back
    page.goto(f"{server.url}/#/")
    page.wait_for_selector("#my-games")
    line = page.inner_text(f"#my-games li[data-table='{table}']")
    assert re.search(r"\b(won|lost) \d+", line), line
    page.goto(f"{server.url}/#/replay/{again}")
    page.wait_for_selector("#replay-table")
    assert TOKEN in page.get_attribute("#replay-table", "href")  # (6) back to the seat
    page.goto(f"{server.url}/#/replay/{table}")
    page.wait_for_selector("#replay-controls")
    shown = page.inner_text("body")
    assert "p0" not in shown and "Player 1" in shown  # (7) a person with no name
    assert not page.errors, page.errors
    page.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_rules_page_states_the_card_values(browser: Any, server: LiveServer,
                                               size: str) -> None:
    page = open_page(browser, size)
    for family in families():
        page.goto(f"{server.url}/#/rules/{family.name}")
        page.wait_for_selector("#rules-card-values td")
        values = page.inner_text("#rules-card-values")
        assert "Joker" in values and "50 points" in values
        assert "never outnumbering" not in page.inner_text("body")
        # a completed meld in the family's word: a book in Hand and Foot, else a canasta
        one = "book" if family.name == "hand-and-foot" else "canasta"
        assert f"cards is a {one}, the heart of the score" in page.inner_text("body")
        assert not serious_violations(page), (family.name, serious_violations(page))
    page.screenshot(path=str(ARTIFACTS / f"fix-rules-{SIZES[size][0]}.png"), full_page=True)
    assert not page.errors, page.errors
    page.close()


def test_the_table_talks(browser: Any, server: LiveServer) -> None:
    r = httpx.post(f"{server.url}/api/tables", json={"rules": "classic",
                                                     "seats": ["human", "bot", "human", "bot"],
                                                     "names": ["Ann", "bot:medium", "Bob",
                                                               "bot:medium"]})
    data = r.json()
    table, tokens = data["table_id"], {s["seat"]: s["token"] for s in data["seats"]}
    phone, laptop = open_page(browser, "phone"), open_page(browser, "laptop")
    phone.goto(f"{server.url}/#/table/{table}?token={tokens[0]}")
    laptop.goto(f"{server.url}/#/watch/{table}")
    phone.wait_for_selector("[data-role=hand] .card")
    phone.tap("#panel-btn")
    phone.tap(".quick-phrases .phrase >> nth=0")
    phone.fill("#chat-input", "<b>not bold</b>")
    phone.tap("#chat-send")
    phone.wait_for_selector("#chat-list li >> nth=1")
    laptop.wait_for_function("() => document.querySelectorAll('#chat-list li').length === 2")
    said = laptop.inner_text("#chat-list")
    assert "Ann: Good luck!" in said and "<b>not bold</b>" in said
    assert laptop.locator("#chat-list b", has_text="not bold").count() == 0  # text, not markup
    assert laptop.locator("#chat-input").count() == 0  # spectators read, seats talk
    # a line from another seat arrives while the phone types: the draft keeps its words and
    # the focus (the phone's keyboard stays open)
    phone.fill("#chat-input", "half a tho")
    phone.focus("#chat-input")
    said = httpx.post(f"{server.url}/api/tables/{table}/chat",
                      json={"token": tokens[2], "text": "Well played"})
    assert said.status_code == 200, said.text
    phone.wait_for_function("() => document.querySelectorAll('#chat-list li').length === 3")
    assert phone.evaluate("() => [document.activeElement.id, document.activeElement.value]") \
        == ["chat-input", "half a tho"]
    phone.screenshot(path=str(ARTIFACTS / "fix-talk-390.png"))
    laptop.screenshot(path=str(ARTIFACTS / "fix-talk-1366.png"))
    assert not phone.errors and not laptop.errors, (phone.errors, laptop.errors)
    phone.close()
    laptop.close()


@pytest.mark.parametrize(("family", "size"), [(f.name, s) for f in families() for s in SIZES])
def test_a_guided_first_hand(browser: Any, server: LiveServer, family: str,
                             size: str) -> None:
    page = open_page(browser, size)
    page.goto(f"{server.url}/#/")
    page.click(f"#learn .learn[data-family='{family}']")
    page.wait_for_selector("#coach-text")
    table = re.search(r"#/table/([^?]+)", page.url).group(1)
    view = httpx.get(f"{server.url}/api/tables/{table}/view").json()
    assert [n["level"] for n in view["names"]][1:] == ["easy"] * (len(view["names"]) - 1)
    page.wait_for_function("() => /draw|stock|choice/.test("
                           "document.querySelector('#coach-text').textContent)",
                           timeout=20_000)
    first = page.inner_text("#coach-text")
    page.screenshot(path=str(ARTIFACTS / f"fix-guide-{family}-{SIZES[size][0]}.png"))
    # the guide waits for the move, then says the next step
    own = page.locator("[data-role=actions] .own-move")
    if own.count():
        own.first.click()
    else:
        page.click("[data-role=stock]")
    page.wait_for_function("t => document.querySelector('#coach-text').textContent !== t",
                           arg=first)
    assert not page.errors, page.errors
    page.close()


def test_the_page_takes_the_server_back_after_a_restart(browser: Any,
                                                        tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    store_tables(url, {"back": mid_hand("classic")})
    live = LiveServer(url, tmp_path / "server.log", "--bot-delay", "0", "--bot-workers", "0")
    live.start()
    try:
        page = open_page(browser, "phone")
        page.goto(f"{live.url}/#/table/back?token={TOKEN}")
        page.wait_for_selector(".conn.live")
        live.stop()
        page.wait_for_selector("#move-error:not([hidden])", timeout=20_000)
        assert "reach the server" in page.inner_text("#move-error")
        live.start()  # the page polls while its socket reconnects: the first view clears it
        page.wait_for_selector("#move-error", state="hidden", timeout=20_000)
        assert "Your turn" in page.inner_text("#status-text")
        page.screenshot(path=str(ARTIFACTS / "fix-restart-390.png"))
        page.close()
    finally:
        live.stop()
