"""Whole Modern American games for the family's tests, played through the generic
:class:`canasta.Game` (every family's games) by a player at each seat."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from canasta import Game, GameRecord
from canasta.actions import Action
from canasta.modern_american.hand import RULES, Hand
from canasta.modern_american.knobs import ModernAmericanRules
from canasta.modern_american.play import legal_actions

Player = Callable[[Hand], Action]
"""A player: the action it chooses in a hand where its seat is to move."""


def random_players(rng: random.Random) -> list[Player]:
    """Four players of uniformly random legal actions, all drawing from ``rng``."""
    return [lambda h: rng.choice(legal_actions(h))] * 4


def play_game(players: Sequence[Player], seed: int, *, rules: ModernAmericanRules = RULES,
              max_hands: int = 60, names: Sequence[str] | None = None
              ) -> tuple[Game, GameRecord]:
    """A game of ``rules`` with ``players`` by seat, dealt from ``seed``, until a side wins or
    ``max_hands`` are played; the game, and the record of its hands played."""
    game = Game(rules, seed=seed, players=names)
    for _ in range(max_hands):
        while not game.state.is_over:
            game.apply(players[game.state.to_move](game.state))
        game.next_hand()
        if game.is_over:
            break
    return game, GameRecord(rules, game.players, tuple(h for h, _ in game.finished))
