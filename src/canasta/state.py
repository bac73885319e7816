"""The state of one hand: who holds what, what lies on the table, whose turn it is.

A :class:`State` is a value: the engine never changes one, it returns a new one
(:func:`canasta.engine.apply`). Its fields are tuples of ints (cards, see :mod:`canasta.cards`),
so states share structure cheaply and can be kept by bots, rooms and records alike.

Melds are kept per *meld owner*: the side of a seat, or in the cutthroat preset the partnership
that forms once the lone hand is known (:meth:`State.owner_of`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple, cast

from canasta import table
from canasta.cards import Card, Rank, card_names, format_card
from canasta.melds import melds_to_json
from canasta.rules import Rules

DRAW: Final = "draw"
PLAY: Final = "play"
ANSWER: Final = "answer"
OVER: Final = "over"
PHASES: Final = (DRAW, PLAY, ANSWER, OVER)

NUM_MELD_RANKS: Final = 12
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


NEW_TURN: Final = TurnInfo()

_TUPLE_NEW: Final = tuple.__new__


def turn_info(took_pile: bool, melded: bool, created: tuple[Rank, ...], extended: bool,
              picked_up: tuple[Card, ...], last_red_three: bool) -> TurnInfo:
    """``TurnInfo(...)`` of a turn not asked before its draw, made without the named tuple's
    Python-level constructor: every take and meld makes one."""
    return _TUPLE_NEW(TurnInfo, (took_pile, melded, created, extended, picked_up, False,
                                 last_red_three))


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


FIELDS: Final = (
    "rules", "dealer", "to_move", "phase", "hands", "stock", "pile", "melds", "red_threes",
    "hidden", "scores", "pile_frozen", "has_melded", "asks", "answer", "turn", "known",
    "lone_hand", "result",
)
"""The fields of a state, in the order a pickle keeps them."""

COMPILED: Final = not __file__.endswith(".py")
"""True when this module runs compiled (an extension module) rather than interpreted."""


class HandState:
    """One moment of one hand: the fields and the facts derived from them.

    Two kinds exist: a :class:`State`, which never changes, and a :class:`Draft`, which the
    engine fills in before it seals it into a state (:func:`seal`). Functions that only read
    accept either.

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

    __slots__ = FIELDS

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

    def copy(self) -> Draft:
        """A draft with the same fields, for the engine to fill in and :func:`seal`."""
        # Every field spelled out: copying is on the engine's hot path, and these plain stores
        # compile to direct ones.
        new = Draft.__new__(Draft)
        new.rules = self.rules
        new.dealer = self.dealer
        new.to_move = self.to_move
        new.phase = self.phase
        new.hands = self.hands
        new.stock = self.stock
        new.pile = self.pile
        new.melds = self.melds
        new.red_threes = self.red_threes
        new.hidden = self.hidden
        new.scores = self.scores
        new.pile_frozen = self.pile_frozen
        new.has_melded = self.has_melded
        new.asks = self.asks
        new.answer = self.answer
        new.turn = self.turn
        new.known = self.known
        new.lone_hand = self.lone_hand
        new.result = self.result
        return new

    def _sealed_copy(self) -> State:
        # The compiled build's seal (a native object cannot change its class). Inside the class
        # that declares the fields, object.__setattr__ with a literal name compiles to a direct
        # store that State.__setattr__ does not see.
        state = State.__new__(State)
        object.__setattr__(state, "rules", self.rules)
        object.__setattr__(state, "dealer", self.dealer)
        object.__setattr__(state, "to_move", self.to_move)
        object.__setattr__(state, "phase", self.phase)
        object.__setattr__(state, "hands", self.hands)
        object.__setattr__(state, "stock", self.stock)
        object.__setattr__(state, "pile", self.pile)
        object.__setattr__(state, "melds", self.melds)
        object.__setattr__(state, "red_threes", self.red_threes)
        object.__setattr__(state, "hidden", self.hidden)
        object.__setattr__(state, "scores", self.scores)
        object.__setattr__(state, "pile_frozen", self.pile_frozen)
        object.__setattr__(state, "has_melded", self.has_melded)
        object.__setattr__(state, "asks", self.asks)
        object.__setattr__(state, "answer", self.answer)
        object.__setattr__(state, "turn", self.turn)
        object.__setattr__(state, "known", self.known)
        object.__setattr__(state, "lone_hand", self.lone_hand)
        object.__setattr__(state, "result", self.result)
        return state

    # -- derived facts ----------------------------------------------------------------------
    def owner_of(self, seat: int) -> int:
        """Index into ``melds`` of the melds ``seat`` plays on (:func:`canasta.table.owner_of`)."""
        return table.owner_of(self.rules, seat, self.lone_hand)

    def side_has_melded(self, seat: int) -> bool:
        """True when the melds ``seat`` plays on are not empty (red threes do not count)."""
        return table.has_melded(self.melds[self.owner_of(seat)])

    def canastas(self, owner: int) -> int:
        """Number of completed canastas among an owner's melds."""
        return table.canastas(self.rules, self.melds[owner])

    def freeze_for(self, seat: int) -> table.Freeze:
        """Whether, why and by which card the pile is frozen for ``seat`` (RULES §1.11)."""
        return table.freeze_for(self.rules, self.pile, self.pile_frozen,
                                self.side_has_melded(seat))

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

    def fields(self) -> tuple[object, ...]:
        """The values of :data:`FIELDS`, in order."""
        return (self.rules, self.dealer, self.to_move, self.phase, self.hands, self.stock,
                self.pile, self.melds, self.red_threes, self.hidden, self.scores,
                self.pile_frozen, self.has_melded, self.asks, self.answer, self.turn,
                self.known, self.lone_hand, self.result)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandState):
            return NotImplemented
        return self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash((self.hands, self.stock, self.pile, self.melds, self.to_move, self.phase,
                     self.turn, self.answer))

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.rules.name} dealer={self.dealer} "
                f"to_move={self.to_move} phase={self.phase} stock={len(self.stock)} "
                f"pile={len(self.pile)}>")

    def __str__(self) -> str:
        return format_state_text(self)


