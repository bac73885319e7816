"""``canasta play --rules modern-american``: a game of Modern American Canasta against bots.

You sit in seat 0 with a bot partner opposite and two bot opponents. At your turn the table is
shown (your hand, both sides' melds and laid threes, the pile's top, the stock, whether the turn
card is still in it, a talon due) with a numbered list of your legal actions; type a number or
an action (docs/notation.md, "Modern American": ``keep 3s``, ``draw``, ``take Qd Qh``,
``meld Kc Kd Ks``, ``meld W: 2c 2d JK``, ``discard 9s``, ``special Pairs``). ``help`` explains,
``hint`` asks the hard bot (``modern-search``) what it would play and why, ``quit`` saves and
leaves. The game is saved as a record after every action, which
``canasta replay --text FILE`` tells move by move and ``canasta play --resume FILE`` goes on
with (:meth:`ModernTable.resume`).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from canasta.actions import Action
from canasta.bots.modern import ModernSearchBot, make_modern_bot, tell
from canasta.cards import format_card, parse_cards
from canasta.errors import CanastaError, IllegalActionError, PositionError
from canasta.interfaces.terminal.advice import pretty_cards
from canasta.interfaces.terminal.session import (
    BOT_PREFIX,
    HUMAN_NAME,
    derived_seed,
    game_key,
    how_to_run,
)
from canasta.modern_american.action_text import format_action, key_text, parse_action, parse_line
from canasta.modern_american.ending import winner
from canasta.modern_american.game import replay
from canasta.modern_american.hand import NUM_PLAYERS, RULES, Hand, shuffled_pack
from canasta.modern_american.knobs import KNOBS, Knobs, ModernAmericanRules, rules_from_json
from canasta.modern_american.notation import is_modern_american, rules_to_json
from canasta.modern_american.play import apply, legal_actions, new_hand

NAMES = ("You", "Eva", "Pat", "Carla")
"""The seats' names: you, the opponent on your left, your partner, the other opponent."""
DEFAULT = "modern-heuristic"
"""The bot of every bot seat of a new game."""
HELP = """Type the number of an action, or the action itself:
  keep 3s / keep none   which three to keep in hand (only while your side has not melded)
  draw                  draw a card from the stock
  take Qd Qh            pick the pack with a natural pair of the top card's rank
  meld Kc Kd Ks         lay cards (W: 2c 2d JK is a meld of wild cards; K: 2c adds wild cards)
  discard 9s            end your turn
  special Pairs         lay a special hand (fourteen cards, before your side has melded)
  ask                   ask your partner whether you may go out (once a hand)
  hint                  what the hard bot would play here, and why
Going out needs two canastas, no incomplete sevens, aces or wild meld, and a last discard.
'quit' saves the game and leaves; 'canasta play --resume FILE' goes on with it."""

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


