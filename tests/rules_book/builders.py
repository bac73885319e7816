"""Position and deal builders for the rules book (NOTATION §3 positions, NOTATION §4 deals).

A scenario names only the cards that matter; everything else gets sensible defaults:

* seats whose hand is not given hold two filler cards;
* the stock, when not given, holds six filler cards;
* filler cards are natural cards the scenario has not used, so a position never holds more copies
  of a card than the rules' pack (the position loader rejects that).

Seats follow RULES §7: N = 0, E = 1, S = 2, W = 3, and the side of seat ``s`` is
``s % num_sides`` (2- and 3-player presets: each seat is its own side).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import canasta
from canasta import Rules, SideResult, State, format_card, get_rules, parse_card
from canasta.cards import IS_RED_THREE, make_pack

PRESETS: tuple[str, ...] = (
    "classic",
    "classic-2p",
    "classic-3p",
    "classic-3p-cutthroat",
    "classic-6p",
    "korean-old",
    "spruce-classic",
)
"""Every preset of RULES §6 (``classic`` is classic-4p) plus the cutthroat preset of §2.2."""

N, E, S, W = 0, 1, 2, 3
"""Seats of the four-player presets (RULES §7)."""

_FILLER_RANKS = "456789TJQKA"
_FILLER_ORDER: tuple[str, ...] = tuple(r + s for s in "cdhs" for r in _FILLER_RANKS)


def presets_where(predicate: Callable[[Rules], bool]) -> list[str]:
    """The preset names whose rules satisfy ``predicate`` (RULES §6 decides where a rule holds)."""
    return [name for name in PRESETS if predicate(get_rules(name))]


def cards(text: str | Sequence[str]) -> list[str]:
    """Space-separated card text (or a list of card strings) as a list of card strings."""
    return text.split() if isinstance(text, str) else list(text)


def kind(rank: str, count: int, suits: str = "cdhs") -> str:
    """``count`` cards of one rank, suits taken in turn: ``kind("K", 3) == "Kc Kd Kh"``."""
    return " ".join(rank + suits[i % len(suits)] for i in range(count))


def side_of(rules: Rules, seat: int) -> int:
    """The side of a seat (RULES §0.2, §6 ``side_of_seat``)."""
    return seat % rules.num_sides


def partner(rules: Rules, seat: int) -> int | None:
    """The first partner of ``seat`` (the seat ``num_sides`` further on), or ``None``."""
    if not rules.partnership:
        return None
    return (seat + rules.num_sides) % rules.num_players


def pack_counts(rules: Rules) -> Counter[str]:
    """How many copies of each card (by canonical text) the rules' pack holds."""
    return Counter(format_card(c) for c in make_pack(rules.num_decks, rules.num_jokers))


def _canon(text: str) -> str:
    return format_card(parse_card(text))


def _take_filler(left: Counter[str], count: int) -> list[str]:
    """``count`` filler cards from ``left`` (natural cards, ranks in turn); updates ``left``."""
    out: list[str] = []
    while len(out) < count:
        progress = False
        for name in _FILLER_ORDER:
            if len(out) == count:
                break
            if left[name] > 0:
                left[name] -= 1
                out.append(name)
                progress = True
        if not progress:
            raise ValueError("the pack has no filler cards left")
    return out


def position_json(
    preset: str = "classic",
    *,
    to_move: int = N,
    phase: str = "play",
    dealer: int | None = None,
    hands: Mapping[int, str] | None = None,
    stock: str | None = None,
    pile: str = "",
    scores: Sequence[int] | None = None,
    melds: Mapping[int, Mapping[str, str | Sequence[str]]] | None = None,
    red_threes: Mapping[int, str | Sequence[str]] | None = None,
    hidden: Mapping[int, Sequence[str]] | None = None,
    filler: int = 2,
    **extra: Any,
) -> dict[str, Any]:
    """A NOTATION §3 position as a JSON-ready dict.

    ``hands``, ``melds``, ``red_threes`` and ``hidden`` are keyed by seat or by side; cards are
    space-separated text. ``extra`` holds optional position keys (``pile_frozen``, ``has_melded``,
    ``asks``, ``answer``, ``turn``). Seats without a hand get ``filler`` filler cards; a stock that
    is not given gets six.
    """
    rules = get_rules(preset)
    n, k = rules.num_players, rules.num_sides
    hands = dict(hands or {})
    melds = dict(melds or {})
    red_threes = dict(red_threes or {})
    hidden = dict(hidden or {})
    used: Counter[str] = Counter()
    for text in hands.values():
        used.update(_canon(c) for c in cards(text))
    for side_melds in melds.values():
        for meld in side_melds.values():
            used.update(_canon(c) for c in cards(meld))
    for reds in red_threes.values():
        used.update(_canon(c) for c in cards(reds))
    used.update(_canon(c) for c in cards(pile))
    if stock is not None:
        used.update(_canon(c) for c in cards(stock))
    left = pack_counts(rules)
    left.subtract(used)
    hand_lists = [
        cards(hands[s]) if s in hands else _take_filler(left, filler) for s in range(n)
    ]
    stock_list = cards(stock) if stock is not None else _take_filler(left, 6)
    sides: list[dict[str, Any]] = []
    for i in range(k):
        side: dict[str, Any] = {"score": scores[i] if scores is not None else 0}
        side["melds"] = {rank: cards(text) for rank, text in melds.get(i, {}).items()}
        side["red_threes"] = cards(red_threes.get(i, ""))
        if i in hidden:
            side["hidden_canastas"] = list(hidden[i])
        sides.append(side)
    data: dict[str, Any] = {
        "rules": preset,
        "dealer": (to_move - 1) % n if dealer is None else dealer,
        "to_move": to_move,
        "phase": phase,
        "hands": hand_lists,
        "stock": stock_list,
        "pile": cards(pile),
        "sides": sides,
    }
    data.update(extra)
    return data


