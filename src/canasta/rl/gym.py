"""One seat of Canasta against bots, as a Gymnasium environment: :class:`CanastaEnv`,
registered as ``canasta/Canasta-v0`` when this module is imported.

>>> import gymnasium
>>> import canasta.rl.gym
>>> env = gymnasium.make("canasta/Canasta-v0", preset="classic-2p", opponents="greedy")
>>> obs, info = env.reset(seed=0)
>>> obs.shape, obs.dtype, info["action_mask"].shape
((566,), dtype('float32'), (125,))
>>> bool(env.unwrapped.action_masks()[118])  # draw
True

* ``preset`` is a preset of any family; ``rules`` (a rule set of any family, or rules as
  JSON) replaces it when given. The ids, the tensor and its bounds are the family's
  (``modern-american``: ``Discrete(142)``, a tensor of 394).
* The agent plays seat ``seat`` (default 0); every other seat plays the bot ``opponents``:
  a spec or a level (``easy`` ... ``expert``) of the family's bots
  (:func:`canasta.bots.make_bot`), choosing from its seat's observation. With
  ``partner="self"`` the agent also plays its partners' seats (the same policy: the
  observation is then the view of the seat to move, ``info["seat"]``).
* **Actions** are the family's ids (``Discrete(125)`` for the classic family,
  :mod:`canasta.rl.encoding`): an engine action is spelled over several steps. The mask is
  ``info["action_mask"]`` (int8) and :meth:`CanastaEnv.action_masks` (bool, sb3-contrib's
  ``MaskablePPO`` convention). Once the
  episode has ended (terminated or truncated) the mask allows every id, so a sampler never
  meets an empty mask; stepping then raises :class:`RuntimeError` (call ``reset``).
* **An illegal id** changes nothing: the step returns the same observation, the reward
  ``illegal_penalty`` (default -1.0) and ``info["illegal"] = True``; the episode goes on.
* **Rewards** (``returns=``, as every adapter's: :data:`~canasta.rl.table.RETURNS`), times
  ``reward_scale``: ``points`` (default; scale 0.01 by default, hundreds of points): when a
  hand ends, the agent's side's hand total minus the mean of the other sides' totals;
  ``scaled``: the same over :func:`~canasta.rl.table.return_bound`, so an episode sums to
  [-1, 1] (scale 1); ``win``: +1 / -1 (0 for a tie) when the episode ends (scale 1). An
  episode is ``hands`` hands (default 1), or fewer when the game reaches its target.
* **Truncation**: ``truncated`` is true at the step that reaches ``max_steps`` of the agent's
  (illegal ids included; default the game's length limit,
  :func:`~canasta.rl.table.max_steps_per_hand` per hand, which a legal episode never
  reaches).
* **Randomness** all comes from ``self.np_random``: the deals and the bots' generators are
  drawn from it, so ``reset(seed=s)`` replays an episode exactly.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from canasta.bots import make_bot
from canasta.bots.base import Bot
from canasta.rl.pettingzoo import RENDER_MODES, RulesArg, observation_box, research_for
from canasta.rl.table import Table, check_returns, max_steps_per_hand

PARTNERS = ("bot", "self")
ENV_ID = "canasta/Canasta-v0"
"""The id :func:`gymnasium.make` knows once this module is imported."""
POINTS_SCALE = 0.01
"""The default ``reward_scale`` of ``points`` returns (hundreds of points)."""


class CanastaEnv(gym.Env[np.ndarray, np.int64]):
    """See the module docstring."""

    metadata = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012 (gymnasium declares it)

    def __init__(self, preset: str = "classic", opponents: str = "heuristic", seat: int = 0,
                 partner: str = "bot", hands: int = 1, reward_scale: float | None = None,
                 illegal_penalty: float = -1.0, render_mode: str | None = None,
                 rules: RulesArg = None, returns: str = "points",
                 max_steps: int | None = None) -> None:
        research = research_for(preset, rules)
        players = research.rules.num_players
        check_returns(returns)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, not {seat}")
        if partner not in PARTNERS:
            raise ValueError(f"partner must be one of {', '.join(PARTNERS)}, not {partner!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}, "
                             f"not {render_mode!r}")
        make_bot(opponents, research.family)  # a bad spec fails here, not at the first reset
        self.table = Table(research, hands, returns)
        limit = max_steps_per_hand(research) * self.table.hands
        if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 1):
            raise ValueError(f"max_steps must be a positive integer, not {max_steps!r}")
        self.max_steps = limit if max_steps is None else max_steps
        """The agent's steps at which the episode is truncated."""
        self.opponents = opponents
        self.seat = seat
        k = research.rules.num_sides
        self.seats = frozenset(s for s in range(players)
                               if s == seat or (partner == "self" and s % k == seat % k))
        """The seats the agent plays."""
        if reward_scale is None:
            reward_scale = POINTS_SCALE if returns == "points" else 1.0
        self.reward_scale = reward_scale
        self.illegal_penalty = illegal_penalty
        self.render_mode = render_mode
        self.observation_space = observation_box(research, hands)
        self.num_ids = research.alphabet.size
        self.action_space = spaces.Discrete(self.num_ids)
        self._bots: dict[int, Bot] = {}
        self._bot_rng = random.Random(0)
        self._steps = 0
        self._done = True

    # -- the Gymnasium API ---------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new episode and let the bots play until the agent is to move."""
        super().reset(seed=seed)
        self._bot_rng = random.Random(int(self.np_random.integers(2 ** 63)))
        self._bots = {s: make_bot(self.opponents, self.table.family)
                      for s in range(self.table.rules.num_players) if s not in self.seats}
        self._steps = 0
        self._done = False
        while True:  # an episode the bots end before the agent's first move is dealt again
            self.table.reset(int(self.np_random.integers(2 ** 63)))
            self._let_bots_play()
            if not self.table.over:
                return self._observation(), self._info()

    def step(self, action: int | np.int64) -> tuple[np.ndarray, float, bool, bool,
                                                 dict[str, Any]]:
        """Play one id; the bots then play until the agent is to move again or the end."""
        table = self.table
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        self._steps += 1
        truncated = self._steps >= self.max_steps
        try:
            table.play(int(action))
        except ValueError:
            self._done = truncated
            info = self._info()
            info["illegal"] = True
            return self._observation(), float(self.illegal_penalty), False, truncated, info
        reward = self._my_points()
        reward += self._let_bots_play()
        truncated = truncated and not table.over
        self._done = table.over or truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, table.over, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal ids now, as booleans (sb3-contrib's ``MaskablePPO`` reads this); every
        id once the episode has ended, so that sampling from it never fails."""
        if self._done:
            return np.ones(self.num_ids, bool)
        mask = np.zeros(self.num_ids, bool)
        mask[self.table.legal_ids()] = True
        return mask

    def render(self) -> str | None:
        """The position as text (``ansi``), or printed (``human``)."""
        if self.render_mode is None:
            return None
        table = self.table
        text = table.family.describe(table.state)
        if table.prefix:
            text += "\nspelling: " + " ".join(table.alphabet.id_text(i) for i in table.prefix)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- inside --------------------------------------------------------------------------------
    def _let_bots_play(self) -> float:
        """Bots play whole actions while a bot seat is to move; the agent's points meanwhile."""
        table = self.table
        reward = 0.0
        while not table.over and table.to_move not in self.seats:
            seat = table.to_move
            action = self._bots[seat].choose(table.family.observe(table.state, seat),
                                             table.choice.actions(), self._bot_rng)
            table.play_action(action)
            reward += self._my_points()
        return reward

    def _my_points(self) -> float:
        rewards = self.table.rewards
        return 0.0 if rewards is None else rewards[self.seat] * self.reward_scale

    def _acting_seat(self) -> int:
        table = self.table
        return table.to_move if not table.over and table.to_move in self.seats else self.seat

    def _observation(self) -> np.ndarray:
        return np.asarray(self.table.tensor(self._acting_seat()), dtype=np.float32)

    def _info(self) -> dict[str, Any]:
        mask = self.action_masks().astype(np.int8)
        return {"action_mask": mask, "seat": self._acting_seat()}


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (done on import; again is harmless)."""
    if ENV_ID not in gym.registry:
        gym.register(id=ENV_ID, entry_point=f"{__name__}:CanastaEnv")


register()
