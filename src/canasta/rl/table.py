"""Hands of Canasta played one id at a time: the driver the PettingZoo and Gymnasium
environments share, and the returns every adapter shares (standard library only).

A :class:`Table` keeps a game (a :class:`~canasta.game.Game` of any family, so every episode
has a record that ``canasta replay`` reads), the action being spelled
(:class:`~canasta.rl.encoding.Choice`) and each player's points. What differs between
families (the ids, the tensor) comes from the family's research interface
(:func:`~canasta.rl.research.research_of`). Deals come from a shuffle seeded at
:meth:`Table.reset`.

The returns every adapter shares (``returns=``, :data:`RETURNS`): ``points`` (the default),
``scaled`` (points divided by the bound :func:`return_bound`, so an episode's sum lies in
[-1, 1]) and ``win`` (at the episode's end only: +1 for a side whose points lead, -1 for a
side behind, 0 for a tie of two sides; zero-sum with more sides too).

>>> from canasta import get_rules
>>> table = Table(get_rules("classic-2p"))
>>> table.reset(seed=3)
>>> table.to_move, table.legal_ids()[:2]
(1, [118])
>>> table.play(118)  # draw
Action(verb='draw', groups=(), card=-1)
>>> modern = Table("modern-american")
>>> modern.reset(seed=2)
>>> modern.alphabet.size, [modern.alphabet.id_text(i) for i in modern.legal_ids()]
(142, ['keep 3c', 'keep none'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from canasta.actions import Action
from canasta.family import family_of
from canasta.game import Game
from canasta.rl.encoding import Alphabet, Choice
from canasta.rl.research import Research, RulesLike, research_of
from canasta.rules import Rules

RETURNS = ("points", "scaled", "win")
"""The kinds of return: points, points scaled into [-1, 1], win/loss."""


def max_steps_per_hand(rules: Research | RulesLike) -> int:
    """A bound on the player steps (ids) of one hand of ``rules`` (any family's, or its
    research interface): :meth:`~canasta.rl.research.Research.max_steps_per_hand`."""
    return research_of(rules).max_steps_per_hand()


def check_returns(returns: str) -> str:
    """``returns`` if it is one of :data:`RETURNS`, else :class:`ValueError`."""
    if returns not in RETURNS:
        raise ValueError(f"returns must be one of {', '.join(RETURNS)}, not {returns!r}")
    return returns


def seat_returns(rules: Rules, totals: Sequence[int]) -> list[float]:
    """Per seat, the hand's return from the sides' totals: its side's total minus the mean of
    the other sides' (zero-sum over the sides)."""
    whole = sum(totals)
    others = rules.num_sides - 1
    return [totals[side] - (whole - totals[side]) / others
            for side in map(rules.side_of, range(rules.num_players))]


def return_bound(rules: Research | RulesLike, hands: int) -> float:
    """A bound on one player's points over ``hands`` hands: twice the family's bound on one
    side's total for a hand (:meth:`~canasta.rl.research.Research.max_side_points`: its side's
    total less the others' mean). ``scaled`` returns divide by it."""
    return 2.0 * research_of(rules).max_side_points() * hands


def utility_range(rules: Research | RulesLike, hands: int, returns: str = "points"
                  ) -> tuple[float, float]:
    """The least and the greatest return of an episode of ``hands`` hands."""
    check_returns(returns)
    bound = return_bound(rules, hands) if returns == "points" else 1.0
    return -bound, bound


def win_returns(rules: Rules, points: Sequence[float]) -> list[float]:
    """Per player, the win/loss return of an episode from its players' points: 1 for each side
    with the most points, 0 for the others, then (as :func:`seat_returns`) each side's value
    less the mean of the other sides' (+1 / -1 with two sides, 0 for a tie)."""
    k = rules.num_sides
    side_points = [points[side] for side in range(k)]  # seat ``side`` plays for side ``side``
    best = max(side_points)
    return seat_returns(rules, [1 if p == best else 0 for p in side_points])


def episode_returns(rules: Research | RulesLike, hands: int, points: Sequence[float],
                    returns: str = "points") -> list[float]:
    """Per player, an episode's return of the kind ``returns`` from its points."""
    check_returns(returns)
    if returns == "points":
        return [float(p) for p in points]
    if returns == "scaled":
        bound = return_bound(rules, hands)
        return [p / bound for p in points]
    return win_returns(research_of(rules).rules, points)


def hand_returns(position: Any) -> list[float]:
    """Each player's return of a finished hand of any family (:func:`seat_returns`)."""
    return seat_returns(position.rules, family_of(position.rules).totals(position))


