"""Positions as JSON (NOTATION §3), and a plain-text rendering of a state.

:func:`state_to_json` writes every required key and the optional keys that matter;
:func:`state_from_json` reads a position, filling defaults and rejecting anything invalid with a
:class:`~canasta.errors.PositionError` (or :class:`~canasta.errors.NotationError` /
:class:`~canasta.errors.RulesError`). ``state_from_json(state_to_json(s)) == s``.

Keys beyond NOTATION §3, documented in ``docs/notation.md``: ``turn`` (what the player to move has
done this turn), ``known`` (cards known to be in each hand because they were taken with the
pile) and ``lone_hand`` (cutthroat).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, NamedTuple, cast

from canasta.cards import (
    BLACK_THREE_RANK,
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_RED_THREE,
    IS_WILD,
    RANK_OF,
    Card,
    card_names,
    format_card,
    make_pack,
    parse_card,
    parse_rank,
    rank_char,
)
from canasta.errors import PositionError
from canasta.melds import melds_to_json
from canasta.rules import Rules, rules_from_json
from canasta.scoring import score_hand
from canasta.state import (
    ANSWER,
    DRAW,
    NEW_TURN,
    NUM_MELD_RANKS,
    OVER,
    PHASES,
    PLAY,
    HandResult,
    SideResult,
    State,
    TurnInfo,
    build_state,
    seal,
)

REQUIRED = ("rules", "dealer", "to_move", "phase", "hands", "stock", "pile", "sides")
OPTIONAL = ("pile_frozen", "has_melded", "asks", "answer", "result", "turn", "known", "lone_hand")
SIDE_KEYS = ("score", "melds", "red_threes", "hidden_canastas")
RESULT_KEYS = ("melded", "in_hand", "canastas", "hidden", "red_threes", "going_out", "total")


# -- writing ---------------------------------------------------------------------------------

def result_to_json(result: HandResult) -> dict[str, Any]:
    """The ``result`` object of an ended hand."""
    return {
        "went_out": result.went_out,
        "concealed": result.concealed,
        "void": result.void,
        "sides": [dict(zip(RESULT_KEYS, side)) for side in result.sides],
    }


def state_to_json(state: State) -> dict[str, Any]:
    """The NOTATION §3 position of a state."""
    sides = []
    for i in range(state.rules.num_sides):
        side: dict[str, Any] = {"score": state.scores[i], "melds": melds_to_json(state.melds[i]),
                                "red_threes": card_names(state.red_threes[i])}
        if state.hidden[i]:
            side["hidden_canastas"] = [rank_char(r) for r in state.hidden[i]]
        sides.append(side)
    out: dict[str, Any] = {
        "rules": state.rules.to_json(),
        "dealer": state.dealer,
        "to_move": state.to_move,
        "phase": state.phase,
        "hands": [card_names(h) for h in state.hands],
        "stock": [format_card(c) for c in state.stock],
        "pile": [format_card(c) for c in state.pile],
        "sides": sides,
        "pile_frozen": state.pile_frozen,
        "has_melded": list(state.has_melded),
        "asks": list(state.asks),
        "answer": state.answer,
    }
    if state.turn != NEW_TURN:
        out["turn"] = turn_to_json(state.turn)
    if any(state.known):
        out["known"] = [card_names(k) for k in state.known]
    if state.rules.lone_hand:
        out["lone_hand"] = state.lone_hand
    if state.result is not None:
        out["result"] = result_to_json(state.result)
    return out


def turn_to_json(turn: TurnInfo) -> dict[str, Any]:
    """The ``turn`` object (see ``docs/notation.md``); the keys of rarer rules only when set."""
    out = {"took_pile": turn.took_pile, "melded": turn.melded,
           "created": [rank_char(r) for r in turn.created], "extended": turn.extended,
           "picked_up": card_names(turn.picked_up)}
    for key in TURN_FLAGS:
        if getattr(turn, key):
            out[key] = True
    return out


TURN_FLAGS = ("asked_before_draw", "last_red_three")
"""``turn`` keys written only when true (rules that are off by default)."""


# -- reading ---------------------------------------------------------------------------------

def _fail(msg: str) -> PositionError:
    return PositionError(msg)


def _int(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(f"{what} must be an integer, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise _fail(f"{what} {value} is out of range {low}..{high}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(f"{what} must be true or false, not {value!r}")
    return value


def _cards(value: Any, what: str) -> list[Card]:
    if not isinstance(value, list):
        raise _fail(f"{what} must be an array of cards, not {value!r}")
    out = []
    for item in value:
        if not isinstance(item, str):
            raise _fail(f"{what}: a card must be a string, not {item!r}")
        out.append(parse_card(item))
    return out


def _list(value: Any, what: str, length: int) -> list[Any]:
    if not isinstance(value, list) or len(value) != length:
        raise _fail(f"{what} must be an array of {length}")
    return value


def _read_melds(value: Any, what: str) -> tuple[tuple[Card, ...] | None, ...]:
    if not isinstance(value, Mapping):
        raise _fail(f"{what} must be an object rank -> cards")
    melds: list[tuple[Card, ...] | None] = [None] * NUM_MELD_RANKS
    for key, cards_json in value.items():
        rank = parse_rank(str(key))
        cards = _cards(cards_json, f"{what}[{key!r}]")
        if not cards:
            raise _fail(f"{what}[{key!r}] is an empty meld")
        for c in cards:
            if IS_RED_THREE[c]:
                raise _fail(f"{what}[{key!r}]: red threes are never melded")
            if rank == BLACK_THREE_RANK and not IS_BLACK_THREE[c]:
                raise _fail(f"{what}['3'] may hold black threes only")
            if rank != BLACK_THREE_RANK and not IS_WILD[c] and not (
                    IS_NATURAL[c] and RANK_OF[c] == rank):
                raise _fail(f"{what}[{key!r}] holds {format_card(c)}")
        if melds[rank] is not None:
            raise _fail(f"{what} has two melds of rank {rank_char(rank)}")
        melds[rank] = tuple(sorted(cards))
    return tuple(melds)


def _read_result(value: Any, num_sides: int, num_players: int) -> HandResult:
    if not isinstance(value, Mapping):
        raise _fail("result must be an object")
    went_out = value.get("went_out")
    if went_out is not None:
        went_out = _int(went_out, "result.went_out", 0, num_players - 1)
    sides = []
    for i, side in enumerate(_list(value.get("sides"), "result.sides", num_sides)):
        if not isinstance(side, Mapping):
            raise _fail("result.sides entries must be objects")
        sides.append(SideResult(*(_int(side.get(k, 0), f"result.sides[{i}].{k}")
                                  for k in RESULT_KEYS)))
    return HandResult(went_out, _bool(value.get("concealed", False), "result.concealed"),
                      _bool(value.get("void", False), "result.void"), tuple(sides))


def _read_turn(value: Any) -> TurnInfo:
    if not isinstance(value, Mapping):
        raise _fail("turn must be an object")
    unknown = set(value) - {"took_pile", "melded", "created", "extended", "picked_up",
                            *TURN_FLAGS}
    if unknown:
        raise _fail(f"unknown turn key {sorted(unknown)[0]!r}")
    created = value.get("created", [])
    if not isinstance(created, list):
        raise _fail("turn.created must be an array of ranks")
    return TurnInfo(
        took_pile=_bool(value.get("took_pile", False), "turn.took_pile"),
        melded=_bool(value.get("melded", False), "turn.melded"),
        created=tuple(parse_rank(str(r)) for r in created),
        extended=_bool(value.get("extended", False), "turn.extended"),
        picked_up=tuple(sorted(_cards(value.get("picked_up", []), "turn.picked_up"))),
        asked_before_draw=_bool(value.get("asked_before_draw", False), "turn.asked_before_draw"),
        last_red_three=_bool(value.get("last_red_three", False), "turn.last_red_three"),
    )


class _Side(NamedTuple):
    """One entry of ``sides``, read."""

    score: int
    melds: tuple[tuple[Card, ...] | None, ...]
    red_threes: tuple[Card, ...]
    hidden: tuple[int, ...]


def _check_keys(data: Any) -> Mapping[str, Any]:
    """``data`` itself, once it is an object with every required key and no unknown one."""
    if not isinstance(data, Mapping):
        raise _fail("a position must be a JSON object")
    for key in REQUIRED:
        if key not in data:
            raise _fail(f"missing key {key!r}")
    unknown = set(data) - set(REQUIRED) - set(OPTIONAL)
    if unknown:
        raise _fail(f"unknown key {sorted(unknown)[0]!r}")
    return data


def _read_phase(value: Any) -> str:
    if value not in PHASES:
        raise _fail(f"phase must be one of {list(PHASES)}, not {value!r}")
    return cast(str, value)


def _read_hands(value: Any, n: int) -> list[list[Card]]:
    hands = [_cards(h, f"hands[{i}]") for i, h in enumerate(_list(value, "hands", n))]
    for i, h in enumerate(hands):
        if any(IS_RED_THREE[c] for c in h):
            raise _fail(f"hands[{i}] holds a red three: red threes are laid out at once")
    return hands


def _read_side(side: Any, i: int) -> _Side:
    if not isinstance(side, Mapping):
        raise _fail(f"sides[{i}] must be an object")
    bad = set(side) - set(SIDE_KEYS)
    if bad:
        raise _fail(f"unknown key {sorted(bad)[0]!r} in sides[{i}]")
    if "score" not in side:
        raise _fail(f"sides[{i}] needs a score")
    score = _int(side["score"], f"sides[{i}].score")
    melds = _read_melds(side.get("melds", {}), f"sides[{i}].melds")
    r3 = _cards(side.get("red_threes", []), f"sides[{i}].red_threes")
    if any(not IS_RED_THREE[c] for c in r3):
        raise _fail(f"sides[{i}].red_threes may hold red threes only")
    hc = side.get("hidden_canastas", [])
    if not isinstance(hc, list):
        raise _fail(f"sides[{i}].hidden_canastas must be an array of ranks")
    return _Side(score, melds, tuple(r3), tuple(sorted({parse_rank(str(r)) for r in hc})))


def _read_sides(value: Any, k: int) -> list[_Side]:
    return [_read_side(side, i) for i, side in enumerate(_list(value, "sides", k))]


def _check_pack(rules: Rules, stock: list[Card], pile: list[Card], hands: list[list[Card]],
                sides: list[_Side]) -> None:
    """The position holds no more copies of a card than the pack of the rules."""
    pack = Counter(make_pack(rules.num_decks, rules.num_jokers))
    # counted in this order (melds of every side before red threes) so that the card reported
    # first is always the same one
    seen: Counter[Card] = Counter(stock)
    seen.update(pile)
    for h in hands:
        seen.update(h)
    for side in sides:
        for m in side.melds:
            seen.update(m or ())
    for side in sides:
        seen.update(side.red_threes)
    for card, count in seen.items():
        if count > pack[card]:
            raise _fail(f"{count} copies of {format_card(card)}, but the pack holds "
                        f"{pack[card]}")


def _read_pile_frozen(data: Mapping[str, Any], rules: Rules, pile: list[Card]) -> bool:
    """``pile_frozen``, by default whether a card that freezes it lies in the pile."""
    frozen_default = any(IS_WILD[c] or IS_RED_THREE[c]
                         or (rules.black_three_freezes_pile and IS_BLACK_THREE[c]) for c in pile)
    return _bool(data.get("pile_frozen", frozen_default), "pile_frozen")


def _read_lone_hand(data: Mapping[str, Any], rules: Rules) -> int | None:
    lone = data.get("lone_hand")
    if lone is None:
        return None
    if not rules.lone_hand:
        raise _fail("lone_hand is only for the cutthroat preset")
    return _int(lone, "lone_hand", 0, rules.num_players - 1)


def _read_has_melded(data: Mapping[str, Any], rules: Rules, dealer: int, to_move: int,
                     phase: str, melds: tuple[tuple[tuple[Card, ...] | None, ...], ...],
                     lone: int | None) -> list[bool]:
    """``has_melded``, by default whether each seat's side (meld owner) has a meld down."""
    # a bare state with only the melds answers who owns them (cutthroat included)
    probe = build_state(rules=rules, dealer=dealer, to_move=to_move, phase=phase,
                        hands=(), stock=(), pile=(), melds=melds, red_threes=(),
                        hidden=(), scores=(), pile_frozen=False, has_melded=(), asks=(),
                        answer=None, turn=NEW_TURN, known=(), lone_hand=lone, result=None)
    n = rules.num_players
    default_melded = [probe.side_has_melded(s) for s in range(n)]
    return [_bool(v, "has_melded[]") for v in _list(
        data.get("has_melded", default_melded), "has_melded", n)]


