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
>>> len(values) == tensor_size(state.rules) == 682
True
>>> start, _ = piece_slices(state.rules)["phase"]
>>> values[start:start + 5]  # deal, draw, play, answer, over
[0.0, 1.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence

from canasta.cards import JOKER, NUM_CARD_TYPES, RANK_OF, TWO
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
TURN_FLAGS = ("took_pile", "melded", "extended")
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


def _volume(shape: tuple[int, ...]) -> int:
    out = 1
    for d in shape:
        out *= d
    return out


_SLICES: dict[tuple[int, int], dict[str, tuple[int, int]]] = {}


def piece_slices(rules: Rules) -> dict[str, tuple[int, int]]:
    """Each piece's (start, stop) in the flat tensor."""
    key = (rules.num_players, rules.num_sides)
    found = _SLICES.get(key)
    if found is None:
        found = {}
        pos = 0
        for name, shape in tensor_layout(rules):
            found[name] = (pos, pos + _volume(shape))
            pos += _volume(shape)
        _SLICES[key] = found
    return found


def tensor_size(rules: Rules) -> int:
    """The length of the tensor under ``rules``."""
    return max(stop for _, stop in piece_slices(rules).values())


def _meld_part(card: int) -> int:
    """Index into :data:`MELD_PARTS` of a card in a meld."""
    if card == JOKER:
        return 2
    return 1 if RANK_OF[card] == TWO else 0


def observation_tensor(obs: Observation, prefix: Sequence[int] = ()) -> list[float]:
    """The tensor of ``obs`` while the ids ``prefix`` of an action are spelled."""
    out = [0.0] * tensor_size(obs.rules)
    write_tensor(obs, prefix, out)
    return out


def state_tensor(state: State, seat: int, prefix: Sequence[int] = ()) -> list[float]:
    """The tensor of what ``seat`` may know of ``state`` (``observe`` then the tensor)."""
    return observation_tensor(observe(state, seat), prefix)


def dealing_tensor(rules: Rules) -> list[float]:
    """The tensor of a table still being dealt: nothing is seen yet but the phase."""
    out = [0.0] * tensor_size(rules)
    out[piece_slices(rules)["phase"][0] + PHASES.index(DEALING)] = 1.0
    return out


def write_tensor(obs: Observation, prefix: Sequence[int], out: MutableSequence[float],
                 offset: int = 0) -> None:
    """Write the tensor into ``out[offset:offset + tensor_size]``, which must hold zeros."""
    rules = obs.rules
    n, k = rules.num_players, rules.num_sides
    at = {name: start + offset for name, (start, _) in piece_slices(rules).items()}
    me, my_side = obs.seat, obs.seat % k

    def seat_of(s: int) -> int:
        return (s - me) % n

    out[at["phase"] + PHASES.index(obs.phase)] = 1.0
    out[at["to_move"] + seat_of(obs.to_move)] = 1.0
    out[at["dealer"] + seat_of(obs.dealer)] = 1.0
    base = at["hand"]
    for card in obs.hand:
        out[base + card] += 1.0
    base = at["known"]
    for s in range(n):
        row = base + seat_of(s) * NUM_CARD_TYPES
        out[at["hand_sizes"] + seat_of(s)] = obs.hand_sizes[s] / SIZE_SCALE
        out[at["has_melded"] + seat_of(s)] = float(obs.has_melded[s])
        out[at["asks"] + seat_of(s)] = float(obs.asks[s])
        for card in obs.known[s]:
            out[row + card] += 1.0
    base = at["pile"]
    for card in obs.pile:
        out[base + card] += 1.0
    if obs.pile:
        out[at["pile_top"] + obs.pile[-1]] = 1.0
    out[at["pile_size"]] = len(obs.pile) / SIZE_SCALE
    out[at["pile_frozen"]] = float(obs.pile_frozen)
    out[at["stock_size"]] = obs.stock_size / SIZE_SCALE
    parts = len(MELD_PARTS)
    for owner, melds in enumerate(obs.melds):
        side = (owner - my_side) % k
        row = at["melds"] + side * NUM_MELD_RANKS * parts
        for rank, meld in enumerate(melds):
            if meld is not None:
                for card in meld:
                    out[row + rank * parts + _meld_part(card)] += 1.0
        for rank in obs.hidden[owner]:
            out[at["hidden"] + side * NUM_MELD_RANKS + rank] = 1.0
    for side_index in range(k):
        side = (side_index - my_side) % k
        out[at["red_threes"] + side] = float(len(obs.red_threes[side_index]))
        out[at["scores"] + side] = obs.scores[side_index] / POINT_SCALE
        out[at["minimums"] + side] = rules.minimum_for(obs.scores[side_index]) / POINT_SCALE
    out[at["answer"] + ANSWERS.index(obs.answer)] = 1.0
    out[at["lone_hand"] + (n if obs.lone_hand is None else seat_of(obs.lone_hand))] = 1.0
    turn = obs.turn
    for i, flag in enumerate(TURN_FLAGS):
        out[at["turn"] + i] = float(getattr(turn, flag))
    for rank in turn.created:
        out[at["turn_created"] + rank] = 1.0
    for card in turn.picked_up:
        out[at["turn_picked_up"] + card] += 1.0
    _write_building(prefix, out, at)


def _write_building(prefix: Sequence[int], out: MutableSequence[float],
                    at: dict[str, int]) -> None:
    """The action being spelled: its verb, its cards, each group's make-up, the open group."""
    verb = 0
    if prefix:
        verb = 2 if prefix[0] == TAKE_ID else 1
    out[at["building_verb"] + verb] = 1.0
    group = -1
    parts = len(MELD_PARTS)
    for i in prefix:
        if GROUP <= i < DRAW_ID:
            group = i - GROUP
        elif ADD <= i < DISCARD and group >= 0:
            card = i - ADD
            out[at["building_cards"] + card] += 1.0
            out[at["building_groups"] + group * parts + _meld_part(card)] += 1.0
    out[at["building_group"] + (NUM_GROUP_RANKS if group < 0 else group)] = 1.0