class ModernTable:
    """A game at the table: its record, the hand being played, the scores, and the bots.

    Everything random after the first deal follows from the game key (a digest of the first
    pack, :func:`~canasta.interfaces.terminal.session.game_key`), as at the classic table: the
    pack of hand ``n`` and every bot decision (seeded by the hand number and the actions
    already played in it), so a game resumed from its record goes on exactly as it would have
    without the break.
    """

    def __init__(self, record: dict[str, Any], hand: Hand, scores: list[int],
                 bots: dict[int, str], notes: list[str] | None = None) -> None:
        self.record = record
        self.hand = hand
        self.scores = scores
        self.bots = bots
        """The bot spec of each bot seat."""
        self.notes = notes or []
        self.rules = rules_from_json(record["rules"])
        self.knobs = self.rules.knobs
        self.key = game_key(self.rules, parse_cards(record["hands"][0]["deck"]))
        self.history: list[tuple[Hand, Action]] = []
        """The hand's positions so far, each with the action played in it: a bot that keeps
        a record of the hand (``modern-search``) is told them before it chooses."""

    @staticmethod
    def new(seed: int) -> ModernTable:
        """A new game: the first pack from ``seed``, modern-heuristic in the bot seats."""
        import random

        deck = shuffled_pack(RULES, random.Random(seed).getrandbits(63))
        h = _deal(deck, 0, [0, 0], KNOBS, RULES, 1)
        record: dict[str, Any] = {
            "rules": rules_to_json(h), "players": [HUMAN_NAME] + [BOT_PREFIX + DEFAULT] * 3,
            "hands": [_entry(h.dealer, deck)]}
        return ModernTable(record, h, [0, 0], {s: DEFAULT for s in (1, 2, 3)})

    @staticmethod
    def resume(text: str) -> ModernTable:
        """The game saved in ``text`` (a record, NOTATION §4, of this family), brought to where
        it stopped; :class:`~canasta.errors.CanastaError` with one line when it is not."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise PositionError(f"not a saved game: bad JSON: {e.msg} at line {e.lineno} "
                                f"column {e.colno}") from None
        if not isinstance(data, dict) or "rules" not in data or "hands" not in data:
            raise PositionError("not a saved game: a record needs rules, players and hands")
        if not is_modern_american(data["rules"]):
            raise PositionError(f"it holds a game of {_rules_name(data['rules'])!r}, not "
                                "modern-american")
        players = data.get("players", [])
        if not isinstance(players, list) or len(players) != NUM_PLAYERS \
                or not all(isinstance(p, str) for p in players):
            raise PositionError(f"players must be {NUM_PLAYERS} names")
        if not data["hands"]:
            raise PositionError("the record holds no hand to resume")
        try:
            played = list(replay(data))
        except CanastaError as e:
            raise PositionError(f"the record does not replay: {e}") from None
        except (TypeError, KeyError, AttributeError) as e:  # a field of the wrong shape
            raise PositionError(f"the record does not replay: {type(e).__name__}: {e}") \
                from None
        last = played[-1]
        if last.winner is not None:
            raise PositionError("that game is over: "
                                f"{_game_over(last.winner, list(last.scores))}")
        bots: dict[int, str] = {}
        notes = []
        for seat in (1, 2, 3):
            spec, note = _seat_bot(players[seat], seat)
            bots[seat] = spec
            if note:
                notes.append(note)
        if players[0].startswith(BOT_PREFIX):
            notes.append(f"seat 0 was played by {players[0]!r}; you take it over")
        record = {"rules": data["rules"], "players": [HUMAN_NAME] + [
            BOT_PREFIX + bots[s] for s in (1, 2, 3)], "hands": [
            {"dealer": e["dealer"], "deck": list(e["deck"]), "actions": list(e["actions"])}
            for e in data["hands"]]}
        table = ModernTable(record, last.hand, list(last.hand.scores), bots, notes)
        if last.hand.end is not None:  # saved between two hands
            table.next_hand()
        else:
            table.history = _history(record, table.scores, table.knobs, table.rules)
        return table

    @property
    def number(self) -> int:
        """The hand's number in the game, from 1."""
        return len(self.record["hands"])

    @property
    def actions(self) -> list[str]:
        """The action lines of the hand being played."""
        lines: list[str] = self.record["hands"][-1]["actions"]
        return lines

    def bot_choice(self) -> Action:
        """The action of the bot to move, seeded by the hand and the actions played in it."""
        seat = self.hand.to_move
        seed = derived_seed(self.key, "bot", self.number, len(self.actions))
        bot = make_modern_bot(self.bots[seat], seed)
        if hasattr(bot, "observe"):
            for h, action in self.history:
                tell([bot], h, action)
        chosen: Action = bot.choose(self.hand)
        return chosen

    def hint(self) -> tuple[Action, str]:
        """What ``modern-search`` would play for the seat to move, and why; it is told the
        hand's actions so far, as a bot seat is, and sees no hidden card."""
        bot = ModernSearchBot(derived_seed(self.key, "hint", self.number, len(self.actions)))
        for h, action in self.history:
            tell([bot], h, action)
        return bot.explain(self.hand)

    def play(self, action: Action) -> None:
        """Apply an action of the seat to move and note it in the record."""
        line = f"p{self.hand.to_move}: {format_action(self.hand, action)}"
        after = apply(self.hand, action)
        self.history.append((self.hand, action))
        self.hand = after
        self.actions.append(line)

    def next_hand(self) -> None:
        """Score the ended hand and deal the next (its pack derived from the game key)."""
        assert self.hand.end is not None
        self.scores = [a + s.total for a, s in zip(self.scores, self.hand.end.sides)]
        dealer = (self.hand.dealer + 1) % NUM_PLAYERS
        deck = shuffled_pack(self.rules, derived_seed(self.key, "deck", self.number + 1))
        self.record["hands"].append(_entry(dealer, deck))
        self.hand = _deal(deck, dealer, self.scores, self.knobs, self.rules, self.number)
        self.history = []

    def save(self, path: Path | None) -> None:
        """Write the record to ``path``, atomically (nothing when ``path`` is ``None``)."""
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".canasta-", suffix=".json", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(json.dumps(self.record) + "\n")
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def play_game(console: Console, ask: Ask, seed: int, save: Path | None,
              delay: float = 0.0) -> int:
    """Play a new game to the end (or ``quit``); returns the exit status."""
    table = ModernTable.new(seed)
    table.save(save)
    return play_on(console, ask, table, save, delay)


