"""Every legal action as a short sequence of integer ids from one alphabet (docs/rl.md): the
classic family's 125 ids (:data:`CLASSIC`), which other families' alphabets extend.

A Canasta action can lay any choice of cards in several groups, so no flat numbering of actions
fits (a six-player legal list can hold tens of thousands). Instead an action is *spelled*, one
id at a time, from a fixed alphabet:

=========  =====================================================================
ids        meaning
=========  =====================================================================
0..52      ``add c``: card ``c`` (:mod:`canasta.cards`) joins the group being built
53..105    ``discard c``: discard card ``c - 53``
106..117   ``group r``: start a group of meld rank ``r - 106`` (0..10 = 4..A, 11 = black 3s)
118        ``draw``
119        ``take``: begin taking the pile (the groups, if any, follow)
120        ``pass``
121        ``ask``
122        ``yes``
123        ``no``
124        ``end``: the meld or take is complete
=========  =====================================================================

``draw``, ``pass``, ``ask``, ``yes``, ``no`` and each discard are one id. A ``meld`` is its
groups in canonical order (NOTATION §2), each a ``group r`` id followed by its cards in
ascending order, then ``end``; a ``take`` is ``take``, then its groups the same way (the group
melded with the top card first), then ``end``. Single ids never begin a longer sequence and
``end`` closes every longer one, so no sequence is the prefix of another: spelling is
one-to-one.

:class:`Choice` walks the spellings of a legal list: its :meth:`~Choice.ids` are exactly the
ids that continue at least one legal action, and :meth:`~Choice.after` follows one. The
finished spellings from a position are therefore the legal actions, each once, and nothing
else (``tests/rl/test_encoding.py`` checks it by enumeration on every preset).

>>> import canasta
>>> from canasta.rl.encoding import Choice, encode, decode, id_text
>>> action = canasta.parse_action("meld Kh Kd 2c, 7c 7d 7s")
>>> encode(action)
(115, 37, 38, 48, 109, 12, 13, 15, 124)
>>> [id_text(i) for i in encode(action)][:3]
['group K', 'add Kd', 'add Kh']
>>> decode(encode(action)) == action
True
>>> choice = Choice(canasta.legal_actions(canasta.new_hand(canasta.get_rules("classic"), seed=1)))
>>> choice.ids()[:1], choice.after(118).action
([118], Action(verb='draw', groups=(), card=-1))

A family whose actions need more ids subclasses :class:`Alphabet` in its research module
(:mod:`canasta.rl.research`): it keeps the ids 0..124 with their meanings and adds its own from
:data:`NUM_IDS` on, single ids and group ids alike (:func:`read_groups` reads a spelling with
its group ids), so that no spelling is the prefix of another and :class:`Choice` walks any
alphabet the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from canasta.actions import ASK, DISCARDS, DRAW, NO, PASS, YES, Action, Group, canonical
from canasta.cards import BLACK_THREE_RANK, NUM_CARD_TYPES, format_card, rank_char

ADD = 0
"""``ADD + c`` adds card ``c`` to the group being built."""
DISCARD = ADD + NUM_CARD_TYPES
"""``DISCARD + c`` discards card ``c``."""
GROUP = DISCARD + NUM_CARD_TYPES
"""``GROUP + r`` starts a group of meld rank ``r``."""
NUM_GROUP_RANKS = BLACK_THREE_RANK + 1
"""Meld ranks a group may name: the natural ranks and the black threes' going-out meld (12)."""
DRAW_ID = GROUP + NUM_GROUP_RANKS
TAKE_ID = DRAW_ID + 1
PASS_ID = DRAW_ID + 2
ASK_ID = DRAW_ID + 3
YES_ID = DRAW_ID + 4
NO_ID = DRAW_ID + 5
END = DRAW_ID + 6
NUM_IDS = END + 1
"""The size of the alphabet (125)."""

_SINGLE_IDS: dict[str, int] = {"draw": DRAW_ID, "pass": PASS_ID, "ask": ASK_ID,
                               "yes": YES_ID, "no": NO_ID}
_SINGLE_ACTIONS: dict[int, Action] = {DRAW_ID: DRAW, PASS_ID: PASS, ASK_ID: ASK,
                                      YES_ID: YES, NO_ID: NO}
_FIRST_OF_VERB = {**_SINGLE_IDS, "take": TAKE_ID}
_WORDS = {DRAW_ID: "draw", TAKE_ID: "take", PASS_ID: "pass", ASK_ID: "ask", YES_ID: "yes",
          NO_ID: "no", END: "end"}


def id_text(i: int) -> str:
    """A short readable name of one id: ``add Kh``, ``discard 7c``, ``group K``, ``end``.

    >>> id_text(53 + 52), id_text(106 + 11)
    ('discard JK', 'group 3')
    """
    if not 0 <= i < NUM_IDS:
        raise ValueError(f"{i} is not an action id (0..{NUM_IDS - 1})")
    if i < DISCARD:
        return "add " + format_card(i - ADD)
    if i < GROUP:
        return "discard " + format_card(i - DISCARD)
    if i < DRAW_ID:
        return "group " + rank_char(i - GROUP)
    return _WORDS[i]


