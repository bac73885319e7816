"""Canasta as an OpenSpiel game: ``import canasta.rl.openspiel`` registers ``python_canasta``.

>>> import pyspiel
>>> import canasta.rl.openspiel
>>> game = pyspiel.load_game("python_canasta(preset=classic-2p)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(2, 125, 53)
>>> scaled = pyspiel.load_game("python_canasta(preset=classic-2p,returns=scaled)")
>>> scaled.min_utility(), scaled.max_utility()
(-1.0, 1.0)
>>> modern = pyspiel.load_game("python_canasta(preset=modern-american)")
>>> modern.num_players(), modern.num_distinct_actions(), modern.observation_tensor_shape()
(4, 142, [394])

Every preset of every registered family plays (``preset`` is any of
:func:`canasta.family.preset_names`); what differs between families (the ids, the tensor, what
a seat sees of chance) comes from the family's research interface
(:func:`~canasta.rl.research.research_of`).

* **Players** are the seats; **actions** are the ids of :mod:`canasta.rl.encoding`: a player
  spells one engine action over several steps (it stays the player to move), and the engine
  moves only when the spelling is complete.
* **Chance** is explicit. The deal draws the pack's cards one by one (each outcome a card,
  ``0..52``, with probability proportional to the copies not yet drawn) until the deal is
  settled: the hands, the upcard and what covers it, the red-three replacements. Every card
  taken from the stock later (a draw, a red three's replacement) is one chance node of the same
  kind over the stock's cards. The stock's order is therefore never part of a state:
  :attr:`CanastaState.engine_state` holds the cards still in the stock in canonical order.
* **Returns** are, for each player, its side's hand total minus the mean of the other sides'
  totals (zero-sum), summed over the hands of the episode: ``hands`` (default 1) hands, or
  fewer when the game reaches its target first. Rewards come at the end (``TERMINAL``). The
  parameter ``returns`` chooses their unit: ``points`` (default), ``scaled`` (points over
  :func:`~canasta.rl.table.return_bound`, in [-1, 1]) or ``win`` (+1 / -1, 0 for a tie);
  ``min_utility``/``max_utility`` follow it.
* **Observations** go through :meth:`CanastaGame.make_py_observer`: the observation tensor is
  the family's (:mod:`canasta.rl.tensor` for the classic family); the information-state tensor
  adds, per seat, the cards it discarded this hand. The information-state string is exact
  (perfect recall): every id played, and at each chance event what the seat saw of it.
* :meth:`CanastaState.resample_from_infostate` deals the cards a seat cannot see anew (the
  family's :meth:`~canasta.rl.research.Research.resampler`; for OpenSpiel's ``ISMCTSBot``).

Parameters: ``preset`` (a preset of any family; default ``classic``), ``hands`` (default 1),
``returns`` (default ``points``) and ``rules`` (house rules: the preset's fields changed,
written ``field:value;field:value``, e.g. ``ask_before_draw:true`` or
``special_hands:pagat``; default none). docs/rl.md gives the bound on the game's length and its
proof.
"""

from __future__ import annotations

import json
import random
from bisect import bisect_left
from collections import Counter
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
import pyspiel

from canasta.actions import Action
from canasta.cards import NUM_CARD_TYPES, Card, card_names, format_card, make_pack
from canasta.family import Family, all_presets
from canasta.rl.encoding import ADD, DISCARD, GROUP, Alphabet, Choice
from canasta.rl.research import IDS_PER_CARD, Research, RulesLike, research_of
from canasta.rl.research import rules_of as rules_from
from canasta.rl.table import (
    RETURNS,
    check_returns,
    episode_returns,
    hand_returns,
    max_steps_per_hand,
    utility_range,
)
from canasta.rules import Rules

SHORT_NAME = "python_canasta"
DEFAULT_PARAMS: dict[str, Any] = {"preset": "classic", "hands": 1, "rules": "",
                                  "returns": "points"}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Canasta",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=max(r.num_players for r in all_presets().values()),
    min_num_players=min(r.num_players for r in all_presets().values()),
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


