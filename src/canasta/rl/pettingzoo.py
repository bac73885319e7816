"""Canasta as PettingZoo environments: ``env(preset="classic")`` (AEC) and
``parallel_env(preset="classic")`` (Parallel).

>>> from canasta.rl.pettingzoo import env, parallel_env
>>> e = env(preset="classic-2p")
>>> e.reset(seed=1)
>>> e.agents, e.agent_selection
(['player_0', 'player_1'], 'player_1')
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].shape, int(obs["action_mask"].sum())
((566,), (125,), 2)
>>> p = parallel_env(preset="classic-2p", observation="box")
>>> observations, infos = p.reset(seed=1)
>>> observations["player_1"].dtype, int(infos["player_1"]["action_mask"].sum())
(dtype('float32'), 2)
>>> infos["player_0"]["active_agent"]
'player_1'

* **Agents** are the seats, ``player_0`` … ``player_{N-1}``. A seat spells an action id by id
  (:mod:`canasta.rl.encoding`), so the same agent may act several times in a row: always
  read ``agent_selection`` (AEC) or ``infos[agent]["active_agent"]`` (Parallel).
* **Observations** (``observation=``): ``"dict"`` (default) is
  ``{"observation": float32 tensor, "action_mask": int8 mask}`` (PettingZoo's classic games);
  ``"box"`` is the float32 tensor alone, a single ``Box`` that SuperSuit's observation
  wrappers (``dtype_v0``, ``normalize_obs_v0``, ``frame_stack_v1``) take, with the mask in
  ``infos[agent]["action_mask"]``. The tensor is :mod:`canasta.rl.tensor` from the agent's
  seat (the spelling in progress included; the family's own tensor), within the bounds of
  :meth:`~canasta.rl.research.Research.tensor_bounds`; the mask holds the ids the agent may
  play now (zeros when another agent acts).
* **Rewards** (``returns=``, as every adapter's: :data:`~canasta.rl.table.RETURNS`):
  ``points`` (default) come when a hand ends: each agent gets its side's hand total minus the
  mean of the other sides' totals (zero-sum); ``scaled`` the same over
  :func:`~canasta.rl.table.return_bound`, so an episode sums to [-1, 1]; ``win`` +1 / -1 (0
  for a tie) when the episode ends. An episode is ``hands`` hands (default 1), or fewer when
  the game reaches its target first.
* An **illegal id** ends the episode with ``illegal_reward`` (default -1000 points, -1 with
  the other returns) for the agent that played it and 0 for the others (PettingZoo's
  ``TerminateIllegalWrapper``, as in its classic games); the raw environments (``raw_env``,
  ``raw_parallel_env``) raise :class:`ValueError` instead.
* ``preset`` is a preset of any family (``modern-american`` plays four agents with its 142 ids
  and its tensor of 394); ``rules`` (a rule set of any family, or rules as JSON:
  ``{"preset": "modern-american", "special_hands": "pagat"}``) replaces it. The ids, the
  tensor and its bounds are the family's (:func:`~canasta.rl.research.research_of`).
* **Seeding**: ``reset(seed=s)`` makes every deal of the episode reproducible.
  ``env.unwrapped.table.game.record`` is the episode as a game record (``canasta replay``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from canasta.rl.research import Research, RulesLike, research_of
from canasta.rl.table import Table, check_returns

RulesArg = Research | RulesLike | None
"""What ``rules=`` takes: a rule set of any family, rules as JSON
(``{"preset": NAME, FIELD: VALUE}``), or a research interface; ``None`` for the preset."""

DEFAULT_ILLEGAL_REWARD = -1000.0
"""In points; -1 with the ``scaled`` and ``win`` returns."""
RENDER_MODES = ("ansi", "human")
OBSERVATIONS = ("dict", "box")
"""``dict``: the tensor and the mask together; ``box``: the tensor, the mask in the infos."""


def illegal_reward_for(returns: str, illegal_reward: float | None) -> float:
    """``illegal_reward``, or its default for the kind of return."""
    if illegal_reward is not None:
        return float(illegal_reward)
    return DEFAULT_ILLEGAL_REWARD if check_returns(returns) == "points" else -1.0


def env(preset: str = "classic", hands: int = 1, render_mode: str | None = None,
        illegal_reward: float | None = None, rules: RulesArg = None,
        returns: str = "points", observation: str = "dict") -> AECEnv:
    """The AEC environment, wrapped as PettingZoo's classic games are (illegal ids end the
    episode, out-of-range ids are refused, the call order is enforced). ``rules``, when
    given, replaces the preset (any :class:`~canasta.rules.Rules`, house rules included)."""
    wrapped: AECEnv = raw_env(preset=preset, hands=hands, render_mode=render_mode, rules=rules,
                              returns=returns, observation=observation)
    wrapped = wrappers.TerminateIllegalWrapper(
        wrapped, illegal_reward=illegal_reward_for(returns, illegal_reward))
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(preset: str = "classic", hands: int = 1, render_mode: str | None = None,
                 illegal_reward: float | None = None, rules: RulesArg = None,
                 returns: str = "points", observation: str = "dict") -> ParallelEnv:
    """The Parallel environment: every live agent gives an action each step, and only the
    active agent's (``infos[agent]["active_agent"]``) is played; the others' are ignored. An
    illegal id of the active agent ends the episode with ``illegal_reward`` for it."""
    return raw_parallel_env(preset=preset, hands=hands, render_mode=render_mode, rules=rules,
                            returns=returns, observation=observation,
                            illegal_reward=illegal_reward_for(returns, illegal_reward))


def research_for(preset: str, rules: RulesArg) -> Research:
    """The research interface an environment plays: ``rules`` when given, else ``preset``."""
    return research_of(preset if rules is None else rules)


def observation_box(rules: Research | RulesLike, hands: int) -> spaces.Box:
    """The float32 ``Box`` of the tensor, with each entry's own bounds (the family's
    :meth:`~canasta.rl.research.Research.tensor_bounds`)."""
    low, high = research_of(rules).tensor_bounds(hands)
    return spaces.Box(low=np.asarray(low, np.float32), high=np.asarray(high, np.float32),
                      dtype=np.float32)


def _check_options(render_mode: str | None, returns: str, observation: str) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}, "
                         f"not {render_mode!r}")
    check_returns(returns)
    if observation not in OBSERVATIONS:
        raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS)}, "
                         f"not {observation!r}")


class _Seats:
    """What the two environments share: the table, the spaces, observations and masks."""

    render_mode: str | None
    table: Table
    possible_agents: list[str]
    observation_kind: str
    num_ids: int

    def _setup(self, preset: str, hands: int, render_mode: str | None, rules: RulesArg,
               returns: str, observation: str) -> None:
        _check_options(render_mode, returns, observation)
        self.render_mode = render_mode
        research = research_for(preset, rules)
        self.table = Table(research, hands, returns)
        self.possible_agents = [f"player_{i}" for i in range(research.rules.num_players)]
        self.observation_kind = observation
        self.num_ids = size = research.alphabet.size
        box = observation_box(research, hands)
        mask = spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8)
        space: spaces.Space[Any] = box if observation == "box" else spaces.Dict(
            {"observation": box, "action_mask": mask})
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)

    def _deal(self, seed: int | None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.table.reset(int(self.np_random.integers(2 ** 63)))

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The tensor's float32 ``Box`` (``observation="box"``), or a Dict of it and the int8
        mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(N)``, N the family's ids (125 classic, 142 Modern American)."""
        return self.action_spaces[agent]

    def _mask(self, agent: str) -> np.ndarray:
        seat = self.possible_agents.index(agent)
        table = self.table
        mask = np.zeros(self.num_ids, np.int8)
        if not table.over and seat == table.to_move:
            mask[table.legal_ids()] = 1
        return mask

    def _observe(self, agent: str) -> Any:
        seat = self.possible_agents.index(agent)
        tensor = np.asarray(self.table.tensor(seat), dtype=np.float32)
        if self.observation_kind == "box":
            return tensor
        return {"observation": tensor, "action_mask": self._mask(agent)}

    def _info(self, agent: str, active: str | None) -> dict[str, Any]:
        info: dict[str, Any] = {"active_agent": active}
        if self.observation_kind == "box":
            info["action_mask"] = self._mask(agent)
        return info

    def _active(self) -> str | None:
        table = self.table
        return None if table.over else self.possible_agents[table.to_move]

    def render(self) -> str | None:
        """The position as text (``ansi``), or printed (``human``)."""
        if self.render_mode is None:
            return None
        table = self.table
        text = table.family.describe(table.state)
        spelled = table.prefix
        if spelled:
            text += "\nspelling: " + " ".join(table.alphabet.id_text(i) for i in spelled)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class raw_env(_Seats, AECEnv, EzPickle):  # type: ignore[misc]
    """The unwrapped AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "canasta_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(self, preset: str = "classic", hands: int = 1,
                 render_mode: str | None = None, rules: RulesArg = None,
                 returns: str = "points", observation: str = "dict") -> None:
        EzPickle.__init__(self, preset, hands, render_mode, rules, returns, observation)
        AECEnv.__init__(self)
        self._setup(preset, hands, render_mode, rules, returns, observation)
        self.agents = self.possible_agents[:]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode; with ``seed``, the same seed deals the same cards."""
        self._deal(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.agent_selection = self.possible_agents[self.table.to_move]
        self._update_infos()

    def observe(self, agent: str) -> Any:
        """``agent``'s tensor and mask (``observation="dict"``), or its tensor."""
        return self._observe(agent)

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
        if table.rewards is not None:
            self.rewards = {a: float(r) for a, r in zip(self.possible_agents, table.rewards)}
        if table.over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[table.to_move]
        self._update_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _update_infos(self) -> None:
        active = self._active()
        self.infos = {a: self._info(a, active) for a in self.agents}


class raw_parallel_env(_Seats, ParallelEnv, EzPickle):  # type: ignore[misc]
    """The Parallel environment, unwrapped: ``illegal_reward`` ``None`` raises
    :class:`ValueError` for an illegal id instead of ending the episode."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "canasta_v0", "render_modes": list(RENDER_MODES)}

    def __init__(self, preset: str = "classic", hands: int = 1,
                 render_mode: str | None = None, rules: RulesArg = None,
                 returns: str = "points", observation: str = "dict",
                 illegal_reward: float | None = None) -> None:
        EzPickle.__init__(self, preset, hands, render_mode, rules, returns, observation,
                          illegal_reward)
        self._setup(preset, hands, render_mode, rules, returns, observation)
        self.illegal_reward = illegal_reward
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Deal a new episode: every agent's observation and info."""
        self._deal(seed)
        self.agents = self.possible_agents[:]
        active = self._active()
        return ({a: self._observe(a) for a in self.agents},
                {a: self._info(a, active) for a in self.agents})

    def step(self, actions: dict[str, Any]) -> tuple[
            dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        """Play the active agent's id (the others' actions are ignored)."""
        if not self.agents:
            raise RuntimeError("the episode is over: call reset()")
        table = self.table
        agents = self.agents
        agent = self.possible_agents[table.to_move]
        if actions.get(agent) is None:
            raise ValueError(f"the active agent {agent} must play an id")
        rewards = dict.fromkeys(agents, 0.0)
        try:
            table.play(int(actions[agent]))
        except ValueError:
            if self.illegal_reward is None:
                raise
            rewards[agent] = float(self.illegal_reward)
            table.stop()
        else:
            if table.rewards is not None:
                rewards = {a: float(r) for a, r in zip(self.possible_agents, table.rewards)}
        over = table.over
        active = self._active()
        observations = {a: self._observe(a) for a in agents}
        infos = {a: self._info(a, active) for a in agents}
        self.agents = [] if over else agents
        if self.render_mode == "human":
            self.render()
        return (observations, rewards, dict.fromkeys(agents, over),
                dict.fromkeys(agents, False), infos)
