"""Tables seated at a position in the middle of a hand, for the browser tests.

Playing long games through a browser is slow; instead a seeded hand is advanced by greedy bots
(which meld whatever they can) until both sides hold several melds and seat 0 is to draw, and
the table is written straight into the server's storage (:class:`Storage`), as if it had been
played there. The server resumes it like any stored table: every action is replayed and checked.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from canasta.actions import Action
from canasta.bots import make_bot
from canasta.cards import BLACK_THREES, format_card
from canasta.engine import apply
from canasta.family import family_of, get_rules
from canasta.game import Game
from canasta.interfaces.web.storage import OVER, PLAYING, HandRow, SeatRow, Storage, TableRow
from canasta.interfaces.web.tables import BOT, HUMAN, hash_token
from canasta.legal import legal_actions
from canasta.observation import observe
from canasta.rules import Rules
from canasta.state import State

TOKEN = "browser-test-seat-0"
"""Seat 0's token at every stored table."""


def melds_per_side(game: Game) -> list[int]:
    """How many melds each set of melds on the table holds."""
    return [sum(m is not None for m in melds) for melds in game.state.melds]


def mid_hand(preset: str | Rules, min_melds: int = 3, seed: int = 1,
             accept: Callable[[Game], bool] = lambda game: True, max_actions: int = 600) -> Game:
    """A game of ``preset`` (a name, or rules with house rules) whose first hand is advanced
    until every side holds ``min_melds`` melds and seat 0 is to draw, at a position ``accept``
    takes (the first seed from ``seed`` that gets there)."""
    rules = preset if isinstance(preset, Rules) else get_rules(preset)
    family = family_of(rules)
    bot = make_bot("greedy", family)
    for s in range(seed, seed + 200):
        game = Game(rules, seed=s)
        rng = random.Random(s)
        for _ in range(max_actions):
            state = game.state
            if state.is_over:
                break
            if (state.to_move == 0 and state.phase == "draw" and state.stock
                    and min(melds_per_side(game)) >= min_melds and accept(game)):
                return game
            game.apply(bot.choose(family.observe(state, state.to_move),
                                  family.legal_actions(state), rng))
    raise AssertionError(f"no seed from {seed} reaches {min_melds} melds a side in {preset}")


def can_meld_after_drawing(game: Game) -> bool:
    """True if seat 0, once it has drawn, may lay a meld of natural cards."""
    drawn = apply(game.state, "draw")
    return drawn.to_move == 0 and any(a.verb == "meld" and ":" not in str(a)
                                      for a in legal_actions(drawn))


def frozen_by_black_three(game: Game) -> bool:
    """True if a black three discarded has frozen the pile (with ``black_three_freezes_pile``)
    and other cards lie on it, so the card that froze it shows beside the pile."""
    state = game.state
    freeze = state.freeze_for(0)
    return (state.pile_frozen and freeze.reason == "a black three is in it"
            and freeze.card is not None and state.pile.index(freeze.card) > 0
            and state.pile[-1] != freeze.card)


def blocked_by_a_black_three(game: Game) -> bool:
    """True if a black three lies on top of the pile, so nobody may take it."""
    pile = game.state.pile
    return len(pile) > 1 and pile[-1] in BLACK_THREES


def hand_played_out(preset: str | Rules, seed: int = 1) -> Game:
    """A game of ``preset`` whose first hand greedy bots played until someone went out."""
    rules = preset if isinstance(preset, Rules) else get_rules(preset)
    family = family_of(rules)
    bot = make_bot("greedy", family)
    for s in range(seed, seed + 200):
        game = Game(rules, seed=s)
        rng = random.Random(s)
        while not game.state.is_over:
            state = game.state
            game.apply(bot.choose(family.observe(state, state.to_move),
                                  family.legal_actions(state), rng))
        result = game.state.result
        if result is not None and result.went_out is not None and result.went_out != 0:
            return game
    raise AssertionError(f"no seed from {seed} ends a hand of {preset} by going out")


def _hoarder(state: State, legal: list[Action], rng: random.Random) -> Action:
    """Seat 0's play in :func:`long_hand_played_out`: take the pile whenever it may, else draw;
    never meld; discard the first card it may."""
    for verb in ("take", "draw", "discard"):
        found = [a for a in legal if a.verb == verb]
        if found:
            return found[0]
    return make_bot("greedy").choose(observe(state, 0), legal, rng)


def long_hand_played_out(preset: str = "classic", cards: int = 20, seed: int = 1) -> Game:
    """A game of ``preset`` whose first hand ended with seat 0 holding ``cards`` to
    ``cards + 4`` cards: seat 0 takes every pile it may and melds nothing, greedy bots play the
    other seats until the hand ends."""
    rules = get_rules(preset)
    bot = make_bot("greedy")
    for s in range(seed, seed + 200):
        game = Game(rules, seed=s)
        rng = random.Random(s)
        while not game.state.is_over:
            state = game.state
            legal = legal_actions(state)
            game.apply(_hoarder(state, legal, rng) if state.to_move == 0
                       else bot.choose(observe(state, state.to_move), legal, rng))
        if cards <= len(game.state.hands[0]) <= cards + 4:
            return game
    raise AssertionError(f"no seed from {seed} ends a hand of {preset} with {cards} cards held")


