"""What one seat may see of a Modern American hand: its own cards, the table, and how many
cards the others hold (docs/notation.md, "Modern American").

The stock is a count, and the turn card is only *whether* it is still in the stock: it lies
crosswise in the stock as a marker, face down. The pile is public (MA §6.8), unless the rules
let a player look at its top cards only (``pile_visible_depth``): then the view holds those and
``pile_below``, the count of the others.

>>> from canasta.modern_american.play import new_hand
>>> h = new_hand(seed=4)
>>> v = seat_view(h, 2)
>>> v["seat"], v["hands"][0], len(v["hands"][2]) == len(h.hands[2])
(2, 13, True)
"""

from __future__ import annotations

import random
from typing import Any

from canasta.modern_american.hand import Hand
from canasta.modern_american.notation import hand_to_json


def seat_view(h: Hand, seat: int) -> dict[str, Any]:
    """The position as ``seat`` sees it: other hands as counts, the stock as a count, the
    turn card as ``turn_card_drawn``."""
    data = hand_to_json(h)
    data["seat"] = seat
    data["hands"] = [cards if s == seat else len(cards) for s, cards in enumerate(data["hands"])]
    data["stock"] = len(h.stock)
    del data["turn_card"]
    data["turn_card_drawn"] = h.turn_card_drawn
    if "talons" in data:
        data["talons"] = [len(t) for t in h.talons]  # set aside face down
    depth = h.knobs.pile_visible_depth
    if depth is not None and len(h.pile) > depth:
        data["pile"] = data["pile"][-depth:]  # the top cards; the rest is a count
        data["pile_below"] = len(h.pile) - depth
    if h.end is None and seat != h.to_move:
        data["turn"] = {k: v for k, v in data["turn"].items() if k != "kept"}
    return data


def deal_hidden(h: Hand, rng: random.Random) -> Hand:
    """``h`` with the cards hidden from its player to move (the other hands and the stock)
    dealt anew, each hand keeping its size: a world the player cannot tell from ``h``."""
    seat = h.to_move
    hidden = [c for s in range(len(h.hands)) if s != seat for c in h.hands[s]] + [
        c for t in h.talons for c in t] + list(h.stock)
    rng.shuffle(hidden)
    hands = list(h.hands)
    at = 0
    for s in range(len(h.hands)):
        if s != seat:
            hands[s] = tuple(sorted(hidden[at:at + len(h.hands[s])]))
            at += len(h.hands[s])
    talons = []
    for t in h.talons:  # set-aside talons are hidden too
        talons.append(tuple(sorted(hidden[at:at + len(t)])))
        at += len(t)
    return h.but(hands=tuple(hands), talons=tuple(talons), stock=tuple(hidden[at:]))
