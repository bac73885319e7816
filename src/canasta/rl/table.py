"""Hands of Canasta played one id at a time: the driver the PettingZoo and Gymnasium
environments share (standard library only).

A :class:`Table` keeps a :class:`~canasta.game.Game` (so every episode has a record that
``canasta replay`` reads), the action being spelled (:class:`~canasta.rl.encoding.Choice`) and
each player's points. Deals come from a :class:`random.Random` seeded at :meth:`Table.reset`.

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
from canasta.cards import RED_THREES, make_pack
from canasta.game import Game
from canasta.legal import legal_actions
from canasta.observation import observe
from canasta.rl.encoding import Choice
from canasta.rl.tensor import observation_tensor, respell
from canasta.rules import Rules
from canasta.state import State


def max_side_points(rules: Rules) -> int:
    """A bound on the absolute value of one side's total for one hand.

    Every card's value, every possible canasta with the largest bonuses, the best or worst red
    threes and the larger going-out bonus: no hand can score beyond them.
    """
    pack = make_pack(rules.num_decks, rules.num_jokers)
    cards = sum(abs(rules.value_of[c]) for c in pack)
    canastas = len(pack) // rules.canasta_size * (
        max(abs(rules.natural_canasta_bonus), abs(rules.mixed_canasta_bonus))
        + abs(rules.hidden_canasta_bonus))
    reds = sum(1 for c in pack if c in RED_THREES)
    red = max(abs(rules.red_three_score(k)) for k in range(reds + 1))
    out = max(abs(rules.going_out_bonus), abs(rules.concealed_going_out_bonus))
    return cards + canastas + red + out


def seat_returns(rules: Rules, totals: Sequence[int]) -> list[float]:
    """Per seat, the hand's return from the sides' totals: its side's total minus the mean of
    the other sides' (zero-sum over the sides)."""
    whole = sum(totals)
    others = rules.num_sides - 1
    return [totals[side] - (whole - totals[side]) / others
            for side in map(rules.side_of, range(rules.num_players))]


def hand_returns(state: State) -> list[float]:
    """Each player's return of a finished hand (:func:`seat_returns`)."""
    assert state.result is not None
    return seat_returns(state.rules, [s.total for s in state.result.sides])


class Table:
    """Up to ``hands`` hands (fewer when the game reaches its target), spelled id by id."""

    def __init__(self, rules: Rules, hands: int = 1) -> None:
        if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
            raise ValueError(f"hands must be a positive integer, not {hands!r}")
        self.rules = rules
        self.hands = hands
        self.game: Game | None = None
        self.choice = Choice(())
        self.returns = [0.0] * rules.num_players
        """Per player, the points of the hands finished so far."""
        self.finished: list[float] | None = None
        """Per player, the points of the hand the last play ended, else ``None``."""
        self.over = True
        self._tensors: dict[int, tuple[State, list[float]]] = {}

    def reset(self, seed: int) -> None:
        """Deal the first hand from a shuffle seeded by ``seed``."""
        self.game = Game(self.rules, seed=seed)
        self.returns = [0.0] * self.rules.num_players
        self.finished = None
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
        self.finished = None
        if choice.action is None:
            self.choice = choice
            return None
        self._apply(choice.action)
        return choice.action

    def play_action(self, action: Action) -> None:
        """Play a whole engine action (a bot's), which must be legal now."""
        if self.choice.prefix:
            raise ValueError("an action is half spelled")
        if action not in self.choice.actions():
            raise ValueError(f"{action} is not legal here")
        self.finished = None
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

    def _new_choice(self) -> None:
        self.choice = Choice(legal_actions(self.state))

