"""Hand and Foot positions as JSON (NOTATION §3 with the family's additions, docs/notation.md).

Beside NOTATION's keys a position holds ``feet`` (each seat's foot while it waits, unseen by
everyone), ``foot_state`` (per seat ``hand``, ``pending`` or ``foot``), ``deal_number``, each
side's ``books`` (a list of seven-card melds) beside its open ``melds`` (rank -> cards, ``W``
for a meld of wild cards), and ``pile_frozen``, ``asked``, ``answer``, ``asks`` and
``stock_out`` where they are set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from canasta.cards import (
    RANK_CHARS,
    Card,
    card_names,
    format_card,
    make_pack,
    parse_cards,
    parse_rank,
)
from canasta.errors import NotationError, PositionError, RulesError
from canasta.hand_and_foot.action_text import WILD_KEY, key_text
from canasta.hand_and_foot.deal import (
    IN_FOOT,
    NO_MELDS,
    WILD_MELD,
    Deal,
    Ending,
    Melds,
    SideScore,
)
from canasta.hand_and_foot.knobs import rules_from_json

FOOT_STATES: Final = ("hand", "pending", "foot")
PHASES: Final = ("draw", "play", "answer", "over")
SCORE_PARTS: Final = ("melded", "books", "red_threes", "going_out", "in_hand", "total")


def in_order(cards: tuple[Card, ...]) -> list[str]:
    """Cards whose order matters (the stock, top first; the pile, top last) as JSON."""
    return [format_card(c) for c in cards]


def melds_to_json(melds: Melds) -> dict[str, list[str]]:
    """A side's open melds as ``{"K": [...], "W": [...]}``, aces first."""
    return {key_text(k): card_names(m) for k in (*range(10, -1, -1), WILD_MELD)
            if (m := melds[k]) is not None}


def end_to_json(end: Ending) -> dict[str, Any]:
    """How the deal ended and each side's score with its parts."""
    return {"went_out": end.went_out,
            "sides": [{part: getattr(s, part) for part in SCORE_PARTS} for s in end.sides]}


def deal_to_json(deal: Deal) -> dict[str, Any]:
    """The whole position as JSON."""
    out: dict[str, Any] = {
        "rules": deal.rules.to_json(), "dealer": deal.dealer, "to_move": deal.to_move,
        "phase": deal.phase, "deal_number": deal.number,
        "hands": [card_names(h) for h in deal.hands],
        "feet": [card_names(f) for f in deal.feet],
        "foot_state": [FOOT_STATES[s] for s in deal.foot_state],
        "stock": in_order(deal.stock), "pile": in_order(deal.pile),
        "sides": [{"score": deal.scores[s], "melds": melds_to_json(deal.melds[s]),
                   "books": [card_names(b) for b in deal.books[s]],
                   "red_threes": in_order(deal.red_threes[s])}
                  for s in range(deal.rules.num_sides)],
    }
    if any(deal.played_from_foot):
        out["played_from_foot"] = list(deal.played_from_foot)
    if deal.pile_frozen:
        out["pile_frozen"] = True
    if deal.asked:
        out["asked"] = True
    if deal.answer is not None:
        out["answer"] = deal.answer
    if any(deal.asks):
        out["asks"] = list(deal.asks)
    if deal.stock_out:
        out["stock_out"] = True
    if deal.end is not None:
        out["result"] = end_to_json(deal.end)
    return out


