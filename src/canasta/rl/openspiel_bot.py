"""``openspiel-ismcts``: OpenSpiel's own ``ISMCTSBot`` playing a seat of the arena.

``make_bot("openspiel-ismcts:iterations=100")``, for any family (found through the
``canasta.bots`` entry point, so the bots and the arena never import OpenSpiel). The bot builds
a ``python_canasta`` state from a deal sampled to fit its view (the family's
:meth:`~canasta.rl.research.Research.world`) and asks
OpenSpiel's :class:`~open_spiel.python.algorithms.ismcts.ISMCTSBot` for each id of its action
in turn; ids that are the only choice cost no search. ISMCTS resamples the hidden cards at every
simulation with :meth:`~canasta.rl.openspiel.CanastaState.resample_from_infostate`.

Parameters: ``iterations`` (simulations per chosen id, default 100), ``c`` (UCT exploration in
points, default 400), ``evaluator``: ``heuristic`` (default: every seat plays the family's
``medium`` level, classic's ``heuristic`` bot, for ``horizon`` turns, default 8, and each seat
is valued by its side's lead in points, :meth:`~canasta.rl.research.Research.lead`, as our
``ismcts`` values its playouts) or ``random`` (OpenSpiel's random rollouts to the end of the
hand, ``rollouts`` of them, default 1).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from canasta.actions import Action
from canasta.bots import bot_table, make_bot
from canasta.bots.base import Bot
from canasta.bots.ismcts import _float_param, _int_param
from canasta.family import Family, family_of
from canasta.rl.openspiel import CanastaGame, CanastaState, load, state_at
from canasta.rl.research import research_of

EVALUATORS = ("heuristic", "random")


PLAYOUT_LEVEL = "medium"
"""The level of the family's bots that plays the heuristic evaluator's playouts."""
TURN_START = "draw"
"""The phase a turn begins with (every family's word): the playouts count turns by it."""


class HeuristicPlayouts:
    """An OpenSpiel evaluator: every seat plays the family's :data:`PLAYOUT_LEVEL` bot for
    ``horizon`` turns from the state (its stock shuffled), then each player is valued by its
    side's lead in points (:meth:`~canasta.rl.research.Research.lead`)."""

    def __init__(self, horizon: int, rng: random.Random) -> None:
        self.horizon = horizon
        self.rng = rng
        self._bots: dict[str, Bot] = {}

    def bot(self, family: Family) -> Bot:
        """The family's playout bot (made once)."""
        bot = self._bots.get(family.name)
        if bot is None:
            level = bot_table(family).levels[PLAYOUT_LEVEL]
            bot = self._bots[family.name] = make_bot(level, family)
        return bot

    def evaluate(self, state: CanastaState) -> np.ndarray:
        """Values per player (points) of a playout from ``state``."""
        position = state.engine_state
        assert position is not None
        research = state.research
        stock = list(position.stock)
        self.rng.shuffle(stock)  # chance has not ordered the stock: order it at random
        end = self.play_out(research.family.with_stock(position, tuple(stock)))
        return np.array([research.lead(end, p) for p in range(position.rules.num_players)])

    def play_out(self, position: Any) -> Any:
        """The bot for every seat, ``horizon`` turns or to the end of the hand."""
        family = family_of(position.rules)
        bot = self.bot(family)
        turns = 0
        while not position.is_over:
            seat = position.to_move
            action = bot.choose(family.observe(position, seat), family.legal_actions(position),
                                self.rng)
            position = family.apply(position, action)
            if position.phase == TURN_START:
                turns += 1
                if turns >= self.horizon:
                    break
        return position

    def prior(self, state: CanastaState) -> list[tuple[int, float]]:
        """Uniform over the legal ids."""
        ids = state.legal_actions()
        return [(i, 1.0 / len(ids)) for i in ids]


class OpenSpielISMCTSBot:
    """See the module docstring."""

    name = "openspiel-ismcts"

    def __init__(self, iterations: int | str = 100, c: float | str = 400.0,
                 evaluator: str = "heuristic", horizon: int | str = 8,
                 rollouts: int | str = 1) -> None:
        self.iterations = _int_param("iterations", iterations)
        self.c = _float_param("c", c)
        if evaluator not in EVALUATORS:
            raise ValueError(f"evaluator must be one of {', '.join(EVALUATORS)}, "
                             f"not {evaluator!r}")
        self.evaluator = evaluator
        self.horizon = _int_param("horizon", horizon)
        self.rollouts = _int_param("rollouts", rollouts)
        self._games: dict[object, CanastaGame] = {}

    def choose(self, obs: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        """Spell an action id by id, each chosen by OpenSpiel's ISMCTS."""
        if len(legal) == 1:
            return legal[0]
        game = self._game(obs)
        seed = rng.getrandbits(32)
        search_rng = random.Random(seed)
        numpy_rng = np.random.RandomState(seed)
        research = game.research
        state = state_at(game, research.world(obs, search_rng))
        bot = ismcts.ISMCTSBot(game, self._make_evaluator(search_rng, numpy_rng), self.c,
                               self.iterations, random_state=numpy_rng)
        bot.set_resampler(lambda s, player: s.resample_from_infostate(
            player, lambda: search_rng.random()))
        spelled: list[int] = []
        while True:
            ids = state.legal_actions()
            i = ids[0] if len(ids) == 1 else int(bot.step(state))
            state.apply_action(i)
            spelled.append(i)
            if not state.prefix:  # the spelling is complete
                return research.alphabet.decode(spelled)

    def _make_evaluator(self, rng: random.Random, numpy_rng: np.random.RandomState) -> Any:
        if self.evaluator == "random":
            return mcts.RandomRolloutEvaluator(self.rollouts, numpy_rng)
        return HeuristicPlayouts(self.horizon, rng)

    def _game(self, obs: Any) -> CanastaGame:
        game = self._games.get(obs.rules)
        if game is None:
            game = self._games[obs.rules] = load(research_of(obs.rules))
        return game


__all__ = ["HeuristicPlayouts", "OpenSpielISMCTSBot"]
