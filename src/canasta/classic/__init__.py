"""Classic Canasta as a family of rules: every preset of RULES §6 and its house rules.

The classic engine is the rules core of :mod:`canasta` (``rules``, ``variant``, ``state``,
``plans``, ``legal``, ``engine``, ``scoring``, ``deal``, ``observation``, ``position``); this
package puts it behind the family protocol (:class:`~canasta.family.Family`) and registers it.
Its bots are :mod:`canasta.bots`' own (:mod:`canasta.classic.bots`), its ids and tensors those of
:mod:`canasta.rl.encoding` and :mod:`canasta.rl.tensor`.
"""

from canasta.classic.family import CLASSIC, ClassicFamily
from canasta.family import register_family

register_family(CLASSIC)

__all__ = ["CLASSIC", "ClassicFamily"]
