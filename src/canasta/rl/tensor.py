"""One seat's view as a flat tensor of floats, for learning agents (layout: docs/rl.md).

The tensor is computed from an :class:`~canasta.observation.Observation` (what the seat may
know) and the ids of the action being spelled (:mod:`canasta.rl.encoding`), so it cannot hold a
hidden card. Seats are counted from the observer (0 = the observer, 1 = the next seat to play,
...), sides from the observer's side (0 = its own), so one policy can play any seat.

Entries are card counts and 0/1 flags, except sizes (hand, pile, stock) in tens of cards and
points (scores, opening minimums) in thousands. :func:`tensor_layout` names the pieces in
order with their shapes; their sizes depend only on the numbers of players and sides.

>>> import canasta
>>> state = canasta.new_hand(canasta.get_rules("classic"), seed=1)
>>> values = observation_tensor(canasta.observe(state, 1))
>>> len(values) == tensor_size(state.rules) == 684
True
>>> start, _ = piece_slices(state.rules)["phase"]
>>> values[start:start + 5]  # deal, draw, play, answer, over
[0.0, 1.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass

from canasta.cards import (
    IS_RED_THREE,
    JOKER,
    NATURAL_RANKS,
    NUM_CARD_TYPES,
    RANK_OF,
    RED_THREES,
    THREE,
    TWO,
    Card,
    make_pack,
)
from canasta.modern_american.hand import ANSWER as MA_ANSWER
from canasta.modern_american.hand import DRAW as MA_DRAW
from canasta.modern_american.hand import NUM_PLAYERS as MA_PLAYERS
from canasta.modern_american.hand import NUM_SIDES as MA_SIDES
from canasta.modern_american.hand import OVER as MA_OVER
from canasta.modern_american.hand import PLAY as MA_PLAY
from canasta.modern_american.hand import Hand, SideMelds
from canasta.modern_american.knobs import Knobs
from canasta.modern_american.melds import MAX_MELD, WILD_MELD
from canasta.modern_american.special_hands import CATALOGUES
from canasta.observation import Observation, observe
from canasta.rl.encoding import ADD, DISCARD, DRAW_ID, GROUP, GROUP_W, NUM_GROUP_RANKS, TAKE_ID
from canasta.rules import Rules
from canasta.state import ANSWER, DRAW, NUM_MELD_RANKS, OVER, PLAY, State

DEALING = "deal"
"""The phase of a table whose cards are still being dealt (OpenSpiel's chance nodes)."""
PHASES = (DEALING, DRAW, PLAY, ANSWER, OVER)
"""The phases in the order of the ``phase`` piece."""
ANSWERS = (None, "yes", "no")
VERBS = (None, "meld", "take")
MELD_PARTS = ("naturals", "twos", "jokers")
"""The counts kept for each meld (naturals are the black threes in the black-three meld)."""
TURN_FLAGS = ("took_pile", "melded", "extended", "asked_before_draw", "last_red_three")
"""The :class:`~canasta.state.TurnInfo` flags, in the order of the ``turn`` piece."""
SIZE_SCALE = 10.0
POINT_SCALE = 1000.0

Layout = tuple[tuple[str, tuple[int, ...]], ...]


def tensor_layout(rules: Rules) -> Layout:
    """The pieces of the tensor in order: (name, shape). See docs/rl.md for each piece."""
    n, k, c, r = rules.num_players, rules.num_sides, NUM_CARD_TYPES, NUM_MELD_RANKS
    return (
        ("phase", (len(PHASES),)), ("to_move", (n,)), ("dealer", (n,)),
        ("hand", (c,)), ("hand_sizes", (n,)), ("known", (n, c)),
        ("pile", (c,)), ("pile_top", (c,)), ("pile_size", (1,)), ("pile_frozen", (1,)),
        ("stock_size", (1,)),
        ("melds", (k, r, len(MELD_PARTS))), ("hidden", (k, r)), ("red_threes", (k,)),
        ("scores", (k,)), ("minimums", (k,)),
        ("has_melded", (n,)), ("asks", (n,)), ("answer", (len(ANSWERS),)),
        ("lone_hand", (n + 1,)),
        ("turn", (len(TURN_FLAGS),)), ("turn_created", (r,)), ("turn_picked_up", (c,)),
        ("building_verb", (len(VERBS),)), ("building_cards", (c,)),
        ("building_groups", (NUM_GROUP_RANKS, len(MELD_PARTS))),
        ("building_group", (NUM_GROUP_RANKS + 1,)),
    )


FLAG_PIECES = frozenset({
    "phase", "to_move", "dealer", "pile_top", "pile_frozen", "hidden", "has_melded", "answer",
    "lone_hand", "turn", "turn_created", "building_verb", "building_group"})
"""The pieces of 0/1 flags (one-hot or not)."""
CARD_PIECES = frozenset({"hand", "known", "pile", "turn_picked_up", "building_cards"})
"""The pieces that count cards by card (rows of :data:`~canasta.cards.NUM_CARD_TYPES`)."""


def max_side_points(rules: Rules) -> int:
    """A bound on the absolute value of one side's total for one hand.

    Every card's value, every possible canasta with the largest bonuses, the best or worst red
    threes and the larger going-out bonus: no hand can score beyond them.
    """
    pack = make_pack(rules.num_decks, rules.num_jokers)
    cards = sum(abs(rules.value_of[c]) for c in pack)
    canastas = len(pack) // rules.canasta_size * (
        max(abs(rules.natural_canasta_bonus), abs(rules.mixed_canasta_bonus))
        + abs(rules.hidden_canasta_bonus))
    reds = sum(1 for c in pack if c in RED_THREES)
    red = max(abs(rules.red_three_score(k)) for k in range(reds + 1))
    out = max(abs(rules.going_out_bonus), abs(rules.concealed_going_out_bonus))
    return cards + canastas + red + out


