"""A whole game of Modern American Canasta: hands dealt in turn until a side reaches the target
(8500) or lays a Dream Hand (MA §14), its record, and the replay of a record.

A record has the classic shape (NOTATION §4): the rules, the players, and for every hand the
dealer, the pack before the deal (first element on top) and the actions. The deal, the
replacements of threes and the talons all come from the pack's order, so a record replays
exactly.

>>> import random
>>> from canasta.modern_american.play import legal_actions
>>> rng = random.Random(5)
>>> record = play_game([lambda h: rng.choice(legal_actions(h))] * 4, seed=5, max_hands=1)
>>> [len(hand["deck"]) for hand in record["hands"]]
[108]
>>> final = list(replay(record))[-1]
>>> final.scores == tuple(record["scores"])
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from canasta.actions import Action
from canasta.cards import format_card, parse_cards
from canasta.errors import NotationError, PositionError
from canasta.modern_american.action_text import format_action, parse_line
from canasta.modern_american.ending import winner
from canasta.modern_american.hand import NUM_PLAYERS, NUM_SIDES, RULES, Hand, shuffled_pack
from canasta.modern_american.knobs import Knobs, ModernAmericanRules, rules_from_json
from canasta.modern_american.notation import rules_to_json
from canasta.modern_american.play import apply, new_hand

Player = Callable[[Hand], Action]
"""A player: the action it chooses in a hand where it is to move."""


def play_game(players: Sequence[Player], seed: int | None = None, *, knobs: Knobs | None = None,
              rules: ModernAmericanRules = RULES, max_hands: int = 60,
              names: Sequence[str] | None = None) -> dict[str, Any]:
    """Play a game with ``players`` by seat; the record, with the final ``scores`` and the
    ``winner`` (a side, or ``None`` when ``max_hands`` ran out first)."""
    import random

    if knobs is not None:
        rules = rules.replace(knobs=knobs)
    rng = random.Random(seed)
    scores = [0] * NUM_SIDES
    hands: list[dict[str, Any]] = []
    won = None
    for number in range(max_hands):
        dealer = number % NUM_PLAYERS
        deck = shuffled_pack(rules, rng.getrandbits(63))
        h = new_hand(deck=deck, dealer=dealer, scores=scores, rules=rules, number=number + 1)
        actions: list[str] = []
        while h.end is None:
            action = players[h.to_move](h)
            actions.append(f"p{h.to_move}: {format_action(h, action)}")
            h = apply(h, action)
        hands.append({"dealer": dealer, "deck": [format_card(c) for c in deck],
                      "actions": actions})
        scores = [s + side.total for s, side in zip(scores, h.end.sides)]
        dream = h.side_of(h.end.special[0]) if h.end.special and h.end.wins_game else None
        won = winner(rules, scores, dream)
        if won is not None:
            break
    return {"rules": rules_to_json(h),
            "players": list(names or [f"p{i}" for i in range(NUM_PLAYERS)]),
            "hands": hands, "scores": scores, "winner": won}


@dataclass(frozen=True)
class ReplayedHand:
    """One hand of a replayed record: its number (from 1), its last position and the
    cumulative scores after it."""

    number: int
    hand: Hand
    scores: tuple[int, ...]
    winner: int | None


def _hand_record(entry: Any, i: int) -> tuple[int, list[int], list[str]]:
    if not isinstance(entry, Mapping):
        raise PositionError(f"hands[{i}] must be an object with dealer, deck and actions")
    dealer, deck, actions = entry.get("dealer"), entry.get("deck"), entry.get("actions", [])
    if not isinstance(dealer, int) or not 0 <= dealer < NUM_PLAYERS:
        raise PositionError(f"hands[{i}].dealer must be a seat from 0 to {NUM_PLAYERS - 1}")
    if not isinstance(deck, list) or not isinstance(actions, list):
        raise PositionError(f"hands[{i}]: deck and actions must be arrays")
    if not all(isinstance(a, str) for a in actions):
        raise PositionError(f"hands[{i}].actions must be action lines")
    return dealer, parse_cards(deck), list(actions)


def replay(record: Mapping[str, Any] | str) -> Iterator[ReplayedHand]:
    """Replay a record hand by hand; raises :class:`~canasta.errors.IllegalActionError` at
    the first action the rules refuse and :class:`PositionError` for a malformed record."""
    data = json.loads(record) if isinstance(record, str) else record
    if not isinstance(data, Mapping) or "rules" not in data or "hands" not in data:
        raise PositionError("a game record needs rules and hands")
    rules = rules_from_json(data["rules"])
    scores: tuple[int, ...] = (0,) * NUM_SIDES
    entries = data["hands"]
    if not isinstance(entries, list):
        raise PositionError("hands must be an array")
    won = None
    for i, entry in enumerate(entries):
        dealer, deck, lines = _hand_record(entry, i)
        if won is not None:
            raise PositionError(f"hands[{i}] follows the end of the game")
        if i and dealer != (entries[i - 1]["dealer"] + 1) % NUM_PLAYERS:
            raise PositionError(f"hands[{i}].dealer must be the seat after the last dealer")
        if sorted(deck) != sorted(shuffled_pack(rules, 0)):
            raise PositionError(f"hands[{i}].deck is not the {len(shuffled_pack(rules, 0))}-card "
                                "pack")
        h = new_hand(deck=deck, dealer=dealer, scores=scores, rules=rules, number=i + 1)
        for line in lines:
            try:
                seat, action = parse_line(h, line)
            except NotationError as e:
                raise NotationError(f"hands[{i}]: {line!r}: {e}") from None
            if seat is not None and seat != h.to_move:
                raise PositionError(f"hands[{i}]: {line!r} is for p{seat}, and "
                                    f"p{h.to_move} is to move")
            h = apply(h, action)
        if h.end is None and i < len(entries) - 1:
            raise PositionError(f"hands[{i}] does not end, and another hand follows")
        if h.end is not None:
            scores = tuple(s + side.total for s, side in zip(scores, h.end.sides))
            dream = h.side_of(h.end.special[0]) if h.end.special and h.end.wins_game else None
            won = winner(rules, scores, dream)
        yield ReplayedHand(i + 1, h, scores, won)
