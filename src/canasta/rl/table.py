"""Hands of Canasta played one id at a time: the driver the PettingZoo and Gymnasium
environments share, and the engine of each family of rules as every adapter sees it (standard
library only).

A :class:`Table` keeps a game (a :class:`~canasta.game.Game`, or a :class:`ModernGame` for
Modern American, so every episode has a record that ``canasta replay`` reads), the action
being spelled (:class:`~canasta.rl.encoding.Choice`) and each player's points. Deals come from a
:class:`random.Random` seeded at :meth:`Table.reset`.

A :class:`Family` is one family of rules behind one interface: deal, legal list, apply, the
hand's totals, the end of the game, the alphabet of ids and the tensor.
:func:`family_of` gives the classic family of a preset or of any :class:`~canasta.rules.Rules`,
and :class:`ModernFamily` for ``modern-american`` (with its house rules).

The returns every adapter shares (``returns=``, :data:`RETURNS`): ``points`` (the default),
``scaled`` (points divided by the bound :func:`return_bound`, so an episode's sum lies in
[-1, 1]) and ``win`` (at the episode's end only: +1 for a side whose points lead, -1 for a
side behind, 0 for a tie of two sides; zero-sum with more sides too).

>>> from canasta import get_rules
>>> table = Table(get_rules("classic-2p"))
>>> table.reset(seed=3)
>>> table.to_move, table.legal_ids()[:2]
(1, [118])
>>> table.play(118)  # draw
Action(verb='draw', groups=(), card=-1)
>>> modern = Table(family_of("modern-american"))
>>> modern.reset(seed=3)
>>> modern.family.alphabet.size, [modern.family.alphabet.id_text(i) for i in modern.legal_ids()]
(142, ['keep 3c', 'keep 3d', 'keep 3s', 'keep none'])
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from canasta.actions import Action
from canasta.actions import parse_action as classic_parse
from canasta.cards import Card, format_card
from canasta.deal import new_hand as classic_new_hand
from canasta.deal import shuffled_pack as classic_shuffled_pack
from canasta.engine import apply as classic_apply
from canasta.game import Game, game_over
from canasta.legal import legal_actions
from canasta.modern_american import play as modern_play
from canasta.modern_american.action_text import format_action as modern_format
from canasta.modern_american.action_text import parse_action as modern_parse
from canasta.modern_american.ending import winner as modern_winner
from canasta.modern_american.hand import RULES as MODERN_RULES
from canasta.modern_american.hand import Hand, shuffled_pack
from canasta.modern_american.hand import deal as modern_deal
from canasta.modern_american.knobs import NAME as MODERN_NAME
from canasta.modern_american.knobs import Knobs, ModernAmericanRules, rules_from_json
from canasta.modern_american.notation import hand_to_json, is_modern_american, rules_to_json
from canasta.observation import observe
from canasta.rl.encoding import CLASSIC, Alphabet, Choice, alphabet_for
from canasta.rl.tensor import (
    Layout,
    dealing_tensor,
    max_side_points,
    modern_dealing_tensor,
    modern_max_side_points,
    modern_respell,
    modern_tensor,
    modern_tensor_bounds,
    modern_tensor_layout,
    modern_view,
    observation_tensor,
    respell,
    tensor_bounds,
    tensor_layout,
)
from canasta.rules import Rules, get_rules
from canasta.state import State, seal

RETURNS = ("points", "scaled", "win")
"""The kinds of return: points, points scaled into [-1, 1], win/loss."""

IDS_PER_CARD = 12
"""The bound on player steps per hand is ``IDS_PER_CARD`` times the pack size (docs/rl.md)."""
MODERN_IDS_PER_CARD = 14
"""Modern American's bound: 14 ids per card of the pack (a turn may also keep a three;
docs/rl.md)."""


class ClassicFamily:
    """The classic family of rules (every preset of :data:`canasta.rules.PRESETS`, house rules
    included) as the adapters drive it; :class:`ModernFamily` answers the same questions for
    Modern American. A position is the family's own value (a :class:`~canasta.state.State`
    here), never changed."""

    name = "classic"
    ids_per_card = IDS_PER_CARD
    """Player steps per card of the pack that bound one hand (docs/rl.md)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.alphabet: Alphabet = CLASSIC

    @property
    def num_players(self) -> int:
        """The seats."""
        return self.rules.num_players

    @property
    def num_sides(self) -> int:
        """The sides (partnerships, or lone players)."""
        return self.rules.num_sides

    @property
    def deck_size(self) -> int:
        """The cards of the pack."""
        return self.rules.deck_size

    @property
    def first_dealer(self) -> int:
        """The dealer of a game's first hand."""
        return self.rules.first_dealer

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ClassicFamily):
            return NotImplemented
        return type(self) is type(other) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.key()))

    def key(self) -> Any:
        """What tells two rule sets of the family apart."""
        return self.rules

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.rules.name}>"

    # -- the engine ----------------------------------------------------------------------------
    def new_hand(self, deck: Sequence[Card], dealer: int, scores: Sequence[int]) -> Any:
        """A hand dealt from ``deck`` (top first) by ``dealer``, the sides' ``scores`` before it."""
        return classic_new_hand(self.rules, deck=deck, dealer=dealer, scores=tuple(scores))

    def legal(self, position: Any) -> list[Action]:
        """The legal actions, in the family's canonical list."""
        return legal_actions(position)

    def choice(self, position: Any) -> Choice:
        """The spellings of the legal actions of ``position``."""
        return Choice(self.legal(position), self.alphabet)

    def apply(self, position: Any, action: Action) -> Any:
        """The position after ``action`` (an ``IllegalActionError`` if it is refused)."""
        return classic_apply(position, action)

    def is_over(self, position: Any) -> bool:
        """Whether the hand has ended."""
        return bool(position.is_over)

    def totals(self, position: Any) -> list[int]:
        """Each side's total for the hand that ended in ``position``."""
        return [s.total for s in position.result.sides]

    def game_won(self, scores: Sequence[int], position: Any) -> bool:
        """Whether the game is over with the cumulative ``scores`` after the hand that ended in
        ``position``."""
        return game_over(self.rules, scores) is not None

    def with_stock(self, position: Any, stock: tuple[Card, ...]) -> Any:
        """``position`` with its stock in another order."""
        new = position.copy()
        new.stock = stock
        return seal(new)

    def same_rules(self, position: Any) -> bool:
        """Whether ``position`` is played under this family's rules."""
        return bool(position.rules == self.rules)

    def format_action(self, position: Any, action: Action) -> str:
        """An action's text."""
        return str(action)

    def parse_action(self, position: Any, text: str) -> Action:
        """The action of a text of :meth:`format_action` (a ``NotationError`` if malformed)."""
        return classic_parse(text)

    def describe(self, position: Any) -> str:
        """The whole position as text (an environment's ``render``)."""
        return str(position)

    def new_game(self, seed: int | None) -> Any:
        """A game whose deals come from a shuffle seeded by ``seed``."""
        return Game(self.rules, seed=seed)

    def shuffled_pack(self, seed: int) -> list[Card]:
        """The pack in a seeded order, first card on top (how :meth:`new_game` deals)."""
        return classic_shuffled_pack(self.rules, seed)

    # -- the tensor ----------------------------------------------------------------------------
    def tensor(self, position: Any, seat: int) -> list[float]:
        """``seat``'s observation tensor with no spelling in progress."""
        return observation_tensor(observe(position, seat))

    def respell(self, values: Sequence[float], prefix: Sequence[int]) -> list[float]:
        """The tensor ``values`` with ``prefix`` spelled instead."""
        return respell(values, self.rules, prefix)

    def dealing_tensor(self) -> list[float]:
        """The tensor of a table still being dealt."""
        return dealing_tensor(self.rules)

    def tensor_layout(self) -> Layout:
        """The tensor's pieces: (name, shape)."""
        return tensor_layout(self.rules)

    def tensor_bounds(self, hands: int) -> tuple[list[float], list[float]]:
        """Each entry's least and greatest value over an episode of ``hands`` hands."""
        return tensor_bounds(self.rules, hands)

    def max_side_points(self) -> int:
        """A bound on one side's total for one hand."""
        return max_side_points(self.rules)


