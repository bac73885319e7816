"""One decision as rows: the action spelled id by id, each id with its mask and the tensor.

A bot chooses a whole action; for learning agents it is spelled as a few ids from the alphabet
of :mod:`canasta.rl.encoding` (``meld Kh Kd 2c`` is ``group K, add Kd, add Kh, add 2c, end``).
Each id chosen is one row: the observation tensor of the seat while the ids before it are
spelled (:mod:`canasta.rl.tensor`), the ids the mask allows there, and the id chosen. The
engine moves once the spelling is complete, so a row is exactly one decision of an agent that
plays through :class:`canasta.rl.encoding.Choice`.

The same :meth:`HandSteps.add` serves the player and the rebuilding of a shard from its
records, so the two cannot drift apart; the alphabet and the tensor are the family's
(:func:`canasta.rl.research.research_of`), so no family's encoding is written twice.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

from canasta.actions import Action
from canasta.rl.encoding import Choice
from canasta.rl.research import Research


class HandSteps:
    """The rows of one hand, column by column, filled decision by decision under the family's
    research interface ``research``."""

    def __init__(self, research: Research) -> None:
        self.research = research
        self.width = len(research.dealing_tensor())
        self.seats = array("b")
        self.actions = array("i")
        """Per row, the number of the engine action (from 0) the id belongs to."""
        self.observations = array("f")
        """The tensors, row after row (``width`` floats each)."""
        self.legal = array("h")
        """The mask ids, row after row; row ``r``'s are ``legal[offsets[r]:offsets[r+1]]``."""
        self.offsets = array("i", [0])
        self.chosen = array("h")
        self._count = 0

    def __len__(self) -> int:
        return len(self.chosen)

    def add(self, position: Any, seat: int, legal: Sequence[Action], action: Action) -> None:
        """Add the rows of ``action``, chosen from ``legal`` by ``seat`` in ``position``: the
        family's alphabet spells it and its tensor is the seat's view; :class:`ValueError` if
        ``legal`` does not hold it."""
        research = self.research
        values = research.tensor(position, seat)
        alphabet = research.alphabet
        choice = Choice(legal, alphabet)
        for i in alphabet.encode(action):
            prefix = choice.prefix
            self.observations.extend(research.respell(values, prefix) if prefix else values)
            choice = self._row(choice, i, seat)
        self._spelled(choice, action)
    def _row(self, choice: Choice, i: int, seat: int) -> Choice:
        """The row of id ``i`` chosen by ``seat`` from ``choice`` (its tensor already added);
        the choice after it (:class:`ValueError`: the action is not in the legal list)."""
        self.legal.extend(choice.ids())
        self.offsets.append(len(self.legal))
        self.chosen.append(i)
        self.seats.append(seat)
        self.actions.append(self._count)
        return choice.after(i)

    def _spelled(self, choice: Choice, action: Action) -> None:
        """The end of ``action``'s ids: they must spell it."""
        if choice.action != action:
            raise ValueError(f"{action} is not the action its ids spell ({choice.action})")
        self._count += 1