def play_on(console: Console, ask: Ask, table: ModernTable, save: Path | None,
            delay: float = 0.0) -> int:
    """Play ``table`` (new or resumed) to the end of the game, or until ``quit``, saving after
    every action; returns the exit status."""
    for note in table.notes:
        console.print(note, style="yellow")
    while True:
        h = table.hand
        if not table.actions:
            deals = "deal" if h.dealer == 0 else "deals"
            console.print(f"\nHand {table.number}, {NAMES[h.dealer]} {deals}. Scores: you "
                          f"{table.scores[0]}, they {table.scores[1]}.")
        while table.hand.end is None:
            h = table.hand
            seat = h.to_move
            if seat == 0:
                action = _your_move(console, ask, h, table.hint)
                if action is None:
                    table.save(save)
                    leave(console, save)
                    return 0
            else:
                action = table.bot_choice()
                console.print(pretty_cards(f"{NAMES[seat]}: {format_action(h, action)}"))
                if delay:
                    time.sleep(delay)
            table.play(action)
            table.save(save)
        h = table.hand
        assert h.end is not None
        for line in hand_over(h):
            console.print(line)
        scores = [a + s.total for a, s in zip(table.scores, h.end.sides)]
        dream = h.side_of(h.end.special[0]) if h.end.special and h.end.wins_game else None
        won = winner(table.rules, scores, dream)
        if won is not None:
            console.print(f"Game over: {_game_over(won, scores)}.")
            return 0
        table.next_hand()
        table.save(save)


def leave(console: Console, save: Path | None) -> None:
    """Say where the game is saved and how to go on with it."""
    if save is None:
        console.print("Left the game.")
        return
    console.print(f"Game saved to {save}", soft_wrap=True)
    console.print(f"Continue it with: {how_to_run(f'canasta play --resume {save}')}",
                  style="dim", soft_wrap=True)


def _game_over(won: int, scores: list[int]) -> str:
    who = "your side wins" if won == 0 else "Eva and Carla win"
    return f"{who} {scores[won]} to {scores[1 - won]}"


def _entry(dealer: int, deck: list[int]) -> dict[str, Any]:
    return {"dealer": dealer, "deck": [format_card(c) for c in deck], "actions": []}


def _rules_name(rules: Any) -> str:
    if isinstance(rules, dict):
        return str(rules.get("preset", "house rules"))
    return str(rules)


def _seat_bot(player: str, seat: int) -> tuple[str, str | None]:
    """The bot spec of a seat of a record being resumed, and a note when another bot plays it."""
    if not player.startswith(BOT_PREFIX):
        return DEFAULT, f"seat {seat} ({player!r}) was not a bot: {DEFAULT!r} plays it now"
    spec = player[len(BOT_PREFIX):]
    old_name = f":{NAMES[seat]}"
    if spec.endswith(old_name):  # the first saves named the seat after the bot
        spec = spec[:-len(old_name)]
    try:
        make_modern_bot(spec)
    except ValueError as e:
        return DEFAULT, f"bot {spec!r} is not available here ({e}); {DEFAULT!r} plays it"
    return spec, None


def _deal(deck: list[int], dealer: int, scores: list[int], knobs: Knobs, rules: ModernAmericanRules,
          number: int) -> Hand:
    """Hand ``number`` of the game, dealt from ``deck``."""
    return new_hand(deck=deck, dealer=dealer, scores=scores, rules=rules.replace(knobs=knobs),
                    number=number)


def _history(record: dict[str, Any], scores: list[int], knobs: Knobs,
             rules: ModernAmericanRules) -> list[tuple[Hand, Action]]:
    """The positions and actions of the record's last hand, from its deal (a record that
    :func:`~canasta.modern_american.game.replay` accepted)."""
    entry = record["hands"][-1]
    h = _deal(parse_cards(entry["deck"]), entry["dealer"], scores, knobs, rules,
              len(record["hands"]))
    seen = []
    for line in entry["actions"]:
        _, action = parse_line(h, line)
        seen.append((h, action))
        h = apply(h, action)
    return seen


def _your_move(console: Console, ask: Ask, h: Hand,
               hint: Callable[[], tuple[Action, str]] | None = None) -> Any:
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
        if text.lower() == "hint" and hint is not None:
            action, why = hint()
            console.print(pretty_cards(f"Hint: {format_action(h, action)} — {why}."))
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
