"""No bot can learn a card its seat cannot see, in any family.

A bot is given its seat's observation, the legal list and a generator (the bot protocol). Here,
for every family and every bot of its table: two positions that differ only in cards the seat
cannot see (the other hands and the stock, dealt anew) give the seat the same observation and
the same legal list, and every bot the same decision with the same generator. The positions are
early in a hand, before any pick of the pile, so that no hidden card is known to the table.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from canasta.bots import bot_table, make_bot
from canasta.cards import parse_card
from canasta.errors import PositionError
from canasta.family import Family, families

CHEAP: dict[str, str] = {
    "ismcts": "ismcts:iterations=6,depth=1,horizon=2,width=3",
    "search": "search:rollouts=1,width=2",
}
"""Settings that keep a searching bot's decision fast (the rest of each bot is the same)."""


def twin(family: Family, position: Any, seat: int, rng: random.Random) -> Any:
    """``position`` with the cards ``seat`` cannot see dealt anew: the other hands' cards
    shuffled among them (each hand keeping its size), the stock shuffled, and a few cards
    swapped between those hands and the stock (where the family's rules let that card lie
    there: a red three is never in a classic hand)."""
    data = family.position_to_json(position)
    others = [s for s in range(len(data["hands"])) if s != seat]
    held = [c for s in others for c in data["hands"][s]]
    rng.shuffle(held)
    hands = list(data["hands"])
    at = 0
    for s in others:
        hands[s], at = held[at:at + len(hands[s])], at + len(hands[s])
    stock = list(data["stock"])
    rng.shuffle(stock)
    dealt = _rebuilt(family, position, hands, stock)
    for _ in range(6):
        s = rng.choice([s for s in others if hands[s]])
        i, j = rng.randrange(len(hands[s])), rng.randrange(len(stock))
        hands[s][i], stock[j] = stock[j], hands[s][i]
        try:
            dealt = _rebuilt(family, position, hands, stock)
        except PositionError:
            hands[s][i], stock[j] = stock[j], hands[s][i]
    return dealt


def _rebuilt(family: Family, position: Any, hands: list[list[str]], stock: list[str]) -> Any:
    """``position`` with ``hands`` and ``stock`` (card names) in place of its own. The stock is
    set first (:meth:`Family.with_stock`), so that whatever the position derives from it
    follows; then the hands, through the position's text."""
    data = family.position_to_json(family.with_stock(position,
                                                     tuple(parse_card(c) for c in stock)))
    return family.position_from_json({**data, "hands": [list(h) for h in hands]})


def positions(family: Family) -> Iterator[tuple[str, Any]]:
    """A few positions of each family's default rules where the player to move has a choice:
    the first of a hand, and later ones where nobody has picked the pile yet (the random bot
    plays, told never to pick)."""
    rules = family.default_rules
    bot = make_bot("random", family)
    for seed in (1, 2):
        position = family.new_hand(rules, seed)
        rng = random.Random(seed)
        choices = 0
        while not position.is_over and choices <= 8:
            legal = family.legal_actions(position)
            if len(legal) > 1:
                if choices in (0, 3, 8):
                    yield f"{family.name}-{seed}-{choices}", position
                choices += 1
            quiet = [a for a in legal if a.verb != "take"] or legal
            obs = family.observe(position, position.to_move)
            position = family.apply(position, bot.choose(obs, quiet, rng))


CASES = [(family, label, position) for family in families()
         for label, position in positions(family)]


@pytest.mark.parametrize(("family", "position"), [(f, p) for f, _, p in CASES],
                         ids=[label for _, label, _ in CASES])
def test_no_bot_decides_on_a_card_its_seat_cannot_see(family: Family, position: Any) -> None:
    table = bot_table(family)
    seat = position.to_move
    legal = family.legal_actions(position)
    obs = family.observe(position, seat)
    for k in range(2):
        other = twin(family, position, seat, random.Random(k))
        assert family.position_to_json(other)["hands"] != family.position_to_json(
            position)["hands"]  # another seat holds other cards
        # what the seat is given is the same: the observation holds no hidden card
        assert family.observe(other, seat) == obs
        assert family.legal_actions(other) == legal
        for name in table.bots:
            bot = make_bot(CHEAP.get(name, name), family)
            for seed in (3, 4):
                assert bot.choose(family.observe(other, seat), family.legal_actions(other),
                                  random.Random(seed)) == bot.choose(
                    obs, legal, random.Random(seed)), (name, seed)
