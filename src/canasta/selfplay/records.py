"""The record of one hand: what the player writes and the store reads back and replays.

It lives apart from :mod:`canasta.selfplay.shards` (which plays hands) and
:mod:`canasta.selfplay.store` (which writes and reads them) so that the store need not import
the player.
"""

from __future__ import annotations

from dataclasses import dataclass

from canasta.cards import Card


@dataclass(frozen=True)
class PlayedHand:
    """The record of one hand: enough to play it again action by action."""

    game: int
    """Game of the shard, from 0."""
    hand: int
    """Hand of the game, from 0."""
    dealer: int
    scores: tuple[int, ...]
    """Side scores at the start of the hand."""
    bots: tuple[str, ...]
    """The bot at each seat."""
    deck: tuple[Card, ...]
    """The pack order before the deal."""
    actions: tuple[str, ...]
    totals: tuple[int, ...]
    """Side totals of the hand."""
