"""Whole Modern American games for the family's tests, played through the generic
:class:`canasta.Game` (every family's games) by a player at each seat."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from canasta import Game, GameRecord
from canasta.actions import Action
from canasta.bots.base import Bot
from canasta.modern_american.hand import RULES, Hand
from canasta.modern_american.knobs import ModernAmericanRules
from canasta.modern_american.observation import observe
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


def seated(bot: Bot, rng: random.Random) -> Player:
    """``bot`` as a player: in each hand it is given the observation of the player to move,
    the legal list and ``rng``."""
    def play(h: Hand) -> Action:
        chosen: Action = bot.choose(observe(h, h.to_move), legal_actions(h), rng)
        return chosen
    return play


def deal_hidden(h: Hand, rng: random.Random) -> Hand:
    """``h`` with the cards hidden from its player to move (the other hands, the stock and any
    talon set aside) dealt anew, each keeping its size: a hand the player cannot tell from
    ``h``."""
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
    for t in h.talons:
        talons.append(tuple(sorted(hidden[at:at + len(t)])))
        at += len(t)
    return h.but(hands=tuple(hands), talons=tuple(talons), stock=tuple(hidden[at:]))
