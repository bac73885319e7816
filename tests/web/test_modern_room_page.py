"""A Modern American room in two browser pages (headless Chromium, Playwright), at 1366×768
and on a phone (390×844, touch): one person opens a room with their partner a person and two
bots, the partner joins through the invite link, and a move one of them plays shows on the
other's page (pushed over the WebSocket); a third page watches without a hand. Nothing is wider
than the screen and every control is a thumb's size. Screenshots in
``artifacts/modern-room-*.png``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.phone_checks import overflowing, small_controls
from tests.web.support import LiveServer
from tests.web.test_browser import ARTIFACTS, PHONE, browser

__all__ = ["browser"]

SIZES = {"1366": {"viewport": {"width": 1366, "height": 768}}, "390": PHONE}


def _page(browser: Any, size: str, errors: list[str]) -> Any:
    page = browser.new_context(**SIZES[size]).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def _version(page: Any) -> int:
    return int(page.get_attribute("#modern", "data-version") or -1)


def _usable(page: Any) -> None:
    assert not overflowing(page, "#modern"), overflowing(page, "#modern")
    assert not small_controls(page), small_controls(page)


@pytest.mark.parametrize("size", SIZES)
def test_two_people_in_one_modern_american_room(
        browser: Any, live_server: Callable[..., LiveServer], size: str) -> None:
    server = live_server()
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    phone = size == "390"
    first = _page(browser, size, errors)
    first.goto(server.url + "/modern.html")
    first.wait_for_selector("#start")
    first.select_option("#seat-1", "modern-random")
    first.select_option("#seat-2", "human")
    first.select_option("#seat-3", "modern-random")
    first.tap("#start") if phone else first.click("#start")
    first.wait_for_selector("[data-invite='2']")
    assert "#/r/" in first.url and "token=" in first.url
    assert "Waiting for" in first.inner_text("[data-role=status]")
    invite = first.get_attribute("[data-invite='2']", "href")
    watch = first.get_attribute("[data-role=watch]", "href")

    second = _page(browser, size, errors)
    second.goto(server.url + invite)
    second.wait_for_selector("[data-role=hand]")
    # seat 1 (a bot) moves first, then it is the partner's turn: their page offers the moves
    second.wait_for_selector("[data-role=actions] button", timeout=15_000)
    first.wait_for_function("() => document.querySelector('#modern').dataset.live === 'yes'")
    _usable(second)
    before = _version(second)
    buttons = second.locator("[data-role=actions] button")
    action = buttons.first.get_attribute("data-action")
    label = buttons.first.inner_text()
    (buttons.first.tap() if phone else buttons.first.click())
    second.wait_for_function(f"() => Number(document.querySelector('#modern').dataset.version)"
                             f" > {before}", timeout=10_000)
    # the first person's page shows the partner's move, pushed without a reload
    first.wait_for_function(f"() => Number(document.querySelector('#modern').dataset.version)"
                            f" > {before}", timeout=10_000)
    moves = first.inner_text("[data-role=moves]")
    verb = action.split(" ")[0]
    seen = "lays the threes" if verb == "keep" else verb  # which three stays the partner's
    assert f"Player 2: {seen}" in moves, (moves, action, label)
    _usable(first)
    first.screenshot(path=str(ARTIFACTS / f"modern-room-first-{size}.png"), full_page=True)
    second.screenshot(path=str(ARTIFACTS / f"modern-room-second-{size}.png"), full_page=True)

    watcher = _page(browser, size, errors)
    watcher.goto(server.url + watch)
    watcher.wait_for_selector("[data-role=moves]")
    assert "watching" in watcher.inner_text("h1")
    assert watcher.locator("[data-role=hand]").count() == 0
    assert watcher.locator("[data-role=actions]").count() == 0
    _usable(watcher)
    watcher.screenshot(path=str(ARTIFACTS / f"modern-room-watch-{size}.png"), full_page=True)
    assert not errors, errors
