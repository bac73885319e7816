"""``canasta play --rules modern-american``: a game of Modern American Canasta against bots.

You sit in seat 0 with a bot partner opposite and two bot opponents. At your turn the table is
shown (your hand, both sides' melds and laid threes, the pile's top, the stock, whether the turn
card is still in it, a talon due) with a numbered list of your legal actions; type a number or
an action (docs/notation.md, "Modern American": ``keep 3s``, ``draw``, ``take Qd Qh``,
``meld Kc Kd Ks``, ``meld W: 2c 2d JK``, ``discard 9s``, ``special Pairs``). ``help`` explains,
``quit`` saves and leaves. The game is saved as a record after every action, which
``canasta replay --text FILE`` tells move by move.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from canasta.bots.modern import ModernHeuristicBot
from canasta.cards import format_card
from canasta.errors import CanastaError, IllegalActionError
from canasta.interfaces.terminal.advice import pretty_cards
from canasta.modern_american.action_text import format_action, key_text, parse_action
from canasta.modern_american.game import winner
from canasta.modern_american.hand import RULES, Hand, shuffled_pack
from canasta.modern_american.notation import rules_to_json
from canasta.modern_american.play import apply, legal_actions, new_hand

NAMES = ("You", "Eva", "Pat", "Carla")
"""The seats' names: you, the opponent on your left, your partner, the other opponent."""
HELP = """Type the number of an action, or the action itself:
  keep 3s / keep none   which three to keep in hand (only while your side has not melded)
  draw                  draw a card from the stock
  take Qd Qh            pick the pack with a natural pair of the top card's rank
  meld Kc Kd Ks         lay cards (W: 2c 2d JK is a meld of wild cards; K: 2c adds wild cards)
  discard 9s            end your turn
  special Pairs         lay a special hand (fourteen cards, before your side has melded)
  ask                   ask your partner whether you may go out (once a hand)
Going out needs two canastas, no incomplete sevens, aces or wild meld, and a last discard.
'quit' saves the game and leaves."""

Ask = Callable[[str], str]


def describe(h: Hand) -> list[str]:
    """The table as the player in seat 0 sees it."""
    lines = []
    for side, who in ((0, "Your side"), (1, "Eva and Carla")):
        melds = "  ".join(f"{key_text(k)}: {' '.join(format_card(c) for c in m)}"
                          + (" ★" if len(m) >= 7 else "") for k, m in h.side_melds(side))
        threes = " ".join(format_card(c) for c in h.threes[side])
        lines.append(f"{who}: score {h.scores[side]}; melds {melds or 'none'}"
                     + (f"; threes {threes}" if threes else ""))
    top = format_card(h.pile[-1]) if h.pile else "empty"
    dead = " ".join(key_text(r) for r in sorted(h.dead))
    lines.append(f"Pile: {len(h.pile)} cards, top {top}. Stock: {len(h.stock)} cards"
                 + ("" if h.turn_card_drawn else " (the turn card is still in it)")
                 + (f". Dead ranks: {dead}" if dead else ""))
    others = ", ".join(f"{NAMES[s]} {len(h.hands[s])}" for s in (1, 2, 3))
    lines.append(f"Cards in hand: {others}")
    lines.append(f"Your hand: {' '.join(format_card(c) for c in h.hands[0])}"
                 + (f"  (a talon of {h.turn.talon} comes after your discard)"
                    if h.turn.talon else ""))
    return [pretty_cards(line) for line in lines]


def hand_over(h: Hand) -> list[str]:
    """How the hand ended and each side's score, part by part."""
    assert h.end is not None
    end = h.end
    if end.special is not None:
        how = f"{NAMES[end.special[0]]} laid a special hand: {end.special[1]}"
    elif end.went_out is not None:
        how = f"{NAMES[end.went_out]} went out"
    elif end.last_three is not None:
        how = "the stock's last card was a three"
    else:
        how = "the stock ran out"
    lines = [f"The hand is over: {how}."]
    for side, who in ((0, "Your side"), (1, "Eva and Carla")):
        s = end.sides[side]
        lines.append(f"{who}: {s.total:+d} = cards {s.melded:+d}, canasta and going-out bonuses "
                     f"{s.bonuses:+d}, threes {s.threes:+d}, penalties {s.penalties:+d}, "
                     f"in hand {s.in_hand:+d}" + (f", special hand {s.special}"
                                                  if s.special else ""))
    return lines


def play_game(console: Console, ask: Ask, seed: int, save: Path | None,
              delay: float = 0.0) -> int:
    """Play a game to the end (or ``quit``); returns the exit status."""
    import random

    rng = random.Random(seed)
    bots = {s: ModernHeuristicBot(seed * 4 + s) for s in (1, 2, 3)}
    scores = [0, 0]
    record: dict[str, Any] = {"rules": "modern-american", "players": ["you"] + [
        f"bot:modern-heuristic:{NAMES[s]}" for s in (1, 2, 3)], "hands": []}
    number = 0
    while True:
        deck = shuffled_pack(RULES, rng.getrandbits(63))
        dealer = number % 4
        h = new_hand(deck=deck, dealer=dealer, scores=scores)
        entry: dict[str, Any] = {"dealer": dealer, "deck": [format_card(c) for c in deck],
                                 "actions": []}
        record["hands"].append(entry)
        record["rules"] = rules_to_json(h)
        number += 1
        console.print(f"\nHand {number}, {NAMES[dealer]} deals. Scores: you {scores[0]}, "
                      f"they {scores[1]}.")
        while h.end is None:
            seat = h.to_move
            if seat == 0:
                action = _your_move(console, ask, h)
                if action is None:
                    _save(save, record)
                    console.print(f"Saved to {save}." if save else "Left the game.")
                    return 0
            else:
                action = bots[seat].choose(h)
                console.print(pretty_cards(f"{NAMES[seat]}: {format_action(h, action)}"))
                if delay:
                    time.sleep(delay)
            entry["actions"].append(f"p{seat}: {format_action(h, action)}")
            h = apply(h, action)
            _save(save, record)
        for line in hand_over(h):
            console.print(line)
        scores = [a + s.total for a, s in zip(scores, h.end.sides)]
        dream = h.side_of(h.end.special[0]) if h.end.special and h.end.wins_game else None
        won = winner(RULES, scores, dream)
        if won is not None:
            who = "your side wins" if won == 0 else "Eva and Carla win"
            console.print(f"Game over: {who} {scores[won]} to {scores[1 - won]}.")
            return 0


def _your_move(console: Console, ask: Ask, h: Hand) -> Any:
    legal = legal_actions(h)
    for line in describe(h):
        console.print(line)
    for i, a in enumerate(legal, 1):
        console.print(pretty_cards(f"  {i:>2}. {format_action(h, a)}"))
    while True:
        text = ask("Your move: ").strip()
        if text.lower() in ("quit", "q", "exit"):
            return None
        if text.lower() in ("help", "?", ""):
            console.print(HELP)
            continue
        if text.isdigit():
            if 1 <= int(text) <= len(legal):
                return legal[int(text) - 1]
            console.print(f"Choose a number from 1 to {len(legal)}.")
            continue
        try:
            action = parse_action(h, text)
            apply(h, action)  # refused here, nothing changes
            return action
        except IllegalActionError as e:
            console.print(pretty_cards(f"Not allowed: {e.reason}."))
        except CanastaError as e:
            console.print(f"I did not understand that: {e}. Type 'help'.")


def _save(path: Path | None, record: dict[str, Any]) -> None:
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record), encoding="utf-8")
