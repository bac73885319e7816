"""A table of many closed canastas, several of one rank, and of feet waiting (Hand and Foot),
in a real browser at 1366×768 and 390×844: the closed canastas of a side stand on one shelf
where every one of them can be told apart (its rank, its kind), each seat's plate says the
family's words for it (``foot 11``, ``in the foot``), the table calls a canasta a book
(``4 books to go out``), and everything shows whole without scrolling. Screenshots:
``artifacts/many-canastas-WIDTH.png``."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from canasta.bots import make_bot
from canasta.family import family_of, get_rules
from canasta.game import Game
from tests.web.phone_checks import SIZES, clipped, open_page, overflowing
from tests.web.positions import TOKEN, store_tables
from tests.web.support import ARTIFACTS, LiveServer, serving

SHELF_AT = 3
"""Closed canastas of a side from which the page puts them on one shelf (table.js)."""
PLATES = "[data-role=seat] .seat-who, [data-role=seat] .tag, [data-role=seat] .seat-count"
MELDS = ".meld-row .meld:not(.shelved), .meld-label, .canasta-badge, .red-threes, .canasta-shelf"


def closed(facts: dict[str, Any], owner: int) -> list[str]:
    """The keys of the closed canastas of a set of melds."""
    return [m["key"] for m in facts["melds"][owner] if m["canasta"] and not m["hidden"]]


def many_books(seed: int = 1) -> Game:
    """A deal of Hand and Foot that greedy bots played until seat 0 is to draw while a side
    holds two books of one rank among three or more, and a player is in the foot."""
    rules = get_rules("hand-and-foot")
    family = family_of(rules)
    bot = make_bot("greedy", family)
    for s in range(seed, seed + 100):
        game = Game(rules, seed=s)
        rng = random.Random(s)
        while not game.state.is_over:
            state = game.state
            if state.to_move == 0 and state.phase == "draw":
                facts = family.facts(family.observe(state, 0))
                books = [closed(facts, o) for o in range(len(facts["melds"]))]
                if (any(len(keys) >= SHELF_AT and max(Counter(keys).values()) >= 2
                        for keys in books) and any(facts["in_foot"])
                        and not facts["in_foot"][0]):
                    return game
            game.apply(bot.choose(family.observe(state, state.to_move),
                                  family.legal_actions(state), rng))
    raise AssertionError("no seed reaches two books of one rank")


GAME = many_books()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder: Path = tmp_path_factory.mktemp("many-canastas")
    url = f"sqlite:///{folder / 'tables.sqlite3'}"
    store_tables(url, {f"books-{size}": GAME for size in SIZES})
    yield from serving(url, folder / "server.log")


@pytest.mark.parametrize("size", list(SIZES))
def test_many_canastas_stand_on_a_shelf_and_every_foot_shows(browser: Any, server: LiveServer,
                                                            size: str) -> None:
    family = family_of(GAME.rules)
    facts = family.facts(family.observe(GAME.state, 0))
    page = open_page(browser, size)
    page.goto(f"{server.url}/#/table/books-{size}?token={TOKEN}")
    page.wait_for_selector("[data-role=hand] .card")
    page.wait_for_timeout(300)  # the arrival animations end
    page.screenshot(path=str(ARTIFACTS / f"many-canastas-{SIZES[size][0]}.png"))
    # each seat's plate says its foot in the family's words
    for seat, note in enumerate(facts["seat_notes"]):
        assert note
        shown = page.inner_text(f"[data-role=seat][data-seat='{seat}'] .seat-note")
        assert shown.strip() == note
    # every meld is on the table, the closed canastas of a crowded side on its shelf, two
    # books of one rank side by side
    melds = facts["melds"]
    assert page.locator(".meld").count() == sum(len(side) for side in melds)
    crowded = [keys for keys in (closed(facts, o) for o in range(len(melds)))
               if len(keys) >= SHELF_AT]
    assert page.locator(".canasta-shelf").count() == len(crowded)
    shelved = sorted(page.eval_on_selector_all(".canasta-shelf .meld.shelved",
                                               "els => els.map(e => e.dataset.rank)"))
    assert shelved == sorted(k for keys in crowded for k in keys)
    counts = page.eval_on_selector_all(".canasta-shelf .shelf-count",
                                       "els => els.map(e => e.textContent)")
    assert all("natural" in c or "mixed" in c for c in counts), counts
    # the family's word for a completed meld: books to go out, a shelf of books
    need = facts["canastas_to_go_out"]
    assert page.inner_text("#rules-line").startswith(f"{need} books to go out")
    titles = page.eval_on_selector_all(".canasta-shelf", "els => els.map(e => e.title)")
    assert all(re.match(r"\d+ books: ", t) for t in titles), titles
    assert "canasta" not in page.inner_text(".felt").lower()
    # nothing is cut off or sticks out, nothing to scroll to
    assert not clipped(page, MELDS), clipped(page, MELDS)
    assert not clipped(page, PLATES), clipped(page, PLATES)
    assert not overflowing(page, ".felt, .hand-zone"), overflowing(page, ".felt, .hand-zone")
    assert not page.errors, page.errors
    page.close()