class Table:
    """Up to ``hands`` hands (fewer when the game reaches its target), spelled id by id, under
    ``rules`` of any family (a rule set, a preset name, rules as JSON, or a research
    interface)."""

    def __init__(self, rules: Research | RulesLike, hands: int = 1,
                 returns: str = "points") -> None:
        if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
            raise ValueError(f"hands must be a positive integer, not {hands!r}")
        self.research = research_of(rules)
        """The family's research interface: the ids, the tensor
        (:func:`~canasta.rl.research.research_of`)."""
        self.family = self.research.family
        """The family of rules (deal, legal list, apply, totals)."""
        self.alphabet: Alphabet = self.research.alphabet
        """The action ids."""
        rules = self.rules = self.research.rules
        self.hands = hands
        self.kind = check_returns(returns)
        """The kind of reward :attr:`rewards` holds (:data:`RETURNS`)."""
        self.game: Game | None = None
        """The game being played (its ``record`` is the episode)."""
        self.choice = Choice((), self.alphabet)
        self.returns = [0.0] * rules.num_players
        """Per player, the points of the hands finished so far."""
        self.finished: list[float] | None = None
        """Per player, the points of the hand the last play ended, else ``None``."""
        self.rewards: list[float] | None = None
        """Per player, the reward the last play brought, of the kind :attr:`kind`, else
        ``None``: ``points`` and ``scaled`` at every hand's end, ``win`` at the episode's."""
        self.steps = 0
        """Ids played this episode, by every seat."""
        self.over = True
        self._tensors: dict[int, tuple[Any, list[float]]] = {}

    def reset(self, seed: int) -> None:
        """Deal the first hand from a shuffle seeded by ``seed``."""
        self.game = Game(self.rules, seed=seed)
        self.returns = [0.0] * self.rules.num_players
        self.finished = None
        self.rewards = None
        self.steps = 0
        self.over = False
        self._new_choice()

    @property
    def state(self) -> Any:
        """The current hand's position, the family's own (the last hand's final one once
        over)."""
        if self.game is None:
            raise RuntimeError("the table has not been reset")
        return self.game.state

    @property
    def to_move(self) -> int:
        """The seat to play."""
        seat: int = self.state.to_move
        return seat

    @property
    def prefix(self) -> tuple[int, ...]:
        """The ids of the action being spelled."""
        return self.choice.prefix

    def legal_ids(self) -> list[int]:
        """The ids the player to move may play (none once over)."""
        return [] if self.over else self.choice.ids()

    def tensor(self, seat: int) -> list[float]:
        """``seat``'s observation tensor, the spelling in progress included."""
        state = self.state
        cached = self._tensors.get(seat)
        if cached is None or cached[0] is not state:
            cached = self._tensors[seat] = (state, self.research.tensor(state, seat))
        prefix = self.choice.prefix
        return self.research.respell(cached[1], prefix) if prefix else list(cached[1])

    def play(self, i: int) -> Action | None:
        """Play id ``i`` (:class:`ValueError` if it is not legal: nothing changes then).

        Returns the engine action once its spelling is complete, else ``None``.
        """
        if self.over:
            raise ValueError("the episode is over")
        choice = self.choice.after(i)
        self.finished = self.rewards = None
        self.steps += 1
        if choice.action is None:
            self.choice = choice
            return None
        self._apply(choice.action)
        return choice.action

    def stop(self) -> None:
        """End the episode now (an environment's penalty for an illegal id): no id is legal
        until :meth:`reset`."""
        self.over = True
        self.choice = Choice((), self.alphabet)
        self.finished = self.rewards = None

    def play_action(self, action: Action) -> None:
        """Play a whole engine action (a bot's), which must be legal now."""
        if self.choice.prefix:
            raise ValueError("an action is half spelled")
        if action not in self.choice.actions():
            raise ValueError(f"{action} is not legal here")
        self.finished = self.rewards = None
        self.steps += len(self.alphabet.encode(action))
        self._apply(action)

    def _apply(self, action: Action) -> None:
        game = self.game
        assert game is not None
        game.apply(action)
        state = game.state
        if state.is_over:
            self.finished = hand_returns(state)
            for p, r in enumerate(self.finished):
                self.returns[p] += r
            if game.hand_number >= self.hands:
                self.over = True
            else:
                game.next_hand()
                self.over = game.is_over
        if not self.over:
            self._new_choice()
        else:
            self.choice = Choice((), self.alphabet)
        if self.finished is not None:
            self.rewards = self._rewards(self.finished)

    def _rewards(self, hand: list[float]) -> list[float] | None:
        """The rewards of a hand that just ended with the points ``hand``."""
        if self.kind == "points":
            return list(hand)
        if self.kind == "scaled":
            bound = return_bound(self.research, self.hands)
            return [p / bound for p in hand]
        return win_returns(self.rules, self.returns) if self.over else None

    def _new_choice(self) -> None:
        self.choice = self.research.choice(self.state)

