"""Modern American Canasta (``shared/MODERN-AMERICAN.md``): the rules the classic fields cannot
say, as a family behind the rules seam.

What is here: the knobs of the family (:class:`~canasta.modern_american.knobs.Knobs`, MA §16.2),
the meld rules with their context (:mod:`~canasta.modern_american.melds`: sevens and aces, melds
of wild cards, the rule of five, dead ranks, the clean triple of the initial meld) and the
canasta-count scoring matrix with its breakdown (:mod:`~canasta.modern_american.scoring`, MA §13),
what may be discarded and when the pile may be picked
(:mod:`~canasta.modern_american.discards`, MA §6, §7) and the special hands
(:mod:`~canasta.modern_american.special_hands`, MA §11).
:class:`~canasta.modern_american.variant.ModernAmericanVariant` answers the seam's questions for
this family. The deal without an upcard, the threes and the talon are not
here yet, and the engine does not ask these modules: no preset plays the family.
"""

from canasta.modern_american.discards import discard_problem, pick_problem
from canasta.modern_american.knobs import KNOBS, Knobs, base_rules
from canasta.modern_american.melds import WILD_MELD, MeldContext, meld_problem, opening_problem
from canasta.modern_american.scoring import SideScore, score_side
from canasta.modern_american.special_hands import SpecialHand, matches, special_problem
from canasta.modern_american.variant import ModernAmericanVariant

__all__ = ["KNOBS", "WILD_MELD", "Knobs", "MeldContext", "ModernAmericanVariant", "SideScore",
           "SpecialHand", "base_rules", "discard_problem", "matches", "meld_problem",
           "opening_problem", "pick_problem", "score_side", "special_problem"]
