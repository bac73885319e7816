"""Playing one work unit: a duplicate game pair (two twin games on the same pack orders).

:func:`play_game_pair` is what the arena's worker processes run; everything it needs is in its
:class:`GamePairTask` and everything it gives back is in a :class:`GamePairResult`, both plain
picklable values, so the results do not depend on which process played them.

Any family of rules is played through its :class:`~canasta.family.Family` (found from the
task's rules): the family deals each pack, lists the legal actions, applies them, scores the
hand and says when the game is won; its bots (:func:`canasta.bots.make_bot`) choose from their
seat's observation and the legal list alone.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from canasta.arena.schedule import TWINS, bot_seed, deck_seed, hand_difference, seating
from canasta.bots import make_bot
from canasta.errors import CanastaError
from canasta.family import family_of
from canasta.rules import Rules

MAX_ACTIONS_PER_HAND = 20000
"""A hand still going after this many actions is reported as a bot or engine fault."""


class ArenaError(CanastaError):
    """A run that cannot go on: a bot that failed or chose an illegal action, bad settings."""


@dataclass(frozen=True)
class GamePairTask:
    """One work unit: game pair ``game_pair`` of pairing ``pairing`` (bot ``a`` against ``b``)."""

    rules: Rules
    """Any family's rule set."""
    a: str
    b: str
    pairing: int
    game_pair: int
    seed: int
    max_hands: int = 100
    """A game not over after this many hands is left unfinished (e.g. endless void draws)."""
    keep_records: bool = False
    """Keep each hand's pack order and actions (for ``--json``)."""


@dataclass(frozen=True)
class HandOutcome:
    """One hand of one twin."""

    dealer: int
    scores: tuple[int, ...]
    """Cumulative side scores at the start of the hand."""
    totals: tuple[int, ...]
    """Side totals of the hand."""
    diff: float
    """A's mean side total minus B's."""
    went_out: int | None
    """The seat that went out, when the family's result names one."""
    deck: tuple[int, ...] = ()
    """Pack order before the deal (only when records are kept)."""
    actions: tuple[str, ...] = ()
    """Action lines in order (only when records are kept)."""


@dataclass(frozen=True)
class TwinResult:
    """One whole game of a game pair."""

    twin: int
    holders: tuple[int, ...]
    """Per seat: 0 when bot A sits there, 1 when bot B does."""
    hands: tuple[HandOutcome, ...]
    scores: tuple[int, ...]
    """Final cumulative side scores."""
    winner: int | None
    """The winning side, ``None`` when the game hit the hand limit unfinished."""
    a_won: bool | None
    """Whether A holds the winning side (``None`` when unfinished)."""


@dataclass(frozen=True)
class GamePairResult:
    """Both twins of a game pair, and the bots' decision counts and thinking time."""

    pairing: int
    game_pair: int
    twins: tuple[TwinResult, TwinResult]
    decisions: tuple[int, int]
    """Decisions made by A and by B."""
    seconds: tuple[float, float]
    """Time A and B spent choosing (wall clock; the one non-reproducible figure)."""

    @property
    def paired_hands(self) -> int:
        """Number of duplicate pairs: hands both twins played."""
        return min(len(t.hands) for t in self.twins)

    def pairs(self) -> list[tuple[float, float]]:
        """``(twin-0 diff, twin-1 diff)`` of each duplicate pair, both from A's side."""
        t0, t1 = self.twins
        return [(h0.diff, h1.diff) for h0, h1 in zip(t0.hands, t1.hands)]


def play_game_pair(task: GamePairTask) -> GamePairResult:
    """Play both twins of a game pair (the worker function of the arena)."""
    decisions = [0, 0]
    seconds = [0.0, 0.0]
    twins = tuple(_play_twin(task, twin, decisions, seconds) for twin in TWINS)
    return GamePairResult(task.pairing, task.game_pair, (twins[0], twins[1]),
                          (decisions[0], decisions[1]), (seconds[0], seconds[1]))


def _play_twin(task: GamePairTask, twin: int, decisions: list[int],
               seconds: list[float]) -> TwinResult:
    rules = task.rules
    family = family_of(rules)
    seats = seating(rules, task.game_pair)
    holders = seats.holders(rules, twin)
    specs = (task.a, task.b)
    scores = (0,) * rules.num_sides
    dealer = seats.dealer
    hands: list[HandOutcome] = []
    winner: int | None = None
    for j in range(task.max_hands):
        deck = tuple(family.shuffled_pack(rules, deck_seed(task.seed, task.game_pair, j)))
        state = family.new_hand(rules, deck=deck, dealer=dealer, scores=scores, number=j + 1)
        bots = [make_bot(specs[h], family) for h in holders]
        rngs = [random.Random(bot_seed(task.seed, task.pairing, task.game_pair, twin, j, s))
                for s in range(rules.num_players)]
        actions: list[str] = []
        count = 0
        while not state.is_over:
            count += 1
            if count > MAX_ACTIONS_PER_HAND:
                raise ArenaError(f"a hand did not end after {MAX_ACTIONS_PER_HAND} actions "
                                 f"({_where(task, twin, j)})")
            seat = state.to_move
            legal = family.legal_actions(state)
            who = holders[seat]
            start = time.perf_counter()
            try:
                action = bots[seat].choose(family.observe(state, seat), legal, rngs[seat])
            except Exception as e:
                raise ArenaError(f"bot {specs[who]!r} at seat {seat} failed: "
                                 f"{type(e).__name__}: {e} ({_where(task, twin, j)})") from None
            seconds[who] += time.perf_counter() - start
            decisions[who] += 1
            try:
                state = family.apply(state, action)
            except CanastaError as e:
                raise ArenaError(f"bot {specs[who]!r} at seat {seat} chose an illegal action: "
                                 f"{e} ({_where(task, twin, j)})") from None
            if task.keep_records:
                actions.append(family.format_action(rules, action))
        totals = family.totals(state)
        ended = family.result_to_json(state) or {}
        hands.append(HandOutcome(
            dealer=dealer, scores=scores, totals=totals,
            diff=hand_difference(totals, holders, rules.num_sides),
            went_out=ended.get("went_out"),
            deck=deck if task.keep_records else (), actions=tuple(actions)))
        scores = tuple(s + t for s, t in zip(scores, totals))
        winner = family.winner(rules, scores, state)
        if winner is not None:
            break
        dealer = (dealer + 1) % rules.num_players
    a_won = None if winner is None else holders[winner] == 0  # seat `winner` is on side `winner`
    return TwinResult(twin, holders, tuple(hands), scores, winner, a_won)


def _where(task: GamePairTask, twin: int, hand: int) -> str:
    return (f"{task.a} v {task.b}, game pair {task.game_pair}, twin {twin}, hand {hand + 1}, "
            f"seed {task.seed}")