def _canastas(game: Game) -> int:
    return sum(len(m) >= game.rules.canasta_size for side in game.state.melds for m in side if m)


def _longest(game: Game) -> int:
    return max((len(m) for side in game.state.melds for m in side if m), default=0)


def crowded_table(preset: str = "classic", seed: int = 1, hoard: bool = True) -> Game:
    """A full table: under the house rule of 19 cards dealt, seat 0 is to draw while each side
    has five melds or more, with two canastas or more between them and a meld of nine cards or
    more. Greedy bots play the other seats. With ``hoard`` (a side of two or more), seat 0 holds
    19 cards (20 once drawn): it draws, takes the pile when it may, melds only what leaves it 20
    cards, and discards; without it (a side of one, which melds only by itself), seat 0 plays as
    greedily as the others."""
    rules = get_rules(preset).replace(hand_size=19)
    bot = make_bot("greedy")

    def seat_0(state: State, legal: list[Action], rng: random.Random) -> Action:
        action = bot.choose(observe(state, 0), legal, rng)
        if not hoard or (action.verb == "meld" and len(state.hands[0]) - sum(
                len(g.cards) for g in action.groups) >= 20):
            return action
        return action if action.verb in ("draw", "take") else _hoarder(state, legal, rng)

    for s in range(seed, seed + 400):
        game = Game(rules, seed=s)
        rng = random.Random(s)
        while not game.state.is_over:
            state = game.state
            if (state.to_move == 0 and state.phase == "draw"
                    and (not hoard or len(state.hands[0]) == 19)
                    and min(melds_per_side(game)) >= 5 and _canastas(game) >= 2
                    and _longest(game) >= 9):
                return game
            legal = legal_actions(state)
            game.apply(seat_0(state, legal, rng) if state.to_move == 0
                       else bot.choose(observe(state, state.to_move), legal, rng))
    raise AssertionError(f"no seed from {seed} reaches a full table of {preset}")


def table_row(table_id: str, game: Game, bot: str = "medium",
              people: dict[int, tuple[str, str]] | None = None) -> TableRow:
    """``game`` (its first hand so far) as a stored table: people at the seats of ``people``
    (seat -> name and token; by default Ann at seat 0 with :data:`TOKEN`), bots of level ``bot``
    at every other seat (named ``bot:LEVEL``, so the page gives them friendly names); over once
    that hand ended the game."""
    rules = game.rules
    hand = game.record.hands[0]
    people = people if people is not None else {0: ("Ann", TOKEN)}
    seats = [SeatRow(i, people[i][0], HUMAN, None, hash_token(people[i][1])) if i in people
             else SeatRow(i, f"bot:{bot}", BOT, bot, None) for i in range(rules.num_players)]
    actions: list[tuple[int, str]] = []
    family = family_of(rules)
    position = family.new_hand(rules, deck=hand.deck, dealer=hand.dealer)
    for text in hand.actions:
        actions.append((position.to_move, text))
        position = family.apply(position, family.parse_action(rules, text))
    deck = tuple(format_card(c) for c in hand.deck)
    status = OVER if game.is_over or game.ends_game(game.state) else PLAYING
    return TableRow(table_id, rules.to_json(), tuple(s.name for s in seats), 1, False, status,
                    tuple(seats), (HandRow(1, hand.dealer, deck, actions),))


def store_tables(database_url: str, games: dict[str, Game],
                 people: dict[str, dict[int, tuple[str, str]]] | None = None) -> None:
    """Write every game as a table (see :func:`table_row`), by table id; ``people`` gives
    some tables' people by seat (name, token)."""
    storage = Storage(database_url)
    try:
        storage.migrate()
        for table_id, game in games.items():
            storage.create_table(table_row(table_id, game, people=(people or {}).get(table_id)))
    finally:
        storage.close()


def late_hand(preset: str, stock_left: int = 8, seed: int = 1) -> Game:
    """A game of ``preset`` whose first hand greedy bots played until the stock holds
    ``stock_left`` cards or fewer and seat 0 is to begin its turn."""
    rules = get_rules(preset)
    family = family_of(rules)
    bot = make_bot("greedy", family)
    for s in range(seed, seed + 200):
        game = Game(rules, seed=s)
        rng = random.Random(s)
        while not game.state.is_over:
            state = game.state
            facts = family.facts(family.observe(state, 0))
            if (state.to_move == 0 and facts["stock"] <= stock_left
                    and not family.observe(state, 0).to_json()["turn"].get("drew")
                    and state.phase != "over"):
                return game
            game.apply(bot.choose(family.observe(state, state.to_move),
                                  family.legal_actions(state), rng))
    raise AssertionError(f"no seed from {seed} reaches a late hand of {preset}")
