"""The legal actions of the seat to move, as the heuristic asks about them: a list a bot is
given, or checked one by one against a state in a simulation."""

from __future__ import annotations

from collections.abc import Sequence

from canasta.actions import DISCARDS, Action
from canasta.engine import is_legal
from canasta.legal import ask_problem, legal_actions
from canasta.observation import Observation
from canasta.plans import meld_problem_of
from canasta.state import DRAW as DRAW_PHASE
from canasta.state import PLAY, State


class NoMoveError(ValueError):
    """A simulated state where the player to move has no legal action (an impossible sample)."""


class Moves:
    """The legal actions of the seat to move: a given list, or checked on demand against a state.

    Bots get the list. Simulations (which know the sampled state) pass the state instead: listing
    every meld of a big hand costs far more than checking the few the heuristic wants to play.
    """

    __slots__ = ("_list", "_set", "_state")

    def __init__(self, legal: Sequence[Action] | None = None, state: State | None = None) -> None:
        if legal is None and state is None:
            raise ValueError("Moves needs the legal actions or a state")
        self._list = legal
        self._set: set[Action] | None = None
        self._state = state

    def listed(self) -> Sequence[Action]:
        """Every legal action (computed from the state on first use)."""
        if self._list is None:
            assert self._state is not None
            self._list = legal_actions(self._state)
            if not self._list:
                raise NoMoveError("no legal action in this state")
        return self._list

    def only(self) -> Action | None:
        """The single legal action, when the list is known to hold just one."""
        if self._list is not None and len(self._list) == 1:
            return self._list[0]
        return None

    def __contains__(self, action: object) -> bool:
        if self._list is not None:
            if self._set is None:
                self._set = set(self._list)
            return action in self._set
        state = self._state
        assert state is not None
        if not isinstance(action, Action):
            return False
        verb = action.verb
        if verb == "meld":
            return state.phase == PLAY and meld_problem_of(state, action) is None
        if verb == "discard":
            return state.phase == PLAY and is_legal(state, action)
        if verb == "ask":
            return state.phase in (PLAY, DRAW_PHASE) and ask_problem(state) is None
        return action in self.listed()

    def of(self, verb: str) -> list[Action]:
        """The legal actions with this verb."""
        return [a for a in self.listed() if a.verb == verb]

    def discards(self, obs: Observation) -> list[Action]:
        """The legal discards."""
        if (self._list is None and len(obs.hand) >= 2 and obs.answer != "yes"
                and not obs.turn.last_red_three):
            return [DISCARDS[c] for c in sorted(set(obs.hand))]  # any card may go
        return self.of("discard")