def _read_answer(value: Any, rules: Rules, phase: str) -> str | None:
    if value not in (None, "yes", "no"):
        raise _fail(f"answer must be \"yes\", \"no\" or null, not {value!r}")
    if value is not None and phase not in (PLAY, OVER) and not (
            phase == DRAW and rules.ask_before_draw):
        raise _fail("an answer belongs to the turn of the player who asked, after the draw "
                    "(or before it where the rules say ask_before_draw)")
    return cast("str | None", value)


def _read_turn_in(data: Mapping[str, Any], rules: Rules, phase: str) -> TurnInfo:
    """``turn``, with the flags of rarer rules allowed only where those rules apply."""
    turn = _read_turn(data["turn"]) if "turn" in data else NEW_TURN
    if turn.asked_before_draw and (phase != ANSWER or not rules.ask_before_draw):
        raise _fail("turn.asked_before_draw belongs to the answer phase, where the rules say "
                    "ask_before_draw")
    if turn.last_red_three and (phase not in (PLAY, OVER) or not rules.last_red_three_may_meld):
        raise _fail("turn.last_red_three belongs to the play phase, where the rules say "
                    "last_red_three_may_meld")
    return turn


def _read_known(value: Any, n: int) -> list[tuple[Card, ...]]:
    return [tuple(sorted(_cards(v, f"known[{i}]")))
            for i, v in enumerate(_list(value, "known", n))]