def first_id(action: Action) -> int:
    """The first id of ``action``'s spelling (cheaper than :func:`encode`)."""
    verb = action.verb
    if verb == "discard":
        return DISCARD + action.card
    if verb == "meld":
        if not action.groups:
            raise ValueError("a meld needs at least one group")
        return _group_id(action.groups[0])
    if verb == "take":
        return TAKE_ID
    return _SINGLE_IDS[verb]


def _group_id(group: Group) -> int:
    if not 0 <= group.rank < NUM_GROUP_RANKS:
        raise ValueError(f"a group of no single meld rank cannot be spelled: {group.cards}")
    return GROUP + group.rank


def encode(action: Action) -> tuple[int, ...]:
    """The spelling of a canonical action (as listed by :func:`canasta.legal_actions`).

    Raises :class:`ValueError` for an action no legal list holds (a meld without groups, a
    group of no single rank).
    """
    verb = action.verb
    if verb == "discard":
        return (DISCARD + action.card,)
    single = _SINGLE_IDS.get(verb)
    if single is not None:
        return (single,)
    if verb == "meld" and not action.groups:
        raise ValueError("a meld needs at least one group")
    ids = [TAKE_ID] if verb == "take" else []
    for group in action.groups:
        ids.append(_group_id(group))
        ids.extend(group.cards)  # ADD is 0: an add id is the card itself
    ids.append(END)
    return tuple(ids)


def decode(ids: Sequence[int]) -> Action:
    """The action a complete spelling stands for; :class:`ValueError` if it is not one.

    Only canonical spellings (cards ascending in a group, as :func:`encode` writes them) are
    accepted, so ``decode`` is the exact inverse of ``encode``.
    """
    if not ids:
        raise ValueError("an empty spelling")
    head = ids[0]
    if len(ids) == 1:
        if DISCARD <= head < GROUP:
            return DISCARDS[head - DISCARD]
        if head in _SINGLE_ACTIONS:
            return _SINGLE_ACTIONS[head]
    verb, groups = read_groups(ids, _CLASSIC_KEYS, id_text)
    action = canonical(Action(verb, tuple(groups)))
    if verb == "meld" and not groups:
        raise ValueError("a meld needs at least one group")
    if encode(action) != tuple(ids):
        raise ValueError(f"{list(ids)} is not a canonical spelling")
    return action


_CLASSIC_KEYS: Final = {GROUP + rank: rank for rank in range(NUM_GROUP_RANKS)}
"""The meld rank each classic ``group`` id starts."""


def read_groups(ids: Sequence[int], keys: Mapping[int, int], name: Callable[[int], str]
                ) -> tuple[str, list[Group]]:
    """The verb and the groups of a longer spelling (``take`` or a meld, closed by ``end``),
    ``keys`` giving the meld key each group id starts; :class:`ValueError` for an id out of
    place. ``name`` names an id in the error."""
    if ids[-1] != END:
        raise ValueError(f"spelling {list(ids)} is not complete (it must close with end)")
    verb = "take" if ids[0] == TAKE_ID else "meld"
    groups: list[Group] = []
    rank = -1
    cards: list[int] = []
    for i in ids[1 if verb == "take" else 0:-1]:
        key = keys.get(i)
        if key is not None:
            if rank >= 0:
                groups.append(Group(rank, tuple(cards)))
            rank, cards = key, []
        elif ADD <= i < DISCARD and rank >= 0:
            cards.append(i - ADD)
        else:
            raise ValueError(f"id {i} ({name(i)}) cannot stand there in {list(ids)}")
    if rank >= 0:
        groups.append(Group(rank, tuple(cards)))
    return verb, groups


class Alphabet:
    """The action ids of one family of rules: their number (:attr:`size`), the spelling of an
    action (:meth:`encode`, :meth:`decode`) and each id's name. :data:`CLASSIC` is the module's
    own functions; a family with more ids subclasses it (see the module docstring)."""

    name: str = "classic"
    size: int = NUM_IDS
    """The number of ids: a policy's output size."""

    def encode(self, action: Action) -> tuple[int, ...]:
        """The spelling of a canonical action of the family's legal lists."""
        return encode(action)

    def decode(self, ids: Sequence[int]) -> Action:
        """The action a complete canonical spelling stands for; :class:`ValueError` else."""
        return decode(ids)

    def id_text(self, i: int) -> str:
        """A short readable name of one id."""
        return id_text(i)

    def first_id(self, action: Action) -> int:
        """The first id of ``action``'s spelling."""
        return first_id(action)

    def is_single(self, i: int) -> bool:
        """Whether id ``i`` spells a whole action alone."""
        return is_single(i)

    def is_private(self, i: int) -> bool:
        """Whether id ``i`` is seen only by the seat that plays it (the others see what it
        does on the table, not the id): no classic id is."""
        del i
        return False

    def __repr__(self) -> str:
        return f"<Alphabet {self.name} of {self.size}>"


