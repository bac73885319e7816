"""Families of rules behind one protocol: what a family answers, and the registry.

A *family* is every rule set one engine plays: classic Canasta (the presets of RULES §6 and
their house rules), Modern American, ... Each family is a package that subclasses
:class:`Family` and registers one instance when it is imported (:func:`register_family`).
:data:`FAMILY_PACKAGES` is the one list of the packages shipped with canasta; an installed
package adds its own under the ``canasta.families`` entry-point group, and a program may call
:func:`register_family` itself.

Every client (the command line, the terminal, the arena, self-play, the research adapters, the
web table) asks :func:`family_of` for the family of a rule set, a position, a record's rules or
a preset name, and calls its methods. No client tests a family's name: what differs between
families reaches the clients as data (:meth:`Family.facts`, the family's bots and levels, its
ids and tensors).

A *position* is the family's own value for one moment of one hand (a classic
:class:`~canasta.state.State`, a Modern American :class:`~canasta.modern_american.hand.Hand`);
it is never changed, and it answers :class:`Position`. Its ``rules`` are an instance of the
family's :attr:`Family.rules_class`, a subclass of :class:`~canasta.rules.Rules` or that class
itself: the registry finds the family by that class.

>>> fam = family_of("modern-american")
>>> fam.name, family_of(fam.default_rules) is fam
('modern-american', True)
"""

from __future__ import annotations

import importlib
import json
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, ClassVar, Final, Protocol

from canasta.actions import Action
from canasta.actions import format_action as format_base_action
from canasta.actions import parse_action as parse_base_action
from canasta.cards import Card
from canasta.errors import IllegalActionError, NotationError, PositionError, RulesError
from canasta.rules import Rules

if TYPE_CHECKING:
    from canasta.game import GameRecord

FAMILY_PACKAGES: Final = ("canasta.classic", "canasta.modern_american", "canasta.hand_and_foot")
"""The families shipped with canasta, by package: importing one registers it. The order is the
order families are listed in (the first is the default)."""

ENTRY_POINT_GROUP: Final = "canasta.families"
"""The entry-point group where installed packages name further family packages."""