class State(HandState):
    """One moment of one hand, never changed: the engine returns new states
    (:func:`canasta.engine.apply`). See :class:`HandState` for the fields."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a State is immutable: use canasta.apply to get a new one")

    # A state is a value made of immutable parts, so a copy, deep or shallow, may be the state
    # itself (as for a tuple). Pickling rebuilds it from its fields.
    def __copy__(self) -> State:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        return self

    def __reduce__(self) -> tuple[Callable[..., HandState], tuple[object, ...]]:
        return _restore, (False, *self.fields())


class Draft(HandState):
    """A state the engine is still filling in: its fields may be set until :func:`seal`."""

    __slots__ = ()

    # A draft can still change, so its copies are new drafts (its fields are immutable values).
    def __copy__(self) -> Draft:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Draft:
        return self.copy()

    def __reduce__(self) -> tuple[Callable[..., HandState], tuple[object, ...]]:
        return _restore, (True, *self.fields())


def seal(draft: Draft) -> State:
    """The immutable :class:`State` of a filled-in draft; the draft is not to be used after."""
    if COMPILED:
        return draft._sealed_copy()
    # Interpreted, the draft becomes the state in place: the two classes share one layout.
    draft.__class__ = State  # type: ignore[assignment]
    return cast(State, draft)


def _restore(draft: bool, *values: object) -> HandState:
    """Unpickle a state (or a draft) from its field values in :data:`FIELDS` order."""
    new = Draft.__new__(Draft)
    for name, value in zip(FIELDS, values, strict=True):
        setattr(new, name, value)
    return new if draft else seal(new)


def build_state(**fields: object) -> State:
    """A state from every field by name (used by the deal and the position reader)."""
    missing = set(FIELDS) - set(fields)
    if missing:
        raise TypeError(f"missing state fields: {sorted(missing)}")
    draft = Draft.__new__(Draft)
    for name, value in fields.items():
        setattr(draft, name, value)
    return seal(draft)


def format_state_text(state: HandState) -> str:
    """A plain-text picture of the whole state (every hand shown), for debugging and docs."""
    lines = [f"{state.rules.name}: dealer p{state.dealer}, p{state.to_move} to move "
             f"({state.phase}), stock {len(state.stock)}"]
    pile = " ".join(format_card(c) for c in state.pile) or "(empty)"
    lines.append(f"pile: {pile}{' [frozen]' if state.pile_frozen else ''}")
    for s, hand in enumerate(state.hands):
        lines.append(f"p{s}: {' '.join(card_names(hand))}")
    for i in range(state.rules.num_sides):
        melds = ", ".join(f"{r}: {' '.join(c)}" for r, c in melds_to_json(state.melds[i]).items())
        reds = " ".join(card_names(state.red_threes[i]))
        lines.append(f"side {i} ({state.scores[i]}): {melds or 'no melds'}"
                     + (f"; red threes {reds}" if reds else ""))
    if state.result is not None:
        totals = ", ".join(str(s.total) for s in state.result.sides)
        lines.append(f"over: went out {state.result.went_out}; scores {totals}")
    return "\n".join(lines)