def _cards(value: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise PositionError(f"{what} must be a list of cards")
    try:
        return tuple(parse_cards(" ".join(str(v) for v in value)))
    except NotationError as e:
        raise PositionError(f"{what}: {e}") from None


def _seat(value: Any, what: str, n: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise PositionError(f"{what} must be a seat 0..{n - 1}, not {value!r}")
    return value


def _melds(value: Any, what: str) -> Melds:
    if not isinstance(value, Mapping):
        raise PositionError(f"{what} must be an object rank -> cards")
    melds = list(NO_MELDS)
    for key, cards in value.items():
        k = str(key).strip().upper()
        try:
            index = WILD_MELD if k in (WILD_KEY, "*") else parse_rank(k)
        except NotationError:
            raise PositionError(f"{what}: {key!r} is not a meld key") from None
        if index != WILD_MELD and index >= len(RANK_CHARS) - 2:
            raise PositionError(f"{what}: threes and twos make no meld of their own")
        melds[index] = tuple(sorted(_cards(cards, f"{what}[{key}]")))
    return tuple(melds)


def deal_from_json(data: Any) -> Deal:
    """A position from its JSON, checked; :class:`PositionError` names what is wrong."""
    if not isinstance(data, Mapping):
        raise PositionError("a position must be a JSON object")
    try:
        rules = rules_from_json(data.get("rules"))
    except RulesError as e:
        raise PositionError(str(e)) from None
    n, sides = rules.num_players, rules.num_sides
    for key in ("dealer", "to_move", "phase", "hands", "stock", "pile", "sides"):
        if key not in data:
            raise PositionError(f"the position lacks {key!r}")
    phase = data["phase"]
    if phase not in PHASES:
        raise PositionError(f"phase must be one of {list(PHASES)}, not {phase!r}")
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        raise PositionError(f"hands must hold {n} seats' cards")
    feet = data.get("feet", [[] for _ in range(n)])
    if not isinstance(feet, list) or len(feet) != n:
        raise PositionError(f"feet must hold {n} seats' cards")
    states = data.get("foot_state", ["hand"] * n)
    if not isinstance(states, list) or len(states) != n or any(s not in FOOT_STATES
                                                               for s in states):
        raise PositionError(f"foot_state must hold one of {list(FOOT_STATES)} per seat")
    side_data = data["sides"]
    if not isinstance(side_data, list) or len(side_data) != sides or not all(
            isinstance(s, Mapping) for s in side_data):
        raise PositionError(f"sides must hold {sides} objects")
    number = data.get("deal_number", 1)
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise PositionError("deal_number counts the deals of a game from 1")
    played = data.get("played_from_foot", [False] * n)
    asks = data.get("asks", [0] * n)
    if not isinstance(played, list) or len(played) != n or not isinstance(asks, list) or len(
            asks) != n:
        raise PositionError(f"played_from_foot and asks hold one value per seat ({n})")
    answer = data.get("answer")
    if answer not in (None, "yes", "no"):
        raise PositionError("answer is 'yes', 'no' or null")
    scores = []
    for s in side_data:
        score = s.get("score", 0)
        if isinstance(score, bool) or not isinstance(score, int):
            raise PositionError("a side's score is an integer")
        scores.append(score)
    foot_state = tuple(FOOT_STATES.index(s) for s in states)
    deal = Deal(
        rules=rules, dealer=_seat(data["dealer"], "dealer", n),
        to_move=_seat(data["to_move"], "to_move", n), phase=phase,
        hands=tuple(tuple(sorted(_cards(h, f"hands[{i}]"))) for i, h in enumerate(hands)),
        feet=tuple(tuple(sorted(_cards(f, f"feet[{i}]"))) for i, f in enumerate(feet)),
        foot_state=foot_state, played_from_foot=tuple(bool(p) for p in played),
        stock=_cards(data["stock"], "stock"), pile=_cards(data["pile"], "pile"),
        melds=tuple(_melds(s.get("melds", {}), f"sides[{i}].melds")
                    for i, s in enumerate(side_data)),
        books=tuple(tuple(tuple(sorted(_cards(b, f"sides[{i}].books"))) for b in
                          s.get("books", [])) for i, s in enumerate(side_data)),
        red_threes=tuple(_cards(s.get("red_threes", []), f"sides[{i}].red_threes")
                         for i, s in enumerate(side_data)),
        scores=tuple(scores), number=number, pile_frozen=bool(data.get("pile_frozen", False)),
        asked=bool(data.get("asked", False)), answer=answer,
        asks=tuple(int(a) for a in asks), stock_out=bool(data.get("stock_out", False)),
        end=_ending(data))
    _check(deal)
    return deal


def _ending(data: Mapping[str, Any]) -> Ending | None:
    """The result of a position, present exactly when its phase is ``over``."""
    if (data["phase"] == "over") != ("result" in data):
        raise PositionError("a position holds 'result' exactly when its phase is 'over'")
    if "result" not in data:
        return None
    result = data["result"]
    try:
        return Ending(result.get("went_out"),
                      tuple(SideScore(**{p: int(s[p]) for p in SCORE_PARTS})
                            for s in result["sides"]))
    except (AttributeError, KeyError, TypeError, ValueError):
        raise PositionError("result: {\"went_out\": seat or null, \"sides\": [{"
                            + ", ".join(SCORE_PARTS) + "}, ...]}") from None


def _check(deal: Deal) -> None:
    """More copies of a card than the pack holds, or a foot both waiting and picked up:
    invalid."""
    pack = Counter(make_pack(deal.rules.num_decks, deal.rules.num_jokers))
    seen: Counter[Card] = Counter()
    for cards in (*deal.hands, *deal.feet, deal.stock, deal.pile, *deal.red_threes,
                  *(m for side in deal.melds for m in side if m is not None),
                  *(b for side in deal.books for b in side)):
        seen.update(cards)
    extra = seen - pack
    if extra:
        raise PositionError("more copies than the pack holds: "
                            + " ".join(card_names(sorted(extra.elements()))[:6]))
    for seat, state in enumerate(deal.foot_state):
        if state == IN_FOOT and deal.feet[seat]:
            raise PositionError(f"seat {seat} has picked up its foot, which is not empty")