def position(preset: str = "classic", **kwargs: Any) -> State:
    """The :class:`~canasta.State` of :func:`position_json`, read by ``state_from_json``."""
    return canasta.state_from_json(position_json(preset, **kwargs))


def over(preset: str = "classic", **kwargs: Any) -> State:
    """A position in phase ``over`` with no one gone out; the loader scores it (RULES §1.17)."""
    kwargs.setdefault("stock", "")
    return position(preset, phase="over", **kwargs)


def has_melded(rules: Rules, melded: Sequence[int]) -> list[bool]:
    """The ``has_melded`` array: True exactly for the seats in ``melded``."""
    return [s in melded for s in range(rules.num_players)]


def canastas_for_going_out(rules: Rules, ranks: str = "QJT9") -> dict[str, str]:
    """Natural canastas of seven cards, as many as the rules need to go out (RULES §1.13, §2)."""
    out = {}
    for rank in ranks[: rules.min_canastas_to_go_out]:
        out[rank] = kind(rank, 7)
    return out


def deck_for(
    preset: str,
    *,
    dealer: int,
    hands: Mapping[int, str],
    upcards: str,
    stock_top: str = "",
) -> list[int]:
    """A full pack order (top first) that deals ``hands`` and turns ``upcards`` (NOTATION §4).

    Hands are completed with natural filler cards; after the upcards come ``stock_top`` and then
    the rest of the pack, red threes last, so that no red three is dealt or drawn unless named.
    """
    rules = get_rules(preset)
    n = rules.num_players
    left = pack_counts(rules)
    named: list[str] = []
    for text in hands.values():
        named.extend(_canon(c) for c in cards(text))
    named.extend(_canon(c) for c in cards(upcards))
    named.extend(_canon(c) for c in cards(stock_top))
    left.subtract(named)
    if any(v < 0 for v in left.values()):
        raise ValueError(f"the deal names more cards than the pack holds: {-left}")
    full: dict[int, list[str]] = {}
    for seat in range(n):
        given = cards(hands.get(seat, ""))
        full[seat] = given + _take_filler(left, rules.hand_size - len(given))
    order: list[str] = []
    for i in range(n * rules.hand_size):
        seat = (dealer + 1 + i) % n
        order.append(full[seat][i // n])
    order.extend(cards(upcards))
    order.extend(cards(stock_top))
    rest = sorted(left.elements(), key=lambda c: IS_RED_THREE[parse_card(c)])
    order.extend(rest)
    deck = [parse_card(c) for c in order]
    assert len(deck) == rules.deck_size
    return deck


def deal(
    preset: str,
    *,
    dealer: int,
    hands: Mapping[int, str],
    upcards: str,
    stock_top: str = "",
    scores: Sequence[int] | None = None,
) -> State:
    """``canasta.new_hand`` from the pack order of :func:`deck_for`."""
    deck = deck_for(preset, dealer=dealer, hands=hands, upcards=upcards, stock_top=stock_top)
    return canasta.new_hand(get_rules(preset), deck=deck, dealer=dealer, scores=scores)


def hand_of(state: State, seat: int) -> list[str]:
    """The cards in a seat's hand, as canonical text in canonical order."""
    return [format_card(c) for c in sorted(state.hands[seat])]


def meld_of(state: State, side: int, rank: str) -> list[str]:
    """A side's meld of ``rank`` as canonical text (``[]`` when there is none)."""
    melds: dict[str, list[str]] = canasta.state_to_json(state)["sides"][side]["melds"]
    return melds.get(rank, [])


def table_result(state: State, side: int = 0) -> SideResult:
    """What ``side`` scores if the hand ends now, its hands empty (RULES §1.17).

    The melds, red threes and hidden canastas lie as in ``state``; no one goes out.
    """
    data = canasta.state_to_json(state)
    sides = data["sides"]
    ended = over(
        data["rules"],
        hands={s: "" for s in range(state.rules.num_players)},
        melds={i: sd["melds"] for i, sd in enumerate(sides)},
        red_threes={i: sd["red_threes"] for i, sd in enumerate(sides)},
        hidden={i: sd.get("hidden_canastas", []) for i, sd in enumerate(sides)},
    )
    assert ended.result is not None
    return ended.result.sides[side]