def game_info(rules: Research | RulesLike, hands: int, returns: str = "points"
              ) -> pyspiel.GameInfo:
    """The :class:`pyspiel.GameInfo` of ``hands`` hands under ``rules`` (of any family, or its
    research interface), with returns of the kind ``returns``
    (:data:`~canasta.rl.table.RETURNS`)."""
    research = research_of(rules)
    low, high = utility_range(research, hands, returns)
    return pyspiel.GameInfo(
        num_distinct_actions=research.alphabet.size,
        max_chance_outcomes=NUM_CARD_TYPES,
        num_players=research.rules.num_players,
        min_utility=low,
        max_utility=high,
        utility_sum=0.0,
        max_game_length=max_steps_per_hand(research) * hands,
    )


def rules_of(preset: str, overrides: str) -> Rules:
    """The rules of a game: a preset of any family with some fields changed by ``overrides``,
    written ``field:value;field:value`` (values as in the family's rules objects: ``true``,
    ``3000``, ``stock_out``, ``pagat``), e.g. ``ask_before_draw:true;one_card_pile_take_ban:
    stock_out``. OpenSpiel's game strings separate parameters with commas, hence no commas
    here: fields holding lists cannot be changed this way."""
    if not overrides.strip():
        return rules_from(preset)
    return rules_from({**_changes(overrides), "preset": preset})


def _changes(overrides: str) -> dict[str, Any]:
    """The fields ``field:value;field:value`` of a game's ``rules`` parameter."""
    changes: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in overrides.split(";"))):
        name, colon, text = item.partition(":")
        if not colon or not name.strip():
            raise ValueError(f"rules: {item!r} is not field:value")
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text.strip()  # a bare word
        changes[name.strip()] = value
    return changes


def params_of(rules: Research | RulesLike) -> dict[str, Any]:
    """The game parameters (but ``hands``) that give ``rules`` (of any family, or its research
    interface)."""
    described = research_of(rules).rules.to_json()
    if isinstance(described, str):
        return {"preset": described, "rules": ""}
    changes = dict(described)
    preset = changes.pop("preset")
    items = []
    for name, value in sorted(changes.items()):
        if isinstance(value, (list, dict)):
            raise ValueError(f"the rules field {name} holds a list: it cannot be a parameter "
                             "of the OpenSpiel game")
        items.append(f"{name}:{json.dumps(value) if not isinstance(value, str) else value}")
    return {"preset": preset, "rules": ";".join(items)}


class CanastaGame(pyspiel.Game):  # type: ignore[misc]
    """The ``python_canasta`` game: parameters ``preset``, ``hands`` and ``rules`` (see the
    module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULT_PARAMS, **(params or {})}
        unknown = set(params) - set(DEFAULT_PARAMS)
        if unknown:
            raise ValueError(f"unknown parameter(s) {sorted(unknown)} (known: "
                             f"{', '.join(DEFAULT_PARAMS)})")
        research = research_of(rules_of(str(params["preset"]), str(params["rules"])))
        rules = research.rules
        hands = params["hands"]
        if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
            raise ValueError(f"hands must be a positive integer, not {hands!r}")
        returns = str(params["returns"])
        try:
            check_returns(returns)
        except ValueError as e:
            raise ValueError(f"{e} (a parameter of {SHORT_NAME})") from None
        super().__init__(_GAME_TYPE, game_info(research, hands, returns), params)
        self.research = research
        """The family's research interface (ids, tensor, what a seat sees of chance)."""
        self.family = research.family
        """The family of rules (deal, legal list, apply, totals, end of the game)."""
        self.rules = rules
        self.hands = hands
        self.returns_kind = returns
        """``points``, ``scaled`` or ``win`` (:data:`~canasta.rl.table.RETURNS`)."""
        counts = Counter(make_pack(rules.num_decks, rules.num_jokers))
        self.pack_counts = tuple(counts[c] for c in range(NUM_CARD_TYPES))

    def new_initial_state(self) -> CanastaState:
        """A table about to be dealt its first hand."""
        return CanastaState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> CanastaObserver:
        """The observer of an observation type (default: the observation, no perfect recall)."""
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return CanastaObserver(self.research, iig_obs_type, params)

    def max_chance_nodes_in_history(self) -> int:
        """Each chance node draws one card of the pack, once per hand."""
        return self.rules.deck_size * self.hands


