"""canasta: a complete, fast rules engine for the card game Canasta, with bots and interfaces.

The core API (standard library only)::

    >>> import canasta
    >>> state = canasta.new_hand(canasta.get_rules("classic"), seed=42)
    >>> actions = canasta.legal_actions(state)
    >>> str(actions[0])
    'draw'
    >>> state = canasta.apply(state, "draw")
    >>> state.phase
    'play'

``canasta.COMPILED`` is True when the rules core runs compiled (mypyc), False when it runs as
the pure-Python sources; both give the same results.
"""

from __future__ import annotations

from canasta.actions import Action, Group, format_action, parse_action
from canasta.cards import Card, format_card, parse_card, parse_cards
from canasta.deal import new_hand
from canasta.engine import apply, check, is_legal
from canasta.errors import (
    CanastaError,
    IllegalActionError,
    NotationError,
    PositionError,
    RulesError,
)
from canasta.game import Game, GameRecord, HandRecord, replay
from canasta.legal import legal_actions
from canasta.observation import Observation, observe
from canasta.position import format_position, parse_position, state_from_json, state_to_json
from canasta.rules import PRESETS, Rules, get_rules, rules_from_json
from canasta.state import COMPILED, HandResult, SideResult, State

__all__ = [
    "COMPILED", "PRESETS", "Action", "CanastaError", "Card", "Game", "GameRecord", "Group",
    "HandRecord", "HandResult", "IllegalActionError", "NotationError", "Observation",
    "PositionError", "Rules", "RulesError", "SideResult", "State", "apply", "check",
    "format_action", "format_card", "format_position", "get_rules", "is_legal", "legal_actions",
    "new_hand", "observe", "parse_action", "parse_card", "parse_cards", "parse_position", "replay",
    "rules_from_json", "state_from_json", "state_to_json",
]
__version__ = "0.1.0"
