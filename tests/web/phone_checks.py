"""Checks the browser tests make of a page as a player holds it: thumb-sized controls, card
strips one can tap, readable text, a layout that stays put, and an axe-core scan.

Each check measures the page in the browser (the functions of ``phone_checks.js``) and returns
what fails, so a test's message lists every offender at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

SCRIPT = (Path(__file__).with_name("phone_checks.js")).read_text()

TARGET = 44
"""The smallest side of an enabled control on a phone (CSS px)."""
STRIP_W, STRIP_H = 28, 44
"""The smallest part of a hand card left uncovered: width and height (CSS px)."""
MIN_TEXT = 12
"""The smallest text (CSS px)."""


def _run(page: Any, name: str, arg: Any = None) -> Any:
    if not page.evaluate("() => !!window.__checks"):
        page.add_script_tag(content=SCRIPT)
    return page.evaluate(f"a => window.__checks.{name}(a)", arg)


def small_controls(page: Any) -> list[str]:
    """Enabled, visible controls smaller than :data:`TARGET` on either side."""
    found: list[str] = _run(page, "controls", TARGET)
    return found


def short_strips(page: Any) -> dict[str, Any]:
    """``{"count", "short"}``: the hand's cards, and those whose uncovered strip is under
    :data:`STRIP_W` × :data:`STRIP_H`."""
    found: dict[str, Any] = _run(page, "strips", {"w": STRIP_W, "h": STRIP_H})
    return found


def small_text(page: Any) -> list[str]:
    """Visible text set under :data:`MIN_TEXT` px (outside the card drawings)."""
    found: list[str] = _run(page, "smallText", MIN_TEXT)
    return found


def overflowing(page: Any, selector: str) -> list[str]:
    """Elements inside ``selector`` that stick out of the viewport's width or out of the
    selected box (a box that scrolls sideways counts too)."""
    found: list[str] = _run(page, "overflow", selector)
    return found


def clipped(page: Any, selector: str) -> list[str]:
    """Elements matching ``selector`` that a box around them (one that clips its overflow) or
    the screen cuts off: hidden in part, or until the player scrolls to them."""
    found: list[str] = _run(page, "clipped", selector)
    return found


def layout(page: Any) -> dict[str, list[int]]:
    """Where the parts of the table lie, transforms left out (a selected card rises by one)."""
    found: dict[str, list[int]] = _run(page, "layout")
    return found


def moved(before: dict[str, list[int]], after: dict[str, list[int]]) -> list[str]:
    """The parts present before and after whose box changed."""
    return [f"{k}: {before[k]} -> {after[k]}" for k in before.keys() & after.keys()
            if before[k] != after[k]]


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(n["target"][0] for n in v["nodes"][:4])
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def instant_bots(page: Any) -> None:
    """Bots' moves shown at once (the page's bot speed: ``instant``), for tests that play."""
    page.add_init_script("localStorage.setItem('canasta.settings',"
                         " JSON.stringify({speed: 'instant', sound: false}))")


SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
"""The two screens every page is checked at: a laptop, and a phone (touch)."""


def open_page(browser: Any, size: str) -> Any:
    """A page of ``browser`` at ``size`` (of :data:`SIZES`), bots quick, with ``page.errors``
    collecting its script errors."""
    width, height = SIZES[size]
    phone = size == "phone"
    page = browser.new_page(viewport={"width": width, "height": height}, is_mobile=phone,
                            has_touch=phone)
    instant_bots(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page