class _Seen(NamedTuple):
    """An event of the history that is not an id: a chance outcome or a hand's result."""

    at: int
    """The number of ids played before it."""
    kind: str
    """``deal``, ``stock`` (what each seat saw: ``state`` after the event), ``result``
    (``line``, public) or ``resampled`` (``state`` is the sample; ``line`` the seat it was
    made for)."""
    state: Any = None
    """The position (the family's own)."""
    line: str = ""

    def text(self, seat: int, research: Research) -> str:
        """The line of this event in ``seat``'s history ("" for none)."""
        kind = self.kind
        if kind == "result":
            return self.line
        assert self.state is not None
        if kind == "resampled":
            if str(seat) == self.line:
                return ""
            return "resampled " + research.seen_text(self.state, seat, False)
        return research.seen_text(self.state, seat, kind == "deal")


class _Table:
    """Everything a state holds, in one object. OpenSpiel's clone deep-copies a state's
    attributes: a table's deep copy is a shallow copy, since its fields are immutable values."""

    __slots__ = ("research", "rules", "hands", "kind", "hand", "dealer", "scores", "engine",
                 "dealt", "left", "pack", "pending", "resolved", "prefix", "returns", "over",
                 "log", "seen", "views", "hand_start")

    research: Research
    """The family's research interface (it pickles as its rules)."""
    rules: Rules
    hands: int
    """Hands the episode may last."""
    kind: str
    """The kind of return (:data:`~canasta.rl.table.RETURNS`)."""
    hand: int
    """The current hand, from 1."""
    dealer: int
    scores: tuple[int, ...]
    """Cumulative side scores at the start of the current hand."""
    engine: Any
    """The current hand's position (the family's own); ``None`` while it is being dealt. Its
    stock is in canonical order below the ``resolved`` cards that chance has already put on
    top."""
    dealt: tuple[Card, ...]
    """Pack cards drawn by chance for the deal in progress, top first."""
    left: tuple[int, ...]
    """Copies of each card chance may still draw: those not yet dealt while a deal is in
    progress, then the stock's cards below the ``resolved`` ones."""
    pack: tuple[int, ...]
    """Copies of each card in the pack."""
    pending: Action | None
    """An engine action that waits for chance to draw stock cards."""
    resolved: int
    prefix: tuple[int, ...]
    """Ids of the action being spelled."""
    returns: tuple[float, ...]
    """Per player, over the finished hands."""
    over: bool
    log: bytes
    """(seat, id) byte pairs of every id played, in order."""
    seen: tuple[_Seen, ...]
    """What each seat saw at each chance event and each hand's end."""
    views: tuple[tuple[int, int], ...]
    """(seat, entries): the first ``entries`` of ``seen`` are the history of that seat alone,
    once a state was resampled for it (the others' history was not sampled)."""
    hand_start: int
    """The number of ids played before the current hand (its discards are counted after)."""

    def __init__(self, game: CanastaGame) -> None:
        rules = game.rules
        self.research = game.research
        self.rules, self.hands, self.hand, self.dealer = rules, game.hands, 1, rules.first_dealer
        self.kind = game.returns_kind
        self.scores = (0,) * rules.num_sides
        self.engine, self.dealt, self.left, self.pack = None, (), game.pack_counts, \
            game.pack_counts
        self.pending, self.resolved, self.prefix = None, 0, ()
        self.returns, self.over = (0.0,) * rules.num_players, False
        self.log, self.seen, self.views, self.hand_start = b"", (), (), 0

    @property
    def family(self) -> Family:
        """The family of rules (deal, legal list, apply, totals)."""
        return self.research.family

    def __deepcopy__(self, memo: dict[int, object]) -> _Table:
        new = _Table.__new__(_Table)
        for name in _Table.__slots__:
            setattr(new, name, getattr(self, name))
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Table):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _Table.__slots__)

    __hash__ = None  # type: ignore[assignment]  # a table changes


