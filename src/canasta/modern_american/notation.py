"""Modern American actions, positions and records as text (docs/notation.md, "Modern
American").

The classic formats stay as they are; this family adds:

- the meld key ``W`` (a meld of wild cards): ``"W"`` in a position's ``melds`` and the group
  prefix ``W:`` in an action (``meld W: 2c 2d JK``);
- ``keep 3s`` (or ``keep none``): at the start of a turn, the three kept in hand while the side
  has not melded (the others are laid and replaced);
- ``special NAME``: a special hand, its cards implied (``special Pairs``);
- in a position: ``sides[i].threes`` (laid threes of both colours), ``turn`` (what the player
  to move has done this turn, with the talon due) and ``turn_card`` (derived: the turn card
  while it is in the stock).

>>> from canasta.modern_american.play import new_hand
>>> h = new_hand(seed=1)
>>> hand_from_json(hand_to_json(h)) == h
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from canasta.cards import (
    NATURAL_RANKS,
    RANK_OF,
    THREE,
    Card,
    card_names,
    format_card,
    make_pack,
    parse_card,
    parse_cards,
    parse_rank,
)
from canasta.errors import NotationError, PositionError
from canasta.modern_american.action_text import WILD_KEY, key_text
from canasta.modern_american.ending import end_hand
from canasta.modern_american.hand import (
    DRAW,
    NO_MELDS,
    NUM_PLAYERS,
    NUM_SIDES,
    OVER,
    PHASES,
    PLAY,
    TURN_FIELDS,
    Hand,
    HandEnd,
    SideMelds,
    Turn,
)
from canasta.modern_american.knobs import NAME, SET_ASIDE, Knobs, rules_from_json
from canasta.modern_american.melds import MAX_MELD, WILD_MELD
from canasta.modern_american.play import start_turn
from canasta.modern_american.record import NOTHING_SEEN, Seen
from canasta.modern_american.special_hands import CATALOGUES

# -- rules ---------------------------------------------------------------------------------------

def rules_to_json(h: Hand) -> Any:
    """The rules of ``h`` as a position or record holds them."""
    return h.rules.to_json()


def is_modern_american(value: Any) -> bool:
    """Whether a position's or a record's ``rules`` name this family."""
    if isinstance(value, str):
        return value.strip().lower() == NAME
    return isinstance(value, Mapping) and value.get("preset") == NAME


# -- positions -----------------------------------------------------------------------------------

def melds_to_json(melds: SideMelds) -> dict[str, list[str]]:
    return {key_text(k): card_names(m) for k, m in enumerate(melds) if m is not None}


def end_to_json(end: HandEnd) -> dict[str, Any]:
    """A hand's end as a position's ``result``."""
    return {"went_out": end.went_out,
            "special": None if end.special is None else {"seat": end.special[0],
                                                         "name": end.special[1]},
            "last_three": None if end.last_three is None else {
                "seat": end.last_three[0], "card": format_card(end.last_three[1])},
            "wins_game": end.wins_game,
            "sides": [{"canastas": s.canastas, "melded": s.melded, "bonuses": s.bonuses,
                       "threes": s.threes, "penalties": s.penalties, "in_hand": s.in_hand,
                       "special": s.special, "total": s.total} for s in end.sides]}


def turn_to_json(turn: Turn) -> dict[str, Any]:
    """What the player to move has done this turn."""
    out: dict[str, Any] = {
        "threes_chosen": turn.threes_chosen,
        "kept": None if turn.kept is None else format_card(turn.kept),
        "drew": turn.drew, "took": turn.took, "opening": turn.opening,
        "talon": turn.talon, "melded": turn.melded}
    if turn.laid:  # only where melds may be taken back (no_legal_discard_remedy)
        out["laid"] = {key_text(k): card_names(cards) for k, cards in turn.laid}
    if turn.top is not None:
        out["top"] = format_card(turn.top)
    return out


def seen_to_json(seen: Seen) -> dict[str, Any]:
    """The public record as a position holds it (``seen``): per seat the cards known to be in
    its hand, the natural ranks it has discarded, whether its turn has come."""
    return {"held": [card_names(cards) for cards in seen.held],
            "discarded": [[key_text(r) for r in sorted(ranks, reverse=True)]
                          for ranks in seen.discarded],
            "played": list(seen.played)}


def hand_to_json(h: Hand) -> dict[str, Any]:
    """A position of this family (docs/notation.md)."""
    out: dict[str, Any] = {
        "rules": rules_to_json(h), "dealer": h.dealer, "to_move": h.to_move, "phase": h.phase,
        "hands": [card_names(cards) for cards in h.hands],
        "stock": [format_card(c) for c in h.stock], "pile": [format_card(c) for c in h.pile],
        "sides": [{"score": h.scores[s], "melds": melds_to_json(h.melds[s]),
                   "threes": card_names(h.threes[s])} for s in range(NUM_SIDES)],
        "asks": list(h.asks), "answer": h.answer, "turn": turn_to_json(h.turn),
        "turn_card": None if h.turn_card is None else format_card(h.turn_card),
    }
    if h.courtesy is not None:
        out["courtesy"] = h.courtesy
    if h.knobs.initial_meld_by_hand_number is not None or h.number != 1:
        out["hand_number"] = h.number
    if h.knobs.talon_source == SET_ASIDE:
        out["talons"] = [card_names(t) for t in h.talons]
    if h.end is not None:
        out["result"] = end_to_json(h.end)
    if not h.seen.is_empty:
        out["seen"] = seen_to_json(h.seen)
    return out


def _cards(value: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise PositionError(f"{what} must be an array of cards")
    try:
        return tuple(parse_cards(value))
    except NotationError as e:
        raise PositionError(f"{what}: {e}") from None


def _int(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PositionError(f"{what} must be an integer from {low} to {high}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise PositionError(f"{what} must be true or false")
    return value


def _read_melds(value: Any, what: str) -> SideMelds:
    if not isinstance(value, Mapping):
        raise PositionError(f"{what} must be an object: meld key -> cards")
    melds = list(NO_MELDS)
    for key, cards in value.items():
        if not isinstance(key, str):
            raise PositionError(f"{what}: bad meld key {key!r}")
        if key.upper() == WILD_KEY:
            slot = WILD_MELD
        else:
            try:
                slot = parse_rank(key)
            except NotationError:
                raise PositionError(f"{what}: unknown meld key {key!r} (a rank, or W)") from None
            if slot not in NATURAL_RANKS:
                raise PositionError(f"{what}: threes are never melded")
        melds[slot] = tuple(sorted(_cards(cards, f"{what}.{key}")))
    return tuple(melds)


def _read_turn(value: Any, h: Hand) -> Turn:
    if value is None:
        chosen = not (h.threes_in(h.to_move) and h.knobs.keep_one_three_for_straight
                      and not h.side_melded(h.side_of(h.to_move)))
        return Turn(threes_chosen=chosen or h.phase != "draw")
    if not isinstance(value, Mapping):
        raise PositionError("turn must be an object")
    known = set(TURN_FIELDS)
    unknown = set(value) - known
    if unknown:
        raise PositionError(f"turn: unknown key {sorted(unknown)[0]!r}")
    kept = value.get("kept")
    laid = value.get("laid", {})
    if not isinstance(laid, Mapping):
        raise PositionError("turn.laid must be an object: meld key -> cards laid this turn")
    top = value.get("top")
    if top is not None and not isinstance(top, str):
        raise PositionError("turn.top must be a card or null")
    laid_melds = _read_melds(laid, "turn.laid")
    on_table = h.melds[h.side_of(h.to_move)]
    top_card = None if top is None else parse_card(top)
    for key, cards in enumerate(laid_melds):
        here = [*(cards or ()), *((top_card,) if top_card is not None and key == RANK_OF[
            top_card] else ())]
        if Counter(here) - Counter(on_table[key] or ()):
            raise PositionError(f"turn.laid: the cards laid this turn onto {key_text(key)} are "
                                "not all in the meld of the side to move")
    return Turn(
        threes_chosen=_bool(value.get("threes_chosen", True), "turn.threes_chosen"),
        kept=None if kept is None else parse_card(kept) if isinstance(kept, str) else None,
        drew=_bool(value.get("drew", False), "turn.drew"),
        took=_bool(value.get("took", False), "turn.took"),
        opening=_bool(value.get("opening", False), "turn.opening"),
        talon=_int(value.get("talon", 0), "turn.talon", 0, 8),
        melded=_bool(value.get("melded", False), "turn.melded"),
        laid=tuple((k, m) for k, m in enumerate(laid_melds) if m), top=top_card)


def _read_talons(value: Any, knobs: Knobs) -> tuple[tuple[Card, ...], ...]:
    """The set-aside talons of a position: required with ``talon_source="set_aside"``, and
    refused without it."""
    if knobs.talon_source != SET_ASIDE:
        if value is not None:
            raise PositionError("talons are set aside only with talon_source \"set_aside\"")
        return ()
    if not isinstance(value, list) or len(value) != len(knobs.talon_sizes):
        raise PositionError("with set-aside talons, talons holds the two piles set aside at the "
                            "deal (an array of cards each, empty once given)")
    piles = tuple(tuple(sorted(_cards(pile, f"talons[{i}]"))) for i, pile in enumerate(value))
    for i, (pile, size) in enumerate(zip(piles, knobs.talon_sizes)):
        if pile and len(pile) != size:
            raise PositionError(f"talons[{i}] holds {size} cards, or none once given")
    return piles


def _read_seen(value: Any, hands: tuple[tuple[Card, ...], ...]) -> Seen:
    """The public record of a position (optional: nothing seen without it)."""
    if value is None:
        return NOTHING_SEEN
    if not isinstance(value, Mapping) or set(value) - {"held", "discarded", "played"}:
        raise PositionError("seen must be an object with held, discarded and played")
    held = value.get("held", [[]] * NUM_PLAYERS)
    discarded = value.get("discarded", [[]] * NUM_PLAYERS)
    played = value.get("played", [False] * NUM_PLAYERS)
    for name, field in (("held", held), ("discarded", discarded), ("played", played)):
        if not isinstance(field, list) or len(field) != NUM_PLAYERS:
            raise PositionError(f"seen.{name} must hold {NUM_PLAYERS} entries, one per seat")
    known = tuple(tuple(sorted(_cards(cards, f"seen.held[{s}]"))) for s, cards in
                  enumerate(held))
    for s, cards in enumerate(known):
        if Counter(cards) - Counter(hands[s]):
            raise PositionError(f"seen.held[{s}]: the cards known in a hand must be in it")
    ranks: list[frozenset[int]] = []
    for s, keys in enumerate(discarded):
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise PositionError(f"seen.discarded[{s}] must be an array of ranks")
        try:
            read = frozenset(parse_rank(k) for k in keys)
        except NotationError as e:
            raise PositionError(f"seen.discarded[{s}]: {e}") from None
        if not read <= frozenset(NATURAL_RANKS):
            raise PositionError(f"seen.discarded[{s}] holds natural ranks only")
        ranks.append(read)
    return Seen(known, tuple(ranks), tuple(_bool(p, f"seen.played[{s}]")
                                            for s, p in enumerate(played)))


KEYS: Final = frozenset({"rules", "dealer", "to_move", "phase", "hands", "stock", "pile", "sides",
                         "asks", "answer", "turn", "turn_card", "result", "courtesy",
                         "hand_number", "talons", "seen"})


def hand_from_json(data: Any) -> Hand:
    """A position of this family, checked; raises :class:`PositionError` or
    :class:`RulesError`. A ``result`` given is recomputed from the position."""
    if not isinstance(data, Mapping):
        raise PositionError("a position must be a JSON object")
    unknown = set(data) - KEYS
    if unknown:
        raise PositionError(f"unknown position key {sorted(unknown)[0]!r}")
    for key in ("rules", "dealer", "to_move", "phase", "hands", "stock", "pile", "sides"):
        if key not in data:
            raise PositionError(f"the position lacks {key!r}")
    rules = rules_from_json(data["rules"])
    phase = data["phase"]
    if phase not in PHASES:
        raise PositionError(f"phase must be one of {', '.join(PHASES)}")
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != NUM_PLAYERS:
        raise PositionError(f"hands must hold {NUM_PLAYERS} arrays of cards")
    sides = data["sides"]
    if not isinstance(sides, list) or len(sides) != NUM_SIDES:
        raise PositionError(f"sides must hold {NUM_SIDES} objects")
    for i, side in enumerate(sides):
        if not isinstance(side, Mapping) or "score" not in side:
            raise PositionError(f"sides[{i}] must be an object with a score")
        extra = set(side) - {"score", "melds", "threes"}
        if extra:
            raise PositionError(f"sides[{i}]: unknown key {sorted(extra)[0]!r}")
    asks = data.get("asks", [0] * NUM_PLAYERS)
    if not isinstance(asks, list) or len(asks) != NUM_PLAYERS:
        raise PositionError(f"asks must hold {NUM_PLAYERS} integers")
    answer = data.get("answer")
    if answer not in (None, "yes", "no"):
        raise PositionError("answer must be \"yes\", \"no\" or null")
    score = [side["score"] for side in sides]
    for i, s in enumerate(score):
        if not isinstance(s, int) or isinstance(s, bool):
            raise PositionError(f"sides[{i}].score must be an integer")
    h = Hand(dealer=_int(data["dealer"], "dealer", 0, NUM_PLAYERS - 1),
             to_move=_int(data["to_move"], "to_move", 0, NUM_PLAYERS - 1), phase=phase,
             hands=tuple(tuple(sorted(_cards(c, f"hands[{i}]"))) for i, c in enumerate(hands)),
             stock=_cards(data["stock"], "stock"), pile=_cards(data["pile"], "pile"),
             melds=tuple(_read_melds(side.get("melds", {}), f"sides[{i}].melds")
                         for i, side in enumerate(sides)),
             threes=tuple(tuple(sorted(_cards(side.get("threes", []), f"sides[{i}].threes")))
                          for i, side in enumerate(sides)),
             scores=tuple(score),
             asks=tuple(_int(n, "asks[i]", 0, 99) for n in asks), answer=answer,
             courtesy=None if data.get("courtesy") is None else _int(
                 data["courtesy"], "courtesy", 0, NUM_PLAYERS - 1),
             number=_int(data.get("hand_number", 1), "hand_number", 1, 10_000),
             talons=_read_talons(data.get("talons"), rules.knobs), rules=rules)
    h = h.but(turn=_read_turn(data.get("turn"), h),
              seen=_read_seen(data.get("seen"), h.hands))
    _check(h, data)
    if phase == DRAW and data.get("turn") is None:
        h = start_turn(h)  # the start of a turn: threes are laid unless one may be kept
    if phase == OVER:
        h = _ended(h, data.get("result"))
    return h


def _ended(h: Hand, result: Any) -> Hand:
    """An over position scored again from its cards; the result says only how it ended."""
    if not isinstance(result, Mapping):
        raise PositionError("an over position needs its result")
    went_out = result.get("went_out")
    if went_out is not None:
        went_out = _int(went_out, "result.went_out", 0, NUM_PLAYERS - 1)
    special = None
    named = result.get("special")
    if named is not None:
        if not isinstance(named, Mapping):
            raise PositionError("result.special must be {seat, name} or null")
        catalogue = CATALOGUES[h.knobs.special_hands]
        index = next((i for i, s in enumerate(catalogue) if s.name == named.get("name")), None)
        if index is None:
            raise PositionError(f"result.special: unknown special hand {named.get('name')!r}")
        special = (_int(named.get("seat"), "result.special.seat", 0, NUM_PLAYERS - 1), index)
    last = result.get("last_three")
    last_three = None
    if last is not None:
        if not isinstance(last, Mapping) or not isinstance(last.get("card"), str):
            raise PositionError("result.last_three must be {seat, card} or null")
        last_three = (_int(last.get("seat"), "result.last_three.seat", 0, NUM_PLAYERS - 1),
                      parse_card(last["card"]))
    return end_hand(h, went_out, special=special, last_three=last_three)


def _check(h: Hand, data: Mapping[str, Any]) -> None:
    pack = Counter(make_pack(h.rules.num_decks, h.rules.num_jokers))
    extra = Counter(h.all_cards()) - pack
    if extra:
        raise PositionError("more copies than the pack holds: "
                            + " ".join(format_card(c) for c in sorted(extra.elements())))
    for s, melds in enumerate(h.melds):
        if not any(m is not None and len(m) > MAX_MELD for m in melds):
            continue
        going_out = h.phase == OVER or (h.phase == PLAY and h.side_of(h.to_move) == s
                                        and len(h.hands[h.to_move]) == 1)
        if not (h.knobs.max_meld_size_exception_when_going_out and going_out):
            raise PositionError(f"sides[{s}].melds: a meld holds at most {MAX_MELD} cards "
                                "(more only in the turn a player goes out with it, where the "
                                "rules allow it)")
    for s, laid in enumerate(h.threes):
        if any(RANK_OF[c] != THREE for c in laid):
            raise PositionError(f"sides[{s}].threes holds only threes")
    if any(RANK_OF[c] == THREE for c in h.pile):
        raise PositionError("threes are never discarded: the pile holds none")
    given = data.get("turn_card")
    if given is not None and (not isinstance(given, str) or h.turn_card is None
                              or parse_card(given) != h.turn_card):
        raise PositionError(f"turn_card {given!r} is not the card {h.knobs.turn_card_depth} "
                            "from the bottom of the stock")
