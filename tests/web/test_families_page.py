"""The one page plays every family, in a real browser (Playwright + Debian's Chromium).

* The lobby lists every family's presets (grouped by family), shows the house rules of the
  chosen preset's family as a form built from its descriptions, seats bots by level in words
  (never a bot's spec), and hands out each person's join link with a Copy button.
* A Modern American table with two people and two bots is played to the end of a hand on the
  shared page, one person on a phone (390×844, touch) and the other at a laptop (1366×768):
  threes kept or laid, draws, melds of selected cards, discards; then the end of the hand is
  shown to both and its replay is watched.

Screenshots are kept in ``artifacts/``: ``lobby-families-WIDTH.png``,
``two-people-WIDTH.png`` (the table mid-hand), ``two-people-end-WIDTH.png``,
``two-people-replay.png``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from canasta.family import families
from tests.web.phone_checks import SIZES, open_page, serious_violations
from tests.web.positions import TOKEN, late_hand, store_tables
from tests.web.support import ARTIFACTS, LiveServer, serving, wait_for

FAMILY = "modern-american"
SECOND = "browser-test-seat-2"
"""Seat 2's token at the table of two people."""
RAW_CARD = re.compile(r"(?<![\w])(JK|[2-9TJQKA][cdhs])(?![\w])")




@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("families-page")
    url = f"sqlite:///{folder / 'tables.sqlite3'}"
    store_tables(url, {"two-people": late_hand(FAMILY, stock_left=6)},
                 people={"two-people": {0: ("Ann", TOKEN), 2: ("Bob", SECOND)}})
    yield from serving(url, folder / "server.log")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_lobby_offers_every_family(browser: Any, server: LiveServer,
                                       size: str) -> None:
    page = open_page(browser, size)
    page.goto(server.url + "/")
    page.wait_for_selector("#preset optgroup", state="attached")
    groups = page.eval_on_selector_all("#preset optgroup", "els => els.map(e => e.label)")
    assert groups == [f.title for f in families()]
    page.select_option("#preset", FAMILY)
    page.click("#house-rules summary")
    page.wait_for_selector("#rule-special_hands")
    choices = page.eval_on_selector_all("#rule-special_hands option",
                                        "els => els.map(e => e.textContent)")
    assert choices[0].startswith("the 11 hands") and "pagat" not in " ".join(choices)
    assert page.input_value("#rule-target_score") == "8500"
    # bots by level, in words: no bot's spec anywhere in the seats' choices
    options = " ".join(page.eval_on_selector_all("#seat-1 option", "els => els.map(e => "
                                                 "e.textContent)"))
    assert "Easy bot" in options and "Expert bot" in options
    assert not re.search(r"heuristic|greedy|ismcts|search|modern", options), options
    page.select_option("#seat-1", "bot:easy")
    page.select_option("#seat-2", "human")
    page.fill("#seat-0-player", "Ann")
    page.fill("#seat-2-player", "Bob")
    page.click("#create-table")
    page.wait_for_selector("#created .join-row")
    assert page.locator("#created .join-row").count() == 2
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#created .join-row[data-seat='2'] button")
    page.locator(".toast", has_text="copied").wait_for()
    table_id = page.inner_text("#table-id")
    view = httpx.get(f"{server.url}/api/tables/{table_id}/view").json()
    assert view["family"] == FAMILY and [n["level"] for n in view["names"]] == [
        None, "easy", None, "medium"]
    page.screenshot(path=str(ARTIFACTS / f"lobby-families-{SIZES[size][0]}.png"),
                    full_page=True)
    assert not serious_violations(page), serious_violations(page)
    assert not page.errors, page.errors
    page.close()


def view_of(server: LiveServer, token: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.url}/api/tables/two-people/view",
                                     params={"token": token}).json()
    return data


def play_a_turn(page: Any, server: LiveServer, token: str) -> None:
    """One turn of the seat of ``token`` through its page: a kept or laid three, a draw, a
    meld of natural cards where there is one (cards selected, then Meld), a discard (a card
    selected, then Discard)."""
    for _ in range(12):
        v = view_of(server, token)
        if not v["your_turn"]:
            return
        legal = v["legal"]
        version = v["version"]
        own = [a for a in legal if a in v["legal_words"]]
        if own:
            page.click(f"[data-role=actions] [data-action='{own[-1]}']")
        elif "draw" in legal:
            page.click("[data-role=stock]")
        elif any(a in ("yes", "no") for a in legal):
            page.click("#answer-yes")
        else:
            meld = next((a for a in legal if a.startswith("meld ") and ":" not in a
                         and "," not in a), None)
            action = meld or next(a for a in legal if a.startswith("discard "))
            for card in action.split()[1:]:
                page.locator(f"[data-role=hand] .card[data-card='{card}']:not(.selected)"
                             ).first.click(position={"x": 8, "y": 12})
            page.click("#btn-meld" if meld else "#btn-discard")
        wait_for(lambda v=version: view_of(server, token)["version"] > v, timeout=10)


def test_a_modern_american_hand_by_two_people_to_its_end(browser: Any,
                                                         server: LiveServer) -> None:
    phone, laptop = open_page(browser, "phone"), open_page(browser, "laptop")
    phone.goto(f"{server.url}/#/table/two-people?token={TOKEN}")
    laptop.goto(f"{server.url}/#/table/two-people?token={SECOND}")
    for page in (phone, laptop):
        page.wait_for_selector("[data-role=hand] .card")
    # what a screen states comes from the facts: the canastas to go out, the notes
    for page in (phone, laptop):
        assert "2 canastas to go out" in page.inner_text("#rules-line")
        assert "natural cards only" in page.inner_text("#table-notes")
    laptop.screenshot(path=str(ARTIFACTS / "two-people-1366.png"))
    phone.screenshot(path=str(ARTIFACTS / "two-people-390.png"))
    assert not serious_violations(laptop), serious_violations(laptop)
    for _ in range(60):
        if view_of(server, TOKEN)["status"] != "playing":
            break
        play_a_turn(phone, server, TOKEN)
        play_a_turn(laptop, server, SECOND)
    assert view_of(server, TOKEN)["status"] == "hand_over"
    for page, width in ((phone, 390), (laptop, 1366)):
        page.wait_for_selector("#score-breakdown")
        text = page.inner_text("#score-breakdown")
        assert "Hand total" in text and "Threes" in text and not RAW_CARD.search(text)
        page.wait_for_timeout(300)
        page.screenshot(path=str(ARTIFACTS / f"two-people-end-{width}.png"))
        assert not page.errors, page.errors
    # the replay of the hand, watched from the end-of-hand screen
    laptop.click("#hand-replay")
    laptop.wait_for_selector("#replay-controls")
    laptop.keyboard.press("End")
    laptop.wait_for_selector(".replay-result")
    caption = laptop.inner_text("#replay-caption")
    assert "p0" not in caption and not RAW_CARD.search(caption)
    laptop.screenshot(path=str(ARTIFACTS / "two-people-replay.png"))
    assert not serious_violations(laptop), serious_violations(laptop)
    assert not laptop.errors, laptop.errors
    phone.close()
    laptop.close()
