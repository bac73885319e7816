"""Modern American Canasta (``shared/MODERN-AMERICAN.md``): the rules the classic fields cannot
say, as a family behind the rules seam.

What is here: the knobs of the family (:class:`~canasta.modern_american.knobs.Knobs`, MA §16.2),
the meld rules with their context (:mod:`~canasta.modern_american.melds`: sevens and aces, melds
of wild cards, the rule of five, dead ranks, the clean triple of the initial meld) and the
canasta-count scoring matrix with its breakdown (:mod:`~canasta.modern_american.scoring`, MA §13).
:class:`~canasta.modern_american.variant.ModernAmericanVariant` answers the seam's questions for
this family. The deal without an upcard, the talon, the discard rules and special hands are not
here yet, so no preset plays the family: the engine does not ask these modules.
"""

from canasta.modern_american.knobs import KNOBS, Knobs, base_rules
from canasta.modern_american.melds import WILD_MELD, MeldContext, meld_problem, opening_problem
from canasta.modern_american.scoring import SideScore, score_side
from canasta.modern_american.variant import ModernAmericanVariant

__all__ = ["KNOBS", "WILD_MELD", "Knobs", "MeldContext", "ModernAmericanVariant", "SideScore",
           "base_rules", "meld_problem", "opening_problem", "score_side"]
