"""Whole games of any family: hands in sequence, dealer rotation, cumulative scores, the end
of the game by the family's rule (classic: the target and ties, RULES §1.18), and game records
(NOTATION §4).

>>> from canasta.rules import get_rules
>>> g = Game(get_rules("classic"), seed=3)
>>> g.state.phase, g.scores
('draw', (0, 0))
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from canasta.actions import Action
from canasta.cards import Card, format_card, parse_cards
from canasta.errors import IllegalActionError, NotationError, PositionError
from canasta.family import Family, apply_line, family_of, parse_action_line, rules_from_json
from canasta.rules import Rules


@dataclass(frozen=True)
class HandRecord:
    """One hand of a record: the dealer, the pack order before the deal, the actions in order."""

    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[str, ...] = ()
    """Action lines as written (canonical text, or with a ``p2:`` seat prefix)."""

    def to_json(self) -> dict[str, Any]:
        """``{"dealer", "deck", "actions"}`` as NOTATION §4 writes it."""
        return {"dealer": self.dealer, "deck": [format_card(c) for c in self.deck],
                "actions": list(self.actions)}


@dataclass(frozen=True)
class GameRecord:
    """A whole game: its rules, the players' names and every hand (NOTATION §4)."""

    rules: Rules
    players: tuple[str, ...]
    hands: tuple[HandRecord, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict."""
        return {"rules": self.rules.to_json(), "players": list(self.players),
                "hands": [h.to_json() for h in self.hands]}

    def dumps(self) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_json(), indent=1)

    @staticmethod
    def from_json(data: Any) -> GameRecord:
        """Read a record; raises :class:`~canasta.errors.PositionError` if malformed."""
        if not isinstance(data, dict):
            raise PositionError("a game record must be a JSON object")
        if "rules" not in data or "hands" not in data:
            raise PositionError("a game record needs \"rules\" and \"hands\"")
        rules = rules_from_json(data["rules"])
        unknown = set(data) - {"rules", "players", "hands"} - family_of(rules).record_keys
        if unknown:
            raise PositionError(f"unknown record key {sorted(unknown)[0]!r}")
        players = data.get("players") or [f"p{i}" for i in range(rules.num_players)]
        if (not isinstance(players, list) or len(players) != rules.num_players
                or not all(isinstance(p, str) for p in players)):
            raise PositionError(f"players must be {rules.num_players} names")
        if not isinstance(data["hands"], list):
            raise PositionError("hands must be an array")
        hands = []
        for i, h in enumerate(data["hands"]):
            if not isinstance(h, dict) or set(h) - {"dealer", "deck", "actions"}:
                raise PositionError(f"hands[{i}] must be {{\"dealer\", \"deck\", \"actions\"}}")
            dealer = h.get("dealer")
            if not isinstance(dealer, int) or isinstance(dealer, bool) or not (
                    0 <= dealer < rules.num_players):
                raise PositionError(f"hands[{i}].dealer must be a seat")
            deck = h.get("deck")
            if not isinstance(deck, list):
                raise PositionError(f"hands[{i}].deck must be an array of cards")
            actions = h.get("actions", [])
            if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
                raise PositionError(f"hands[{i}].actions must be an array of action lines")
            hands.append(HandRecord(dealer, tuple(parse_cards(deck)), tuple(actions)))
        # action lines are parsed by replay, which checks seat prefixes against the position
        return GameRecord(rules, tuple(players), tuple(hands))

    @staticmethod
    def loads(text: str) -> GameRecord:
        """Read a record from JSON text."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise PositionError(f"bad JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
        return GameRecord.from_json(data)


def game_over(rules: Rules, scores: Sequence[int]) -> int | None:
    """The winning side once the game is over after a hand, else ``None`` (RULES §1.18).

    Over when some side reached the target (``>=``, or ``>`` where the rules say so); the higher
    score wins; an exact tie for the lead means another hand is played.
    """
    target = rules.target_score
    reached = [s > target if rules.target_comparison == ">" else s >= target for s in scores]
    if not any(reached):
        return None
    best = max(scores)
    leaders = [i for i, s in enumerate(scores) if s == best]
    if len(leaders) > 1:
        return None  # tie_rule "play_another_hand"
    return leaders[0]


class Game:
    """A whole game in progress: the current hand's position, the scores and the record so far.

    Any family's rules are played (:func:`canasta.family.family_of`): ``state`` is the family's
    position. ``seed`` makes every deal reproducible (each hand's pack is shuffled by the next
    64-bit draw of a generator seeded with it); ``record`` (a :class:`GameRecord`) can be saved
    and replayed.
    """

    def __init__(self, rules: Rules, seed: int | None = None,
                 players: Sequence[str] | None = None) -> None:
        self.rules = rules
        self.family: Family = family_of(rules)
        self.players = tuple(players or [f"p{i}" for i in range(rules.num_players)])
        if len(self.players) != rules.num_players:
            raise ValueError(f"{rules.num_players} players are needed")
        self._rng = random.Random(seed)
        self.scores: tuple[int, ...] = (0,) * rules.num_sides
        self.finished: list[tuple[HandRecord, Any]] = []
        self.winner: int | None = None
        self._deal(rules.first_dealer, None)

    @classmethod
    def from_record(cls, record: GameRecord, seed: int | None = None) -> Game:
        """The game at the end of ``record``, every action checked as :func:`replay` does.

        The record's last hand becomes the current one (ended or not); hands dealt after it
        come from a shuffle seeded by ``seed``.
        """
        hands = list(replay(record))
        if not hands:
            raise PositionError("the record holds no hand")
        game = cls.__new__(cls)
        game.rules = record.rules
        game.family = family_of(record.rules)
        game.players = record.players
        game._rng = random.Random(seed)
        game.finished = [(h.record, h.state) for h in hands[:-1]]
        game.scores = hands[-2].scores if len(hands) > 1 else (0,) * record.rules.num_sides
        game.winner = None
        last = hands[-1]
        game.deck = last.record.deck
        game.actions = list(last.record.actions)
        game.state = last.state
        return game

    @classmethod
    def resume(cls, record: GameRecord, seed: int | None = None) -> Game:
        """A saved game brought back to play on (terminal saves, web tables): as
        :meth:`from_record`, except that a save from before a rule of its family changed goes
        on under the rule it was played under (:meth:`~canasta.family.Family.as_played`; for
        the classic family, RULES §1.12.6, see :func:`as_played`). The game's ``rules`` say
        which."""
        try:
            return cls.from_record(record, seed)
        except IllegalActionError:
            older = family_of(record.rules).as_played(record)
            if older is None:
                raise
            return cls.from_record(older, seed)

    def _deal(self, dealer: int, deck: Sequence[Card] | None) -> None:
        if deck is None:
            deck = self.family.shuffled_pack(self.rules, self._rng.getrandbits(64))
        self.deck = tuple(deck)
        self.actions: list[str] = []
        self.state = self.family.new_hand(self.rules, deck=self.deck, dealer=dealer,
                                          scores=self.scores, number=self.hand_number)

    @property
    def is_over(self) -> bool:
        """True once a side has won."""
        return self.winner is not None

    @property
    def hand_number(self) -> int:
        """1 for the first hand."""
        return len(self.finished) + 1

    def apply(self, action: Action | str) -> Any:
        """Play an action (or its text) in the current hand; returns the new position."""
        if isinstance(action, str):
            action = self.family.parse_action(self.rules, action)
        self.state = self.family.apply(self.state, action)
        self.actions.append(self.family.format_action(self.rules, action))
        return self.state

    def next_hand(self, deck: Sequence[Card] | None = None) -> None:
        """Score the ended hand and deal the next one (unless the game is over)."""
        if not self.state.is_over:
            raise IllegalActionError("next hand", "the hand is not over")
        if self.is_over:
            raise IllegalActionError("next hand", "the game is over")
        ended = self.state
        totals = self.family.totals(ended)
        self.scores = tuple(s + t for s, t in zip(self.scores, totals))
        self.finished.append((HandRecord(ended.dealer, self.deck, tuple(self.actions)), ended))
        self.winner = self.family.winner(self.rules, self.scores, ended)
        if self.winner is None:
            self._deal((ended.dealer + 1) % self.rules.num_players, deck)

    def ends_game(self, after: Any) -> bool:
        """True if the position ``after`` (of the current hand) ends its hand and the game."""
        if not after.is_over:
            return False
        scores = tuple(s + t for s, t in zip(self.scores, self.family.totals(after)))
        return self.family.winner(self.rules, scores, after) is not None

    @property
    def record(self) -> GameRecord:
        """The game so far as a record (the current hand included while in progress)."""
        hands = [h for h, _ in self.finished]
        if not self.is_over:
            hands.append(HandRecord(self.state.dealer, self.deck, tuple(self.actions)))
        return GameRecord(self.rules, self.players, tuple(hands))


def as_played(record: GameRecord) -> GameRecord | None:
    """The record under the rules an older save was played under, or ``None`` if none fits.

    Until RULES §1.12.6 changed, the classic family forbade a one-card hand to take a one-card
    pile only once the stock was exhausted. A record whose rules now say
    ``one_card_pile_take_ban = "always"`` but which replays only under ``"stock_out"`` was saved
    before the change: it is given ``"stock_out"`` back (docs/notation.md, "Older saves").
    """
    if record.rules.one_card_pile_take_ban != "always":
        return None
    older = GameRecord(record.rules.replace(one_card_pile_take_ban="stock_out"), record.players,
                       record.hands)
    try:
        for _ in replay(older):
            pass
    except (IllegalActionError, NotationError, PositionError):
        return None
    return older


@dataclass(frozen=True)
class ReplayedHand:
    """A hand as replayed: its record, final position, and the scores after it."""

    number: int
    record: HandRecord
    state: Any
    scores: tuple[int, ...]


def replay(record: GameRecord) -> Iterator[ReplayedHand]:
    """Replay a record hand by hand, checking every action.

    Raises :class:`~canasta.errors.IllegalActionError` for an action the rules forbid (the message
    says which hand and action) and :class:`~canasta.errors.PositionError` for a record that does
    not hold together (a hand cut short, a wrong dealer, hands after the game ended).
    """
    rules = record.rules
    family = family_of(rules)
    scores = (0,) * rules.num_sides
    prev_dealer: int | None = None
    over = False
    for number, hand in enumerate(record.hands, 1):
        if over:
            raise PositionError(f"hand {number}: the game was already over")
        if prev_dealer is not None and hand.dealer != (prev_dealer + 1) % rules.num_players:
            raise PositionError(f"hand {number}: the dealer should be seat "
                                f"{(prev_dealer + 1) % rules.num_players}, not {hand.dealer}")
        prev_dealer = hand.dealer
        state = family.new_hand(rules, deck=hand.deck, dealer=hand.dealer, scores=scores,
                                number=number)
        actions = []
        for i, line in enumerate(hand.actions, 1):
            try:
                state = apply_line(state, line)
            except NotationError as e:
                raise NotationError(f"hand {number}, action {i}: {e}") from None
            except IllegalActionError as e:
                raise IllegalActionError(e.action, f"hand {number}, action {i}: {e.reason}") \
                    from None
            actions.append(family.format_action(rules, parse_action_line(rules, line)[1]))
        done = HandRecord(hand.dealer, hand.deck, tuple(actions))
        if state.is_over:
            scores = tuple(s + t for s, t in zip(scores, family.totals(state)))
            over = family.winner(rules, scores, state) is not None
        elif number != len(record.hands):
            raise PositionError(f"hand {number} is not over, but another hand follows")
        yield ReplayedHand(number, done, state, scores)
