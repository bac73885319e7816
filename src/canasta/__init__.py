"""canasta: a complete, fast rules engine for the card game Canasta, with bots and interfaces.

The core API (standard library only) plays every family of rules (``canasta.families()``:
classic Canasta in its presets, Modern American, ...)::

    >>> import canasta
    >>> state = canasta.new_hand(canasta.get_rules("classic"), seed=42)
    >>> actions = canasta.legal_actions(state)
    >>> str(actions[0])
    'draw'
    >>> state = canasta.apply(state, "draw")
    >>> state.phase
    'play'
    >>> hand = canasta.new_hand(canasta.get_rules("modern-american"), seed=42)
    >>> canasta.family_of(hand).title, len(hand.hands[hand.to_move])
    ('Modern American Canasta', 13)

``canasta.COMPILED`` is True when the rules core runs compiled (mypyc), False when it runs as
the pure-Python sources; both give the same results.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from canasta.actions import Action, Group
from canasta.cards import Card, format_card, parse_card, parse_cards
from canasta.errors import (
    CanastaError,
    IllegalActionError,
    NotationError,
    PositionError,
    RulesError,
)
from canasta.family import (
    Family,
    apply,
    check,
    families,
    family_of,
    format_action,
    format_position,
    get_rules,
    is_legal,
    legal_actions,
    new_hand,
    observe,
    parse_action,
    parse_position,
    register_family,
    rules_from_json,
    state_from_json,
    state_to_json,
)
from canasta.family import all_presets as _all_presets
from canasta.game import Game, GameRecord, HandRecord, replay
from canasta.observation import Observation
from canasta.rules import Rules
from canasta.state import COMPILED, HandResult, SideResult, State


class _Presets(Mapping[str, Rules]):
    """Every preset of every registered family by name (read when asked: a family registered
    later is in it)."""

    def __getitem__(self, name: str) -> Rules:
        return _all_presets()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(_all_presets())

    def __len__(self) -> int:
        return len(_all_presets())

    def __repr__(self) -> str:
        return f"PRESETS({', '.join(self)})"


PRESETS: Mapping[str, Rules] = _Presets()
"""Every preset of every family, by name."""

__all__ = [
    "COMPILED", "PRESETS", "Action", "CanastaError", "Card", "Family", "Game", "GameRecord",
    "Group", "HandRecord", "HandResult", "IllegalActionError", "NotationError", "Observation",
    "PositionError", "Rules", "RulesError", "SideResult", "State", "apply", "check", "families",
    "family_of", "format_action", "format_card", "format_position", "get_rules", "is_legal",
    "legal_actions", "new_hand", "observe", "parse_action", "parse_card", "parse_cards",
    "parse_position", "register_family", "replay", "rules_from_json", "state_from_json",
    "state_to_json",
]
__version__ = "0.1.0"
