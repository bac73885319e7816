"""Modern American Canasta at a room of the lobby: the game as the room machinery keeps it, and
what each seat (or a spectator) sees of it.

:class:`ModernTableGame` has the face of :class:`canasta.game.Game` that the lobby and the
table read (``state``, ``apply``, ``next_hand(deck)``, ``finished``, ``actions``, ``deck``,
``scores``, ``winner``, ``is_over``); its engine is the family's, as the research adapters
drive it (:class:`canasta.rl.table.ModernFamily`). The views hold only what their seat may
know: its own hand (:func:`canasta.modern_american.view.seat_view`), the others' as counts, the
stock as a count, the turn card as whether it is drawn, and which three another player kept
never.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from canasta.actions import Action
from canasta.cards import Card, format_card, parse_cards
from canasta.modern_american.action_text import key_text, parse_line
from canasta.modern_american.ending import winner
from canasta.modern_american.hand import Hand
from canasta.modern_american.knobs import rules_from_json
from canasta.modern_american.melds import MAX_MELD
from canasta.modern_american.notation import hand_to_json, rules_to_json
from canasta.modern_american.view import seat_view
from canasta.rl.table import ModernFamily

if TYPE_CHECKING:
    from canasta.interfaces.web.tables import Table

FAMILY = "modern-american"
HIDDEN_KEEP = "lays the threes (and may keep one)"
"""What the others read of a ``keep`` (which three a player keeps is theirs to know)."""


def hand_winner(h: Hand, scores: Sequence[int]) -> int | None:
    """The side that has won once ``h`` (an ended hand) is counted into ``scores`` (the
    cumulative scores after it), or ``None`` to play on (a Dream Hand wins at once)."""
    end = h.end
    assert end is not None
    dream = h.side_of(end.special[0]) if end.special and end.wins_game else None
    return winner(h.rules, scores, dream)


class ModernTableGame:
    """A Modern American game in progress at a room (see the module docstring)."""

    def __init__(self, rules_json: Any, players: Sequence[str], deck: Sequence[Card],
                 dealer: int = 0) -> None:
        rules = rules_from_json(rules_json)
        self.engine = ModernFamily(rules)
        self.rules = rules
        self.players = tuple(players)
        self.scores: tuple[int, ...] = (0,) * self.engine.num_sides
        self.winner: int | None = None
        self.finished: list[tuple[dict[str, Any], Hand]] = []
        """Every hand counted so far: its record entry and its last position."""
        self._deal(deck, dealer)

    def _deal(self, deck: Sequence[Card], dealer: int) -> None:
        self.deck = tuple(deck)
        self.lines: list[tuple[int, str]] = []
        self.state: Hand = self.engine.new_hand(self.deck, dealer, self.scores)

    @property
    def rules_json(self) -> Any:
        """The rules as the record holds them (``"modern-american"`` or an object)."""
        return rules_to_json(self.state)

    @property
    def actions(self) -> list[str]:
        """This hand's actions, in order."""
        return [text for _, text in self.lines]

    @property
    def is_over(self) -> bool:
        """True once a side has won."""
        return self.winner is not None

    def hand_over(self) -> bool:
        """True when the current hand has ended."""
        return self.state.end is not None

    def scores_after(self, h: Hand) -> tuple[int, ...]:
        """The cumulative scores once ``h`` (an ended hand) is counted."""
        return tuple(s + t for s, t in zip(self.scores, self.engine.totals(h)))

    def ends_game(self, h: Hand) -> bool:
        """True if ``h`` ends its hand and with it the game."""
        return h.end is not None and hand_winner(h, self.scores_after(h)) is not None

    def apply(self, action: Action) -> None:
        """Play ``action`` (an ``IllegalActionError`` changes nothing)."""
        h = self.state
        text = self.engine.format_action(h, action)
        self.state = self.engine.apply(h, action)
        self.lines.append((h.to_move, text))

    def next_hand(self, deck: Sequence[Card] | None = None) -> None:
        """Count the ended hand; deal ``deck`` next unless the game is over."""
        h = self.state
        if h.end is None:
            raise ValueError("the hand is not over")
        if self.is_over:
            raise ValueError("the game is over")
        self.finished.append((self.hand_json(), h))
        self.scores = self.scores_after(h)
        self.winner = hand_winner(h, self.scores)
        if self.winner is None:
            if deck is None:
                raise ValueError("the next hand needs its deck")
            self._deal(deck, (h.dealer + 1) % self.engine.num_players)

    def hand_json(self) -> dict[str, Any]:
        """The current hand as a record holds it."""
        return {"dealer": self.state.dealer, "deck": [format_card(c) for c in self.deck],
                "actions": [f"p{seat}: {text}" for seat, text in self.lines]}

    def record_json(self) -> dict[str, Any]:
        """The game so far as ``canasta replay`` reads it (the hand in play included)."""
        hands = [entry for entry, _ in self.finished]
        if not self.is_over:
            hands.append(self.hand_json())
        return {"rules": self.rules_json, "players": list(self.players), "hands": hands,
                "scores": list(self.scores), "winner": self.winner}

    def shown_scores(self) -> list[int]:
        """The scores a screen shows: an ended hand waiting for the next deal counted."""
        if self.state.end is not None and not self.is_over:
            return list(self.scores_after(self.state))
        return list(self.scores)