class ModernFamily(ClassicFamily):
    """Modern American Canasta (:mod:`canasta.modern_american`): four seats, two sides, 142
    ids (:data:`~canasta.rl.encoding.MODERN`), its own tensor
    (:func:`~canasta.rl.tensor.modern_tensor`). A position is a
    :class:`~canasta.modern_american.hand.Hand`."""

    name = MODERN_NAME
    ids_per_card = MODERN_IDS_PER_CARD

    def __init__(self, rules: ModernAmericanRules = MODERN_RULES,
                 knobs: Knobs | None = None) -> None:
        if knobs is not None:
            rules = rules.replace(knobs=knobs)
        super().__init__(rules)
        self.rules: ModernAmericanRules = rules
        self.knobs: Knobs = rules.knobs
        self.alphabet = alphabet_for(self.knobs.special_hands)

    def key(self) -> Any:
        return (self.rules, self.knobs)

    def __repr__(self) -> str:
        return f"<ModernFamily {rules_to_json(self._blank())}>"

    def _blank(self) -> Hand:
        return modern_deal(0, rules=self.rules)

    def rules_json(self) -> Any:
        """The rules as a Modern American position or record holds them."""
        return rules_to_json(self._blank())

    @property
    def first_dealer(self) -> int:
        return 0

    def new_hand(self, deck: Sequence[Card], dealer: int, scores: Sequence[int]) -> Hand:
        return modern_play.start_turn(modern_deal(deck=deck, dealer=dealer, scores=scores,
                                                  rules=self.rules))

    def legal(self, position: Any) -> list[Action]:
        return modern_play.legal_actions(position)

    def apply(self, position: Any, action: Action) -> Hand:
        return modern_play.apply(position, action)

    def is_over(self, position: Any) -> bool:
        return position.end is not None

    def totals(self, position: Any) -> list[int]:
        return [s.total for s in position.end.sides]

    def game_won(self, scores: Sequence[int], position: Any) -> bool:
        end = position.end
        dream = (position.side_of(end.special[0])
                 if end is not None and end.special and end.wins_game else None)
        return modern_winner(self.rules, scores, dream) is not None

    def with_stock(self, position: Any, stock: tuple[Card, ...]) -> Hand:
        hand: Hand = position.but(stock=stock)
        return hand

    def same_rules(self, position: Any) -> bool:
        return isinstance(position, Hand) and (position.rules, position.knobs) == self.key()

    def format_action(self, position: Any, action: Action) -> str:
        return modern_format(position, action)

    def parse_action(self, position: Any, text: str) -> Action:
        return modern_parse(position, text)

    def describe(self, position: Any) -> str:
        return json.dumps(hand_to_json(position), indent=1)

    def new_game(self, seed: int | None) -> ModernGame:
        return ModernGame(self, seed)

    def shuffled_pack(self, seed: int) -> list[Card]:
        return shuffled_pack(self.rules, seed)

    def tensor(self, position: Any, seat: int) -> list[float]:
        return modern_tensor(modern_view(position, seat))

    def respell(self, values: Sequence[float], prefix: Sequence[int]) -> list[float]:
        return modern_respell(values, prefix)

    def dealing_tensor(self) -> list[float]:
        return modern_dealing_tensor()

    def tensor_layout(self) -> Layout:
        return modern_tensor_layout()

    def tensor_bounds(self, hands: int) -> tuple[list[float], list[float]]:
        return modern_tensor_bounds(self.rules, self.knobs, hands)

    def max_side_points(self) -> int:
        return modern_max_side_points(self.rules, self.knobs)


