"""One shard: its hands played by the bots, its rows and records written (the unit of work).

:func:`play_shard` is what a worker runs, on this machine or on a Ray node: everything it
needs is in its :class:`ShardTask` and it gives back a :class:`ShardResult`, both plain
picklable values. It writes the shard's two files itself, each under a temporary name renamed
when complete (:mod:`canasta.selfplay.store`), so a worker killed mid-shard leaves nothing that
looks finished.
"""

from __future__ import annotations

import os
import random
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from canasta.bots import make_bot
from canasta.errors import CanastaError
from canasta.selfplay.plan import SelfplayConfig, SelfplayError, bot_seed, deck_seed, shard_seed
from canasta.selfplay.records import PlayedHand
from canasta.selfplay.steps import HandSteps
from canasta.selfplay.store import ShardWriter

__all__ = ["MAX_ACTIONS_PER_HAND", "PlayedHand", "ShardResult", "ShardTask", "play_hands",
           "play_shard"]

MAX_ACTIONS_PER_HAND = 20000
"""A hand still going after this many actions is reported as a bot or engine fault."""


@dataclass(frozen=True)
class ShardTask:
    """Shard ``shard`` of a run, to be written under ``out``."""

    config: SelfplayConfig
    shard: int
    out: str


@dataclass(frozen=True)
class ShardResult:
    """What a finished shard holds, and who played it how fast."""

    shard: int
    hands: int
    games: int
    rows: int
    bytes: int
    """Size of its two files."""
    seconds: float
    worker: str
    """``host:pid`` of the process that played it."""
    node: str = ""
    """The Ray node it ran on (empty off Ray)."""


def play_shard(task: ShardTask) -> ShardResult:
    """Play shard ``task.shard`` and write its files; raises :class:`SelfplayError` when a bot
    fails or chooses an illegal action."""
    started = time.perf_counter()
    hands = games = rows = 0
    with ShardWriter(task.out, task.config, task.shard) as writer:
        for played, steps in play_hands(task.config, task.shard):
            writer.add(played, steps)
            hands += 1
            games = played.game + 1
            rows += len(steps)
    return ShardResult(task.shard, hands, games, rows, writer.bytes,
                       time.perf_counter() - started, f"{socket.gethostname()}:{os.getpid()}")


def play_hands(config: SelfplayConfig, shard: int) -> Iterator[tuple[PlayedHand, HandSteps]]:
    """The hands of a shard in order, each with its rows."""
    rules = config.rules
    family = config.research.family
    seed = shard_seed(config.seed, shard)
    left = config.shard_size(shard)
    game = 0
    while left:
        specs = config.seat_bots(game)
        scores = (0,) * rules.num_sides
        dealer = game % rules.num_players
        for j in range(config.max_hands_per_game):
            played, steps, end = _play_hand(config, seed, game, j, specs, dealer, scores)
            yield played, steps
            left -= 1
            scores = tuple(s + t for s, t in zip(scores, played.totals))
            if not left or family.winner(rules, scores, end) is not None:
                break
            dealer = (dealer + 1) % rules.num_players
        game += 1


def _play_hand(config: SelfplayConfig, seed: int, game: int, hand: int, specs: tuple[str, ...],
               dealer: int, scores: tuple[int, ...]) -> tuple[PlayedHand, HandSteps, Any]:
    """Hand ``hand`` of game ``game``: the family's bots (seeded per hand and seat) choose from
    their seats' observations; the rows come through the family's research interface."""
    rules = config.rules
    research = config.research
    family = research.family
    deck = tuple(family.shuffled_pack(rules, deck_seed(seed, game, hand)))
    state = family.new_hand(rules, deck=deck, dealer=dealer, scores=scores, number=hand + 1)
    try:
        bots = [make_bot(spec, family) for spec in specs]
    except CanastaError as e:
        raise SelfplayError(str(e)) from None
    rngs = [random.Random(bot_seed(seed, game, hand, s)) for s in range(rules.num_players)]
    steps = HandSteps(research)
    actions: list[str] = []
    where = f"seed {config.seed}, game {game}, hand {hand}"
    while not state.is_over:
        if len(actions) >= MAX_ACTIONS_PER_HAND:
            raise SelfplayError(f"a hand did not end after {MAX_ACTIONS_PER_HAND} actions "
                                f"({where})")
        seat = state.to_move
        legal = family.legal_actions(state)
        try:
            action = bots[seat].choose(family.observe(state, seat), legal, rngs[seat])
        except Exception as e:
            raise SelfplayError(f"bot {specs[seat]!r} at seat {seat} failed: "
                                f"{type(e).__name__}: {e} ({where})") from None
        try:
            steps.add(state, seat, legal, action)
            state = family.apply(state, action)
        except (CanastaError, ValueError) as e:
            raise SelfplayError(f"bot {specs[seat]!r} at seat {seat} chose an illegal action: "
                                f"{e} ({where})") from None
        actions.append(family.format_action(rules, action))
    totals = tuple(family.totals(state))
    return (PlayedHand(game, hand, dealer, scores, specs, deck, tuple(actions), totals), steps,
            state)