def _read_result_in(data: Mapping[str, Any], phase: str, rules: Rules) -> HandResult | None:
    """``result``: allowed only when the hand is over, and then optional."""
    if phase != OVER:
        if "result" in data:
            raise _fail("result is present only when the phase is over")
        return None
    if "result" not in data:
        return None
    return _read_result(data["result"], rules.num_sides, rules.num_players)


def _scored(state: State) -> State:
    """An ended hand given without its result, with the result the scoring gives it."""
    draft = state.copy()  # a State refuses stores, a compiled one even object.__setattr__
    draft.result = score_hand(state, None, False, False)
    return seal(draft)


def state_from_json(data: Any) -> State:
    """Read a NOTATION §3 position; raises a :class:`~canasta.errors.CanastaError` if invalid."""
    data = _check_keys(data)
    rules: Rules = rules_from_json(data["rules"])
    n = rules.num_players
    dealer = _int(data["dealer"], "dealer", 0, n - 1)
    to_move = _int(data["to_move"], "to_move", 0, n - 1)
    phase = _read_phase(data["phase"])
    hands = _read_hands(data["hands"], n)
    stock = _cards(data["stock"], "stock")
    pile = _cards(data["pile"], "pile")
    sides = _read_sides(data["sides"], rules.num_sides)
    _check_pack(rules, stock, pile, hands, sides)
    pile_frozen = _read_pile_frozen(data, rules, pile)
    lone = _read_lone_hand(data, rules)
    melds = tuple(side.melds for side in sides)
    has_melded = _read_has_melded(data, rules, dealer, to_move, phase, melds, lone)
    asks = [_int(v, "asks[]", 0) for v in _list(data.get("asks", [0] * n), "asks", n)]
    answer = _read_answer(data.get("answer"), rules, phase)
    turn = _read_turn_in(data, rules, phase)
    known = _read_known(data.get("known", [[] for _ in range(n)]), n)
    result = _read_result_in(data, phase, rules)
    state = build_state(
        rules=rules, dealer=dealer, to_move=to_move, phase=phase,
        hands=tuple(tuple(sorted(h)) for h in hands), stock=tuple(stock), pile=tuple(pile),
        melds=melds, red_threes=tuple(side.red_threes for side in sides),
        hidden=tuple(side.hidden for side in sides), scores=tuple(side.score for side in sides),
        pile_frozen=pile_frozen, has_melded=tuple(has_melded), asks=tuple(asks), answer=answer,
        turn=turn, known=tuple(known), lone_hand=lone, result=result)
    if phase == OVER and result is None:
        state = _scored(state)
    return state


def dumps(data: Any) -> str:
    """JSON text with one top-level key per line and compact values (readable, diffable)."""
    import json

    if not isinstance(data, dict) or not data:
        return json.dumps(data)
    lines = [f" {json.dumps(k)}: {json.dumps(v, separators=(', ', ': '))}" for k, v in data.items()]
    return "{\n" + ",\n".join(lines) + "\n}"


def format_position(state: State) -> str:
    """A position as JSON text."""
    return dumps(state_to_json(state))


# -- text ------------------------------------------------------------------------------------