Family = ClassicFamily
"""Any family of rules (:class:`ClassicFamily` and its subclasses)."""


def family_of(preset: str = "classic", rules: Rules | ClassicFamily | Mapping[str, Any] |
              str | None = None) -> ClassicFamily:
    """The family of rules an adapter plays: ``rules`` when given (a family, a classic
    :class:`~canasta.rules.Rules`, or Modern American's rules as a position holds them:
    ``"modern-american"`` or ``{"preset": "modern-american", FIELD: VALUE, ...}``), else the
    preset ``preset`` (``modern-american`` included)."""
    if isinstance(rules, ClassicFamily):
        return rules
    if isinstance(rules, Rules):
        if isinstance(rules, ModernAmericanRules):
            return ModernFamily(rules)
        return ClassicFamily(rules)
    if rules is not None:
        if not is_modern_american(rules):
            raise ValueError(f"rules must be a Rules value or Modern American's rules, not "
                             f"{rules!r}")
        return ModernFamily(rules_from_json(rules))
    if preset == MODERN_NAME:
        return ModernFamily()
    return ClassicFamily(get_rules(preset))


class ModernGame:
    """A Modern American game in progress, as :class:`~canasta.game.Game` is a classic one:
    ``state`` (the hand), ``apply``, ``next_hand``, ``hand_number``, ``is_over``; ``record`` is
    the game so far as :func:`canasta.modern_american.game.replay` reads it. Every hand is
    dealt from a pack shuffled by a generator seeded with ``seed``; the first dealer is seat
    0 and the deal moves on by one seat."""

    def __init__(self, family: ModernFamily, seed: int | None = None) -> None:
        self.family = family
        self.rules = family.rules
        self._rng = random.Random(seed)
        self.scores: tuple[int, ...] = (0,) * family.num_sides
        self.finished: list[dict[str, Any]] = []
        self.winner: bool = False
        self._deal(family.first_dealer)

    def _deal(self, dealer: int) -> None:
        self.deck = tuple(self.family.shuffled_pack(self._rng.getrandbits(63)))
        self.actions: list[str] = []
        self.state: Hand = self.family.new_hand(self.deck, dealer, self.scores)

    @property
    def is_over(self) -> bool:
        """True once a side has won (the target, or a Dream Hand)."""
        return self.winner

    @property
    def hand_number(self) -> int:
        """1 for the first hand."""
        return len(self.finished) + 1

    def apply(self, action: Action) -> Hand:
        """Play ``action`` in the current hand; the new position."""
        h = self.state
        self.state = self.family.apply(h, action)
        self.actions.append(f"p{h.to_move}: {modern_format(h, action)}")
        return self.state

    def next_hand(self) -> None:
        """Score the ended hand and deal the next one (unless the game is over)."""
        h = self.state
        if h.end is None:
            raise ValueError("the hand is not over")
        if self.winner:
            raise ValueError("the game is over")
        self.scores = tuple(s + t for s, t in zip(self.scores, self.family.totals(h)))
        self.finished.append(self._hand_record())
        self.winner = self.family.game_won(self.scores, h)
        if not self.winner:
            self._deal((h.dealer + 1) % self.family.num_players)

    def _hand_record(self) -> dict[str, Any]:
        return {"dealer": self.state.dealer, "deck": [format_card(c) for c in self.deck],
                "actions": list(self.actions)}

    @property
    def record(self) -> dict[str, Any]:
        """The game so far (the current hand included while it is played or not yet scored)."""
        hands = list(self.finished)
        if not self.winner:
            hands.append(self._hand_record())
        return {"rules": self.family.rules_json(),
                "players": [f"p{i}" for i in range(self.family.num_players)],
                "hands": hands}


