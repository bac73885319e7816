"""The engine commands (deal, legal, apply, replay) for Modern American Canasta, whose
positions and records carry ``"rules": "modern-american"`` (docs/notation.md, "Modern
American"). :mod:`canasta.interfaces.cli` sends them here."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from canasta.errors import NotationError
from canasta.modern_american.action_text import format_action, parse_line
from canasta.modern_american.game import replay
from canasta.modern_american.hand import NUM_SIDES
from canasta.modern_american.knobs import NAME, rules_from_json
from canasta.modern_american.notation import (
    end_to_json,
    hand_from_json,
    hand_to_json,
    is_modern_american,
)
from canasta.modern_american.play import apply, legal_actions, new_hand


def names_family(text: str) -> bool:
    """Whether a ``--rules`` argument (a name or JSON) names this family."""
    stripped = text.strip()
    if stripped.lower() == NAME:
        return True
    if not stripped.startswith("{"):
        return False
    try:
        return is_modern_american(json.loads(stripped))
    except json.JSONDecodeError:
        return False


def read_family(text: str) -> Any | None:
    """The JSON of a position or record of this family, or ``None`` for any other input (the
    classic reader then says what is wrong with it)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None
    if isinstance(data, dict) and is_modern_american(data.get("rules")):
        return data
    return None


def deal(rules: str, seed: int, dealer: int | None, scores: Sequence[int] | None
         ) -> dict[str, Any]:
    """The starting position of a hand."""
    table = rules_from_json(json.loads(rules) if rules.strip().startswith("{") else rules)
    if dealer is not None and not 0 <= dealer < 4:
        raise NotationError(f"--dealer must be a seat from 0 to 3, not {dealer}")
    if scores is not None and len(scores) != NUM_SIDES:
        raise NotationError(f"--scores needs {NUM_SIDES} scores, one per side")
    h = new_hand(seed, dealer=dealer or 0, scores=tuple(scores or (0, 0)),
                 rules=table)
    return hand_to_json(h)


def legal(data: Any) -> list[str]:
    """The legal actions of a position, canonical, one per line."""
    h = hand_from_json(data)
    return [format_action(h, a) for a in legal_actions(h)]


def apply_all(data: Any, lines: Sequence[str]) -> dict[str, Any]:
    """The position after ``lines``; an illegal one raises and nothing is printed."""
    h = hand_from_json(data)
    for line in lines:
        seat, action = parse_line(h, line)
        if seat is not None and seat != h.to_move:
            raise NotationError(f"{line!r} is for p{seat}, and p{h.to_move} is to move")
        h = apply(h, action)
    return hand_to_json(h)


def replay_json(data: Any) -> dict[str, Any]:
    """Each hand's result and the final scores of a record."""
    hands = []
    scores: list[int] = [0] * NUM_SIDES
    won = None
    for played in replay(data):
        entry: dict[str, Any] = {"hand": played.number, "dealer": played.hand.dealer}
        if played.hand.end is not None:
            entry["result"] = end_to_json(played.hand.end)
        else:
            entry["in_progress"] = hand_to_json(played.hand)
        scores = list(played.scores)
        entry["scores"] = scores
        won = played.winner
        hands.append(entry)
    return {"rules": data["rules"], "players": data.get("players", []), "hands": hands,
            "scores": scores, "over": won is not None, "winner": won}


def replay_lines(data: Any) -> list[str]:
    """A record told hand by hand: every action, and how each hand ended."""
    out = []
    players = data.get("players") or [f"p{i}" for i in range(4)]
    for played in replay(data):
        record = data["hands"][played.number - 1]
        out.append(f"Hand {played.number} (dealer {players[played.hand.dealer]})")
        out += [f"  {line}" for line in record.get("actions", [])]
        end = played.hand.end
        if end is None:
            out.append("  (in progress)")
            continue
        if end.special is not None:
            out.append(f"  {players[end.special[0]]} lays a special hand: {end.special[1]}")
        elif end.went_out is not None:
            out.append(f"  {players[end.went_out]} goes out")
        else:
            out.append("  the stock is over")
        for side, score in enumerate(end.sides):
            out.append(f"  side {side}: {score.total:+d} (cards {score.melded:+d}, bonuses "
                       f"{score.bonuses:+d}, threes {score.threes:+d}, penalties "
                       f"{score.penalties:+d}, in hand {score.in_hand:+d}"
                       + (f", special {score.special}" if score.special else "") + ")")
        out.append(f"  scores: {', '.join(str(s) for s in played.scores)}")
    return out
