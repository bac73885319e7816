"""The page in a real browser: headless Chromium (Playwright) against ``canasta serve``.

A phone (390×844, touch) against three heuristic bots, through taps only: the lobby's "Create
table" seats the one person at once, and a whole hand is played by tapping (the stock to draw, a
card twice to discard it, the partner's question answered, the legal list in the panel where
nothing else fits) until the end-of-hand screen shows, with the hand's replay. On the way: every
control is a thumb's size, every card of the hand shows a strip one can tap, no text is tiny,
selecting a card moves nothing, grey buttons and refused gestures say why in a player's words,
the panel closes (its button, Escape, a tap beside it), the round's moves read in words, and
axe-core finds no serious violation in the lobby or at the table. Then a bot plays the seat
(after a confirmation) and the end of that hand still shows. Screenshots in ``artifacts/``
(git-ignored): ``phone-*.png``.

Needs Chromium at ``/usr/bin/chromium`` (Debian's package; Playwright's own browser download is
not used). Without it the test is skipped, or fails under ``CANASTA_REQUIRE_SYSTEM_TESTS=1``.
The server is started by the ``live_server`` fixture of ``tests/web/conftest.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tests.web.phone_checks import (
    instant_bots,
    layout,
    moved,
    serious_violations,
    short_strips,
    small_controls,
    small_text,
)
from tests.web.support import ARTIFACTS, LiveServer

CORNER = {"x": 8, "y": 12}
"""Where to tap a card of the hand: its corner shows even where the next card overlaps it."""
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
NOTATION_WORDS = ("illegal action", "'meld", "'draw'", "'take'", "e.g.", "_")
HAND_DEADLINE = 75.0
"""Seconds for the whole hand (the test's budget is about 90 s on a 2-core machine)."""




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


def _status(page: Any) -> str:
    return str(page.inner_text("[data-role=status]"))


def _refusal_in_words(page: Any, tap: Callable[[], None], what: str) -> str:
    """Tap something refused: the reason shows in the status line, in a player's words."""
    tap()
    page.wait_for_selector("[data-role=status] #move-error:not([hidden])", timeout=5_000)
    text = page.inner_text("#move-error .msg-text")
    assert text.strip(), what
    assert not any(w in text for w in NOTATION_WORDS), f"{what}: {text!r}"
    page.tap("#move-error .close")
    return text


def _double_tap(page: Any, card: Any) -> None:
    """Two taps on one card as a thumb makes them: the second follows at once (the page
    counts taps under 400 ms apart as one double tap; a locator's tap waits for the lifted
    card to settle first, which on a busy machine takes longer than that)."""
    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    x, y = box["x"] + CORNER["x"], box["y"] + CORNER["y"]
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)


def _shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"phone-{name}.png"), animations="disabled")


