"""Canasta as a PettingZoo AEC environment: ``canasta.rl.pettingzoo.env(preset="classic")``.

>>> from canasta.rl.pettingzoo import env
>>> e = env(preset="classic-2p")
>>> e.reset(seed=1)
>>> e.agents, e.agent_selection
(['player_0', 'player_1'], 'player_1')
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].shape, int(obs["action_mask"].sum())
((566,), (125,), 2)

* **Agents** are the seats, ``player_0`` … ``player_{N-1}``. A seat spells an action id by id
  (:mod:`canasta.rl.encoding`), so the same agent may act several times in a row: always
  read ``agent_selection``.
* **Observations** are ``{"observation": float32 tensor, "action_mask": int8 mask}``: the
  tensor of :mod:`canasta.rl.tensor` from the agent's seat (the spelling in progress
  included); the mask holds the ids the agent may play now (zeros when another agent acts).
* **Rewards** come when a hand ends: each agent gets its side's hand total minus the mean of
  the other sides' totals, in points (zero-sum). An episode is ``hands`` hands (default 1), or
  fewer when the game reaches its target first.
* An **illegal id** ends the episode with ``illegal_reward`` (default -1000 points) for the
  agent that played it and 0 for the others (PettingZoo's ``TerminateIllegalWrapper``, as in
  its classic games); the raw environment (``raw_env``) raises :class:`ValueError` instead.
* ``rules`` (any :class:`~canasta.rules.Rules`, house rules included) replaces the preset.
* **Seeding**: ``reset(seed=s)`` makes every deal of the episode reproducible.
  ``env.unwrapped.table.game.record`` is the episode as a game record (``canasta replay``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from canasta.rl.encoding import NUM_IDS
from canasta.rl.table import Table, max_side_points
from canasta.rl.tensor import piece_slices, tensor_size
from canasta.rules import Rules, get_rules

DEFAULT_ILLEGAL_REWARD = -1000.0
RENDER_MODES = ("ansi", "human")


def env(preset: str = "classic", hands: int = 1, render_mode: str | None = None,
        illegal_reward: float = DEFAULT_ILLEGAL_REWARD, rules: Rules | None = None) -> AECEnv:
    """The environment, wrapped as PettingZoo's classic games are (illegal ids end the
    episode, out-of-range ids are refused, the call order is enforced). ``rules``, when
    given, replaces the preset (any :class:`~canasta.rules.Rules`, house rules included)."""
    wrapped: AECEnv = raw_env(preset=preset, hands=hands, render_mode=render_mode, rules=rules)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def observation_box(rules: Rules, hands: int) -> spaces.Box:
    """The bounds of the tensor: counts and sizes are at most the pack's size, scores (in
    thousands) at most the points ``hands`` hands can bring either way."""
    size = tensor_size(rules)
    points = hands * max_side_points(rules) / 1000.0
    high = np.full(size, float(max(rules.deck_size, points)), np.float32)
    low = np.zeros(size, np.float32)
    start, stop = piece_slices(rules)["scores"]
    low[start:stop] = -points
    return spaces.Box(low=low, high=high, dtype=np.float32)


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]
    """The unwrapped environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "canasta_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(self, preset: str = "classic", hands: int = 1,
                 render_mode: str | None = None, rules: Rules | None = None) -> None:
        EzPickle.__init__(self, preset, hands, render_mode, rules)
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}, "
                             f"not {render_mode!r}")
        self.render_mode = render_mode
        rules = rules or get_rules(preset)
        self.table = Table(rules, hands)
        self.possible_agents = [f"player_{i}" for i in range(rules.num_players)]
        self.agents = self.possible_agents[:]
        box = observation_box(rules, hands)
        mask = spaces.Box(low=0, high=1, shape=(NUM_IDS,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_IDS) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """A Dict of the float32 tensor and the int8 mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(125)``: the ids of :mod:`canasta.rl.encoding`."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode; with ``seed``, the same seed deals the same cards."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.table.reset(int(self.np_random.integers(2 ** 63)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s tensor and mask."""
        seat = self.possible_agents.index(agent)
        table = self.table
        observation = np.asarray(table.tensor(seat), dtype=np.float32)
        mask = np.zeros(NUM_IDS, np.int8)
        if not table.over and seat == table.to_move:
            mask[table.legal_ids()] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play one id for ``agent_selection``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError("a live agent must play an id, not None")
        table = self.table
        table.play(int(action))  # ValueError for an illegal id: nothing changes
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if table.finished is not None:
            self.rewards = {a: float(r) for a, r in zip(self.possible_agents, table.finished)}
        if table.over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[table.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The position as text (``ansi``), or printed (``human``)."""
        if self.render_mode is None:
            return None
        text = str(self.table.state)
        spelled = self.table.prefix
        if spelled:
            from canasta.rl.encoding import id_text

            text += "\nspelling: " + " ".join(id_text(i) for i in spelled)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
