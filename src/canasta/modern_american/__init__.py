"""Modern American Canasta (MA, ``docs/modern-american.md``) as a family of rules.

Importing the package registers the family (:class:`~canasta.modern_american.family.
ModernAmericanFamily`), so ``canasta.get_rules("modern-american")``, ``canasta.new_hand``,
``canasta.apply``, ``canasta.Game`` and every client play it.

What is here: the rule set (:class:`~canasta.modern_american.knobs.ModernAmericanRules`: the
classic fields with the family's values, MA §16.1, and its :class:`~canasta.modern_american.
knobs.Knobs`, MA §16.2); the hand (:mod:`~canasta.modern_american.hand`) and its turn
(:mod:`~canasta.modern_american.play`: why an action is refused and what it does, the legal
list); the meld rules (:mod:`~canasta.modern_american.melds`: sevens and aces, melds of wild
cards, the rule of five, dead ranks, the clean triple of the initial meld), the discards and the
pick (:mod:`~canasta.modern_american.discards`, MA §6, §7), the special hands
(:mod:`~canasta.modern_american.special_hands`, MA §11), the scoring matrix with its breakdown
(:mod:`~canasta.modern_american.scoring`, MA §13); what a seat sees
(:mod:`~canasta.modern_american.observation`); positions, actions and records as text
(:mod:`~canasta.modern_american.notation`, :mod:`~canasta.modern_american.action_text`).
"""

from canasta.family import register_family
from canasta.modern_american.discards import discard_problem, pick_problem
from canasta.modern_american.family import MODERN_AMERICAN_FAMILY, ModernAmericanFamily
from canasta.modern_american.knobs import (
           KNOBS,
           MODERN_AMERICAN,
           Knobs,
           ModernAmericanRules,
           base_rules,
)
from canasta.modern_american.melds import WILD_MELD, MeldContext, meld_problem, opening_problem
from canasta.modern_american.scoring import SideScore, score_side
from canasta.modern_american.special_hands import SpecialHand, matches, special_problem
from canasta.modern_american.variant import ModernAmericanVariant

register_family(MODERN_AMERICAN_FAMILY)

__all__ = ["KNOBS", "MODERN_AMERICAN", "MODERN_AMERICAN_FAMILY", "WILD_MELD", "Knobs",
           "MeldContext", "ModernAmericanFamily", "ModernAmericanRules", "ModernAmericanVariant",
           "SideScore", "SpecialHand", "base_rules", "discard_problem", "matches",
           "meld_problem", "opening_problem", "pick_problem", "score_side", "special_problem"]