class _Memo:
    """Derived values of a table (its choice, its information strings). Clones share it until
    one of them moves; a move drops the mover's memo. Never pickled."""

    __slots__ = ("choice", "texts")

    def __init__(self, choice: Choice | None = None) -> None:
        self.choice = choice
        self.texts: dict[int, str] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> _Memo:
        return self

    def __reduce__(self) -> tuple[type[_Memo], tuple[()]]:
        return _Memo, ()


def _counts(cards: tuple[Card, ...]) -> tuple[int, ...]:
    """Copies of each card among ``cards``."""
    found = Counter(cards)
    return tuple(found[c] for c in range(NUM_CARD_TYPES))


RESAMPLES = 1000
"""Most deals tried for a resample that must let the seat spelling an action finish it."""


def _resample(research: Research, engine: Any, seat: int, prefix: tuple[int, ...],
              rng: random.Random) -> Any:
    """A deal of what ``seat`` cannot see (the family's
    :meth:`~canasta.rl.research.Research.resampler`), fit for the spelling ``prefix`` of the
    player to move: while another seat spells, the cards it spelled are known to be in its hand
    and some legal action must begin with the spelling (deals are drawn until one does)."""
    mover = engine.to_move
    spelling = bool(prefix) and mover != seat
    held = [i - ADD for i in prefix if ADD <= i < DISCARD] if spelling else []
    deal = research.resampler(engine, seat, held)
    for _ in range(RESAMPLES):
        sample = deal(rng)
        if not spelling or _spellable(research, sample, prefix):
            return sample
    raise RuntimeError(f"no deal in {RESAMPLES} fits the spelling {prefix} of seat {mover}")


def _spellable(research: Research, position: Any, prefix: tuple[int, ...]) -> bool:
    choice = research.choice(position)
    try:
        for i in prefix:
            choice = choice.after(i)
    except ValueError:
        return False
    return True


@lru_cache(maxsize=8)
def _pairs(size: int) -> list[list[bytes]]:
    """The log's (seat, id) byte pairs of an alphabet of ``size`` ids, made once."""
    return [[bytes((seat, i)) for i in range(size)] for seat in range(8)]


_ID_TEXTS: dict[Alphabet, list[list[str]]] = {}
_HIDDEN_TEXTS: dict[Alphabet, list[list[str]]] = {}


def _id_texts(alphabet: Alphabet) -> list[list[str]]:
    """Each seat's line for each id in an information string: ``p1 draw``. A private id
    (:meth:`~canasta.rl.encoding.Alphabet.is_private`) is another line for the other seats:
    ``p1 keep ?`` (Modern American's ``keep``: the others see only the threes laid)."""
    found = _ID_TEXTS.get(alphabet)
    if found is None:
        found = _ID_TEXTS[alphabet] = [[f"p{seat} {alphabet.id_text(i)}"
                                        for i in range(alphabet.size)] for seat in range(8)]
    return found


def _hidden_texts(alphabet: Alphabet) -> list[list[str]]:
    """Each seat's line for each id as another seat reads it: the id's line, or for a private
    id its first word and ``?``."""
    found = _HIDDEN_TEXTS.get(alphabet)
    if found is None:
        ids = _id_texts(alphabet)
        found = _HIDDEN_TEXTS[alphabet] = [
            [f"p{seat} {alphabet.id_text(i).split()[0]} ?" if alphabet.is_private(i)
             else ids[seat][i] for i in range(alphabet.size)] for seat in range(8)]
    return found


