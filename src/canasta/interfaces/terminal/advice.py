"""Words for the table: a short list of sensible legal actions, and one line per move.

The full legal list can be long (every wild-card choice of every meld); :func:`suggestions` keeps
what a player would consider: drawing and the simplest ways to take the pile, the best way to meld
each rank, the openings that use fewest wild cards, every discard, asking and answering.
:func:`describe` says what a move did in a short line ("West melds Kh Kd Ks"), showing drawn cards
only to the player who drew them.

Standard library only.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from canasta.actions import Action, parse_action
from canasta.bots.names import BOT_PREFIX, seat_names, with_level
from canasta.cards import (
    BLACK_THREE_RANK,
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_WILD,
    JOKER,
    RANK_OF,
    Card,
    format_card,
    format_cards,
    rank_name,
)
from canasta.deal import new_hand
from canasta.engine import apply
from canasta.game import GameRecord, game_over, replay
from canasta.observation import Observation
from canasta.rules import Rules
from canasta.state import State
from canasta.variant import variant_of

MAX_TAKES = 4
MAX_OPENINGS = 5

SECTIONS = ("Answer", "Draw", "Take", "Open", "Meld", "Discard", "Other")
"""The headings of the suggestion list, in order."""


@dataclass(frozen=True)
class Suggestion:
    """One numbered choice: the action and its heading in the list."""

    section: str
    action: Action


def _wilds(action: Action) -> list[Card]:
    return [c for g in action.groups for c in g.cards if IS_WILD[c]]


def _shape_key(action: Action, value_of: Sequence[int]) -> tuple[int, int, int, int]:
    """Fewest wild cards, then the cheaper wild cards, then fewest groups and cards."""
    wilds = _wilds(action)
    cards = sum(len(g.cards) for g in action.groups)
    return len(wilds), sum(value_of[c] for c in wilds), len(action.groups), cards


Shape = tuple[tuple[int, int, int, int], ...]


def _shape(action: Action) -> Shape:
    """What matters of a meld or take: per group its rank and its numbers of natural cards, 2s
    and jokers (suits never matter in a meld)."""
    return tuple((g.rank, sum(1 for c in g.cards if not IS_WILD[c]),
                  sum(1 for c in g.cards if IS_WILD[c] and c != JOKER),
                  sum(1 for c in g.cards if c == JOKER)) for g in action.groups)


def _distinct_shapes(actions: Sequence[Action], limit: int) -> list[Action]:
    """The first action of each shape, at most ``limit``."""
    seen: set[Shape] = set()
    out: list[Action] = []
    for a in actions:
        shape = _shape(a)
        if shape in seen:
            continue
        seen.add(shape)
        out.append(a)
        if len(out) == limit:
            break
    return out


def owner_of(obs: Observation, seat: int) -> int:
    """The index into ``obs.melds`` of the melds ``seat`` plays on (``Observation.owner_of``)."""
    return obs.owner_of(seat)


def suggestions(obs: Observation, legal: Sequence[Action]) -> list[Suggestion]:
    """A short list of sensible legal actions for the seat of ``obs`` (which is to move)."""
    value = obs.rules.value_of
    out: list[Suggestion] = []
    takes = [a for a in legal if a.verb == "take"]
    melds = [a for a in legal if a.verb == "meld"]
    for a in legal:
        if a.verb in ("yes", "no"):
            out.append(Suggestion("Answer", a))
        elif a.verb == "draw":
            out.append(Suggestion("Draw", a))
    takes.sort(key=lambda a: _shape_key(a, value))
    out.extend(Suggestion("Take", a) for a in _distinct_shapes(takes, MAX_TAKES))
    own = obs.melds[owner_of(obs, obs.seat)]
    if not any(m is not None for m in own):
        melds.sort(key=lambda a: _shape_key(a, value))
        out.extend(Suggestion("Open", a) for a in _distinct_shapes(melds, MAX_OPENINGS))
    else:
        out.extend(Suggestion("Meld", a) for a in _best_melds(obs, melds))
    out.extend(Suggestion("Discard", a) for a in legal if a.verb == "discard")
    out.extend(Suggestion("Other", a) for a in legal if a.verb in ("ask", "pass"))
    return out


def _best_melds(obs: Observation, melds: Sequence[Action]) -> list[Action]:
    """At most one meld per rank: the most natural cards with the fewest (cheapest) wild cards;
    wild cards alone only when they complete a canasta."""
    rules = obs.rules
    own = obs.melds[owner_of(obs, obs.seat)]
    by_rank: dict[int, list[Action]] = {}
    for a in melds:
        if len(a.groups) == 1:
            by_rank.setdefault(a.groups[0].rank, []).append(a)
    chosen: list[Action] = []
    for rank in sorted(by_rank, key=lambda r: (r == BLACK_THREE_RANK, -r)):
        options = by_rank[rank]

        def key(a: Action) -> tuple[int, int, int]:
            cards = a.groups[0].cards
            wilds = [c for c in cards if IS_WILD[c]]
            return -(len(cards) - len(wilds)), len(wilds), sum(rules.value_of[c] for c in wilds)

        best = min(options, key=key)
        if all(IS_WILD[c] for c in best.groups[0].cards):
            existing = own[rank] or ()
            if not new_canasta(rules, existing, (*existing, *best.groups[0].cards)):
                continue
        chosen.append(best)
    return chosen


# -- words for cards --------------------------------------------------------------------------

SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
JOKER_WORD = "Joker"
_CARD_CODE = re.compile(r"(?<!\w)(JK|10[cdhs]|[2-9TJQKA][cdhs])(?!\w)")


def card_label(code: str) -> str:
    """A card as a player reads it: ``Kh`` → ``K♥``, ``Td`` → ``10♦``, ``JK`` → ``Joker``."""
    if code.upper() == "JK":
        return JOKER_WORD
    rank = "10" if code[:-1] in ("T", "10") else code[:-1]
    return rank + SUIT_SYMBOLS[code[-1]]


def pretty_cards(text: str) -> str:
    """A sentence with every card code written with its suit symbol (table talk, refusals,
    hints): ``discard 9s`` → ``discard 9♠``. An ``As`` that starts a sentence is the word."""
    def swap(m: re.Match[str]) -> str:
        code = m.group(1)
        start = m.start()
        if code == "As" and (start == 0 or text[max(0, start - 2):start] in (". ", ": ")):
            return code
        return card_label(code)

    return _CARD_CODE.sub(swap, text)


# -- describing moves ------------------------------------------------------------------------

def _verb(name: str, you: str, other: str) -> str:
    return f"{name} {you if name == 'You' else other}"


def _diff(after: Sequence[Card], before: Sequence[Card]) -> list[Card]:
    return sorted((Counter(after) - Counter(before)).elements())


def canasta_kind(rules: Rules, meld: Sequence[Card] | None) -> str | None:
    """``natural`` or ``mixed`` for a canasta, ``None`` for a shorter meld (the variant's
    answer)."""
    return variant_of(rules).canasta_kind(meld)


def new_canasta(rules: Rules, was: Sequence[Card] | None, now: Sequence[Card] | None) -> str | None:
    """The kind of the canasta a meld became, or ``None`` when it did not just become one."""
    return None if canasta_kind(rules, was) else canasta_kind(rules, now)


def _group_words(before: State, after: State, seat: int, action: Action, skip_first: bool
                 ) -> list[str]:
    """What each group of a meld or take did: started a meld, added to one, made a canasta."""
    rules = before.rules
    old = before.melds[before.owner_of(seat)]
    new = after.melds[after.owner_of(seat)]
    parts = []
    for i, group in enumerate(action.groups):
        if skip_first and i == 0:
            continue
        rank = group.rank
        text = " ".join(format_card(c) for c in group.cards)
        if rank == BLACK_THREE_RANK:
            parts.append(f"melds black threes {text}")
            continue
        was, now = old[rank], new[rank]
        words = (f"melds {text}" if was is None
                 else f"adds {text} to the {rank_name(rank)}")
        kind = new_canasta(rules, was, now)
        if kind:
            words += f" (a {kind} canasta of {rank_name(rank)}!)"
        parts.append(words)
    return parts


def describe(before: State, action: Action, after: State, names: Sequence[str],
             viewer: int | None = 0) -> list[str]:
    """Short lines saying what ``action`` did, as ``viewer`` may know it (``None``: as someone
    who sees every card, for replays)."""
    seat = before.to_move
    name = names[seat]
    side = seat % before.rules.num_sides
    lines: list[str] = []
    reds = _diff(after.red_threes[side], before.red_threes[side])
    red_text = ""
    if reds:
        red_text = (" and lays " + ("a red three " if len(reds) == 1 else "red threes ")
                    + format_cards(reds))
        if name == "You":
            red_text = red_text.replace("lays", "lay")
    verb = action.verb
    if verb == "draw":
        if viewer is None or seat == viewer:
            got = _diff(after.hands[seat], before.hands[seat])
            drawn = f" {format_cards(got)}" if got else ""
            lines.append(_verb(name, "draw", "draws") + drawn + red_text)
        else:
            lines.append(_verb(name, "draw", "draws") + red_text)
    elif verb == "take":
        top = before.pile[-1]
        first = action.groups[0].cards if action.groups else ()
        rank = RANK_OF[top]
        with_text = (f", melding {format_card(top)} with {' '.join(format_card(c) for c in first)}"
                     if first else f", adding {format_card(top)} to the {rank_name(rank)}")
        lines.append(_verb(name, "take", "takes") + f" the pile ({len(before.pile)} cards)"
                     + with_text + red_text)
        meld = after.melds[after.owner_of(seat)][rank]
        old = before.melds[before.owner_of(seat)][rank]
        kind = new_canasta(before.rules, old, meld)
        if kind:
            lines[-1] += f" (a {kind} canasta of {rank_name(rank)}!)"
        more = _group_words(before, after, seat, action, skip_first=True)
        if more:
            lines.append(f"{name} " + ", ".join(_you(w, name) for w in more))
    elif verb == "meld":
        words = _group_words(before, after, seat, action, skip_first=False)
        lines.append(f"{name} " + ", ".join(_you(w, name) for w in words))
    elif verb == "discard":
        text = _verb(name, "discard", "discards") + " " + format_card(action.card)
        if IS_WILD[action.card] and after.pile_frozen and not before.pile_frozen:
            text += " (the pile is frozen)"
        elif IS_BLACK_THREE[action.card]:
            text += " (a black three: the pile is blocked for the next player)"
        lines.append(text)
    elif verb == "ask":
        lines.append(_verb(name, "ask", "asks") + ' "Partner, may I go out?"')
    elif verb in ("yes", "no"):
        lines.append(_verb(name, "answer", "answers") + f" {verb}")
    elif verb == "pass":
        lines.append(_verb(name, "pass", "passes") + " (the stock is exhausted)")
    if after.is_over and after.result is not None:
        lines.append(ending(after, names))
    return lines


def _you(words: str, name: str) -> str:
    if name != "You":
        return words
    return words.replace("melds", "meld", 1).replace("adds", "add", 1)


def ending(state: State, names: Sequence[str]) -> str:
    """How the hand ended, in a line."""
    result = state.result
    assert result is not None
    if result.went_out is not None:
        who = names[result.went_out]
        how = " concealed" if result.concealed else ""
        return f"{_verb(who, 'go', 'goes')} out{how}! The hand is over."
    if result.void:
        return "The stock cannot supply the draw: the hand is void."
    return "The stock is exhausted: the hand is over."


def hand_text(cards: Sequence[Card]) -> str:
    """A hand as text grouped by rank from aces down, then black threes, then wild cards."""
    naturals = [c for c in cards if IS_NATURAL[c]]
    groups: dict[int, list[Card]] = {}
    for c in sorted(naturals, key=lambda c: (-RANK_OF[c], c)):
        groups.setdefault(RANK_OF[c], []).append(c)
    parts = [" ".join(format_card(c) for c in g) for g in groups.values()]
    threes = [c for c in cards if IS_BLACK_THREE[c]]
    if threes:
        parts.append(" ".join(format_card(c) for c in sorted(threes)))
    wilds = sorted(c for c in cards if IS_WILD[c])
    if wilds:
        parts.append(" ".join(format_card(c) for c in wilds))
    return " | ".join(parts)


def record_names(record: GameRecord) -> list[str]:
    """What the players of a record are called at the table: the terminal's player (``human``)
    is ``You``, people keep their names, and bots get the friendly names the game gave them
    (seeded by its key, so ``canasta play`` and its replay agree)."""
    from canasta.interfaces.terminal.session import HUMAN_NAME, game_key

    key = game_key(record.rules, record.hands[0].deck) if record.hands else ""
    players = ["You" if p == HUMAN_NAME else p for p in record.players]
    return seat_names(players, key)


def replay_text(record: GameRecord, names: Sequence[str] | None = None) -> Iterator[str]:
    """A record told hand by hand in readable lines, every card face up (for ``canasta replay``):
    who plays (bots with their level), every move, each hand's scores with the running totals,
    and who won.

    Raises what :func:`canasta.game.replay` raises for a record that does not replay.
    """
    rules = record.rules
    if names is None:
        names = record_names(record)
        yield "Players: " + ", ".join(
            with_level(n, p[len(BOT_PREFIX):]) if p.startswith(BOT_PREFIX) else n
            for n, p in zip(names, record.players))
    scores: tuple[int, ...] = (0,) * rules.num_sides
    ended = False
    for hand in replay(record):
        yield f"Hand {hand.number}: {_verb(names[hand.record.dealer], 'deal', 'deals')}"
        state = new_hand(rules, deck=hand.record.deck, dealer=hand.record.dealer,
                         scores=_scores_before(hand.scores, hand.state))
        for s in range(rules.num_players):
            yield f"  {_verb(names[s], 'hold', 'holds')} {hand_text(state.hands[s])}"
        top = " ".join(format_card(c) for c in state.pile)
        yield f"  the pile starts with {top}"
        for line in hand.record.actions:
            action = parse_action(line)
            after = apply(state, action)
            for text in describe(state, action, after, names, viewer=None):
                yield "  " + text
            state = after
        result = hand.state.result
        scores = hand.scores
        ended = result is not None
        if result is not None:
            totals = ", ".join(f"{side_label(rules, names, i)} {side.total:+d}"
                               for i, side in enumerate(result.sides))
            yield f"  hand scores: {totals}; game: " + ", ".join(
                f"{side_label(rules, names, i)} {score}" for i, score in enumerate(scores))
    yield game_line(rules, names, scores, ended)


def game_line(rules: Rules, names: Sequence[str], scores: Sequence[int], ended: bool) -> str:
    """The last line of a replay: who won with how many points, or where the game stands."""
    standing = ", ".join(f"{side_label(rules, names, i)} {score}"
                         for i, score in enumerate(scores))
    winner = game_over(rules, scores) if ended else None
    if winner is None:
        return f"The game goes on (to {rules.target_score}): {standing}."
    who = side_label(rules, names, winner)
    verb = "win" if " & " in who or who == "You" else "wins"
    return f"Game over: {who} {verb} with {scores[winner]} points ({standing})."


def join_names(names: Sequence[str]) -> str:
    """``You``, ``You & Rosa``, ``You, Rosa & Hugo``."""
    if len(names) <= 2:
        return " & ".join(names)
    return ", ".join(names[:-1]) + " & " + names[-1]


def side_label(rules: Rules, names: Sequence[str], side: int) -> str:
    """The names of a side's seats joined: ``You & Rosa``."""
    return join_names([names[s] for s in range(rules.num_players) if s % rules.num_sides == side])


def _scores_before(after: Sequence[int], state: State) -> tuple[int, ...]:
    """The scores at the start of a hand: those after it, less the hand's totals."""
    if state.result is None:
        return tuple(after)
    return tuple(a - side.total for a, side in zip(after, state.result.sides))
