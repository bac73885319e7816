"""A table's game, whatever its family of rules.

The room machinery (:mod:`.lobby`, :mod:`.tables`, :mod:`.sockets`, :mod:`.storage`,
:mod:`.bot_runner`) is the same for every family: seats and tokens, the lock, storing each
action before anyone is told, pushing views, bots, restarts. What a family decides is asked of
it through the family protocol (:class:`canasta.family.Family`): the rules a new table may take
(:func:`table_rules`), the game of the stored rows (:func:`resume`, played again by
:meth:`canasta.game.Game.resume`), the pack of each hand (:func:`deck_for`), the text of an
action (:func:`read_action`), the bots that may sit and the one that gives hints
(:func:`seat_bot`, :func:`hint_bot`). Nothing here tests a family's name.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from canasta.actions import Action
from canasta.bots import BotSpecError, bot_table, make_bot
from canasta.cards import Card, parse_cards
from canasta.errors import CanastaError
from canasta.family import Family, family_of, rules_from_json, seeded_hands
from canasta.game import Game, GameRecord, HandRecord
from canasta.interfaces.web.errors import Invalid
from canasta.interfaces.web.limits import check_rules_json, check_table_rules
from canasta.interfaces.web.storage import HandRow
from canasta.rules import Rules

DEFAULT_LEVEL = "medium"
"""The level of a ``bot`` seat when the server's default bot is not one of the family's."""


def default_rules() -> Rules:
    """The rules of a table created without any: the first family's default preset."""
    from canasta.family import families

    return families()[0].default_rules


def table_rules(value: Any) -> Rules:
    """The rules of a new table from the request's ``rules`` (a preset name of any family, or
    ``{"preset": NAME, FIELD: VALUE, ...}``); :class:`Invalid` in the engine's words."""
    if value is None:
        return default_rules()
    check_rules_json(value)
    try:
        rules = rules_from_json(value)
    except CanastaError as e:
        raise Invalid(str(e)) from None
    check_table_rules(rules)
    return rules


def new_game(rules: Rules, seed: int, players: Sequence[str]) -> Game:
    """A game whose first hand is dealt from ``seed`` (its packs are :func:`deck_for`'s)."""
    return Game(rules, seed=seed, players=list(players))


def deck_for(rules: Rules, seed: int, number: int) -> list[Card]:
    """The pack of hand ``number`` (from 1) of a game with ``seed``: the ``number``-th 64-bit
    draw of a generator seeded with ``seed`` shuffles it, as :class:`~canasta.game.Game`
    deals by itself."""
    packs = seeded_hands(family_of(rules), rules, seed)
    return next(itertools.islice(packs, number - 1, None))


def resume(rules_json: Any, players: Sequence[str], hands: Sequence[HandRow]) -> Game:
    """The game of the stored rows, every action judged again (a ``ValueError`` if it does not
    replay); a last hand that ended the game is scored."""
    rules = rules_from_json(rules_json)
    records = [HandRecord(h.dealer, tuple(parse_cards(list(h.deck))),
                          tuple(text for _, text in h.actions)) for h in hands]
    game = Game.resume(GameRecord(rules, tuple(players), tuple(records)))
    if game.state.is_over and game.ends_game(game.state):
        game.next_hand()
    return game


def read_action(family: Family, rules: Rules, text: str) -> Action:
    """An action's text under ``rules``; :class:`Invalid` for one that cannot be read."""
    try:
        return family.parse_action(rules, text)
    except CanastaError as e:
        raise Invalid(f"invalid action {text!r}: {e}", "bad_action") from None


# -- bots ---------------------------------------------------------------------------------------

def known_bot(spec: str, family: Family) -> bool:
    """True if ``spec`` names a bot (or a level) of ``family``."""
    try:
        make_bot(spec, family)
    except (BotSpecError, ValueError, TypeError):
        return False
    return True


def seat_bot(family: Family, configured: str) -> str:
    """The bot of a seat created as ``bot``: the server's configured bot where the family has
    it, else the family's :data:`DEFAULT_LEVEL`."""
    return configured if configured and known_bot(configured, family) else DEFAULT_LEVEL


def hint_bot(family: Family, configured: str) -> str:
    """The bot that gives hints at a table of ``family``: the server's configured one where
    the family has it, else the family's hint level (its strongest quick bot)."""
    if configured and known_bot(configured, family):
        return configured
    return bot_table(family).hint_level
