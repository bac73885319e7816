"""A toy family of rules, whole in one module: how a family joins canasta (docs/families.md).

*Toy Rummy* is played with one pack of 52 cards by two players, seven cards each: draw a
card from the stock, lay sets of three or more cards of one natural rank (fours to aces), then
discard one card. Twos and threes are never laid: they are cards to get rid of. A player who
empties the hand goes out; the hand also ends when the stock runs out. Each side scores its
laid cards' values less the cards left in its hand; after three hands the higher total wins (a
tie plays another hand).

Registering the family (:func:`register`) is all it takes for ``canasta.new_hand``,
``canasta.apply``, ``canasta.Game``, ``canasta legal``, the arena and the research adapters to
play it:

>>> import canasta
>>> family = register()
>>> hand = canasta.new_hand(canasta.get_rules("toy-rummy"), seed=1)
>>> [str(a) for a in canasta.legal_actions(hand)]
['draw']
>>> canasta.apply(hand, "draw").phase
'play'
>>> unregister()
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final

from canasta.actions import Action, Group, format_action
from canasta.cards import (
    IS_NATURAL,
    NATURAL_RANKS,
    RANK_OF,
    Card,
    card_names,
    format_card,
    make_pack,
    parse_cards,
    rank_char,
)
from canasta.errors import IllegalActionError, PositionError, RulesError
from canasta.family import Family, register_family, unregister_family
from canasta.rules import Rules

NAME: Final = "toy-rummy"


@dataclass(frozen=True)
class ToyRules(Rules):
    """Toy Rummy's rule set: the classic fields it uses (players, pack, hand size, card values),
    nothing else."""

    def to_json(self) -> str:
        """The rules as a position or record holds them: the preset's name (no house rules)."""
        return NAME


TOY: Final = ToyRules(name=NAME, num_players=2, num_sides=2, num_decks=1, num_jokers=0,
                      hand_size=7, permission_question_enabled=False,
                      black_three_meld_sizes=())
HANDS: Final = 3
"""The hands of a game."""


@dataclass(frozen=True)
class ToyHand:
    """One moment of a hand: the hands, the stock (top first), the discards (top last), the
    cards each side laid, and the result once the hand is over."""

    rules: ToyRules
    dealer: int
    to_move: int
    phase: str
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    pile: tuple[Card, ...]
    laid: tuple[tuple[Card, ...], ...]
    scores: tuple[int, ...]
    number: int = 1
    result: tuple[int, ...] | None = None

    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self.result is not None