def max_steps_per_hand(rules: Rules | ClassicFamily) -> int:
    """A bound on the player steps (ids) of one hand: ``IDS_PER_CARD`` per card of the pack
    (``MODERN_IDS_PER_CARD`` for Modern American)."""
    family = family_of(rules=rules)
    return family.ids_per_card * family.deck_size


def check_returns(returns: str) -> str:
    """``returns`` if it is one of :data:`RETURNS`, else :class:`ValueError`."""
    if returns not in RETURNS:
        raise ValueError(f"returns must be one of {', '.join(RETURNS)}, not {returns!r}")
    return returns


def seat_returns(rules: Rules, totals: Sequence[int]) -> list[float]:
    """Per seat, the hand's return from the sides' totals: its side's total minus the mean of
    the other sides' (zero-sum over the sides)."""
    whole = sum(totals)
    others = rules.num_sides - 1
    return [totals[side] - (whole - totals[side]) / others
            for side in map(rules.side_of, range(rules.num_players))]


def return_bound(rules: Rules | ClassicFamily, hands: int) -> float:
    """A bound on one player's points over ``hands`` hands: twice :func:`max_side_points` a
    hand (its side's total less the others' mean), or the family's own bound (Modern American:
    :func:`~canasta.rl.tensor.modern_max_side_points`). ``scaled`` returns divide by it."""
    if isinstance(rules, ClassicFamily):
        return 2.0 * rules.max_side_points() * hands
    return 2.0 * max_side_points(rules) * hands


