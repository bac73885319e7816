"""What a position mid-hand is worth to a side, for the end of a search's play-out.

A play-out stops a few turns past the searched decision, long before the hand ends, and its end
must be valued as the lead the side can expect at the hand's end. Two ways:

* :func:`counted_lead`: the lead as the table shows it, melds and red threes counted, part of a
  canasta's bonus for a meld one or two cards short, and half the points held in hand charged;
* :func:`fitted_lead`: the same facts, and what the counted lead leaves out (wild cards and
  cards held while the stock still has rounds in it, the pile and who draws next, a canasta
  that lets the side go out), weighed by the preset's :data:`VALUE_FITS`, the least-squares
  fit of heuristic self-play positions to the lead at their hand's end
  (``benchmarks/value_fit.py``).

Both read only the table, the hands and the stock of a (sampled) state, and return the lead
of ``seat``'s side over the mean of the other sides; a finished hand is worth its result.
"""

from __future__ import annotations

from canasta.cards import IS_WILD
from canasta.state import DRAW, OVER, State

BONUS_SHARE_SHORT = (0.45, 0.2)
"""The share of a mixed canasta's bonus the counted lead gives a meld one card short, two cards
short: most such melds are finished before the hand ends."""

HAND_SHARE = 0.5
"""The share of the points held in hand that the counted lead charges (some will be melded)."""

FEATURES = (
    "meld_points", "bonuses", "one_short", "two_short", "red_threes", "melded", "canasta",
    "hand_points", "hand_cards", "wild_cards", "hand_points_stock", "hand_cards_stock",
    "wild_cards_stock", "pile_to_draw",
)
"""What the fitted lead reads of each side, in order (each the side's figure less the mean of
the other sides'):

* ``meld_points``: card points on the table; ``bonuses``: canasta bonuses made;
* ``one_short``, ``two_short``: melds one, two cards short of a canasta;
* ``red_threes``: their score (negative while the side has not melded, where the rules say so);
* ``melded``: 1 once the side has a meld; ``canasta``: 1 once it has a canasta (it may go out);
* ``hand_points``, ``hand_cards``, ``wild_cards``: points, cards and wild cards held;
* the same three times the share of the stock left (``*_stock``): a card held early in the
  hand is a meld to come, late it has less time to become one;
* ``pile_to_draw``: the pile's cards, for the side whose player is about to draw.
"""

VALUE_FITS: dict[str, tuple[float, ...]] = {
    # the heuristic in self-play, 4,000 hands (``python benchmarks/value_fit.py --hands 4000
    # --seed 1``): cards held weigh for the side (a pile taken fills the hand), the more so
    # early in the hand; a point on the table is worth three and a half at the end (it grows
    # into canastas)
    "classic": (3.53, 0.44, 40.84, 24.49, 1.01, 154.79, -10.39,
                2.61, 31.69, -49.58, -1.1, 60.13, 143.05, 1.72),
}
"""The fitted lead's weight of each of :data:`FEATURES` (points per unit), per preset fitted;
a game under another preset is valued by :func:`counted_lead`."""


def side_facts(state: State, side: int, stock_share: float) -> list[float]:
    """The :data:`FEATURES` of one side in ``state``."""
    rules = state.rules
    value = rules.value_of
    size = rules.canasta_size
    seats = [s for s in range(rules.num_players) if s % rules.num_sides == side]
    melds = state.melds[state.owner_of(seats[0])]
    points = bonuses = 0.0
    one_short = two_short = 0
    melded = canasta = False
    for m in melds:
        if m is None:
            continue
        melded = True
        points += sum(value[c] for c in m)
        short = size - len(m)
        if short <= 0:
            canasta = True
            mixed = any(IS_WILD[c] for c in m)
            bonuses += rules.mixed_canasta_bonus if mixed else rules.natural_canasta_bonus
        elif short == 1:
            one_short += 1
        elif short == 2:
            two_short += 1
    red = rules.red_three_score(len(state.red_threes[side]))
    if not melded and rules.red_threes_negative_if_no_meld:
        red = -red
    held = [c for s in seats for c in state.hands[s]]
    hand_points = float(sum(value[c] for c in held))
    wilds = float(sum(1 for c in held if IS_WILD[c]))
    cards = float(len(held))
    to_draw = state.phase == DRAW and rules.side_of(state.to_move) == side
    return [points, bonuses, one_short, two_short, red, float(melded), float(canasta),
            hand_points, cards, wilds, hand_points * stock_share, cards * stock_share,
            wilds * stock_share, float(len(state.pile)) if to_draw else 0.0]


def counted_lead(state: State, seat: int, hand_share: float = HAND_SHARE) -> float:
    """The lead of ``seat``'s side in points: the hand's result if over, else the table as it
    stands: each side's melds (card points, canasta bonuses, and :data:`BONUS_SHARE_SHORT` of a
    mixed canasta's bonus for a meld one or two cards short), its red threes (negative while it
    has no meld, where the rules say so), less ``hand_share`` of the points its players hold."""
    done = result_lead(state, seat)
    if done is not None:
        return done
    rules = state.rules
    share = [BONUS_SHARE_SHORT[k] * rules.mixed_canasta_bonus for k in range(2)]
    totals: list[int] = []
    for side in range(rules.num_sides):
        f = side_facts(state, side, 0.0)
        total = f[0] + f[1] + share[0] * f[2] + share[1] * f[3] + f[4]
        totals.append(int(total - hand_share * f[7]))
    return _lead(totals, seat)


def _lead(totals: list[int] | list[float], seat: int) -> float:
    """``seat``'s side's figure less the mean of the other sides'."""
    mine = seat % len(totals)
    others = [t for i, t in enumerate(totals) if i != mine]
    return totals[mine] - sum(others) / len(others)


def stock_share(state: State) -> float:
    """The share of the stock dealt that is left."""
    rules = state.rules
    dealt = rules.deck_size - rules.num_players * rules.hand_size - 1
    return min(1.0, len(state.stock) / dealt) if dealt > 0 else 0.0


def lead_features(state: State, seat: int) -> list[float]:
    """The :data:`FEATURES` of ``seat``'s side less the mean of the other sides'."""
    sides = state.rules.num_sides
    share = stock_share(state)
    facts = [side_facts(state, side, share) for side in range(sides)]
    return [_lead([f[k] for f in facts], seat) for k in range(len(FEATURES))]


def result_lead(state: State, seat: int) -> float | None:
    """The lead of ``seat``'s side in a finished hand, else None."""
    if state.phase != OVER or state.result is None:
        return None
    return _lead([s.total for s in state.result.sides], seat)


def fitted_lead(state: State, seat: int) -> float:
    """The lead ``seat``'s side can expect at the hand's end, by the preset's fit
    (:data:`VALUE_FITS`; :func:`counted_lead` where the preset has none)."""
    done = result_lead(state, seat)
    if done is not None:
        return done
    fit = VALUE_FITS.get(state.rules.name)
    if fit is None:
        return counted_lead(state, seat)
    return sum(w * x for w, x in zip(fit, lead_features(state, seat), strict=True))
