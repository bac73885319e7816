"""What one client may ask of the server: the size of a table's rules, and how often.

A table costs the server in proportion to its rules (players, packs, hands) and lives as long
as its game, so the rules of a web table are bounded (:func:`check_table_rules`): the sizes
in :data:`TABLE_LIMITS`, and every integer of the rules object within
:data:`MAX_RULES_INTEGER` — which keeps every score a view shows a plain number. Requests that
cost the server work (a new table, a hint) are rate-limited per client or seat
(:class:`RateLimiter`, a token bucket).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

from canasta.interfaces.web.errors import Invalid
from canasta.rules import Rules

TABLE_LIMITS = {"num_players": 6, "num_decks": 8, "num_jokers": 16, "hand_size": 20,
                "target_score": 100_000}
"""The largest values of these rules fields a web table accepts (a pack per player and one
more, as Hand and Foot deals six players, fits)."""

MAX_RULES_INTEGER = 1_000_000
"""No integer of a web table's rules (a card's value, a bonus, a threshold...) beyond this,
either way."""


def json_integers(value: Any, path: str) -> Iterator[tuple[str, int]]:
    """Every integer in a JSON value, with where it is (``card_values.K``)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from json_integers(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list | tuple | frozenset):
        for index, item in enumerate(value):
            yield from json_integers(item, f"{path}[{index}]")


def rules_integers(rules: Rules) -> Iterator[tuple[str, int]]:
    """Every integer of every field of ``rules`` (nested in tables too), by field name: the
    fields are read from :class:`~canasta.rules.Rules` itself, so a new one is covered."""
    for f in dataclasses.fields(rules):
        if f.init:
            for _, number in json_integers(getattr(rules, f.name), f.name):
                yield f.name, number


def _check_integer(where: str, number: int) -> None:
    if abs(number) > MAX_RULES_INTEGER:
        # never repr a huge number: past 4300 digits Python refuses to write it out
        size = "above" if number > 0 else "below"
        raise Invalid(f"rules field {where!r}: a web table allows integers from "
                      f"-{MAX_RULES_INTEGER} to {MAX_RULES_INTEGER}, not one {size}")


def check_rules_json(value: Any) -> None:
    """:class:`Invalid` naming the first integer of a rules object out of bounds (checked
    before the rules are built, so a huge number is never worked with)."""
    for where, number in json_integers(value, ""):
        _check_integer(where, number)


def check_table_rules(rules: Rules) -> None:
    """:class:`Invalid` for rules a web table does not take: above :data:`TABLE_LIMITS`, or
    with any integer beyond :data:`MAX_RULES_INTEGER`."""
    for name, number in rules_integers(rules):
        _check_integer(name, number)
    for name, most in TABLE_LIMITS.items():
        if getattr(rules, name) > most:
            raise Invalid(f"a web table allows {name} up to {most}, not {getattr(rules, name)}")


class RateLimiter:
    """At most ``burst`` requests at once per key, refilled at ``per_minute`` a minute (a
    token bucket). Keeps the ``max_keys`` keys seen last: memory stays bounded whatever the
    number of clients (a key forgotten starts again with a full bucket)."""

    def __init__(self, per_minute: float, burst: int | None = None, max_keys: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst if burst is not None else max(1, math.ceil(per_minute)))
        self.max_keys = max_keys
        self.clock = clock
        self._buckets: OrderedDict[Any, tuple[float, float]] = OrderedDict()
        """key -> (tokens, when counted)."""

    def take(self, key: Any) -> float:
        """Spend one request of ``key``: 0 if it may go on, else the seconds until it may."""
        if self.rate <= 0:
            return 0.0  # no limit
        now = self.clock()
        tokens, then = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) / self.rate
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return wait
