"""The state of one hand: who holds what, what lies on the table, whose turn it is.

A :class:`State` is a value: the engine never changes one, it returns a new one
(:func:`canasta.engine.apply`). Its fields are tuples of ints (cards, see :mod:`canasta.cards`),
so states share structure cheaply and can be kept by bots, rooms and records alike.

Melds are kept per *meld owner*: the side of a seat, or in the cutthroat preset the partnership
that forms once the lone hand is known (:meth:`State.owner_of`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from canasta.cards import Card, Rank
from canasta.rules import Rules

DRAW = "draw"
PLAY = "play"
ANSWER = "answer"
OVER = "over"
PHASES = (DRAW, PLAY, ANSWER, OVER)

NUM_MELD_RANKS = 12
"""Meld slots per side: the natural ranks 0..10 and the black-three going-out meld (11)."""

Meld = tuple[Card, ...]
SideMelds = tuple[Meld | None, ...]


class TurnInfo(NamedTuple):
    """What the player to move has done this turn, for the rules that look at the whole turn."""

    took_pile: bool = False
    """The turn began by taking the pile (no minimum exemption for concealed going out)."""
    melded: bool = False
    """A ``meld`` action was made this turn (the partner may no longer be asked)."""
    created: tuple[Rank, ...] = ()
    """Ranks of melds this player started this turn."""
    extended: bool = False
    """Cards were added to a meld that was on the table when the turn began."""
    picked_up: tuple[Card, ...] = ()
    """Pile cards picked up this turn and still in hand (a hidden canasta may not use them)."""
    asked_before_draw: bool = False
    """The player asked "may I go out?" before drawing (``ask_before_draw``): the answer hands
    the turn back to its draw."""
    last_red_three: bool = False
    """The stock's last card was a red three and the rules let the player meld before the hand
    ends (``last_red_three_may_meld``): no discard follows; ``pass`` ends the hand."""


NEW_TURN = TurnInfo()


class SideResult(NamedTuple):
    """The score breakdown of one side for one hand (NOTATION §3)."""

    melded: int
    in_hand: int
    canastas: int
    hidden: int
    red_threes: int
    going_out: int
    total: int


class HandResult(NamedTuple):
    """How a hand ended and what each side scored."""

    went_out: int | None
    concealed: bool
    void: bool
    sides: tuple[SideResult, ...]


class State:
    """One moment of one hand. Treat as immutable: the engine returns new states.

    Fields (all tuples are indexed by seat or by side as named):

    - ``rules``: the :class:`~canasta.rules.Rules`;
    - ``dealer``, ``to_move``: seats; ``phase``: ``draw``, ``play``, ``answer`` or ``over``;
    - ``hands``: per seat, the cards in hand, sorted;
    - ``stock``: top first; ``pile``: the discard pile, top last;
    - ``melds``: per side, 12 slots by meld rank, each ``None`` or the sorted cards of the meld;
    - ``red_threes``: per side; ``hidden``: per side, ranks of canastas laid hidden;
    - ``scores``: per side, cumulative scores at the start of the hand;
    - ``pile_frozen``: the pile holds a freezing card; ``has_melded``: per seat, laid cards on
      an earlier turn; ``asks``: per seat, questions asked this hand; ``answer``: the answer
      the player to move received this turn;
    - ``turn``: :class:`TurnInfo`; ``known``: per seat, cards known to be in that hand because
      they were taken with the pile; ``lone_hand``: the cutthroat lone hand or ``None``;
    - ``result``: a :class:`HandResult` once the hand is over.
    """

    __slots__ = (
        "rules", "dealer", "to_move", "phase", "hands", "stock", "pile", "melds", "red_threes",
        "hidden", "scores", "pile_frozen", "has_melded", "asks", "answer", "turn", "known",
        "lone_hand", "result",
    )

    rules: Rules
    dealer: int
    to_move: int
    phase: str
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    pile: tuple[Card, ...]
    melds: tuple[SideMelds, ...]
    red_threes: tuple[tuple[Card, ...], ...]
    hidden: tuple[tuple[Rank, ...], ...]
    scores: tuple[int, ...]
    pile_frozen: bool
    has_melded: tuple[bool, ...]
    asks: tuple[int, ...]
    answer: str | None
    turn: TurnInfo
    known: tuple[tuple[Card, ...], ...]
    lone_hand: int | None
    result: HandResult | None

    def copy(self) -> State:
        """A shallow copy that the engine may still fill in (a draft): it becomes immutable
        when the engine passes it to :func:`seal`."""
        return _copy_state(self)

    # -- derived facts ----------------------------------------------------------------------
    def owner_of(self, seat: int) -> int:
        """Index into ``melds`` of the melds ``seat`` plays on.

        That is the seat's side, except in the cutthroat preset once the lone hand is known:
        the two other players then share the melds kept under the lower of their seats.
        """
        lone = self.lone_hand
        if lone is None or seat == lone:
            return seat % self.rules.num_sides
        return min(s for s in range(self.rules.num_players) if s != lone)

    def side_has_melded(self, seat: int) -> bool:
        """True when the melds ``seat`` plays on are not empty (red threes do not count)."""
        return any(m is not None for m in self.melds[self.owner_of(seat)])

    def canastas(self, owner: int) -> int:
        """Number of completed canastas (7+ cards) among an owner's melds."""
        size = self.rules.canasta_size
        return sum(1 for m in self.melds[owner] if m is not None and len(m) >= size)

    def partner_seats(self, seat: int) -> list[int]:
        """The other seats of ``seat``'s side (empty without partnerships)."""
        n, k = self.rules.num_players, self.rules.num_sides
        return [s for s in range(n) if s != seat and s % k == seat % k]

    def minimum(self, seat: int) -> int:
        """The initial-meld minimum that applies to ``seat`` (by its side's score)."""
        return self.rules.minimum_for(self.scores[seat % self.rules.num_sides])

    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self.phase == OVER

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in State.__slots__)

    def __hash__(self) -> int:
        return hash((self.hands, self.stock, self.pile, self.melds, self.to_move, self.phase,
                     self.turn, self.answer))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a State is immutable: use canasta.apply to get a new one")

    # A state is a value made of immutable parts, so a copy, deep or shallow, may be the state
    # itself (as for a tuple). Pickling rebuilds it from its fields, without ``__setattr__``.
    def __copy__(self) -> State:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        return self

    def __reduce__(self) -> tuple[Callable[..., State], tuple[object, ...]]:
        return _restore, (type(self) is _Draft, *(getattr(self, n) for n in State.__slots__))

    def __repr__(self) -> str:
        return (f"<State {self.rules.name} dealer={self.dealer} to_move={self.to_move} "
                f"phase={self.phase} stock={len(self.stock)} pile={len(self.pile)}>")

    def __str__(self) -> str:
        from canasta.position import format_state_text

        return format_state_text(self)


