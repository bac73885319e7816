"""Hands of Canasta played one id at a time: the driver the PettingZoo and Gymnasium
environments share (standard library only).

A :class:`Table` keeps a :class:`~canasta.game.Game` (so every episode has a record that
``canasta replay`` reads), the action being spelled (:class:`~canasta.rl.encoding.Choice`) and
each player's points. Deals come from a :class:`random.Random` seeded at :meth:`Table.reset`.

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
"""

from __future__ import annotations

from collections.abc import Sequence

from canasta.actions import Action
from canasta.game import Game
from canasta.legal import legal_actions
from canasta.observation import observe
from canasta.rl.encoding import Choice, encode
from canasta.rl.tensor import max_side_points, observation_tensor, respell
from canasta.rules import Rules
from canasta.state import State

RETURNS = ("points", "scaled", "win")
"""The kinds of return: points, points scaled into [-1, 1], win/loss."""

IDS_PER_CARD = 12
"""The bound on player steps per hand is ``IDS_PER_CARD`` times the pack size (docs/rl.md)."""


def max_steps_per_hand(rules: Rules) -> int:
    """A bound on the player steps (ids) of one hand: ``IDS_PER_CARD`` per card of the pack."""
    return IDS_PER_CARD * rules.deck_size


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


def return_bound(rules: Rules, hands: int) -> float:
    """A bound on one player's points over ``hands`` hands: twice :func:`max_side_points` a
    hand (its side's total less the others' mean). ``scaled`` returns divide by it."""
    return 2.0 * max_side_points(rules) * hands


def utility_range(rules: Rules, hands: int, returns: str = "points") -> tuple[float, float]:
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


def episode_returns(rules: Rules, hands: int, points: Sequence[float],
                    returns: str = "points") -> list[float]:
    """Per player, an episode's return of the kind ``returns`` from its points."""
    check_returns(returns)
    if returns == "points":
        return [float(p) for p in points]
    if returns == "scaled":
        bound = return_bound(rules, hands)
        return [p / bound for p in points]
    return win_returns(rules, points)


def hand_returns(state: State) -> list[float]:
    """Each player's return of a finished hand (:func:`seat_returns`)."""
    assert state.result is not None
    return seat_returns(state.rules, [s.total for s in state.result.sides])


class Table:
    """Up to ``hands`` hands (fewer when the game reaches its target), spelled id by id."""

    def __init__(self, rules: Rules, hands: int = 1, returns: str = "points") -> None:
        if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
            raise ValueError(f"hands must be a positive integer, not {hands!r}")
        self.rules = rules
        self.hands = hands
        self.kind = check_returns(returns)
        """The kind of reward :attr:`rewards` holds (:data:`RETURNS`)."""
        self.game: Game | None = None
        self.choice = Choice(())
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
        self._tensors: dict[int, tuple[State, list[float]]] = {}

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
    def state(self) -> State:
        """The current hand's position (the last hand's final one once over)."""
        if self.game is None:
            raise RuntimeError("the table has not been reset")
        return self.game.state

    @property
    def to_move(self) -> int:
        """The seat to play."""
        return self.state.to_move

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
            cached = self._tensors[seat] = (state, observation_tensor(observe(state, seat)))
        prefix = self.choice.prefix
        return respell(cached[1], self.rules, prefix) if prefix else list(cached[1])

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
        self.choice = Choice(())
        self.finished = self.rewards = None

    def play_action(self, action: Action) -> None:
        """Play a whole engine action (a bot's), which must be legal now."""
        if self.choice.prefix:
            raise ValueError("an action is half spelled")
        if action not in self.choice.actions():
            raise ValueError(f"{action} is not legal here")
        self.finished = self.rewards = None
        self.steps += len(encode(action))
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
            self.choice = Choice(())
        if self.finished is not None:
            self.rewards = self._rewards(self.finished)

    def _rewards(self, hand: list[float]) -> list[float] | None:
        """The rewards of a hand that just ended with the points ``hand``."""
        if self.kind == "points":
            return list(hand)
        if self.kind == "scaled":
            bound = return_bound(self.rules, self.hands)
            return [p / bound for p in hand]
        return win_returns(self.rules, self.returns) if self.over else None

    def _new_choice(self) -> None:
        self.choice = Choice(legal_actions(self.state))

