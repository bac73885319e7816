"""The families of rules a room plays, behind one seam.

The room machinery (:mod:`.lobby`, :mod:`.tables`, :mod:`.sockets`, :mod:`.storage`,
:mod:`.bot_runner`) is the same for every family: seats and tokens, the lock, storing each
action before anyone is told, pushing views, bots, restarts. What differs is asked of the
table's :class:`TableFamily`: the rules a new table may take, the game and its replay from the
stored rows, the text of an action, the engine's judgement, the end of a game, the bots that
may sit, and what a seat sees. :data:`CLASSIC` plays every preset of
:data:`canasta.rules.PRESETS`; :data:`MODERN` plays Modern American (``modern-american`` and its
house rules), whose engine is the one the research adapters drive
(:class:`canasta.rl.table.ModernFamily`). :func:`family_for` tells them apart by the rules'
JSON, as the record stores it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from canasta.actions import Action
from canasta.actions import format_action as classic_format
from canasta.actions import parse_action as classic_parse
from canasta.bots import make_bot
from canasta.bots.modern import make_modern_bot
from canasta.cards import Card, parse_cards
from canasta.deal import shuffled_pack as classic_pack
from canasta.engine import apply as classic_apply
from canasta.errors import CanastaError
from canasta.game import Game, GameRecord, HandRecord, game_over
from canasta.interfaces.web.errors import Conflict, Invalid
from canasta.interfaces.web.limits import check_rules_json, check_table_rules
from canasta.interfaces.web.modern_room import FAMILY, ModernTableGame, build_modern_view
from canasta.interfaces.web.modern_room import public_record as modern_public_record
from canasta.interfaces.web.modern_room import replay_positions as modern_replay
from canasta.modern_american.action_text import parse_action as modern_parse
from canasta.modern_american.hand import Hand
from canasta.modern_american.hand import shuffled_pack as modern_pack
from canasta.modern_american.knobs import rules_from_json as modern_rules
from canasta.modern_american.notation import is_modern_american
from canasta.rules import Rules, rules_from_json

if TYPE_CHECKING:
    from canasta.interfaces.web.storage import HandRow
    from canasta.interfaces.web.tables import Table

HOUSE_RULES = ("special_hands", "keep_one_three_for_straight",
               "special_hand_after_partner_meld", "initial_meld_counts_pile_top",
               "pile_top_may_form_clean_triple", "talon_not_after_pile_take")
"""The Modern American switches a table may set (docs/rules.md, "Modern American")."""

MODERN_LEVELS = {"easy": "modern-greedy", "medium": "modern-heuristic",
                 "hard": "modern-search"}
"""The levels a Modern American seat may name instead of a bot of the family."""


def seeded_deck(shuffle: Callable[[int], list[Card]], seed: int, number: int) -> list[Card]:
    """The pack order of hand ``number`` (from 1) of a game with ``seed``: the ``number``-th
    64-bit draw of a generator seeded with ``seed`` shuffles it (as
    :class:`~canasta.game.Game` deals by itself)."""
    rng = random.Random(seed)
    bits = 0
    for _ in range(number):
        bits = rng.getrandbits(64)
    return shuffle(bits)


def modern_rules_json(house: Any) -> Any:
    """The record's rules for a Modern American table with ``house`` (the switches of
    :data:`HOUSE_RULES` set), checked; :class:`Invalid` in words."""
    if house is None or house == {}:
        return FAMILY
    if not isinstance(house, dict):
        raise Invalid("house_rules must be an object of switches", "invalid_rules")
    unknown = sorted(set(house) - set(HOUSE_RULES))
    if unknown:
        raise Invalid(f"house_rules: {unknown[0]!r} cannot be set here (these can: "
                      + ", ".join(HOUSE_RULES) + ")", "invalid_rules")
    rules = {"preset": FAMILY, **house}
    try:
        modern_rules(rules)
    except CanastaError as e:
        raise Invalid(f"house_rules: {e}", "invalid_rules") from None
    return rules


class TableFamily:
    """The classic family (every preset of :data:`canasta.rules.PRESETS`, house rules
    included); :class:`ModernTableFamily` answers the same questions for Modern American."""

    name = "classic"

    # -- a new table ------------------------------------------------------------------------
    def table_rules(self, value: Any) -> Rules:
        """The rules of a new table from the request's ``rules``; :class:`Invalid`."""
        check_rules_json(value)
        try:
            rules = rules_from_json(value)
        except CanastaError as e:
            raise Invalid(str(e)) from None
        check_table_rules(rules)
        return rules

    def num_players(self, rules: Any) -> int:
        """The seats of a table with ``rules``."""
        return int(rules.num_players)

    def new_game(self, rules: Any, seed: int, players: Sequence[str]) -> Any:
        """A game whose first hand is dealt from ``seed``."""
        return Game(rules, seed=seed, players=list(players))

    def rules_json(self, game: Any) -> Any:
        """The rules as the database stores them."""
        return game.rules.to_json()

    def resume(self, rules_json: Any, players: Sequence[str], hands: Sequence[HandRow]) -> Any:
        """The game of the stored rows, every action judged again (a ``ValueError`` if it
        does not replay); a last hand that ended the game is scored."""
        rules = rules_from_json(rules_json)
        records = [HandRecord(h.dealer, tuple(parse_cards(list(h.deck))),
                              tuple(text for _, text in h.actions)) for h in hands]
        game = Game.resume(GameRecord(rules, tuple(players), tuple(records)))
        if game.state.is_over and self.ends_game(game, game.state):
            game.next_hand()
        return game

    def deck_for(self, rules: Any, seed: int, number: int) -> list[Card]:
        """The pack of hand ``number`` (from 1)."""
        return seeded_deck(lambda bits: classic_pack(rules, bits), seed, number)

    # -- play -------------------------------------------------------------------------------
    def hand_over(self, state: Any) -> bool:
        """Whether the hand of ``state`` has ended."""
        return bool(state.is_over)

    def parse(self, state: Any, text: str) -> Action:
        """An action's text; :class:`Invalid` for one that cannot be read."""
        try:
            return classic_parse(text)
        except CanastaError as e:
            raise Invalid(str(e), "bad_action") from None

    def apply(self, state: Any, action: Action) -> Any:
        """The engine's judgement: the next state, or an ``IllegalActionError``."""
        return classic_apply(state, action)

    def format(self, state: Any, action: Action) -> str:
        """The stored text of ``action``, played in ``state``."""
        return classic_format(action)

    def ends_game(self, game: Any, after: Any) -> bool:
        """True if ``after`` ends its hand and with it the game."""
        if not after.is_over:
            return False
        scores = tuple(s + side.total for s, side in zip(game.scores, after.result.sides))
        return game_over(game.rules, scores) is not None

    # -- bots -------------------------------------------------------------------------------
    def default_bot(self, configured: str) -> str:
        """The bot of a seat created as ``bot`` (the server's configured default)."""
        return configured

    def hint_bot(self, configured: str) -> str:
        """The bot that gives hints (the server's configured one)."""
        return configured

    def make_bot(self, spec: str) -> Any:
        """The bot of ``spec`` (a ``ValueError`` or ``TypeError`` if it names none)."""
        return make_bot(spec)

    def bot_spec(self, spec: str) -> str:
        """The spec a seat stores for ``spec`` (a level of the family read as its bot)."""
        return spec

    # -- what is shown ----------------------------------------------------------------------
    def view(self, table: Table, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) sees."""
        from canasta.interfaces.web.views import classic_view

        return classic_view(table, seat)

    def record(self, table: Table) -> dict[str, Any]:
        """The whole record once the game is over; before, the public record (no decks)."""
        from canasta.interfaces.web.views import public_record

        if table.game.is_over:
            record: dict[str, Any] = table.game.record.to_json()
            return record
        return public_record(table)

    def replay(self, table: Table) -> dict[str, Any]:
        """Every position of the hands that are over (:class:`Conflict` while none is)."""
        from canasta.interfaces.web.views import replay_positions

        game = table.game
        if game.is_over:
            return replay_positions(game.record)
        ended = [hand for hand, _ in game.finished]
        if game.state.is_over:  # an ended hand waiting for the next deal
            ended.append(HandRecord(game.state.dealer, game.deck, tuple(game.actions)))
        if not ended:
            raise Conflict("the replay of a hand is available once the hand is over",
                           "game_not_over")
        return replay_positions(GameRecord(game.rules, game.players, tuple(ended)))


class ModernTableFamily(TableFamily):
    """Modern American Canasta: four seats in two partnerships, the family's bots
    (``modern-random``, ``modern-greedy``, ``modern-heuristic``, ``modern-search``, or the
    levels of :data:`MODERN_LEVELS`), the house rules of :data:`HOUSE_RULES`."""

    name = FAMILY

    def table_rules(self, value: Any) -> Any:
        check_rules_json(value)
        if isinstance(value, dict):
            return modern_rules_json({k: v for k, v in value.items() if k != "preset"})
        return FAMILY

    def num_players(self, rules: Any) -> int:
        return 4

    def new_game(self, rules: Any, seed: int, players: Sequence[str]) -> ModernTableGame:
        return ModernTableGame(rules, players, self.deck_for(rules, seed, 1), dealer=0)

    def rules_json(self, game: Any) -> Any:
        return game.rules_json

    def resume(self, rules_json: Any, players: Sequence[str],
               hands: Sequence[HandRow]) -> ModernTableGame:
        if not hands:
            raise ValueError("the table has no hand")
        game = ModernTableGame(rules_json, players, parse_cards(list(hands[0].deck)),
                               hands[0].dealer)
        for i, hand in enumerate(hands):
            if i:
                if hand.dealer != (game.state.dealer + 1) % 4:
                    raise ValueError(f"hand {i + 1} is dealt by the wrong seat")
                game.next_hand(parse_cards(list(hand.deck)))
                if game.is_over:
                    raise ValueError(f"hand {i + 1} follows the end of the game")
            for seat, text in hand.actions:
                if seat != game.state.to_move:
                    raise ValueError(f"hand {i + 1}: {text!r} is stored for p{seat}, and "
                                     f"p{game.state.to_move} is to move")
                game.apply(game.engine.parse_action(game.state, text))
        if game.ends_game(game.state):
            game.next_hand()
        return game

    def deck_for(self, rules: Any, seed: int, number: int) -> list[Card]:
        pack_rules = rules if isinstance(rules, Rules) else modern_rules(rules)
        return seeded_deck(lambda bits: modern_pack(pack_rules, bits), seed, number)

    def hand_over(self, state: Any) -> bool:
        return state.end is not None

    def parse(self, state: Any, text: str) -> Action:
        try:
            return modern_parse(state, text)
        except CanastaError as e:
            raise Invalid(f"invalid action {text!r}: {e}", "bad_action") from None

    def apply(self, state: Any, action: Action) -> Any:
        from canasta.modern_american.play import apply

        return apply(state, action)

    def format(self, state: Any, action: Action) -> str:
        from canasta.modern_american.action_text import format_action

        return format_action(state, action)

    def ends_game(self, game: Any, after: Any) -> bool:
        return bool(game.ends_game(after))

    def default_bot(self, configured: str) -> str:
        return "modern-heuristic"

    def hint_bot(self, configured: str) -> str:
        return MODERN_LEVELS["hard"]  # the search: ahead of the heuristic (docs/bots.md)

    def make_bot(self, spec: str) -> Any:
        return make_modern_bot(self.bot_spec(spec))

    def bot_spec(self, spec: str) -> str:
        return MODERN_LEVELS.get(spec.strip().lower(), spec)

    def view(self, table: Table, seat: int | None) -> dict[str, Any]:
        return build_modern_view(table, seat)

    def record(self, table: Table) -> dict[str, Any]:
        if table.game.is_over:
            record: dict[str, Any] = table.game.record_json()
            return record
        return modern_public_record(table.game)

    def replay(self, table: Table) -> dict[str, Any]:
        game = table.game
        if not game.finished and game.state.end is None:
            raise Conflict("the replay of a hand is available once the hand is over",
                           "game_not_over")
        return modern_replay(game)


CLASSIC = TableFamily()
MODERN = ModernTableFamily()
FAMILIES = {CLASSIC.name: CLASSIC, MODERN.name: MODERN}


def family_for(rules_json: Any) -> TableFamily:
    """The family of a table whose rules are ``rules_json`` (a preset name or a rules
    object, as a request or the database gives them)."""
    return MODERN if is_modern_american(rules_json) else CLASSIC


def is_modern_position(position: Any) -> bool:
    """True for a Modern American hand, or its JSON (the position a bot decides in)."""
    if isinstance(position, Hand):
        return True
    return isinstance(position, dict) and is_modern_american(position.get("rules"))

