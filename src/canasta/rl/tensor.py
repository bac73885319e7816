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

from collections.abc import Mapping, MutableSequence, Sequence

from canasta.cards import JOKER, NUM_CARD_TYPES, RANK_OF, RED_THREES, TWO, make_pack
from canasta.observation import Observation, observe
from canasta.rl.encoding import ADD, DISCARD, DRAW_ID, GROUP, NUM_GROUP_RANKS, TAKE_ID
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


class Offsets:
    """Where each piece starts, by attribute (``at.hand``), and the whole size: computed once
    per layout (per number of players and sides here; a family's own layout has its own)."""

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


_OFFSETS: dict[tuple[int, int], Offsets] = {}


def _offsets(rules: Rules) -> Offsets:
    key = (rules.num_players, rules.num_sides)
    found = _OFFSETS.get(key)
    if found is None:
        found = _OFFSETS[key] = Offsets(tensor_layout(rules))
    return found


def piece_slices(rules: Rules) -> dict[str, tuple[int, int]]:
    """Each piece's (start, stop) in the flat tensor."""
    return _offsets(rules).slices


def tensor_size(rules: Rules) -> int:
    """The length of the tensor under ``rules``."""
    return _offsets(rules).size


MELD_PART = tuple(2 if card == JOKER else 1 if RANK_OF[card] == TWO else 0
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
    return respell_at(values, _offsets(rules), prefix)


def respell_at(values: Sequence[float], at: Offsets, prefix: Sequence[int],
               group_rows: Mapping[int, int] | None = None) -> list[float]:
    """:func:`respell` for any layout that ends with the ``building_*`` pieces of this
    module's (``at`` its offsets; ``group_rows`` as :func:`write_building`)."""
    out = list(values)
    out[at.building_verb] = 0.0
    out[at.building_group + NUM_GROUP_RANKS] = 0.0
    write_building(prefix, out, at, 0, group_rows)
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
                    out[slot + MELD_PART[card]] += 1.0
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
    write_building(prefix, out, at, offset)


def write_building(prefix: Sequence[int], out: MutableSequence[float], at: Offsets,
                   offset: int, group_rows: Mapping[int, int] | None = None) -> None:
    """The action being spelled: its verb, its cards, each group's make-up, the open group.
    ``group_rows`` gives the row of each group id an alphabet adds to the classic ones."""
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
            out[groups + group * parts + MELD_PART[card]] += 1.0
        elif group_rows and i in group_rows:
            group = group_rows[i]
    out[offset + at.building_group + (NUM_GROUP_RANKS if group < 0 else group)] = 1.0
