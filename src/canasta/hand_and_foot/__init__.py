"""Hand and Foot (HF, ``docs/rules/hand-and-foot.md``) as a family of rules.

Importing the package registers the family (:class:`~canasta.hand_and_foot.family.
HandFootFamily`), so ``canasta.get_rules("hand-and-foot")``, ``canasta.new_hand``,
``canasta.apply``, ``canasta.Game`` and every client play it.

What is here: the rules as data (:mod:`~canasta.hand_and_foot.knobs`, HF §16), the deal and
its position (:mod:`~canasta.hand_and_foot.deal`), melds and books
(:mod:`~canasta.hand_and_foot.melds`), the turn (:mod:`~canasta.hand_and_foot.turn`: why an
action is refused and what it does), the legal list (:mod:`~canasta.hand_and_foot.legal`),
going out (:mod:`~canasta.hand_and_foot.going_out`), the score
(:mod:`~canasta.hand_and_foot.scoring`), what a seat sees
(:mod:`~canasta.hand_and_foot.observation`), positions and actions as text
(:mod:`~canasta.hand_and_foot.notation`, :mod:`~canasta.hand_and_foot.action_text`) and the
bots (:mod:`~canasta.hand_and_foot.bots`).
"""

from canasta.family import register_family
from canasta.hand_and_foot.family import HAND_AND_FOOT_FAMILY, HandFootFamily
from canasta.hand_and_foot.knobs import HAND_AND_FOOT, PRESETS, HandFootRules, Knobs

register_family(HAND_AND_FOOT_FAMILY)

__all__ = ["HAND_AND_FOOT", "HAND_AND_FOOT_FAMILY", "PRESETS", "HandFootFamily",
           "HandFootRules", "Knobs"]