def utility_range(rules: Rules | ClassicFamily, hands: int, returns: str = "points"
                  ) -> tuple[float, float]:
    """The least and the greatest return of an episode of ``hands`` hands."""
    check_returns(returns)
    bound = return_bound(rules, hands) if returns == "points" else 1.0
    return -bound, bound


def win_returns(rules: Rules, points: Sequence[float]) -> list[float]:
    """Per player, the win/loss return of an episode from its players' points: 1 for each side
    with the most points, 0 for the others, then (as :func:`seat_returns`) each side's value
    less the mean of the other sides' (+1 / -1 with two sides, 0 for a tie)."""
    k = rules.num_sides
    side_points = [points[side] for side in range(k)]  # seat ``side`` plays for side ``side``
    best = max(side_points)
    return seat_returns(rules, [1 if p == best else 0 for p in side_points])


def episode_returns(rules: Rules | ClassicFamily, hands: int, points: Sequence[float],
                    returns: str = "points") -> list[float]:
    """Per player, an episode's return of the kind ``returns`` from its points."""
    check_returns(returns)
    if returns == "points":
        return [float(p) for p in points]
    if returns == "scaled":
        bound = return_bound(rules, hands)
        return [p / bound for p in points]
    return win_returns(rules.rules if isinstance(rules, ClassicFamily) else rules, points)


def hand_returns(state: State, family: ClassicFamily | None = None) -> list[float]:
    """Each player's return of a finished hand (:func:`seat_returns`); ``family`` reads a
    position of another family than the classic."""
    if family is None:
        assert state.result is not None
        return seat_returns(state.rules, [s.total for s in state.result.sides])
    return seat_returns(family.rules, family.totals(state))