# -- what a seat sees ------------------------------------------------------------------------------

def public_position(h: Hand) -> dict[str, Any]:
    """The position as a spectator sees it: every hand a count, the stock a count, no kept
    three."""
    data = seat_view(h, 0)
    data["seat"] = None
    data["hands"] = [len(cards) for cards in h.hands]
    if h.end is None:
        data["turn"] = {k: v for k, v in data["turn"].items() if k != "kept"}
    return data


def log_line(seat: int, text: str, viewer: int | None) -> str:
    """An action as ``viewer`` may read it: another player's ``keep`` says no three."""
    return HIDDEN_KEEP if seat != viewer and text.startswith("keep") else text


def build_modern_view(table: Table, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator) at a Modern American room (API.md,
    "Modern American rooms")."""
    from canasta.interfaces.web.views import display_names

    game: ModernTableGame = table.game
    h = game.state
    mine = (seat is not None and h.end is None and not game.is_over and h.to_move == seat
            and not table.seats[seat].is_bot)
    names = display_names(table)
    log: list[dict[str, Any]] = [{"seat": s, "action": log_line(s, a, seat)}
                                 for s, a in game.lines]
    sheet: list[dict[str, Any]] = []
    totals = [0] * game.engine.num_sides
    ended = [hand for _, hand in game.finished]
    if h.end is not None and not game.is_over:
        ended.append(h)
    for number, hand in enumerate(ended, 1):
        assert hand.end is not None
        totals = [t + s.total for t, s in zip(totals, hand.end.sides)]
        sheet.append({"hand": number, "dealer": hand.dealer,
                      "totals": [s.total for s in hand.end.sides], "scores": list(totals)})
    return {
        "family": FAMILY,
        "table_id": table.id,
        "seat": seat,
        "status": table.status,
        "hand_number": table.hand_number,
        "version": sum(len(entry["actions"]) for entry, _ in game.finished)
        + (0 if game.is_over else len(game.lines)) + table.hand_number - 1,
        "your_turn": mine,
        "legal": [game.engine.format_action(h, a) for a in game.engine.legal(h)] if mine else [],
        "position": seat_view(h, seat) if seat is not None else public_position(h),
        "players": list(game.players),
        "seats": [s.to_json() for s in table.seats],
        "names": names,
        "log": log,
        "last_action": log[-1] if log else None,
        "moves": [f"{names[entry['seat']]['name']}: {entry['action']}" for entry in log[-24:]],
        "scores": game.shown_scores(),
        "score_sheet": sheet,
        "target": game.rules.target_score,
        "winner": game.winner,
        "next_hand": "auto" if table.deals_by_itself() else "request",
        "waiting_for": table.waiting_for(),
        "dead": [key_text(r) for r in sorted(h.dead)],
        "canastas": [[key_text(k) for k, m in h.side_melds(side) if len(m) >= MAX_MELD]
                     for side in range(game.engine.num_sides)],
        "turn_card_drawn": h.turn_card_drawn,
        "rules": game.rules_json,
    }


def public_record(game: ModernTableGame) -> dict[str, Any]:
    """The record while the game is on: without the decks (they would show the hands and the
    stock) and without which three another player kept, ``"complete": false``."""
    record = game.record_json()
    for hand in record["hands"]:
        del hand["deck"]
        hand["actions"] = [line if ": keep" not in line else line.split(":")[0] + ": keep"
                           for line in hand["actions"]]
    record["complete"] = False
    return record


def replay_positions(game: ModernTableGame) -> dict[str, Any]:
    """Every position of the hands that are over, face up (the stock a count), played again
    by the engine: the deal, then each action."""
    ended = [entry for entry, _ in game.finished]
    if game.state.end is not None and not game.is_over:
        ended.append(game.hand_json())
    hands: list[dict[str, Any]] = []
    scores: tuple[int, ...] = (0,) * game.engine.num_sides
    for entry in ended:
        h = game.engine.new_hand(parse_cards(entry["deck"]), entry["dealer"], scores)
        positions = [_face_up(h)]
        for line in entry["actions"]:
            h = game.engine.apply(h, parse_line(h, line)[1])
            positions.append(_face_up(h))
        assert h.end is not None
        scores = tuple(s + t for s, t in zip(scores, game.engine.totals(h)))
        hands.append({"dealer": entry["dealer"], "actions": list(entry["actions"]),
                      "positions": positions})
    return {"rules": game.rules_json, "players": list(game.players), "hands": hands}


def _face_up(h: Hand) -> dict[str, Any]:
    data = hand_to_json(h)
    data["stock"] = len(h.stock)
    return data
