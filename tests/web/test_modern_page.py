"""The Modern American page (``/modern.html``) in headless Chromium, at 1366×768 and on a phone
(390×844, touch): a whole hand played by taps, nothing wider than the screen, every control a
thumb's size, the end of the hand with its score by part, and the next hand. Screenshots in
``artifacts/modern-*.png``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.phone_checks import overflowing, small_controls
from tests.web.support import LiveServer
from tests.web.test_browser import ARTIFACTS, PHONE, browser

__all__ = ["browser"]

SIZES = {"1366": {"viewport": {"width": 1366, "height": 768}},
         "390": PHONE}


def _tap(page: Any, selector: str, phone: bool) -> None:
    before = page.get_attribute("#modern", "data-renders")
    if phone:
        page.tap(selector)
    else:
        page.click(selector)
    page.wait_for_function(f"() => document.querySelector('#modern').dataset.renders !== "
                           f"'{before}'", timeout=15_000)


@pytest.mark.parametrize("size", SIZES)
def test_a_hand_of_modern_american_in_the_browser(
        browser: Any, live_server: Callable[..., LiveServer], size: str) -> None:
    server = live_server()
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(**SIZES[size])
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/modern.html")
    phone = size == "390"
    page.wait_for_selector("#start")
    assert not small_controls(page), small_controls(page)
    assert not overflowing(page, "#modern"), overflowing(page, "#modern")
    page.screenshot(path=str(ARTIFACTS / f"modern-house-rules-{size}.png"), full_page=True)
    if phone:
        page.select_option("#special-hands", "pagat")
    page.tap("#start") if phone else page.click("#start")
    page.wait_for_selector("[data-role=actions] button, #hand-over", timeout=15_000)
    assert "#/m/" in page.url and "token=" in page.url
    page.screenshot(path=str(ARTIFACTS / f"modern-start-{size}.png"), full_page=True)
    _tap(page, "[data-role=hint]", phone)  # the hard bot's move and its reason, in words
    hint = page.inner_text("[data-role=hint-text]")
    assert hint.startswith("Hint: ") and len(hint) > 30, hint
    assert not overflowing(page, "#modern"), overflowing(page, "#modern")
    page.screenshot(path=str(ARTIFACTS / f"modern-hint-{size}.png"), full_page=True)
    for _ in range(400):
        if page.locator("#hand-over").count():
            break
        assert not overflowing(page, "#modern"), overflowing(page, "#modern")
        assert not small_controls(page), small_controls(page)
        buttons = page.locator("[data-role=actions] button")
        texts = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
        choice = next((t for t in reversed(texts) if t.startswith("discard")), texts[0])
        _tap(page, f"[data-role=actions] button[data-action='{choice}']", phone)
    page.wait_for_selector("#hand-over", timeout=5_000)
    page.screenshot(path=str(ARTIFACTS / f"modern-hand-over-{size}.png"), full_page=True)
    sheet = page.inner_text("#hand-over")
    for line in ("Cards melded", "Threes", "Penalties", "Hand total", "Game score"):
        assert line in sheet
    assert not overflowing(page, "#modern"), overflowing(page, "#modern")
    _tap(page, "#next-hand", phone)
    assert "hand 2" in page.inner_text("h1")
    assert not errors, errors


def test_the_lobby_leads_to_the_modern_american_table(
        browser: Any, live_server: Callable[..., LiveServer]) -> None:
    server = live_server()
    page = browser.new_page(**PHONE)
    page.goto(server.url + "/")
    page.wait_for_selector("#modern-link")
    assert not small_controls(page), small_controls(page)
    page.tap("#modern-link")
    page.wait_for_selector("#start", timeout=15_000)
    assert page.url.split("#")[0].endswith("/modern.html")