class CanastaState(pyspiel.State):  # type: ignore[misc]
    """A ``python_canasta`` state. ``engine_state`` is the hand's position, the family's own
    (a :class:`canasta.State` for the classic family)."""

    def __init__(self, game: CanastaGame) -> None:
        super().__init__(game)
        self._t = _Table(game)
        self._memo: _Memo | None = None

    # -- what the table shows ------------------------------------------------------------------
    @property
    def engine_state(self) -> Any:
        """The current hand's position (``None`` while its first cards are dealt). Cards not
        yet drawn from the stock are listed in canonical order: chance decides their order."""
        return self._t.engine

    @property
    def prefix(self) -> tuple[int, ...]:
        """The ids of the action being spelled."""
        return self._t.prefix

    @property
    def research(self) -> Research:
        """The research interface of the game's family (its ids, its tensor)."""
        return self._t.research

    def engine_actions(self) -> list[Action]:
        """The legal engine actions the spelling in progress may still complete (all of them
        when none is in progress); empty at chance nodes and at the end. An agent may pick one
        and play the ids of :func:`~canasta.rl.encoding.encode` in turn."""
        t = self._t
        if t.over or t.engine is None or t.pending is not None:
            return []
        return self._choice().actions()

    def _memo_now(self) -> _Memo:
        memo = self._memo
        if memo is None:
            memo = self._memo = _Memo()
        return memo

    def _choice(self) -> Choice:
        memo = self._memo
        if memo is not None and memo.choice is not None:
            return memo.choice
        t = self._t
        assert t.engine is not None
        choice = t.research.choice(t.engine)
        for i in t.prefix:
            choice = choice.after(i)
        self._memo_now().choice = choice
        return choice

    # -- the OpenSpiel API ---------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` while cards are drawn, ``TERMINAL`` at the end."""
        t = self._t
        if t.over:
            return int(pyspiel.PlayerId.TERMINAL)
        if t.engine is None or t.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat: int = t.engine.to_move
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        return self._choice().ids()

    # The three queries below answer as OpenSpiel's own would, without the round trip through
    # C++ that a Python game pays on each call (most of a Python agent's cost per step).
    def legal_actions(self, player: int | None = None) -> list[int]:
        """The ids the player to move may play (the chance outcomes at a chance node; nothing
        for another player or at the end)."""
        t = self._t
        if t.over:
            return []
        if t.engine is None or t.pending is not None:
            return [c for c, _ in self.chance_outcomes()]
        if player is not None and player != t.engine.to_move:
            return []
        memo = self._memo
        choice = memo.choice if memo is not None and memo.choice is not None else self._choice()
        return list(choice.ids())

    def is_chance_node(self) -> bool:
        """True while chance draws a card."""
        t = self._t
        return not t.over and (t.engine is None or t.pending is not None)

    def is_player_node(self) -> bool:
        """True when a seat is to play."""
        t = self._t
        return not t.over and t.engine is not None and t.pending is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards that can come next, with probability by the copies left."""
        t = self._t
        if t.engine is None:
            share = 1.0 / (t.rules.deck_size - len(t.dealt))
        else:
            share = 1.0 / (len(t.engine.stock) - t.resolved)
        return [(c, k * share) for c, k in enumerate(t.left) if k]

    def _apply_action(self, action: int) -> None:
        t = self._t
        if t.over:
            raise ValueError("the game is over")
        if t.engine is None:
            self._deal_card(action)
        elif t.pending is not None:
            self._stock_card(action)
        else:
            self._play_id(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if not 0 <= action < NUM_CARD_TYPES:
                return f"chance {action}"
            return ("deal " if self._t.engine is None else "stock ") + format_card(action)
        alphabet = self._t.research.alphabet
        return alphabet.id_text(action) if 0 <= action < alphabet.size else f"id {action}"

    def is_terminal(self) -> bool:
        """True once the episode's hands are played or the game is over."""
        return self._t.over

    def returns(self) -> list[float]:
        """Per player, the points of its side less the other sides' mean, over the hands
        played, in the game's kind of return (``points``, ``scaled`` into [-1, 1] or ``win``);
        zero until the end."""
        t = self._t
        if not t.over:
            return [0.0] * t.rules.num_players
        return episode_returns(t.research, t.hands, t.returns, t.kind)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CanastaState:
        """A state ``player_id`` cannot tell from this one: the cards it cannot see dealt anew
        (:class:`~canasta.bots.determinize.Determinizer`). The other players' private history
        is not sampled: their information strings are marked as resampled."""
        t = self._t
        clone: CanastaState = self.clone()
        if t.engine is None or t.over or t.pending is not None:
            return clone
        rng = random.Random(int(float(probability_sampler()) * 2 ** 53))
        sample = _resample(t.research, t.engine, player_id, t.prefix, rng)
        new = clone._t
        new.seen = (*t.seen, _Seen(len(t.log) // 2, "resampled", sample, str(player_id)))
        new.views = (*t.views, (player_id, len(t.seen)))
        # the stock is dealt anew, its decided cards too (no seat has seen them)
        new.engine, new.left, new.resolved = sample, _counts(sample.stock), 0
        clone._memo = None
        return clone

    def __str__(self) -> str:
        t = self._t
        head = {"hand": t.hand, "hands": t.hands, "dealer": t.dealer, "scores": list(t.scores),
                "returns": list(t.returns), "over": t.over, "prefix": list(t.prefix),
                "dealt": card_names(t.dealt) if t.engine is None else None,
                "pending": str(t.pending) if t.pending is not None else None,
                "resolved": t.resolved}
        position = None if t.engine is None else t.research.chance_json(t.engine)
        return json.dumps({**head, "position": position}, sort_keys=True)

    # -- moves ---------------------------------------------------------------------------------
    # Each move changes the table in place and drops the memo (clones have tables of their own).
    def _play_id(self, i: int) -> None:
        t = self._t
        engine = t.engine
        assert engine is not None
        choice = self._choice()
        action = choice.single(i)  # most ids are whole actions: no new choice for them
        if action is None:
            choice = choice.after(i)  # ValueError for an id outside the mask
            action = choice.action
        t.log += _pairs(t.research.alphabet.size)[engine.to_move][i]
        if action is None:
            t.prefix = choice.prefix
            self._memo = _Memo(choice)
            return
        t.prefix = ()
        self._memo = None
        if action.verb == "draw" and len(engine.stock) > t.resolved:
            t.pending = action  # a draw from a stock with cards reads its top card: chance
        else:
            self._try(action)

    def _try(self, action: Action) -> None:
        """Play ``action`` if the stock cards it draws are decided; else wait for chance."""
        t = self._t
        engine = t.engine
        assert engine is not None
        after = t.family.apply(engine, action)
        used = len(engine.stock) - len(after.stock)
        if used > t.resolved:
            t.pending = action
        elif used or after.is_over:
            self._commit(after, action, used)
        else:
            t.engine = after  # the usual move: no stock card, the hand goes on

    def _stock_card(self, card: int) -> None:
        t = self._t
        engine, action = t.engine, t.pending
        assert engine is not None and action is not None
        copies = t.left[card]
        if copies <= 0:
            raise ValueError(f"the stock holds no {format_card(card)}")
        stock = engine.stock
        k = t.resolved
        j = bisect_left(stock, card, k)  # below the decided cards the stock is in order
        t.engine = t.family.with_stock(engine, stock[:k] + (card,) + stock[k:j] + stock[j + 1:])
        t.left = t.left[:card] + (copies - 1,) + t.left[card + 1:]
        t.resolved, t.pending = k + 1, None
        self._memo = None
        self._try(action)

    def _deal_card(self, card: int) -> None:
        t = self._t
        rules = t.rules
        copies = t.left[card]
        if copies <= 0:
            raise ValueError(f"the pack holds no more {format_card(card)}")
        left = t.left = t.left[:card] + (copies - 1,) + t.left[card + 1:]
        dealt = t.dealt = (*t.dealt, card)
        self._memo = None
        if len(dealt) <= rules.num_players * rules.hand_size:  # the deal needs one more at least
            return
        rest = [c for c in range(NUM_CARD_TYPES) for _ in range(left[c])]
        state = t.family.new_hand(rules, deck=(*dealt, *rest), dealer=t.dealer, scores=t.scores,
                                  number=t.hand)
        stock = state.stock
        if Counter(rest) - Counter(stock):
            return  # a card chance has not dealt left the stock: the deal needs one more
        # the cards chance dealt that lie on the stock's top are decided; the others (a card
        # the deal put back at the bottom, say) are dealt again with the rest, in order
        decided = Counter(stock) - Counter(rest)
        top = 0
        while top < len(stock) and decided[stock[top]] > 0:
            decided[stock[top]] -= 1
            top += 1
        below = tuple(sorted(stock[top:]))
        if below != stock[top:]:
            state = t.family.with_stock(state, (*stock[:top], *below))
        t.dealt, t.resolved, t.left = (), top, _counts(below)
        self._commit(state, None, 0)

    def _commit(self, state: Any, action: Action | None, used: int) -> None:
        """The engine moved to ``state``: by ``action`` drawing ``used`` stock cards, or by the
        deal (no action)."""
        t = self._t
        at = len(t.log) // 2
        if action is None or used:
            t.seen = (*t.seen, _Seen(at, "stock" if action else "deal", state))
        t.resolved -= used
        t.engine = state
        if state.is_over:
            self._end_hand(state, at)

    def _end_hand(self, state: Any, at: int) -> None:
        t = self._t
        rules = t.rules
        totals = t.family.totals(state)
        t.seen = (*t.seen, _Seen(at, "result", line="result " + " ".join(map(str, totals))))
        t.returns = tuple(r + h for r, h in zip(t.returns, hand_returns(state)))
        t.scores = tuple(s + x for s, x in zip(t.scores, totals))
        if t.hand >= t.hands or t.family.winner(rules, t.scores, state) is not None:
            t.over = True
            return
        t.hand += 1
        t.dealer = (t.dealer + 1) % rules.num_players
        t.engine, t.resolved, t.hand_start, t.left = None, 0, at, t.pack

    # -- information ---------------------------------------------------------------------------
    def information_text(self, player: int) -> str:
        """The exact information of ``player``: every id played and what it saw of chance."""
        memo = self._memo_now()
        found = memo.texts.get(player)
        if found is None:
            t = self._t
            log = t.log
            alphabet = t.research.alphabet
            ids, hidden = _id_texts(alphabet), _hidden_texts(alphabet)
            lines = [f"p{player} of {t.rules.name}"]
            events = [*t.seen, _Seen(len(log) // 2, "now")]
            pos = 0
            for j, entry in enumerate(events):
                for k in range(pos, entry.at):
                    seat, i = log[2 * k], log[2 * k + 1]
                    lines.append(ids[seat][i] if seat == player else hidden[seat][i])
                pos = entry.at
                if entry.kind == "now":
                    break
                if any(j < upto and player != seat for seat, upto in t.views):
                    lines.append("?")  # a resampled state: another seat's history
                    continue
                text = entry.text(player, t.research)
                if text:
                    lines.append(text)
            found = memo.texts[player] = "\n".join(lines)
        return found


class CanastaObserver:
    """OpenSpiel's observer protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``.

    Without perfect recall: the family's tensor and the seat's observation as JSON.
    With perfect recall (information states): that tensor plus each seat's discards this hand
    (``discarded``, seats counted from the observer), and the exact history as text.
    """

    def __init__(self, rules: Research | RulesLike, iig_obs_type: Any,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise ValueError("only the seat's own view (public and its private information) "
                             "is supported")
        research = self.research = research_of(rules)
        self.family = research.family
        rules = self.rules = research.rules
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        pieces = list(research.tensor_layout())
        if self.perfect_recall:
            pieces.append(("discarded", (rules.num_players, NUM_CARD_TYPES)))
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        pos = 0
        for name, shape in pieces:
            length = int(np.prod(shape))
            self.dict[name] = self.tensor[pos:pos + length].reshape(shape)
            pos += length
        self._base = size - (rules.num_players * NUM_CARD_TYPES if self.perfect_recall else 0)
        self._last: tuple[Any, int, list[float]] = (None, -1, [])
        """The engine position, seat and tensor (no spelling) of the last call."""

    def set_from(self, state: CanastaState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s view of ``state``."""
        t = state._t
        engine = t.engine
        research = self.research
        if engine is None:
            values = research.dealing_tensor()
        elif self._last[0] is engine and self._last[1] == player:
            values = research.respell(self._last[2], t.prefix)  # the same seat, spelling
        else:
            plain = research.tensor(engine, player)
            self._last = (engine, player, plain)
            values = research.respell(plain, t.prefix) if t.prefix else plain
        self.tensor[:self._base] = values
        if self.perfect_recall:
            n = self.rules.num_players
            block = self.dict["discarded"]
            block.fill(0.0)
            log = t.log
            for k in range(2 * t.hand_start, len(log), 2):  # (seat, id) pairs of this hand
                i = log[k + 1]
                if DISCARD <= i < GROUP:
                    block[(log[k] - player) % n, i - DISCARD] += 1.0

    def string_from(self, state: CanastaState, player: int) -> str:
        """``player``'s view as text: the history (perfect recall) or the position's view."""
        if self.perfect_recall:
            return state.information_text(player)
        t = state._t
        if t.engine is None:
            return f"p{player}: hand {t.hand}, dealing"
        view = self.family.observe(t.engine, player).to_json()
        view["spelling"] = [self.research.alphabet.id_text(i) for i in t.prefix]
        return json.dumps(view, sort_keys=True)


def state_at(game: CanastaGame, position: Any) -> CanastaState:
    """A state of ``game`` at an engine position (the family's own), with no history before
    it: a search root.

    The position's stock order is not kept (chance decides it as cards are drawn), and its
    rules must be the game's.
    """
    family = game.family
    if position.rules != game.rules:
        raise ValueError(f"the position is not played under the game's rules "
                         f"({game.rules.name})")
    if position.is_over:
        raise ValueError("the hand is over: there is nothing to search")
    state: CanastaState = game.new_initial_state()
    t = state._t
    t.engine = family.with_stock(position, tuple(sorted(position.stock)))
    t.left = _counts(position.stock)
    t.dealer, t.scores = position.dealer, position.scores
    return state


def load(rules: Research | RulesLike = "classic", hands: int = 1,
         returns: str = "points") -> CanastaGame:
    """``pyspiel.load_game("python_canasta", {...})`` for a preset name, a rule set or rules as
    JSON of any family (house rules included), or a research interface."""
    params = (params_of(rules) if not isinstance(rules, str)
              else {"preset": rules, "rules": ""})
    game: CanastaGame = pyspiel.load_game(SHORT_NAME, {**params, "hands": hands,
                                                       "returns": returns})
    return game


pyspiel.register_game(_GAME_TYPE, CanastaGame)

def with_stock(position: Any, stock: tuple[Card, ...]) -> Any:
    """``position`` (of any family) with its stock in another order."""
    return research_of(position.rules).family.with_stock(position, stock)


__all__ = ["IDS_PER_CARD", "RETURNS", "CanastaGame", "CanastaObserver", "CanastaState", "load",
           "max_steps_per_hand", "state_at", "with_stock"]