CLASSIC: Final = Alphabet()
"""The classic family's 125 ids (the module's functions)."""

class Choice:
    """The legal actions still reachable after the ids chosen so far in one position.

    A value: :meth:`after` returns a new choice. Build one from the position's legal list;
    ``ids()`` are the ids that may come next; once an id completes an action, ``action`` holds
    it and ``ids()`` is empty.
    """

    __slots__ = ("prefix", "action", "_legal", "_firsts", "_spelled", "_ids", "_alphabet")

    prefix: tuple[int, ...]
    """The ids chosen so far."""
    action: Action | None
    """The completed action, else ``None``."""

    def __init__(self, legal: Sequence[Action], alphabet: Alphabet | None = None) -> None:
        self.prefix = ()
        self.action = None
        self._legal = legal  # spelled lazily: most turns need only the first ids
        self._firsts: list[int] | None = None
        self._spelled: list[tuple[tuple[int, ...], Action]] = []
        self._ids: list[int] | None = None
        self._alphabet = None if alphabet is CLASSIC else alphabet
        """``None`` for the classic ids (the module's functions, inlined below)."""

    @property
    def alphabet(self) -> Alphabet:
        """The ids this choice spells with."""
        return self._alphabet or CLASSIC

    def _first_ids(self) -> list[int]:
        """The first id of each legal action, in the list's order."""
        firsts = self._firsts
        if firsts is None and self._alphabet is not None:
            first = self._alphabet.first_id
            firsts = self._firsts = [first(a) for a in self._legal]
        if firsts is None:
            # first_id inlined over tuple fields (verb, groups, card): this runs for every
            # position, on lists of dozens of actions
            discard, group, other = DISCARD, GROUP, _FIRST_OF_VERB
            firsts = self._firsts = [
                discard + a[2] if a[0] == "discard" else
                group + a[1][0][0] if a[0] == "meld" else other[a[0]]
                for a in self._legal]
        return firsts

    def ids(self) -> list[int]:
        """The ids that continue at least one legal action, ascending."""
        found = self._ids
        if found is None:
            if self.action is not None:
                found = []
            elif not self.prefix:
                found = sorted(set(self._first_ids()))
            else:
                depth = len(self.prefix)
                found = sorted({ids[depth] for ids, _ in self._spelled})
            self._ids = found
        return found

    def actions(self) -> list[Action]:
        """The legal actions whose spelling begins with ``prefix`` (the completed one at the
        end)."""
        if self.action is not None:
            return [self.action]
        if not self.prefix:
            return list(self._legal)
        return [a for _, a in self._spelled]

    def single(self, i: int) -> Action | None:
        """The action id ``i`` completes at once (a draw, a discard, an answer...), if it is
        legal now and spells a whole action alone; else ``None`` (see :meth:`after`)."""
        if self.prefix or not (is_single(i) if self._alphabet is None
                               else self._alphabet.is_single(i)):
            return None
        firsts = self._first_ids()
        try:
            return self._legal[firsts.index(i)]
        except ValueError:
            return None

    def is_legal(self, i: int) -> bool:
        """Whether id ``i`` may come next."""
        return i in self.ids()

    def after(self, i: int) -> Choice:
        """The choice once id ``i`` is chosen; :class:`ValueError` if ``i`` may not come next."""
        if self.action is not None:
            raise ValueError("the action is already complete")
        depth = len(self.prefix)
        alphabet = self._alphabet
        new = Choice.__new__(Choice)
        new.prefix = (*self.prefix, i)
        new._legal = ()
        new._firsts = None
        new._ids = None
        new._alphabet = alphabet
        if depth == 0:
            firsts = self._first_ids()
            if is_single(i) if alphabet is None else alphabet.is_single(i):
                try:  # draw, ask, a discard...: one id is one action
                    new.action = self._legal[firsts.index(i)]
                except ValueError:
                    pass
                else:
                    new._spelled = []
                    return new
            spell = encode if alphabet is None else alphabet.encode
            spelled = [(spell(a), a) for a, f in zip(self._legal, firsts) if f == i]
        else:
            spelled = [e for e in self._spelled if e[0][depth] == i]
        if not spelled:
            names = alphabet or CLASSIC
            name = names.id_text(i) if 0 <= i < names.size else "not an id"
            raise ValueError(f"id {i} ({name}) is not legal here")
        ids, action = spelled[0]
        if len(ids) == depth + 1:  # no spelling is the prefix of another: this one is done
            new.action = action
            new._spelled = []
        else:
            new.action = None
            new._spelled = spelled
        return new

    def __repr__(self) -> str:
        spelled = " ".join(self.alphabet.id_text(i) for i in self.prefix)
        return f"<Choice [{spelled}] {self.action or ''}>"


def is_single(i: int) -> bool:
    """Whether the classic id ``i`` spells a whole action alone."""
    return DISCARD <= i < GROUP or (i >= DRAW_ID and i != TAKE_ID and i != END)