def _first_turn_checks(page: Any, errors: list[str]) -> None:
    """The checks of a phone player's first turn (after the draw)."""
    _shot(page, "turn")
    assert not small_controls(page), small_controls(page)
    strips = short_strips(page)
    assert strips["count"] and not strips["short"], strips
    assert not small_text(page), small_text(page)
    # a grey button says why: Discard with nothing selected
    # (greyed: a tap still lands, so force past the check that it is enabled)
    _refusal_in_words(page, lambda: page.tap("#btn-discard", force=True),
                      "discard, nothing selected")
    # selecting a card moves nothing
    before = layout(page)
    page.locator("[data-role=hand] .card").first.tap(position=CORNER)
    page.wait_for_selector("[data-role=hand] .card.selected")
    assert not moved(before, layout(page)), moved(before, layout(page))
    _shot(page, "selected")
    page.tap("#btn-undo")  # undo the selection
    page.wait_for_selector("[data-role=hand] .card.selected", state="detached")
    # the panel: its toggle stays on top, it closes by the toggle, Escape and a tap beside it
    toggle = "[data-role=panel-toggle]"
    for close in ("toggle", "escape", "backdrop"):
        page.tap(toggle)
        page.wait_for_selector("[data-role=panel].open")
        box = page.locator(toggle).bounding_box()
        on_top = page.evaluate("([x, y]) => !!document.elementFromPoint(x, y)"
                               "?.closest('[data-role=panel-toggle]')",
                               [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
        assert on_top, "the panel covers its toggle"
        if close == "toggle":
            rounds = page.inner_text("#round-list")
            assert rounds.strip() and "drew from the stock" in rounds, rounds
            _shot(page, "panel")
            assert not small_controls(page), small_controls(page)
            page.tap(toggle)
        elif close == "escape":
            page.keyboard.press("Escape")
        else:
            page.mouse.click(20, 400)  # beside the panel, on the backdrop
        page.wait_for_selector("[data-role=panel].open", state="detached", timeout=3_000)
    assert not errors, errors


def _play_turn(page: Any, state: dict[str, Any], errors: list[str]) -> None:
    """Play the seat's turn by taps."""
    if page.locator("#answer-yes").count():
        page.tap("#answer-yes")  # the partner asks to go out: let them
        page.wait_for_selector("#answer-yes", state="detached", timeout=10_000)
        return
    if page.locator("#btn-draw[aria-disabled=false]").count():
        if state["first"]:
            # a discard before the draw is refused with words (a double tap on a card)
            card = page.locator("[data-role=hand] .card").last
            text = _refusal_in_words(page, lambda: _double_tap(page, card),
                                     "a discard before the draw")
            assert "draw" in text.lower(), text
            if page.locator("#btn-undo[aria-disabled=false]").count():
                page.tap("#btn-undo")
        page.tap("[data-role=stock]")
        page.wait_for_selector("#btn-discard, #score-breakdown", timeout=10_000)
        if page.locator("#score-breakdown").count():
            return
        if state["first"]:
            state["first"] = False
            _first_turn_checks(page, errors)
    if page.locator("#btn-discard").count():
        count = page.locator("[data-role=hand] .card").count()
        for i in reversed(range(count)):  # a card twice discards it; a refusal: the next one
            _double_tap(page, page.locator("[data-role=hand] .card").nth(i))
            try:
                page.wait_for_function(
                    "n => !document.querySelector('#btn-discard') || document.querySelectorAll("
                    "'[data-role=hand] .card').length < n || !document.querySelector("
                    "'#move-error').hidden", arg=count, timeout=10_000)
            except Exception:
                continue
            if not page.locator("#btn-discard").count():
                return
            if page.locator("#move-error:not([hidden])").count():
                page.tap("#move-error .close")
                if page.locator("#btn-undo[aria-disabled=false]").count():
                    page.tap("#btn-undo")
                continue
            return
    # nothing above fits (a stock-out take, a pass, a forced meld): the panel's legal list
    page.tap("[data-role=panel-toggle]")
    page.locator("#legal-list .legal-action").first.tap()
    page.wait_for_timeout(300)
    if page.locator("[data-role=panel].open").count():
        page.keyboard.press("Escape")


def test_a_hand_on_a_phone_through_taps(browser: Any,
                                        live_server: Callable[..., LiveServer]) -> None:
    started = time.monotonic()
    server = live_server()
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    page = browser.new_page(**PHONE)
    instant_bots(page)
    _watch_errors(page, errors)
    page.goto(server.url + "/")

    # the lobby: the preset's seats are one person and bots (medium: quick ones)
    page.wait_for_selector("#new-table")
    for seat in (1, 2, 3):
        page.select_option(f"#seat-{seat}", "bot:medium")
    assert page.inner_text(".seat-row .seat-badge >> nth=0") == "1"  # seats count from 1
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= 390, f"the lobby is {width} px wide on a 390 px screen"
    assert not small_controls(page), small_controls(page)
    assert not serious_violations(page), serious_violations(page)
    _shot(page, "lobby")
    page.tap("#create-table")

    # one person against bots: straight to the table, no "Sit here"
    page.wait_for_selector("[data-role=hand] .card", timeout=15_000)
    assert "#/table/" in page.url and "token=" in page.url
    _wait_live(page, errors)
    assert not serious_violations(page), serious_violations(page)

    state = {"first": True}
    turns = 0
    try:
        while True:
            left = HAND_DEADLINE - (time.monotonic() - started)
            assert left > 0, f"the hand did not end within {HAND_DEADLINE} s ({turns} turns)"
            page.wait_for_selector("#score-breakdown, [data-role=status].mine",
                                   timeout=max(1_000, int(left * 1000)))
            if page.locator("#score-breakdown").count():
                break
            turns += 1
            _play_turn(page, state, errors)
    except Exception:
        failure = ARTIFACTS / "phone-failure.png"
        page.screenshot(path=str(failure))
        print(f"\nfailure screenshot: {failure}\nserver log: {server.log_path}")
        raise

    breakdown = page.inner_text("#score-breakdown")
    for line in ("Cards melded", "Red threes", "Cards left in hand", "Hand total", "Game score"):
        assert line in breakdown
    assert page.get_attribute("#hand-replay", "href").endswith("?hand=1")
    assert not small_controls(page), small_controls(page)
    _shot(page, "hand-end")
    # the next hand; a bot takes the seat only once the player confirms, and the end of the
    # hand it plays still shows
    if page.locator("#next-hand").count():
        page.tap("#next-hand")
        page.wait_for_selector("#score-breakdown", state="detached", timeout=10_000)
    page.wait_for_selector("#bot-for-me:not([hidden])", timeout=10_000)
    page.tap("#bot-for-me")
    page.wait_for_selector("#confirm-bot-yes")
    _shot(page, "bot-confirm")
    assert page.locator("#claim-seat").count() == 0  # nothing happened yet
    page.tap("#confirm-bot-yes")
    page.wait_for_selector("#claim-seat", timeout=10_000)
    page.wait_for_selector("#score-breakdown", timeout=60_000)
    # two big hands can end the game: then the sheet says so instead of "Hand 2 is over"
    heading = page.inner_text("#score-breakdown h2")
    assert "Hand 2 is over" in heading or heading.startswith("Game over"), heading
    _shot(page, "bot-hand-end")
    print(f"\n{turns} turns, {time.monotonic() - started:.1f} s")
    assert state["first"] is False or turns == 0
    assert not errors, errors