class Table:
    """Up to ``hands`` hands (fewer when the game reaches its target), spelled id by id."""

    def __init__(self, rules: Rules | ClassicFamily, hands: int = 1,
                 returns: str = "points") -> None:
        if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
            raise ValueError(f"hands must be a positive integer, not {hands!r}")
        self.family = family_of(rules=rules)
        """The family of rules played (:func:`family_of`)."""
        rules = self.rules = self.family.rules
        self.hands = hands
        self.kind = check_returns(returns)
        """The kind of reward :attr:`rewards` holds (:data:`RETURNS`)."""
        self.game: Any = None
        """The game (a :class:`~canasta.game.Game`, or a :class:`ModernGame`)."""
        self.choice = Choice((), self.family.alphabet)
        self.returns = [0.0] * rules.num_players
        """Per player, the points of the hands finished so far."""
        self.finished: list[float] | None = None
        """Per player, the points of the hand the last play ended, else ``None``."""
        self.rewards: list[float] | None = None
        """Per player, the reward the last play brought, of the kind :attr:`kind`, else
        ``None``: ``points`` and ``scaled`` at every hand's end, ``win`` at the episode's."""
        self.steps = 0
        """Ids played this episode, by every seat."""
        self.over = True
        self._tensors: dict[int, tuple[Any, list[float]]] = {}

    def reset(self, seed: int) -> None:
        """Deal the first hand from a shuffle seeded by ``seed``."""
        self.game = self.family.new_game(seed)
        self.returns = [0.0] * self.rules.num_players
        self.finished = None
        self.rewards = None
        self.steps = 0
        self.over = False
        self._new_choice()

    @property
    def state(self) -> Any:
        """The current hand's position (the last hand's final one once over): a
        :class:`~canasta.state.State`, or a Modern American
        :class:`~canasta.modern_american.hand.Hand`."""
        if self.game is None:
            raise RuntimeError("the table has not been reset")
        return self.game.state

    @property
    def to_move(self) -> int:
        """The seat to play."""
        seat: int = self.state.to_move
        return seat

    @property
    def prefix(self) -> tuple[int, ...]:
        """The ids of the action being spelled."""
        return self.choice.prefix

    def legal_ids(self) -> list[int]:
        """The ids the player to move may play (none once over)."""
        return [] if self.over else self.choice.ids()

    def tensor(self, seat: int) -> list[float]:
        """``seat``'s observation tensor, the spelling in progress included."""
        state = self.state
        cached = self._tensors.get(seat)
        if cached is None or cached[0] is not state:
            cached = self._tensors[seat] = (state, self.family.tensor(state, seat))
        prefix = self.choice.prefix
        return self.family.respell(cached[1], prefix) if prefix else list(cached[1])

    def play(self, i: int) -> Action | None:
        """Play id ``i`` (:class:`ValueError` if it is not legal: nothing changes then).

        Returns the engine action once its spelling is complete, else ``None``.
        """
        if self.over:
            raise ValueError("the episode is over")
        choice = self.choice.after(i)
        self.finished = self.rewards = None
        self.steps += 1
        if choice.action is None:
            self.choice = choice
            return None
        self._apply(choice.action)
        return choice.action

    def stop(self) -> None:
        """End the episode now (an environment's penalty for an illegal id): no id is legal
        until :meth:`reset`."""
        self.over = True
        self.choice = Choice((), self.family.alphabet)
        self.finished = self.rewards = None

    def play_action(self, action: Action) -> None:
        """Play a whole engine action (a bot's), which must be legal now."""
        if self.choice.prefix:
            raise ValueError("an action is half spelled")
        if action not in self.choice.actions():
            raise ValueError(f"{action} is not legal here")
        self.finished = self.rewards = None
        self.steps += len(self.family.alphabet.encode(action))
        self._apply(action)

    def _apply(self, action: Action) -> None:
        game = self.game
        assert game is not None
        game.apply(action)
        state = game.state
        if self.family.is_over(state):
            self.finished = hand_returns(state, self.family)
            for p, r in enumerate(self.finished):
                self.returns[p] += r
            if game.hand_number >= self.hands:
                self.over = True
            else:
                game.next_hand()
                self.over = game.is_over
        if not self.over:
            self._new_choice()
        else:
            self.choice = Choice((), self.family.alphabet)
        if self.finished is not None:
            self.rewards = self._rewards(self.finished)

    def _rewards(self, hand: list[float]) -> list[float] | None:
        """The rewards of a hand that just ended with the points ``hand``."""
        if self.kind == "points":
            return list(hand)
        if self.kind == "scaled":
            bound = return_bound(self.family, self.hands)
            return [p / bound for p in hand]
        return win_returns(self.rules, self.returns) if self.over else None

    def _new_choice(self) -> None:
        self.choice = self.family.choice(self.state)