class Position(Protocol):
    """What every family's position answers (its other fields are the family's own)."""

    @property
    def rules(self) -> Rules:
        """The rule set the hand is played under."""
        ...

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        ...

    @property
    def to_move(self) -> int:
        """The seat to act."""
        ...

    @property
    def phase(self) -> str:
        """The family's name for the moment of the turn (``draw``, ``play``, ... ``over``)."""
        ...

    @property
    def scores(self) -> tuple[int, ...]:
        """Per side, the cumulative score when the hand began."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        ...


@dataclass(frozen=True)
class HouseRule:
    """A field of a family's rules that a table may change, described for a form.

    ``kind`` is ``"bool"``, ``"int"`` (``optional``: it may be ``null``, no limit),
    ``"choice"`` (one of ``choices``, read as ``choice_labels``), ``"thresholds"`` (minimums
    by score: ``[[null, min], [score, min], ...]``) or ``"sizes"`` (a list of integers);
    ``low`` and ``high`` bound an ``int``. ``label``, ``help`` and ``group`` (the heading a
    form shows it under) are the words a player reads."""

    field: str
    label: str
    kind: str
    help: str = ""
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    group: str = ""
    choice_labels: tuple[str, ...] = ()
    optional: bool = False

    def to_json(self) -> dict[str, Any]:
        """The description as JSON (the web lobby's form)."""
        out: dict[str, Any] = {"field": self.field, "label": self.label, "kind": self.kind,
                               "help": self.help}
        if self.group:
            out["group"] = self.group
        if self.optional:
            out["optional"] = True
        if self.choices:
            out["choices"] = list(self.choices)
            out["choice_labels"] = list(self.choice_labels or self.choices)
        if self.low is not None:
            out["low"] = self.low
        if self.high is not None:
            out["high"] = self.high
        return out


class Family:
    """One family of rules: its presets, its hands and their text, what a seat sees.

    A family subclasses this class, sets the class attributes and implements the methods that
    raise :class:`NotImplementedError`; the others have answers that fit most families.
    """

    name: ClassVar[str] = ""
    """The family's name (its default preset's name)."""
    title: ClassVar[str] = ""
    """The family's name in words ("Modern American Canasta")."""
    rules_class: ClassVar[type[Rules]] = Rules
    """The class of the family's rule sets: the registry finds a rule set's family by it."""
    bots_module: ClassVar[str] = ""
    """The module that defines the family's bots (``BOTS``: name -> factory) and levels
    (``LEVELS``: level -> bot spec, ``HINT_LEVEL``); :mod:`canasta.bots` loads it by name."""
    research_module: ClassVar[str] = ""
    """The module that spells the family's actions as ids and writes its observation tensors
    (``research(rules)`` -> a :class:`canasta.rl.research.Research`); the research adapters
    load it by name. Empty: the base interface, from what every family's observation and facts
    state (no search that resamples hidden cards)."""
    record_keys: ClassVar[frozenset[str]] = frozenset()
    """Keys a game record of this family may hold beyond ``rules``, ``players`` and
    ``hands`` (read and ignored)."""

    # -- rules ----------------------------------------------------------------------------------
    def presets(self) -> Mapping[str, Rules]:
        """The family's named rule sets, the default first."""
        raise NotImplementedError

    def aliases(self) -> Mapping[str, str]:
        """Other names of presets (lower case) -> the preset's name."""
        return {}

    def rules_from_json(self, value: Any) -> Rules:
        """A rule set of this family from a preset name or ``{"preset": NAME, FIELD: VALUE}``;
        :class:`~canasta.errors.RulesError` names a bad field."""
        raise NotImplementedError

    def house_rules(self) -> tuple[HouseRule, ...]:
        """The fields a table may change from a preset, described for a form."""
        return ()

    @property
    def default_rules(self) -> Rules:
        """The family's default preset."""
        return next(iter(self.presets().values()))

    # -- a hand ---------------------------------------------------------------------------------
    def shuffled_pack(self, rules: Rules, seed: int | None) -> list[Card]:
        """The pack of ``rules`` in the order a seeded shuffle gives, first card on top."""
        raise NotImplementedError

    def new_hand(self, rules: Rules, seed: int | None = None, *,
                 deck: Sequence[Card] | None = None, dealer: int | None = None,
                 scores: Sequence[int] | None = None, number: int = 1) -> Any:
        """Deal hand ``number`` (from 1) of a game: from ``deck`` (top first) when given, else
        from a shuffle seeded by ``seed``; ``dealer`` defaults to the rules' first dealer and
        ``scores`` (the sides' cumulative scores) to zeros. The position is ready for the
        first action."""
        raise NotImplementedError

    def legal_actions(self, position: Any) -> list[Action]:
        """Every legal action of the player to move, each once, in canonical order."""
        raise NotImplementedError

    def apply(self, position: Any, action: Action) -> Any:
        """The position after ``action``; :class:`~canasta.errors.IllegalActionError` naming
        the rule when it is refused (``position`` is a value: nothing changes)."""
        raise NotImplementedError

    def problem(self, position: Any, action: Action) -> str | None:
        """Why ``action`` is refused in ``position``, in a player's words, or ``None``."""
        try:
            self.apply(position, action)
        except IllegalActionError as e:
            return e.reason
        return None

    def observe(self, position: Any, seat: int) -> Any:
        """What ``seat`` may know of ``position``: a value with ``rules``, ``seat``,
        ``to_move``, ``phase``, ``hand`` (its own cards) and ``to_json()``; never another seat's
        hidden cards. Bots choose from this alone."""
        raise NotImplementedError

    def totals(self, position: Any) -> tuple[int, ...]:
        """Per side, the points of the hand that ended in ``position``."""
        raise NotImplementedError

    def winner(self, rules: Rules, scores: Sequence[int], position: Any) -> int | None:
        """The side that has won the game with cumulative ``scores`` after the hand that ended
        in ``position``, or ``None`` to deal another hand."""
        raise NotImplementedError

    def with_stock(self, position: Any, stock: tuple[Card, ...]) -> Any:
        """``position`` with its stock in another order (for tests and searches)."""
        raise NotImplementedError

    # -- text -----------------------------------------------------------------------------------
    def parse_action(self, rules: Rules, text: str) -> Action:
        """An action from its text (NOTATION §2, with the family's additions);
        :class:`~canasta.errors.NotationError` if it cannot be read."""
        return parse_base_action(text)

    def format_action(self, rules: Rules, action: Action) -> str:
        """The canonical text of ``action``."""
        return format_base_action(action)

    def position_to_json(self, position: Any) -> dict[str, Any]:
        """The position as JSON (NOTATION §3, with the family's additions)."""
        raise NotImplementedError

    def position_from_json(self, data: Any) -> Any:
        """A position from its JSON, checked; :class:`~canasta.errors.PositionError`."""
        raise NotImplementedError

    def result_to_json(self, position: Any) -> dict[str, Any] | None:
        """How the hand of ``position`` ended and each side's score with its breakdown, or
        ``None`` while it goes on."""
        raise NotImplementedError

    def describe(self, position: Any) -> str:
        """The whole position as plain text (every hand shown), for debugging."""
        return str(position)

    # -- what a screen states -------------------------------------------------------------------
    def facts(self, observation: Any) -> dict[str, Any]:
        """What a screen states about the table a seat sees, as JSON-ready data that every
        client reads the same way:

        - ``family``, ``title``, ``num_players``, ``num_sides``, ``partners`` (the seats of
          each side), ``canasta_size``, ``canastas_to_go_out``;
        - ``canasta_name``: the family's word for a completed meld, in the singular and the
          plural (``["canasta", "canastas"]``; ``["book", "books"]`` where a family calls it
          so), the word a screen uses for a count of them ("2 books to go out"); a client
          reads a family that states none as ``["canasta", "canastas"]``;
        - ``opening_minimum`` per side (the count a side's first meld needs);
        - ``meld_keys``: the keys melds are kept under, in the order a table shows them (rank
          characters, and the family's own keys such as ``W``);
        - ``pile``: ``{"size", "top", "frozen", "why"}`` as the seat sees it, with
          ``blocked`` (why nobody may take it whatever they hold, or ``None``), ``frozen_by``
          (the card that froze it for everyone, or ``None``) and ``note`` (its state in a few
          words for a screen, or ``None``);
        - ``stock``: cards left;
        - ``seat_notes``: per seat, a few words a screen shows beside the seat's cards in hand
          (a foot still waiting, ``foot 11``; ``in the foot``), ``""`` where it says nothing;
        - ``game_end``: how a game of the rules ends, ``{"target", "deals"}``: the score that
          wins it (``None`` if none does) and the number of hands it lasts (``None``: as many
          as it takes);
        - ``melds_of``: per seat, the index into ``melds``, ``canastas`` and ``table_points``
          of the melds it plays on; ``melds``: per index, the melds in table order, each
          ``{"key", "cards", "canasta" (its kind: "natural", "mixed", ... or None), "hidden"}``;
          ``meld_names``: key -> the meld's cards in words ("kings");
        - ``table_points``: per index, what the melds count so far: ``total``, ``melds``,
          ``canastas`` (their bonuses), ``laid`` (the laid cards' part) and the family's own
          parts;
        - ``laid``: per side, the cards laid beside the melds (red threes, ...) and
          ``laid_name``, their name in the singular and the plural;
        - once the hand is over, ``ending`` (``{"seat", "words"}``: the seat whose play ended
          it and what it did, in the third person after its name, or ``seat`` ``None`` and a
          sentence) and ``score`` (per side, the parts of the hand's score as they count, in
          the order a score sheet lists them, and ``total``);
        - ``preset_title``: the name of the rules' game in words ("Classic", "Cutthroat");
          ``house_rules``: field -> value (JSON) of each field of :meth:`house_rules` under the
          observation's rules;
        - ``notes``: what else a screen says of the table, as short sentences (a talon due, a
          rank that takes no more melds, ...);
        - and the family's own entries, each documented by the family.
        """
        raise NotImplementedError

    def action_words(self, rules: Rules, action: Action, *, seen: bool) -> str | None:
        """A player's words for an action of a verb of the family's own (beyond NOTATION §2's
        ``draw``, ``take``, ``meld``, ``discard``, ``ask``, ``yes``, ``no`` and ``pass``, which
        a client tells from the table's facts), in the third person after the player's name
        (``keeps 3s in hand``), as a seat reads it that sees the action's cards (``seen``) or
        one that may not; ``""`` when that seat reads nothing of it but what the table shows.
        ``None`` where the family has no such words: a client then shows the action's text to
        those who may see it."""
        del rules, action, seen
        return None

    def as_played(self, record: GameRecord) -> GameRecord | None:
        """The record under the rules an older save was played under, when it replays only
        under them (``None``: no older form)."""
        del record
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


# -- the registry -------------------------------------------------------------------------------

_FAMILIES: dict[str, Family] = {}
_BY_RULES_CLASS: dict[type, Family] = {}
_PRESETS: dict[str, tuple[Family, Rules]] = {}
_LOADED: list[bool] = [False]


def register_family(family: Family) -> Family:
    """Make ``family`` known by its name, its rules class and its presets (a preset name may
    belong to one family only); returns it."""
    if not family.name:
        raise ValueError("a family needs a name")
    rules_class = family.rules_class
    if rules_class is not Rules and rules_class.to_json is Rules.to_json:
        # the classic writer names a classic preset: the records would replay as classic
        raise ValueError(f"{rules_class.__name__} must write its rules as JSON (to_json) "
                         f"naming a preset of {family.name!r}")
    old = _FAMILIES.get(family.name)
    if old is not None:
        unregister_family(family.name)
    for name in family.presets():
        owner = _PRESETS.get(name.lower())
        if owner is not None and owner[0].name != family.name:
            raise ValueError(f"the preset {name!r} belongs to the family {owner[0].name!r}")
    _FAMILIES[family.name] = family
    _BY_RULES_CLASS[family.rules_class] = family
    for name, rules in family.presets().items():
        _PRESETS[name.lower()] = (family, rules)
    return family


def unregister_family(name: str) -> None:
    """Forget the family called ``name`` (a test's toy family)."""
    family = _FAMILIES.pop(name, None)
    if family is None:
        return
    if _BY_RULES_CLASS.get(family.rules_class) is family:
        del _BY_RULES_CLASS[family.rules_class]
    for key in [k for k, (f, _) in _PRESETS.items() if f is family]:
        del _PRESETS[key]


def _load() -> None:
    """Import the families shipped with canasta and those installed packages name, once."""
    if _LOADED[0]:
        return
    _LOADED[0] = True
    for package in FAMILY_PACKAGES:
        importlib.import_module(package)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            importlib.import_module(ep.value.split(":")[0])
        except ImportError:  # a broken plug-in must not stop the families that work
            continue


def _shipped_order(family: Family) -> int:
    """Where ``family``'s package stands in :data:`FAMILY_PACKAGES` (others after them)."""
    module = type(family).__module__
    for i, package in enumerate(FAMILY_PACKAGES):
        if module == package or module.startswith(package + "."):
            return i
    return len(FAMILY_PACKAGES)


def families() -> list[Family]:
    """Every registered family, the shipped ones first in :data:`FAMILY_PACKAGES` order (the
    first is the default family), then the others as they were registered."""
    _load()
    return sorted(_FAMILIES.values(), key=_shipped_order)


def family_named(name: str) -> Family:
    """The family called ``name``; :class:`~canasta.errors.RulesError` if none is."""
    _load()
    try:
        return _FAMILIES[name]
    except KeyError:
        raise RulesError(f"unknown family {name!r} (known: {', '.join(_FAMILIES)})") from None


def preset_names() -> list[str]:
    """Every preset of every family, family by family."""
    return [name for family in families() for name in family.presets()]


def all_presets() -> dict[str, Rules]:
    """Every preset of every family by name."""
    return {name: rules for family in families() for name, rules in family.presets().items()}


def get_rules(name: str) -> Rules:
    """The preset called ``name`` in any family (case-insensitive); :class:`RulesError` if
    unknown."""
    if not isinstance(name, str):
        raise RulesError(f"a preset is named by text, not {name!r}")
    _load()
    return _preset(name)[1]


def _preset(name: str) -> tuple[Family, Rules]:
    """The family and the rules of the preset called ``name`` or one of its aliases."""
    key = name.strip().lower()
    for family in _FAMILIES.values():
        key = family.aliases().get(key, key)
    found = _PRESETS.get(key)
    if found is None:
        raise RulesError(f"unknown preset {name!r} (known: {', '.join(preset_names())})")
    return found


def _preset_of(value: Any) -> str | None:
    """The preset a rules JSON value names, or ``None``."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("preset"), str):
        return str(value["preset"])
    return None


def family_of(thing: Any) -> Family:
    """The family of ``thing``: a :class:`Family`, a rule set, a position or an observation
    (anything with ``rules``), a preset name, a family name, or rules as JSON (a preset name
    or ``{"preset": NAME, ...}``). :class:`~canasta.errors.RulesError` if there is none."""
    if isinstance(thing, Family):
        return thing
    _load()
    if isinstance(thing, Rules):
        return _family_of_rules(thing)
    rules = getattr(thing, "rules", None)
    if isinstance(rules, Rules):
        return _family_of_rules(rules)
    name = _preset_of(thing)
    if name is None:
        raise RulesError(f"no family of rules is known for {thing!r}")
    family = _FAMILIES.get(name.strip().lower())
    return family if family is not None else _preset(name)[0]


def _family_of_rules(rules: Rules) -> Family:
    family = _BY_RULES_CLASS.get(type(rules))
    if family is None:
        # a subclass of a family's rules that only adds behaviour is that family's, but one
        # that writes itself otherwise belongs to a family that is not registered
        for cls in type(rules).__mro__[1:]:
            family = _BY_RULES_CLASS.get(cls)
            if family is not None:
                if type(rules).to_json is not family.rules_class.to_json:
                    family = None
                break
    if family is None:
        raise RulesError(f"no registered family of rules plays {type(rules).__name__}")
    return family


def rules_from_json(value: Any) -> Rules:
    """A rule set of any family from a preset name or ``{"preset": NAME, FIELD: VALUE, ...}``
    (NOTATION §3)."""
    if isinstance(value, Rules):
        return value
    if _preset_of(value) is None:
        if isinstance(value, Mapping):
            raise RulesError("a rules object needs a \"preset\" name")
        raise RulesError(f"rules must be a preset name or an object, not {value!r}")
    return family_of(value).rules_from_json(value)


# -- one position, whatever its family -----------------------------------------------------------

def new_hand(rules: Rules, seed: int | None = None, *, deck: Sequence[Card] | None = None,
             dealer: int | None = None, scores: Sequence[int] | None = None,
             number: int = 1) -> Any:
    """Deal a hand of ``rules`` (see :meth:`Family.new_hand`)."""
    return family_of(rules).new_hand(rules, seed, deck=deck, dealer=dealer, scores=scores,
                                     number=number)


def legal_actions(position: Any) -> list[Action]:
    """Every legal action of the player to move, canonical, each once."""
    return family_of(position.rules).legal_actions(position)


def parse_action(text: str, rules: Rules | None = None) -> Action:
    """An action from its text: NOTATION §2, or a family's text when ``rules`` are given."""
    if rules is None:
        return parse_base_action(text)
    return family_of(rules).parse_action(rules, text)


def format_action(action: Action, rules: Rules | None = None) -> str:
    """The canonical text of ``action`` (a family's own text when ``rules`` are given)."""
    if rules is None:
        return format_base_action(action)
    return family_of(rules).format_action(rules, action)


def _action(family: Family, position: Any, action: Action | str) -> Action:
    if isinstance(action, str):
        return family.parse_action(position.rules, action)
    return action


def apply(position: Any, action: Action | str) -> Any:
    """The position after ``action`` (an :class:`~canasta.actions.Action` or its text).

    Raises :class:`~canasta.errors.IllegalActionError` if the rules forbid it (the position is
    unchanged) and :class:`~canasta.errors.NotationError` if the text cannot be read.
    """
    family = family_of(position.rules)
    return family.apply(position, _action(family, position, action))


def check(position: Any, action: Action | str) -> None:
    """Raise :class:`~canasta.errors.IllegalActionError` if ``action`` is not legal."""
    apply(position, action)


def is_legal(position: Any, action: Action | str) -> bool:
    """True when ``action`` may be played in ``position``."""
    family = family_of(position.rules)
    try:
        return family.problem(position, _action(family, position, action)) is None
    except NotationError:
        return False


def observe(position: Any, seat: int) -> Any:
    """What ``seat`` may know of ``position`` (its family's observation)."""
    num_players = position.rules.num_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_players:
        raise ValueError(f"seat {seat!r} is not at this table")
    return family_of(position.rules).observe(position, seat)


def state_to_json(position: Any) -> dict[str, Any]:
    """A position as JSON (NOTATION §3; a family's additions for other families)."""
    return family_of(position.rules).position_to_json(position)


def state_from_json(data: Any) -> Any:
    """A position from its JSON, of the family its ``rules`` name."""
    if not isinstance(data, Mapping):
        raise PositionError("a position must be a JSON object")
    if "rules" not in data:
        raise PositionError("the position lacks 'rules'")
    return family_of(data["rules"]).position_from_json(data)


def parse_position(text: str) -> Any:
    """A position from JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PositionError(f"bad JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    return state_from_json(data)


def format_position(position: Any) -> str:
    """A position as JSON text, one top-level key per line."""
    from canasta.position import dumps

    return dumps(state_to_json(position))


# -- records: one action line ---------------------------------------------------------------------

_SEAT_PREFIX: Final = re.compile(r"^\s*p(\d+)\s*:\s*(.*)$", re.IGNORECASE | re.DOTALL)


def parse_action_line(rules: Rules, line: str) -> tuple[int | None, Action]:
    """A record's action line: an optional seat prefix (``p2: discard 9s``) and the action."""
    if not isinstance(line, str):
        raise NotationError(f"an action line must be text, not {line!r}")
    m = _SEAT_PREFIX.match(line)
    if m is None:
        return None, family_of(rules).parse_action(rules, line)
    seat = int(m.group(1))
    if seat >= rules.num_players:
        raise NotationError(f"p{seat} is not a seat of this table (p0..p{rules.num_players - 1})")
    return seat, family_of(rules).parse_action(rules, m.group(2))


def apply_line(position: Any, line: str) -> Any:
    """Apply one action line; a seat prefix must name the player to move."""
    family = family_of(position.rules)
    seat, action = parse_action_line(position.rules, line)
    if seat is not None and seat != position.to_move:
        raise IllegalActionError(family.format_action(position.rules, action),
                                 f"p{seat} is not to move (p{position.to_move} is)")
    return family.apply(position, action)


def seeded_hands(family: Family, rules: Rules, seed: int | None) -> Iterator[list[Card]]:
    """The packs of a game's hands in order, each shuffled by the next 64-bit draw of a
    generator seeded with ``seed`` (how :class:`~canasta.game.Game` deals)."""
    rng = random.Random(seed)
    while True:
        yield family.shuffled_pack(rules, rng.getrandbits(64))

