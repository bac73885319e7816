"""One decision as rows: the action spelled id by id, each id with its mask and the tensor.

A bot chooses a whole action; for learning agents it is spelled as a few ids from the alphabet
of :mod:`canasta.rl.encoding` (``meld Kh Kd 2c`` is ``group K, add Kd, add Kh, add 2c, end``).
Each id chosen is one row: the observation tensor of the seat while the ids before it are
spelled (:mod:`canasta.rl.tensor`), the ids the mask allows there, and the id chosen. The
engine moves once the spelling is complete, so a row is exactly one decision of an agent that
plays through :class:`canasta.rl.encoding.Choice`.

The same :meth:`HandSteps.add` serves the player and the rebuilding of a shard from its
records, so the two cannot drift apart.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from canasta.actions import Action
from canasta.observation import Observation
from canasta.rl.encoding import Choice, encode
from canasta.rl.tensor import tensor_size, write_tensor
from canasta.rules import Rules


class HandSteps:
    """The rows of one hand, column by column, filled decision by decision."""

    def __init__(self, rules: Rules) -> None:
        self.width = tensor_size(rules)
        self._zeros = array("f", bytes(4 * self.width))
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

    def add(self, view: Observation, legal: Sequence[Action], action: Action) -> None:
        """Add the rows of ``action``, chosen from ``legal`` by the seat whose view is
        ``view``; :class:`ValueError` if ``legal`` does not hold it."""
        seat = view.seat
        choice = Choice(legal)
        for i in encode(action):
            start = len(self.observations)
            self.observations.extend(self._zeros)
            write_tensor(view, choice.prefix, self.observations, start)
            self.legal.extend(choice.ids())
            self.offsets.append(len(self.legal))
            self.chosen.append(i)
            self.seats.append(seat)
            self.actions.append(self._count)
            choice = choice.after(i)  # ValueError: the action is not in the legal list
        if choice.action != action:
            raise ValueError(f"{action} is not the action its ids spell ({choice.action})")
        self._count += 1