def tensor_bounds(rules: Rules, hands: int = 1) -> tuple[list[float], list[float]]:
    """The least and the greatest value of each entry of the tensor, for an episode of
    ``hands`` hands that starts from scores of zero: flags are 0 or 1; a card count is at
    most the copies of that card in the pack; a meld's naturals, twos and jokers at most the
    pack's; sizes (in tens) at most the pack's; a seat's questions the rules' limit a hand, else
    one a turn (a turn begins with a stock card, a take or the last pass: at most twice the
    pack, plus two);
    scores (in thousands) at most ``hands`` hands' points either way
    (:func:`max_side_points`); minimums the largest of the rules'. Every entry's range is
    positive (even a score that is always zero in a one-hand episode is given its hand's
    range), so a wrapper that divides by it can."""
    at = _offsets(rules)
    size = at.size
    low, high = [0.0] * size, [1.0] * size
    decks, jokers = rules.num_decks, rules.num_jokers
    copies = [float(jokers if card == JOKER else decks) for card in range(NUM_CARD_TYPES)]
    parts = [[4.0 * decks, 4.0 * decks, float(jokers)]] * (NUM_MELD_RANKS - 1)
    parts.append([2.0 * decks, 4.0 * decks, float(jokers)])  # the black threes
    group_parts = parts[:NUM_GROUP_RANKS]
    pack = rules.deck_size / SIZE_SCALE
    points = hands * max_side_points(rules) / POINT_SCALE
    minimum = max(value for _, value in rules.initial_meld_thresholds) / POINT_SCALE
    reds = 2.0 * decks
    asks = (1 if not rules.permission_question_enabled
            else rules.permission_asks_per_hand or 2 * rules.deck_size + 2)
    for name, (start, stop) in at.slices.items():
        if name in FLAG_PIECES:
            continue
        if name in CARD_PIECES:
            values = copies * ((stop - start) // NUM_CARD_TYPES)
        elif name == "melds":
            values = [v for side in range(rules.num_sides) for rank in parts for v in rank]
        elif name == "building_groups":
            values = [v for rank in group_parts for v in rank]
        elif name in ("hand_sizes", "pile_size", "stock_size"):
            values = [pack] * (stop - start)
        elif name == "asks":
            values = [float(asks)] * (stop - start)
        elif name == "red_threes":
            values = [reds] * (stop - start)
        elif name == "scores":
            values = [points] * (stop - start)
            low[start:stop] = [-points] * (stop - start)
        elif name == "minimums":
            values = [max(minimum, 1 / POINT_SCALE)] * (stop - start)
        else:  # a piece this function does not know yet: no bound is claimed for it
            raise AssertionError(f"no bound for the piece {name}")
        high[start:stop] = values
    return low, high


def _volume(shape: tuple[int, ...]) -> int:
    out = 1
    for d in shape:
        out *= d
    return out


class _Offsets:
    """Where each piece starts, by attribute (``at.hand``), and the whole size: computed once
    per layout (per number of players and sides, and per family)."""

    def __init__(self, layout: Layout) -> None:
        self.slices: dict[str, tuple[int, int]] = {}
        pos = 0
        for name, shape in layout:
            self.slices[name] = (pos, pos + _volume(shape))
            setattr(self, name, pos)
            pos += _volume(shape)
        self.size = pos

    def __getattr__(self, name: str) -> int:  # the pieces, for the type checker
        raise AttributeError(name)


_OFFSETS: dict[tuple[int, int], _Offsets] = {}


def _offsets(rules: Rules) -> _Offsets:
    key = (rules.num_players, rules.num_sides)
    found = _OFFSETS.get(key)
    if found is None:
        found = _OFFSETS[key] = _Offsets(tensor_layout(rules))
    return found


def piece_slices(rules: Rules) -> dict[str, tuple[int, int]]:
    """Each piece's (start, stop) in the flat tensor."""
    return _offsets(rules).slices


def tensor_size(rules: Rules) -> int:
    """The length of the tensor under ``rules``."""
    return _offsets(rules).size


_PART = tuple(2 if card == JOKER else 1 if RANK_OF[card] == TWO else 0
              for card in range(NUM_CARD_TYPES))
"""Index into :data:`MELD_PARTS` of each card in a meld."""


def observation_tensor(obs: Observation, prefix: Sequence[int] = ()) -> list[float]:
    """The tensor of ``obs`` while the ids ``prefix`` of an action are spelled."""
    out = [0.0] * tensor_size(obs.rules)
    write_tensor(obs, prefix, out)
    return out


def state_tensor(state: State, seat: int, prefix: Sequence[int] = ()) -> list[float]:
    """The tensor of what ``seat`` may know of ``state`` (``observe`` then the tensor)."""
    return observation_tensor(observe(state, seat), prefix)


def respell(values: Sequence[float], rules: Rules, prefix: Sequence[int]) -> list[float]:
    """A copy of a tensor written with no spelling in progress, with ``prefix`` spelled instead
    (cheaper than a new tensor while one seat spells an action id by id)."""
    return _respell(values, _offsets(rules), prefix)


def _respell(values: Sequence[float], at: _Offsets, prefix: Sequence[int]) -> list[float]:
    out = list(values)
    out[at.building_verb] = 0.0
    out[at.building_group + NUM_GROUP_RANKS] = 0.0
    _write_building(prefix, out, at, 0)
    return out


def dealing_tensor(rules: Rules) -> list[float]:
    """The tensor of a table still being dealt: nothing is seen yet but the phase."""
    at = _offsets(rules)
    out = [0.0] * at.size
    out[at.phase + PHASES.index(DEALING)] = 1.0
    return out


def write_tensor(obs: Observation, prefix: Sequence[int], out: MutableSequence[float],
                 offset: int = 0) -> None:
    """Write the tensor into ``out[offset:offset + tensor_size]``, which must hold zeros."""
    rules = obs.rules
    n, k = rules.num_players, rules.num_sides
    at = _offsets(rules)
    me, my_side = obs.seat, obs.seat % k

    out[offset + at.phase + PHASES.index(obs.phase)] = 1.0
    out[offset + at.to_move + (obs.to_move - me) % n] = 1.0
    out[offset + at.dealer + (obs.dealer - me) % n] = 1.0
    base = offset + at.hand
    for card in obs.hand:
        out[base + card] += 1.0
    sizes, melded, asks = offset + at.hand_sizes, offset + at.has_melded, offset + at.asks
    known = offset + at.known
    for s in range(n):
        rel = (s - me) % n
        out[sizes + rel] = obs.hand_sizes[s] / SIZE_SCALE
        if obs.has_melded[s]:
            out[melded + rel] = 1.0
        out[asks + rel] = float(obs.asks[s])
        row = known + rel * NUM_CARD_TYPES
        for card in obs.known[s]:
            out[row + card] += 1.0
    pile = obs.pile
    base = offset + at.pile
    for card in pile:
        out[base + card] += 1.0
    if pile:
        out[offset + at.pile_top + pile[-1]] = 1.0
    out[offset + at.pile_size] = len(pile) / SIZE_SCALE
    out[offset + at.pile_frozen] = float(obs.pile_frozen)
    out[offset + at.stock_size] = obs.stock_size / SIZE_SCALE
    parts = len(MELD_PARTS)
    melds_at, hidden_at = offset + at.melds, offset + at.hidden
    for owner, melds in enumerate(obs.melds):
        side = (owner - my_side) % k
        row = melds_at + side * NUM_MELD_RANKS * parts
        for rank, meld in enumerate(melds):
            if meld is not None:
                slot = row + rank * parts
                for card in meld:
                    out[slot + _PART[card]] += 1.0
        for rank in obs.hidden[owner]:
            out[hidden_at + side * NUM_MELD_RANKS + rank] = 1.0
    for side_index in range(k):
        side = (side_index - my_side) % k
        out[offset + at.red_threes + side] = float(len(obs.red_threes[side_index]))
        score = obs.scores[side_index]
        out[offset + at.scores + side] = score / POINT_SCALE
        out[offset + at.minimums + side] = rules.minimum_for(score) / POINT_SCALE
    out[offset + at.answer + ANSWERS.index(obs.answer)] = 1.0
    lone = obs.lone_hand
    out[offset + at.lone_hand + (n if lone is None else (lone - me) % n)] = 1.0
    turn = obs.turn
    base = offset + at.turn
    for i, flag in enumerate(TURN_FLAGS):
        if getattr(turn, flag):
            out[base + i] = 1.0
    base = offset + at.turn_created
    for rank in turn.created:
        out[base + rank] = 1.0
    base = offset + at.turn_picked_up
    for card in turn.picked_up:
        out[base + card] += 1.0
    _write_building(prefix, out, at, offset)


def _write_building(prefix: Sequence[int], out: MutableSequence[float], at: _Offsets,
                    offset: int) -> None:
    """The action being spelled: its verb, its cards, each group's make-up, the open group."""
    verb = 0
    if prefix:
        verb = 2 if prefix[0] == TAKE_ID else 1
    out[offset + at.building_verb + verb] = 1.0
    group = -1
    parts = len(MELD_PARTS)
    cards, groups = offset + at.building_cards, offset + at.building_groups
    for i in prefix:
        if GROUP <= i < DRAW_ID:
            group = i - GROUP
        elif ADD <= i < DISCARD and group >= 0:
            card = i - ADD
            out[cards + card] += 1.0
            out[groups + group * parts + _PART[card]] += 1.0
        elif i == GROUP_W:  # Modern American's meld of wild cards: the last group row
            group = NUM_GROUP_RANKS - 1
    out[offset + at.building_group + (NUM_GROUP_RANKS if group < 0 else group)] = 1.0


# -- Modern American -----------------------------------------------------------------------------

KEEPING = "keep"
"""Modern American: the phase of a player who first says which three it keeps (``keep``)."""
MODERN_PHASES = (DEALING, KEEPING, MA_DRAW, MA_PLAY, MA_ANSWER, MA_OVER)
"""Modern American's phases in the order of its ``phase`` piece."""
MODERN_KEYS = (*NATURAL_RANKS, WILD_MELD)
"""Modern American's meld keys in the order of the rows of its ``melds`` piece: the natural
ranks 4..A, then the meld of wild cards (``W``)."""
MODERN_TURN_FLAGS = ("threes_chosen", "drew", "took", "opening", "melded")
"""The :class:`~canasta.modern_american.hand.Turn` flags, in the order of the ``turn`` piece
(the three kept, which only its player knows, is in that player's hand)."""


@dataclass(frozen=True)
class ModernView:
    """What one seat may know of a Modern American hand (as
    :func:`canasta.modern_american.view.seat_view` shows it): its own cards, how many the others
    and the stock hold, the table, whether the turn card is drawn. The tensor is computed from
    this alone."""

    seat: int
    phase: str
    """One of :data:`MODERN_PHASES` but ``deal``."""
    to_move: int
    dealer: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    pile: tuple[Card, ...]
    """The pile's cards a player may look at: all of them, or the top
    ``pile_visible_depth`` (a knob), top last."""
    pile_size: int
    stock_size: int
    turn_card_drawn: bool
    melds: tuple[SideMelds, ...]
    threes: tuple[tuple[Card, ...], ...]
    dead: frozenset[int]
    scores: tuple[int, ...]
    minimums: tuple[int, ...]
    asks: tuple[int, ...]
    answer: str | None
    turn: tuple[bool, ...]
    """The :data:`MODERN_TURN_FLAGS`."""
    talon: int
    """Cards of the talon due at the end of this turn."""
    courtesy: int | None
    """The seat whose next turn is a courtesy turn for a special hand (a knob), if any."""


def modern_view(h: Hand, seat: int) -> ModernView:
    """``seat``'s view of the hand ``h``."""
    phase = KEEPING if h.phase == MA_DRAW and not h.turn.threes_chosen else h.phase
    turn = h.turn
    depth = h.knobs.pile_visible_depth
    pile = h.pile if depth is None or len(h.pile) <= depth else h.pile[-depth:]
    return ModernView(
        seat=seat, phase=phase, to_move=h.to_move, dealer=h.dealer, hand=h.hands[seat],
        hand_sizes=tuple(len(cards) for cards in h.hands), pile=pile, pile_size=len(h.pile),
        stock_size=len(h.stock), turn_card_drawn=h.turn_card_drawn, melds=h.melds,
        threes=h.threes, dead=h.dead, scores=h.scores,
        minimums=tuple(h.minimum(side) for side in range(MA_SIDES)), asks=h.asks,
        answer=h.answer, turn=tuple(bool(getattr(turn, f)) for f in MODERN_TURN_FLAGS),
        talon=turn.talon, courtesy=h.courtesy)


def modern_tensor_layout() -> Layout:
    """The pieces of Modern American's tensor in order: (name, shape). Its sizes come from the
    family: 4 seats, 2 sides, 12 meld keys (docs/rl.md)."""
    n, k, c, r = MA_PLAYERS, MA_SIDES, NUM_CARD_TYPES, len(MODERN_KEYS)
    return (
        ("phase", (len(MODERN_PHASES),)), ("to_move", (n,)), ("dealer", (n,)),
        ("hand", (c,)), ("hand_sizes", (n,)),
        ("pile", (c,)), ("pile_top", (c,)), ("pile_size", (1,)), ("stock_size", (1,)),
        ("turn_card_drawn", (1,)),
        ("melds", (k, r, len(MELD_PARTS))), ("dead", (len(NATURAL_RANKS),)),
        ("threes", (k, 2)), ("scores", (k,)), ("minimums", (k,)),
        ("asks", (n,)), ("answer", (len(ANSWERS),)),
        ("turn", (len(MODERN_TURN_FLAGS),)), ("talon", (1,)), ("courtesy", (n + 1,)),
        ("building_verb", (len(VERBS),)), ("building_cards", (c,)),
        ("building_groups", (NUM_GROUP_RANKS, len(MELD_PARTS))),
        ("building_group", (NUM_GROUP_RANKS + 1,)),
    )


_MODERN_AT = _Offsets(modern_tensor_layout())
MODERN_FLAG_PIECES = frozenset({
    "phase", "to_move", "dealer", "pile_top", "turn_card_drawn", "dead", "answer", "turn",
    "courtesy", "building_verb", "building_group"})
"""Modern American's pieces of 0/1 flags."""


def modern_piece_slices() -> dict[str, tuple[int, int]]:
    """Each piece's (start, stop) in Modern American's flat tensor."""
    return _MODERN_AT.slices


def modern_tensor_size() -> int:
    """The length of Modern American's tensor (394)."""
    return _MODERN_AT.size


def modern_max_side_points(rules: Rules, knobs: Knobs) -> int:
    """A bound on the absolute value of one side's total for one Modern American hand: every
    card's value; for each of the side's meld keys (one meld each) the largest canasta bonus or
    incomplete penalty; the going-out bonus, the most the threes can score, every held penalty
    in both partners' hands and every three held; or the largest special hand."""
    pack = make_pack(rules.num_decks, rules.num_jokers)
    cards = sum(abs(rules.value_of[c]) for c in pack)
    bonuses = (list(dict(knobs.rank_canasta_bonus).values())
               + [knobs.wild_canasta_all_twos, knobs.wild_canasta_four_jokers,
                  knobs.wild_canasta_other, rules.natural_canasta_bonus,
                  rules.mixed_canasta_bonus])
    out = max(abs(rules.going_out_bonus), abs(rules.concealed_going_out_bonus))
    threes = 2 * max(abs(points) for _, points in knobs.three_schedule)
    penalties = (list(dict(knobs.rank_incomplete_penalty).values())
                 + [knobs.wild_meld_incomplete_penalty,
                    knobs.wild_meld_incomplete_penalty_four_jokers])
    melds = len(MODERN_KEYS) * max(abs(p) for p in bonuses + penalties)
    held = 2 * sum(abs(cost) for _, _, cost in knobs.hand_penalty)
    kept = sum(1 for c in pack if RANK_OF[c] == THREE) * max(
        abs(knobs.kept_three_penalty), abs(knobs.last_card_three_penalty))
    special = max(abs(hand.value) for hand in CATALOGUES[knobs.special_hands])
    return max(special, cards + melds + out + threes + held + kept)


def modern_tensor_bounds(rules: Rules, knobs: Knobs, hands: int = 1
                         ) -> tuple[list[float], list[float]]:
    """The least and the greatest value of each entry of Modern American's tensor (as
    :func:`tensor_bounds`): flags 0 or 1; a card's count up to its copies; a meld's naturals,
    twos and jokers up to seven (a meld holds at most seven cards) and the pack's jokers; sizes
    up to the pack's; threes of one colour up to the pack's; scores up to ``hands`` hands'
    points either way; minimums the largest; questions the rules' limit a hand (else one a
    turn); the talon its largest. Every range is positive."""
    at = _MODERN_AT
    low, high = [0.0] * at.size, [1.0] * at.size
    decks, jokers = rules.num_decks, rules.num_jokers
    copies = [float(jokers if card == JOKER else decks) for card in range(NUM_CARD_TYPES)]
    meld = [float(MAX_MELD), float(min(MAX_MELD, 4 * decks)), float(min(MAX_MELD, jokers))]
    pack = rules.deck_size / SIZE_SCALE
    points = hands * modern_max_side_points(rules, knobs) / POINT_SCALE
    minimum = max(value for _, value in rules.initial_meld_thresholds) / POINT_SCALE
    asks = rules.permission_asks_per_hand or 2 * rules.deck_size + 2
    for name, (start, stop) in at.slices.items():
        width = stop - start
        if name in MODERN_FLAG_PIECES:
            continue
        if name in CARD_PIECES:
            values = copies * (width // NUM_CARD_TYPES)
        elif name in ("melds", "building_groups"):
            values = meld * (width // len(meld))
        elif name in ("hand_sizes", "pile_size", "stock_size"):
            values = [pack] * width
        elif name == "threes":
            values = [2.0 * decks] * width
        elif name == "scores":
            values = [points] * width
            low[start:stop] = [-points] * width
        elif name == "minimums":
            values = [max(minimum, 1 / POINT_SCALE)] * width
        elif name == "asks":
            values = [float(asks)] * width
        elif name == "talon":
            values = [max(max(knobs.talon_sizes), 1) / SIZE_SCALE]
        else:  # a piece this function does not know yet: no bound is claimed for it
            raise AssertionError(f"no bound for the piece {name}")
        high[start:stop] = values
    return low, high


_MODERN_ROW = {key: row for row, key in enumerate(MODERN_KEYS)}


def modern_tensor(view: ModernView, prefix: Sequence[int] = ()) -> list[float]:
    """Modern American's tensor of ``view`` while the ids ``prefix`` of an action are spelled
    (:data:`~canasta.rl.encoding.MODERN`)."""
    at = _MODERN_AT
    out = [0.0] * at.size
    n, k = MA_PLAYERS, MA_SIDES
    me, my_side = view.seat, view.seat % k
    out[at.phase + MODERN_PHASES.index(view.phase)] = 1.0
    out[at.to_move + (view.to_move - me) % n] = 1.0
    out[at.dealer + (view.dealer - me) % n] = 1.0
    for card in view.hand:
        out[at.hand + card] += 1.0
    for s in range(n):
        rel = (s - me) % n
        out[at.hand_sizes + rel] = view.hand_sizes[s] / SIZE_SCALE
        out[at.asks + rel] = float(view.asks[s])
    for card in view.pile:
        out[at.pile + card] += 1.0
    if view.pile:
        out[at.pile_top + view.pile[-1]] = 1.0
    out[at.pile_size] = view.pile_size / SIZE_SCALE
    out[at.stock_size] = view.stock_size / SIZE_SCALE
    out[at.turn_card_drawn] = float(view.turn_card_drawn)
    parts = len(MELD_PARTS)
    for owner in range(k):
        side = (owner - my_side) % k
        row = at.melds + side * len(MODERN_KEYS) * parts
        for key, meld in enumerate(view.melds[owner]):
            if meld is not None:
                slot = row + _MODERN_ROW[key] * parts
                for card in meld:
                    out[slot + _PART[card]] += 1.0
        base = at.threes + side * 2
        for card in view.threes[owner]:
            out[base + (0 if IS_RED_THREE[card] else 1)] += 1.0
        out[at.scores + side] = view.scores[owner] / POINT_SCALE
        out[at.minimums + side] = view.minimums[owner] / POINT_SCALE
    for rank in view.dead:
        out[at.dead + rank] = 1.0
    out[at.answer + ANSWERS.index(view.answer)] = 1.0
    for i, flag in enumerate(view.turn):
        if flag:
            out[at.turn + i] = 1.0
    out[at.talon] = view.talon / SIZE_SCALE
    courtesy = view.courtesy
    out[at.courtesy + (n if courtesy is None else (courtesy - me) % n)] = 1.0
    _write_building(prefix, out, at, 0)
    return out


def modern_respell(values: Sequence[float], prefix: Sequence[int]) -> list[float]:
    """:func:`respell` for Modern American's tensor."""
    return _respell(values, _MODERN_AT, prefix)


def modern_dealing_tensor() -> list[float]:
    """Modern American's tensor of a table still being dealt: only the phase."""
    out = [0.0] * _MODERN_AT.size
    out[_MODERN_AT.phase + MODERN_PHASES.index(DEALING)] = 1.0
    return out