@dataclass(frozen=True)
class ToyObservation:
    """What one seat sees: its own hand, the table, how many cards the others hold."""

    rules: ToyRules
    seat: int
    to_move: int
    phase: str
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    pile: tuple[Card, ...]
    laid: tuple[tuple[Card, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """The seat's view as JSON."""
        return {"rules": NAME, "seat": self.seat, "to_move": self.to_move, "phase": self.phase,
                "hands": [card_names(self.hand) if s == self.seat else n
                          for s, n in enumerate(self.hand_sizes)],
                "stock": self.stock_size, "pile": card_names(self.pile),
                "laid": [card_names(cards) for cards in self.laid]}


def _problem(hand: ToyHand, action: Action) -> str | None:
    """Why ``action`` is refused, or ``None``: the one source of the rules."""
    if hand.is_over:
        return "the hand is over"
    held = hand.hands[hand.to_move]
    if action.verb == "draw":
        return None if hand.phase == "draw" else "you have drawn already: lay sets or discard"
    if hand.phase != "play":
        return "draw a card first"
    if action.verb == "discard":
        return None if action.card in held else f"you do not hold {format_card(action.card)}"
    if action.verb != "meld" or len(action.groups) != 1:
        return "the verbs are draw, meld (one set at a time) and discard"
    cards = action.groups[0].cards
    if Counter(cards) - Counter(held):
        return "you do not hold those cards"
    if len(cards) < 3 or not all(IS_NATURAL[c] for c in cards) or len(
            {RANK_OF[c] for c in cards}) != 1:
        return "a set is three or more cards of one rank from fours to aces"
    return None


def _legal(hand: ToyHand) -> list[Action]:
    if hand.is_over:
        return []
    if hand.phase == "draw":
        return [Action("draw")]
    held = hand.hands[hand.to_move]
    melds = []
    for rank in reversed(NATURAL_RANKS):
        cards = tuple(c for c in held if RANK_OF[c] == rank and IS_NATURAL[c])
        for size in range(3, len(cards) + 1):
            melds.append(Action("meld", (Group(rank, cards[:size]),)))
    return melds + [Action("discard", (), c) for c in sorted(set(held))]


def _score(hand: ToyHand, ended: ToyHand) -> ToyHand:
    value = hand.rules.value_of
    totals = tuple(sum(value[c] for c in ended.laid[s]) - sum(value[c] for c in ended.hands[s])
                   for s in range(hand.rules.num_sides))
    return replace(ended, phase="over", result=totals)


def _apply(hand: ToyHand, action: Action) -> ToyHand:
    why = _problem(hand, action)
    if why is not None:
        raise IllegalActionError(format_action(action), why)
    seat = hand.to_move
    hands = list(hand.hands)
    if action.verb == "draw":
        if not hand.stock:
            return _score(hand, hand)
        hands[seat] = tuple(sorted((*hands[seat], hand.stock[0])))
        return replace(hand, hands=tuple(hands), stock=hand.stock[1:], phase="play")
    left = Counter(hands[seat])
    gone = action.groups[0].cards if action.verb == "meld" else (action.card,)
    left.subtract(gone)
    hands[seat] = tuple(sorted(left.elements()))
    after = replace(hand, hands=tuple(hands))
    if action.verb == "meld":
        laid = tuple(tuple(sorted((*cards, *gone))) if s == seat else cards
                     for s, cards in enumerate(hand.laid))
        after = replace(after, laid=laid)
    else:
        after = replace(after, pile=(*hand.pile, action.card), phase="draw",
                        to_move=(seat + 1) % hand.rules.num_players)
    if not hands[seat] or (after.phase == "draw" and not after.stock):
        return _score(hand, after)
    return after


class ToyFamily(Family):
    """Toy Rummy as a family of rules (see the module docstring)."""

    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Toy Rummy"
    rules_class: ClassVar[type[Rules]] = ToyRules
    bots_module: ClassVar[str] = __name__
    research_module: ClassVar[str] = ""
    """No module of its own: the research adapters spell its actions and write its tensor from
    what every family's observation and facts state (:mod:`canasta.rl.research`)."""

    def presets(self) -> Mapping[str, Rules]:
        return {NAME: TOY}

    def rules_from_json(self, value: Any) -> Rules:
        if value == NAME or value == {"preset": NAME}:
            return TOY
        raise RulesError(f"{NAME} has no house rules: {value!r}")

    def shuffled_pack(self, rules: Rules, seed: int | None) -> list[Card]:
        pack = make_pack(rules.num_decks, rules.num_jokers)
        random.Random(seed).shuffle(pack)
        return pack

    def new_hand(self, rules: Rules, seed: int | None = None, *,
                 deck: Sequence[Card] | None = None, dealer: int | None = None,
                 scores: Sequence[int] | None = None, number: int = 1) -> ToyHand:
        assert isinstance(rules, ToyRules)
        cards = list(deck) if deck is not None else self.shuffled_pack(rules, seed)
        if sorted(cards) != sorted(make_pack(rules.num_decks, rules.num_jokers)):
            raise PositionError("the deck is not the 52-card pack")
        dealer = rules.first_dealer if dealer is None else dealer
        n, size = rules.num_players, rules.hand_size
        hands = tuple(tuple(sorted(cards[s * size:(s + 1) * size])) for s in range(n))
        return ToyHand(rules, dealer, (dealer + 1) % n, "draw", hands, tuple(cards[n * size:]),
                       (), ((),) * rules.num_sides, tuple(scores or (0,) * rules.num_sides),
                       number)

    def legal_actions(self, position: Any) -> list[Action]:
        return _legal(position)

    def apply(self, position: Any, action: Action) -> ToyHand:
        return _apply(position, action)

    def problem(self, position: Any, action: Action) -> str | None:
        return _problem(position, action)

    def observe(self, position: Any, seat: int) -> ToyObservation:
        h: ToyHand = position
        return ToyObservation(h.rules, seat, h.to_move, h.phase, h.hands[seat],
                              tuple(len(cards) for cards in h.hands), len(h.stock), h.pile,
                              h.laid)

    def totals(self, position: Any) -> tuple[int, ...]:
        if position.result is None:
            raise ValueError("the hand is not over")
        return tuple(position.result)

    def winner(self, rules: Rules, scores: Sequence[int], position: Any) -> int | None:
        best = max(scores)
        if position.number < HANDS or list(scores).count(best) > 1:
            return None
        return list(scores).index(best)

    def with_stock(self, position: Any, stock: tuple[Card, ...]) -> ToyHand:
        return replace(position, stock=stock)

    def position_to_json(self, position: Any) -> dict[str, Any]:
        h: ToyHand = position
        out: dict[str, Any] = {
            "rules": NAME, "dealer": h.dealer, "to_move": h.to_move, "phase": h.phase,
            "hands": [card_names(cards) for cards in h.hands],
            "stock": card_names(h.stock), "pile": card_names(h.pile),
            "laid": [card_names(cards) for cards in h.laid], "scores": list(h.scores),
            "hand_number": h.number}
        if h.result is not None:
            out["result"] = list(h.result)
        return out

    def position_from_json(self, data: Any) -> ToyHand:
        try:
            return ToyHand(TOY, int(data["dealer"]), int(data["to_move"]), str(data["phase"]),
                           tuple(tuple(sorted(parse_cards(h))) for h in data["hands"]),
                           tuple(parse_cards(data["stock"])), tuple(parse_cards(data["pile"])),
                           tuple(tuple(sorted(parse_cards(c))) for c in data["laid"]),
                           tuple(data.get("scores", (0, 0))), int(data.get("hand_number", 1)),
                           tuple(data["result"]) if data.get("result") else None)
        except (KeyError, TypeError, ValueError) as e:
            raise PositionError(f"not a {NAME} position: {e}") from None

    def result_to_json(self, position: Any) -> dict[str, Any] | None:
        if position.result is None:
            return None
        return {"sides": [{"total": t} for t in position.result]}

    def facts(self, observation: Any) -> dict[str, Any]:
        obs: ToyObservation = observation
        rules = obs.rules
        return {"family": NAME, "title": self.title, "num_players": rules.num_players,
                "num_sides": rules.num_sides, "partners": [[0], [1]], "canasta_size": 3,
                "canastas_to_go_out": 0, "canasta_name": ["canasta", "canastas"],
                "opening_minimum": [0, 0],
                "meld_keys": [rank_char(r) for r in reversed(NATURAL_RANKS)],
                "canastas": [0, 0],
                "pile": {"size": len(obs.pile),
                         "top": format_card(obs.pile[-1]) if obs.pile else None,
                         "frozen": True, "why": "the discards are never taken"},
                "stock": obs.stock_size, "seat_notes": ["", ""],
                "game_end": {"target": None, "deals": HANDS}}


BOTS: dict[str, Any] = {}
"""No bots of its own: the ``random`` bot plays every family."""
LEVELS: dict[str, str] = {"easy": "random", "medium": "random", "hard": "random",
                          "expert": "random"}
HINT_LEVEL: Final = "easy"

FAMILY: Final = ToyFamily()


def register() -> ToyFamily:
    """Register Toy Rummy (its preset ``toy-rummy`` becomes known everywhere)."""
    register_family(FAMILY)
    return FAMILY


def unregister() -> None:
    """Forget Toy Rummy again."""
    unregister_family(NAME)
