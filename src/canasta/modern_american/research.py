"""Modern American for the research adapters (the family's ``research_module``): its 142 action
ids (:data:`MODERN`, a :class:`ModernAlphabet`), its observation tensor of 394 floats
(:func:`modern_tensor`) and their bounds, and the deals of what a seat cannot see
(docs/rl.md, "Modern American").

The alphabet keeps the classic ids 0..124 with their meanings (:mod:`canasta.rl.encoding`) and
adds ``group W`` (a meld of wild cards), ``keep c`` for the four threes, ``keep none`` and
``special i`` for each hand of the special-hand catalogue:

>>> from canasta.actions import Action
>>> MODERN.size, MODERN.encode(Action("keep", (), -1)), MODERN.id_text(MODERN.encode(
...     Action("special", (), 0))[0])
(142, (130,), 'special Pairs')
>>> from canasta import get_rules
>>> r = research(get_rules("modern-american"))
>>> r.alphabet is MODERN, len(r.dealing_tensor()), r.max_steps_per_hand()
(True, 394, 1512)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final

from canasta.actions import Action, Group
from canasta.cards import (
    FIRST_THREE,
    IS_RED_THREE,
    JOKER,
    NATURAL_RANKS,
    NUM_CARD_TYPES,
    RANK_OF,
    THREE,
    Card,
    format_card,
    make_pack,
)
from canasta.modern_american.choices import KEEP_NONE
from canasta.modern_american.hand import ANSWER, DRAW, NUM_PLAYERS, NUM_SIDES, OVER, PLAY, Hand
from canasta.modern_american.knobs import ModernAmericanRules
from canasta.modern_american.melds import MAX_MELD, WILD_MELD
from canasta.modern_american.notation import hand_to_json
from canasta.modern_american.observation import Observation, world
from canasta.modern_american.special_hands import CATALOGUES
from canasta.rl.encoding import (
    END,
    GROUP,
    NUM_GROUP_RANKS,
    NUM_IDS,
    TAKE_ID,
    Alphabet,
    decode,
    first_id,
    id_text,
    is_single,
    read_groups,
)
from canasta.rl.research import Research, seen_line
from canasta.rl.tensor import (
    ANSWERS,
    CARD_PIECES,
    DEALING,
    MELD_PART,
    MELD_PARTS,
    POINT_SCALE,
    SIZE_SCALE,
    VERBS,
    Layout,
    Offsets,
    respell_at,
    write_building,
)
from canasta.rules import Rules

# -- the ids ---------------------------------------------------------------------------------------

GROUP_W: Final = NUM_IDS
"""``group W``, a group of the meld of wild cards (125)."""
KEEP: Final = GROUP_W + 1
"""``KEEP + k`` keeps the three ``FIRST_THREE + k`` (3c 3d 3h 3s: 126..129)."""
KEEP_NONE_ID: Final = KEEP + 4
"""``keep none``, every three is laid (130)."""
SPECIAL: Final = KEEP_NONE_ID + 1
"""``SPECIAL + i`` declares the special hand ``i`` of the catalogue (131..)."""
MODERN_SPECIALS: Final = max(len(hands) for hands in CATALOGUES.values())
"""Special-hand ids: as many as the longest catalogue (CLA's 11); a shorter one leaves the last
ones unused, so every catalogue shares one alphabet."""
MODERN_NUM_IDS: Final = SPECIAL + MODERN_SPECIALS
"""The size of the alphabet (142)."""

_KEYS: Final = {**{GROUP + rank: rank for rank in NATURAL_RANKS}, GROUP_W: WILD_MELD}
"""The meld key each ``group`` id starts (no group of threes)."""


def _wild_last(group: Group) -> tuple[bool, int]:
    """The canonical order of a meld's groups: highest rank first, the meld of wild cards last
    (as :mod:`canasta.modern_american.action_text` writes them)."""
    return (group.rank == WILD_MELD, -group.rank)


class ModernAlphabet(Alphabet):
    """Modern American's ids: the classic ones (``group 3`` is never legal: threes are never
    melded), ``group W`` (125), ``keep 3c`` ... ``keep 3s`` (126..129), ``keep none`` (130) and
    ``special i`` (131..141), named by the special-hand catalogue ``catalogue``. A ``keep`` is
    private: the others see the threes laid, not which one was kept."""

    name = "modern-american"
    size = MODERN_NUM_IDS

    def __init__(self, catalogue: str = "cla") -> None:
        if catalogue not in CATALOGUES:
            raise ValueError(f"no special-hand catalogue {catalogue!r} "
                             f"(known: {', '.join(CATALOGUES)})")
        self.catalogue = catalogue
        self.specials = tuple(hand.name for hand in CATALOGUES[catalogue])

    def _group_id(self, group: Group) -> int:
        rank = group.rank
        if rank == WILD_MELD:
            return GROUP_W
        if rank not in NATURAL_RANKS:
            raise ValueError(f"a group of no meld key cannot be spelled: {group.cards}")
        return GROUP + rank

    def first_id(self, action: Action) -> int:
        verb = action.verb
        if verb == "keep":
            return KEEP_NONE_ID if action.card == KEEP_NONE else self._keep_id(action.card)
        if verb == "special":
            return self._special_id(action.card)
        if verb == "meld" and action.groups:
            return self._group_id(action.groups[0])
        return first_id(action)

    def _keep_id(self, card: int) -> int:
        if not 0 <= card - FIRST_THREE < 4:
            raise ValueError(f"keep names a three or none, not card {card}")
        return KEEP + card - FIRST_THREE

    def _special_id(self, index: int) -> int:
        if not 0 <= index < len(self.specials):
            raise ValueError(f"no special hand {index} in the {self.catalogue} catalogue")
        return SPECIAL + index

    def encode(self, action: Action) -> tuple[int, ...]:
        verb = action.verb
        if verb in ("keep", "special") or not action.groups:
            if verb in ("meld", "take") and not action.groups:
                raise ValueError(f"a {verb} of this family needs at least one group")
            return (self.first_id(action),)
        ids = [TAKE_ID] if verb == "take" else []
        for group in action.groups:
            ids.append(self._group_id(group))
            ids.extend(group.cards)
        ids.append(END)
        return tuple(ids)

    def decode(self, ids: Sequence[int]) -> Action:
        if not ids:
            raise ValueError("an empty spelling")
        head = ids[0]
        if len(ids) == 1 and self.is_single(head):
            if KEEP <= head < KEEP_NONE_ID:
                return Action("keep", (), FIRST_THREE + head - KEEP)
            if head == KEEP_NONE_ID:
                return Action("keep", (), KEEP_NONE)
            if head >= SPECIAL:
                if head - SPECIAL >= len(self.specials):
                    raise ValueError(f"id {head} names no special hand of the "
                                     f"{self.catalogue} catalogue")
                return Action("special", (), head - SPECIAL)
            return decode(ids)
        verb, groups = read_groups(ids, _KEYS, self.id_text)
        if not groups:
            raise ValueError(f"a {verb} of this family needs at least one group")
        head_groups = groups[:1] if verb == "take" else []
        ordered = [Group(g.rank, tuple(sorted(g.cards)))
                   for g in head_groups + sorted(groups[len(head_groups):], key=_wild_last)]
        action = Action(verb, tuple(ordered))
        if self.encode(action) != tuple(ids):
            raise ValueError(f"{list(ids)} is not a canonical spelling")
        return action

    def id_text(self, i: int) -> str:
        if not 0 <= i < self.size:
            raise ValueError(f"{i} is not an action id (0..{self.size - 1})")
        if i < GROUP_W:
            return id_text(i)
        if i == GROUP_W:
            return "group W"
        if i < KEEP_NONE_ID:
            return "keep " + format_card(FIRST_THREE + i - KEEP)
        if i == KEEP_NONE_ID:
            return "keep none"
        k = i - SPECIAL
        return "special " + (self.specials[k] if k < len(self.specials) else f"#{k}")

    def is_single(self, i: int) -> bool:
        return i >= KEEP or (i != GROUP_W and is_single(i))

    def is_private(self, i: int) -> bool:
        return KEEP <= i <= KEEP_NONE_ID


MODERN: Final = ModernAlphabet()
"""The 142 ids, the special hands named by the CLA catalogue (the default)."""


def alphabet_for(catalogue: str) -> ModernAlphabet:
    """The alphabet whose special hands are the catalogue ``catalogue`` (``cla`` or
    ``pagat``)."""
    return MODERN if catalogue == MODERN.catalogue else ModernAlphabet(catalogue)


# -- the tensor ------------------------------------------------------------------------------------

KEEPING: Final = "keep"
"""The phase of a player who first says which three it keeps (``keep``)."""
MODERN_PHASES: Final = (DEALING, KEEPING, DRAW, PLAY, ANSWER, OVER)
"""The phases in the order of the ``phase`` piece."""
MODERN_KEYS: Final = (*NATURAL_RANKS, WILD_MELD)
"""The meld keys in the order of the rows of the ``melds`` piece: the natural ranks 4..A, then
the meld of wild cards (``W``)."""
MODERN_TURN_FLAGS: Final = ("threes_chosen", "drew", "took", "opening", "melded")
"""The :class:`~canasta.modern_american.hand.Turn` flags, in the order of the ``turn`` piece
(the three kept, which only its player knows, is in that player's hand)."""
GROUP_ROWS: Final = {GROUP_W: NUM_GROUP_RANKS - 1}
"""The ``building_groups`` row of ``group W``: the last (classic's black threes, never a group
here)."""


def modern_tensor_layout() -> Layout:
    """The pieces of the tensor in order: (name, shape). Its sizes come from the family: 4
    seats, 2 sides, 12 meld keys (docs/rl.md)."""
    n, k, c, r = NUM_PLAYERS, NUM_SIDES, NUM_CARD_TYPES, len(MODERN_KEYS)
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


AT: Final = Offsets(modern_tensor_layout())
"""Where each piece of the tensor starts."""
FLAG_PIECES: Final = frozenset({
    "phase", "to_move", "dealer", "pile_top", "turn_card_drawn", "dead", "answer", "turn",
    "courtesy", "building_verb", "building_group"})
"""The pieces of 0/1 flags."""


def piece_slices() -> dict[str, tuple[int, int]]:
    """Each piece's (start, stop) in the flat tensor."""
    return AT.slices


def tensor_size() -> int:
    """The length of the tensor (394)."""
    return AT.size


def max_side_points(rules: ModernAmericanRules) -> int:
    """A bound on the absolute value of one side's total for one hand: every card's value; for
    each of the side's meld keys (one meld each) the largest canasta bonus or incomplete
    penalty; the going-out bonus, the most the threes can score, every held penalty in both
    partners' hands and every three held; or the largest special hand."""
    knobs = rules.knobs
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


def tensor_bounds(rules: ModernAmericanRules, hands: int = 1) -> tuple[list[float], list[float]]:
    """The least and the greatest value of each entry of the tensor (as
    :func:`canasta.rl.tensor.tensor_bounds`): flags 0 or 1; a card's count up to its copies; a
    meld's naturals, twos and jokers up to seven (a meld holds at most seven cards) and the
    pack's jokers; sizes up to the pack's; threes of one colour up to the pack's; scores up to
    ``hands`` hands' points either way; minimums the largest; questions the rules' limit a hand
    (else one a turn); the talon its largest. Every range is positive."""
    knobs = rules.knobs
    low, high = [0.0] * AT.size, [1.0] * AT.size
    decks, jokers = rules.num_decks, rules.num_jokers
    copies = [float(jokers if card == JOKER else decks) for card in range(NUM_CARD_TYPES)]
    meld = [float(MAX_MELD), float(min(MAX_MELD, 4 * decks)), float(min(MAX_MELD, jokers))]
    pack = rules.deck_size / SIZE_SCALE
    points = hands * max_side_points(rules) / POINT_SCALE
    minimum = max(value for _, value in rules.initial_meld_thresholds) / POINT_SCALE
    asks = rules.permission_asks_per_hand or 2 * rules.deck_size + 2
    for name, (start, stop) in AT.slices.items():
        width = stop - start
        if name in FLAG_PIECES:
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


_ROW = {key: row for row, key in enumerate(MODERN_KEYS)}


def modern_tensor(obs: Observation, prefix: Sequence[int] = ()) -> list[float]:
    """The tensor of what a seat observes (its :class:`~canasta.modern_american.observation.
    Observation`) while the ids ``prefix`` of an action are spelled."""
    at = AT
    out = [0.0] * at.size
    n, k = NUM_PLAYERS, NUM_SIDES
    me, my_side = obs.seat, obs.seat % k
    turn = obs.turn
    phase = KEEPING if obs.phase == DRAW and not turn.threes_chosen else obs.phase
    out[at.phase + MODERN_PHASES.index(phase)] = 1.0
    out[at.to_move + (obs.to_move - me) % n] = 1.0
    out[at.dealer + (obs.dealer - me) % n] = 1.0
    for card in obs.hand:
        out[at.hand + card] += 1.0
    for s in range(n):
        rel = (s - me) % n
        out[at.hand_sizes + rel] = obs.hand_sizes[s] / SIZE_SCALE
        out[at.asks + rel] = float(obs.asks[s])
    for card in obs.pile:
        out[at.pile + card] += 1.0
    if obs.pile:
        out[at.pile_top + obs.pile[-1]] = 1.0
    out[at.pile_size] = obs.pile_size / SIZE_SCALE
    out[at.stock_size] = obs.stock_size / SIZE_SCALE
    out[at.turn_card_drawn] = float(obs.turn_card_drawn)
    parts = len(MELD_PARTS)
    for owner in range(k):
        side = (owner - my_side) % k
        row = at.melds + side * len(MODERN_KEYS) * parts
        for key, meld in enumerate(obs.melds[owner]):
            if meld is not None:
                slot = row + _ROW[key] * parts
                for card in meld:
                    out[slot + MELD_PART[card]] += 1.0
        base = at.threes + side * 2
        for card in obs.threes[owner]:
            out[base + (0 if IS_RED_THREE[card] else 1)] += 1.0
        out[at.scores + side] = obs.scores[owner] / POINT_SCALE
        out[at.minimums + side] = obs.minimum(owner) / POINT_SCALE
    for rank in obs.dead:
        out[at.dead + rank] = 1.0
    out[at.answer + ANSWERS.index(obs.answer)] = 1.0
    for i, flag in enumerate(MODERN_TURN_FLAGS):
        if getattr(turn, flag):
            out[at.turn + i] = 1.0
    out[at.talon] = turn.talon / SIZE_SCALE
    courtesy = obs.courtesy
    out[at.courtesy + (n if courtesy is None else (courtesy - me) % n)] = 1.0
    write_building(prefix, out, at, 0, GROUP_ROWS)
    return out


# -- the family's interface ------------------------------------------------------------------------

class ModernAmericanResearch(Research):
    """A Modern American rule set (house rules included) for the adapters: 142 ids, 394 floats,
    14 ids per card of the pack (a turn may also keep a three: docs/rl.md)."""

    ids_per_card = 14

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        assert isinstance(rules, ModernAmericanRules)
        self.rules: ModernAmericanRules = rules
        self.alphabet = alphabet_for(rules.knobs.special_hands)

    def tensor(self, position: Any, seat: int) -> list[float]:
        return modern_tensor(self.family.observe(position, seat))

    def respell(self, values: Sequence[float], prefix: Sequence[int]) -> list[float]:
        return respell_at(values, AT, prefix, GROUP_ROWS)

    def dealing_tensor(self) -> list[float]:
        out = [0.0] * AT.size
        out[AT.phase + MODERN_PHASES.index(DEALING)] = 1.0
        return out

    def tensor_layout(self) -> Layout:
        return modern_tensor_layout()

    def tensor_bounds(self, hands: int) -> tuple[list[float], list[float]]:
        return tensor_bounds(self.rules, hands)

    def max_side_points(self) -> int:
        return max_side_points(self.rules)

    def seen_text(self, position: Any, seat: int, deal: bool) -> str:
        """The seat's hand, the pile (all of it at the deal, else its top and size), the laid
        threes, the hands' sizes and the stock's."""
        h: Hand = position
        return seen_line(deal, h.hands[seat], h.pile, "threes", h.threes,
                         [len(cards) for cards in h.hands], len(h.stock))

    def chance_json(self, position: Any) -> dict[str, Any]:
        out = hand_to_json(position)
        del out["turn_card"]  # chance decides the stock's order: no card lies there yet
        return out

    def resampler(self, position: Any, seat: int, held: Sequence[Card]
                  ) -> Callable[[random.Random], Any]:
        """Deals the other hands, the stock and the pile below the cards a player may look at
        (``pile_visible_depth``) anew, their sizes kept; the player to move keeps ``held``."""
        h: Hand = position
        mover = h.to_move
        fixed = Counter(held)
        depth = h.knobs.pile_visible_depth
        below = 0 if depth is None else max(0, len(h.pile) - depth)
        others = [s for s in range(NUM_PLAYERS) if s != seat]
        pool = list((Counter(c for s in others for c in h.hands[s]) + Counter(h.stock)
                     + Counter(h.pile[:below]) - fixed).elements())
        sizes = [len(h.hands[s]) - (fixed.total() if s == mover else 0) for s in others]

        def deal(rng: random.Random) -> Hand:
            rng.shuffle(pool)
            bottom: list[Card] = []  # the pile's hidden part: never a three (none is discarded)
            rest: list[Card] = []
            for c in pool:
                (bottom if len(bottom) < below and RANK_OF[c] != THREE else rest).append(c)
            hands = list(h.hands)
            at = 0
            for s, size in zip(others, sizes):
                kept = list(fixed.elements()) if s == mover else []
                hands[s] = tuple(sorted(rest[at:at + size] + kept))
                at += size
            sample: Hand = h.but(hands=tuple(hands), pile=(*bottom, *h.pile[below:]),
                                 stock=tuple(sorted(rest[at:])))
            return sample

        return deal

    def world(self, observation: Any, rng: random.Random) -> Hand:
        return world(observation, rng)

    def lead(self, position: Any, seat: int) -> float:
        """The hand's result once it is over, else the values of the cards each side has
        melded."""
        if position.is_over:
            return super().lead(position, seat)
        value = self.rules.value_of
        melded = [sum(value[c] for m in melds if m is not None for c in m)
                  for melds in position.melds]
        mine = seat % NUM_SIDES
        return float(melded[mine] - melded[1 - mine])


def research(rules: Rules) -> ModernAmericanResearch:
    """The research interface of a Modern American rule set."""
    return ModernAmericanResearch(rules)


__all__ = ["GROUP_W", "KEEP", "KEEP_NONE_ID", "MODERN", "MODERN_KEYS", "MODERN_NUM_IDS",
           "MODERN_PHASES", "SPECIAL", "ModernAlphabet", "ModernAmericanResearch",
           "alphabet_for", "modern_tensor", "modern_tensor_layout", "research"]