class _Draft(State):
    """A state the engine is still filling in: attributes may be set until :func:`seal`."""

    __slots__ = ()
    __setattr__ = object.__setattr__  # type: ignore[assignment]  # plain slot stores: fast

    # A draft can still change, so its copies are new drafts (its fields are immutable values).
    def __copy__(self) -> State:
        return _copy_state(self)

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        return _copy_state(self)


def seal(state: State) -> State:
    """Make a draft from :meth:`State.copy` an immutable :class:`State` (in place)."""
    if type(state) is _Draft:
        state.__class__ = State  # type: ignore[assignment]
    return state


def _make_copier() -> Callable[[State], State]:
    # One generated function with every slot spelled out: copying is on the engine's hot path.
    lines = ["def copy_state(old):", "    new = new_(Draft)"]
    lines += [f"    new.{name} = old.{name}" for name in State.__slots__]
    lines.append("    return new")
    namespace: dict[str, Any] = {"new_": object.__new__, "Draft": _Draft}
    exec("\n".join(lines), namespace)
    copier: Callable[[State], State] = namespace["copy_state"]
    return copier


_copy_state = _make_copier()


def _restore(draft: bool, *values: object) -> State:
    """Unpickle a state (or a draft) from its field values in slot order."""
    state = State.__new__(_Draft if draft else State)
    for name, value in zip(State.__slots__, values, strict=True):
        object.__setattr__(state, name, value)
    return state


def build_state(**fields: object) -> State:
    """A state from every field by name (used by the deal and the position reader)."""
    state = State.__new__(State)
    missing = set(State.__slots__) - set(fields)
    if missing:
        raise TypeError(f"missing state fields: {sorted(missing)}")
    for name, value in fields.items():
        object.__setattr__(state, name, value)
    return state
