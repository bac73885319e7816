"""The page in a real browser: headless Chromium (Playwright) against ``canasta serve``.

One human seat against three heuristic bots, all through the page: the lobby sets the table up,
the join link seats the player, and a whole hand is played by clicking (draw, select a card,
discard; answer the partner; the legal-actions list where nothing else fits) until the hand's
score breakdown shows. A refused move must show the server's reason. Screenshots are kept in
``artifacts/`` (git-ignored): ``browser-hand.png`` (desktop, the hand's score) and
``browser-phone.png`` (a phone-sized screen during the hand).

Needs Chromium at ``/usr/bin/chromium`` (Debian's package; Playwright's own browser download is
not used). Without it the test is skipped, or fails under ``CANASTA_REQUIRE_SYSTEM_TESTS=1``.
The server is started by the ``live_server`` fixture of ``tests/web/conftest.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.support import LiveServer, system_test_missing

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
CORNER = {"x": 8, "y": 12}
"""Where to click a card of the hand: its corner shows even where the next card overlaps it."""
HAND_DEADLINE = 75.0
"""Seconds for the whole hand (the test's budget is about 90 s on a 2-core machine)."""


@pytest.fixture
def browser() -> Iterator[Any]:
    """Headless Debian Chromium driven by Playwright's sync API."""
    if not CHROMIUM.exists():
        system_test_missing(f"the browser test needs Chromium at {CHROMIUM} "
                            "(apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        system_test_missing("the browser test needs playwright (pip install -e .[dev])")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def _watch_errors(page: Any, errors: list[str]) -> None:
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}")
            if m.type == "error" and "409" not in m.text else None)


def _wait_live(page: Any, errors: list[str]) -> None:
    """Wait for the page's WebSocket to be live; on a timeout, say what the page showed."""
    try:
        page.wait_for_selector(".conn.live", timeout=30_000)
    except Exception as e:
        shown = page.locator(".conn").first.text_content()
        raise AssertionError(f"the connection never went live (it shows {shown!r}); "
                             f"page errors: {errors}") from e


def _refused_move_shows_reason(page: Any) -> None:
    """Meld one natural card of a rank the side has not melded: the 409 reason must show."""
    index = page.evaluate("""() => {
        const mine = new Set([...document.querySelectorAll('.side.mine .meld')]
            .map((m) => m.dataset.rank));
        return [...document.querySelectorAll('#hand .card')].findIndex((c) => {
            const card = c.dataset.card;
            return card !== 'JK' && !'23'.includes(card[0]) && !mine.has(card[0]);
        });
    }""")
    if index < 0:
        return  # every card is wild, a three or already melded: nothing surely illegal
    page.locator("#hand .card").nth(index).click(position=CORNER)
    page.click("#btn-meld")
    page.wait_for_selector("#move-error:not([hidden])", timeout=10_000)
    assert "illegal action" in page.inner_text("#move-error")
    page.click("#btn-clear")


def _play_turn(page: Any, first: list[bool], on_drawn: Callable[[], None]) -> None:
    """Play the seat's turn through the page."""
    if page.locator("#answer-yes").count():
        page.click("#answer-yes")  # the partner asks to go out: let them
        page.wait_for_selector("#answer-yes", state="detached", timeout=10_000)
        return
    if page.locator("#btn-draw:not([disabled])").count():
        page.click("#btn-draw")
        page.wait_for_selector("#btn-discard, #score-breakdown", timeout=10_000)
        if page.locator("#score-breakdown").count():
            return
        if first[0]:
            first[0] = False
            _refused_move_shows_reason(page)
        on_drawn()
    if page.locator("#btn-discard").count():
        page.locator("#hand .card").last.click(position=CORNER)
        page.click("#btn-discard:not([disabled])")
        page.wait_for_function(
            "() => !document.querySelector('#btn-discard') ||"
            " !document.querySelector('#move-error').hidden", timeout=10_000)
        if page.locator("#btn-discard").count():  # refused: take a discard the server lists
            page.locator("#legal-list [data-action^='discard ']").first.click()
            page.wait_for_selector("#btn-discard", state="detached", timeout=10_000)
        return
    # nothing above fits (a stock-out take, a pass): the first legal action
    page.locator("#legal-list .legal-action").first.click()
    page.wait_for_timeout(300)


def test_a_hand_against_three_bots_through_the_page(
        browser: Any, live_server: Callable[..., LiveServer]) -> None:
    started = time.monotonic()
    server = live_server()
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    _watch_errors(page, errors)
    page.goto(server.url + "/")

    # the lobby: classic, a human at seat 0, heuristic bots elsewhere
    page.wait_for_selector("#new-table")
    page.select_option("#preset", "classic")
    for seat in (1, 2, 3):
        page.select_option(f"#seat-{seat}", "bot:heuristic")
    page.fill("#seat-0-player", "Ann")
    page.click("#create-table")
    page.wait_for_selector("#created")
    link = page.input_value("#created .join-row[data-seat='0'] input")
    assert "#/table/" in link and "token=" in link
    page.click("#join-seat-0")

    # the table, live over the WebSocket
    page.wait_for_selector("#hand .card", timeout=15_000)
    _wait_live(page, errors)
    assert page.locator(".seat").count() == 4
    assert page.locator("#pile").count() == 1 and page.locator("#stock").count() == 1

    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True,
                             has_touch=True, device_scale_factor=2)
    _watch_errors(phone, errors)
    phone.goto(link)
    phone_shot = ARTIFACTS / "browser-phone.png"
    shots = {"phone": False}

    def on_drawn() -> None:
        if shots["phone"]:
            return
        phone.wait_for_selector(".status-line.mine", timeout=10_000)
        phone.wait_for_selector("#btn-discard", timeout=10_000)
        phone.screenshot(path=str(phone_shot), full_page=True, animations="disabled")
        shots["phone"] = True
        phone.close()

    first = [True]
    turns = 0
    try:
        while True:
            left = HAND_DEADLINE - (time.monotonic() - started)
            assert left > 0, f"the hand did not end within {HAND_DEADLINE} s ({turns} turns)"
            page.wait_for_selector("#score-breakdown, .status-line.mine",
                                   timeout=max(1_000, int(left * 1000)))
            if page.locator("#score-breakdown").count():
                break
            turns += 1
            _play_turn(page, first, on_drawn)
    except Exception:
        failure = ARTIFACTS / "browser-failure.png"
        page.screenshot(path=str(failure), full_page=True)
        print(f"\nfailure screenshot: {failure}\nserver log: {server.log_path}")
        raise

    breakdown = page.inner_text("#score-breakdown")
    for line in ("Cards melded", "Red threes", "Cards left in hand", "Hand total", "Game score"):
        assert line in breakdown
    assert page.locator("#score-sheet tbody tr").count() == 1  # hand 1 on the score sheet
    shot = ARTIFACTS / "browser-hand.png"
    page.screenshot(path=str(shot), animations="disabled")  # the viewport: the overlay in full
    print(f"\nscreenshots: {shot} and {phone_shot} ({turns} turns, "
          f"{time.monotonic() - started:.1f} s)")
    assert shots["phone"] or turns == 0
    assert not errors, errors
