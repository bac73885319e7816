"""Words for the table, for every family: a short list of sensible legal actions, one line per
move, and a whole game told move by move.

The full legal list can be long (every wild-card choice of every meld); :func:`suggestions` keeps
what a player would consider: drawing and the simplest ways to take the pile, the best way to meld
each key, the openings that use fewest wild cards, every discard, asking and answering, and the
family's own actions. :func:`describe` says what a move did in a short line ("West melds Kh Kd
Ks"), showing drawn cards only to the player who drew them.

Everything a family does differently is read from its facts (:meth:`~canasta.family.Family.facts`:
meld keys and their names, laid cards, the pile's state, how the hand ended) and from its words
for its own verbs (:meth:`~canasta.family.Family.action_words`); nothing here names a family.

Standard library only.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from canasta.actions import Action, Group
from canasta.bots.names import BOT_PREFIX, level_of, seat_names
from canasta.cards import (
    IS_NATURAL,
    IS_WILD,
    JOKER,
    RANK_OF,
    THREE,
    Card,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    rank_char,
)
from canasta.family import Family, family_of, parse_action_line
from canasta.game import GameRecord, replay
from canasta.rules import Rules

MAX_TAKES = 4
MAX_OPENINGS = 5

SECTIONS = ("Answer", "Keep", "Draw", "Take", "Open", "Meld", "Discard", "Other")
"""The headings of the suggestion list, in order (a verb of a family's own that has no heading
is listed under its own name, capitalised, before "Other")."""

COMMON_VERBS = frozenset({"draw", "take", "meld", "discard", "ask", "yes", "no", "pass"})
"""The verbs of NOTATION §2, which every family shares and this module tells itself."""


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
    """What matters of a meld or take: per group its key and its numbers of natural cards, 2s
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


def screen_facts(family: Family, obs: Any) -> dict[str, Any]:
    """The family's facts of ``obs`` (:meth:`~canasta.family.Family.facts`), with what a
    family that states only the first facts of the protocol leaves out filled in: no melds,
    no points, no cards laid, no words by a seat, a game to the rules' target score, the
    pile's reason as its note, an end in plain words, a completed meld called a canasta."""
    facts = dict(family.facts(obs))
    rules = obs.rules
    sides = range(rules.num_sides)
    facts.setdefault("melds_of", [rules.side_of(s) for s in range(rules.num_players)])
    facts.setdefault("melds", [[] for _ in sides])
    facts.setdefault("meld_names", {})
    facts.setdefault("table_points", [{"total": 0, "melds": 0, "canastas": 0, "laid": 0}
                                      for _ in sides])
    facts.setdefault("laid", [[] for _ in sides])
    facts.setdefault("laid_name", ["card", "cards"])
    facts.setdefault("canasta_name", ["canasta", "canastas"])
    facts.setdefault("seat_notes", [""] * rules.num_players)
    facts.setdefault("game_end", {"target": rules.target_score, "deals": None})
    pile = facts["pile"] = dict(facts["pile"])
    pile.setdefault("blocked", None)
    pile.setdefault("frozen_by", None)
    pile.setdefault("note", pile.get("why") if pile.get("frozen") else "not frozen")
    if obs.phase == "over":
        facts.setdefault("ending", {"seat": None, "words": "The hand is over"})
    return facts


def own_melds(facts: dict[str, Any], seat: int) -> dict[str, dict[str, Any]]:
    """The melds ``seat`` plays on, by key (the facts' entries)."""
    return {m["key"]: m for m in facts["melds"][facts["melds_of"][seat]]}


def group_key(family: Family, rules: Rules, group: Group) -> str:
    """The key of the meld a group joins, as the family writes it: the prefix of a group of
    wild cards (``7: 2c``, ``W: 2c JK``), else the rank of its natural cards."""
    text = family.format_action(rules, Action("meld", (group,)))
    head, colon, _ = text.removeprefix("meld ").partition(":")
    if colon:
        return head.strip()
    natural = next((c for c in group.cards if not IS_WILD[c]), None)
    return rank_char(group.rank if natural is None else RANK_OF[natural])


def suggestions(family: Family, obs: Any, legal: Sequence[Action]) -> list[Suggestion]:
    """A short list of sensible legal actions for the seat of ``obs`` (which is to move)."""
    value = obs.rules.value_of
    facts = screen_facts(family, obs)
    out: list[Suggestion] = []
    takes = [a for a in legal if a.verb == "take"]
    melds = [a for a in legal if a.verb == "meld"]
    for a in legal:
        if a.verb in ("yes", "no"):
            out.append(Suggestion("Answer", a))
        elif a.verb == "draw":
            out.append(Suggestion("Draw", a))
        elif a.verb not in COMMON_VERBS:
            out.append(Suggestion(a.verb.capitalize(), a))
    takes.sort(key=lambda a: _shape_key(a, value))
    out.extend(Suggestion("Take", a) for a in _distinct_shapes(takes, MAX_TAKES))
    own = own_melds(facts, obs.seat)
    if not own:
        melds.sort(key=lambda a: _shape_key(a, value))
        out.extend(Suggestion("Open", a) for a in _distinct_shapes(melds, MAX_OPENINGS))
    else:
        out.extend(Suggestion("Meld", a) for a in _best_melds(family, obs.rules, facts, own,
                                                              melds))
    out.extend(Suggestion("Discard", a) for a in legal if a.verb == "discard")
    out.extend(Suggestion("Other", a) for a in legal if a.verb in ("ask", "pass"))
    order = {section: i for i, section in enumerate(SECTIONS)}
    return sorted(out, key=lambda s: (order.get(s.section, order["Other"]),
                                      s.section == "Other"))


def _best_melds(family: Family, rules: Rules, facts: dict[str, Any],
                own: dict[str, dict[str, Any]], melds: Sequence[Action]) -> list[Action]:
    """At most one meld per key: the most natural cards with the fewest (cheapest) wild cards;
    wild cards alone onto a meld of natural cards only when they complete a canasta."""
    size = facts["canasta_size"]
    by_key: dict[str, list[Action]] = {}
    for a in melds:
        if len(a.groups) == 1:
            by_key.setdefault(group_key(family, rules, a.groups[0]), []).append(a)
    table_order = {key: i for i, key in enumerate(facts["meld_keys"])}
    chosen: list[Action] = []
    for key in sorted(by_key, key=lambda k: table_order.get(k, len(table_order))):
        options = by_key[key]

        def fewest_wilds(a: Action) -> tuple[int, int, int]:
            cards = a.groups[0].cards
            wilds = [c for c in cards if IS_WILD[c]]
            return -(len(cards) - len(wilds)), len(wilds), sum(rules.value_of[c] for c in wilds)

        best = min(options, key=fewest_wilds)
        existing = own.get(key, {}).get("cards", [])
        natural_meld = any(IS_NATURAL[c] for c in parse_cards(existing))
        if natural_meld and all(IS_WILD[c] for c in best.groups[0].cards):
            if not len(existing) < size <= len(existing) + len(best.groups[0].cards):
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


def hand_groups(cards: Sequence[Card]) -> list[list[Card]]:
    """A hand grouped by rank from aces down, then threes, then wild cards."""
    groups: dict[int, list[Card]] = {}
    for c in sorted((c for c in cards if IS_NATURAL[c]), key=lambda c: (-RANK_OF[c], c)):
        groups.setdefault(RANK_OF[c], []).append(c)
    out = list(groups.values())
    threes = sorted(c for c in cards if RANK_OF[c] == THREE)
    if threes:
        out.append(threes)
    wilds = sorted(c for c in cards if IS_WILD[c])
    if wilds:
        out.append(wilds)
    return out


def hand_text(cards: Sequence[Card]) -> str:
    """A hand as text grouped by rank from aces down, then threes, then wild cards."""
    return " | ".join(" ".join(format_card(c) for c in g) for g in hand_groups(cards))


# -- describing moves ------------------------------------------------------------------------

def _verb(name: str, you: str, other: str) -> str:
    return f"{name} {you if name == 'You' else other}"


def second_person(words: str) -> str:
    """Words in the third person said to ``You``: ``goes out`` → ``go out``."""
    first, space, rest = words.partition(" ")
    if first.endswith(("sses", "shes", "ches", "xes", "oes")):
        first = first[:-2]
    elif first.endswith("s") and not first.endswith("ss"):
        first = first[:-1]
    return first + space + rest


def _person(name: str, words: str) -> str:
    return f"{name} {second_person(words) if name == 'You' else words}"


def _diff(after: Sequence[Card], before: Sequence[Card]) -> list[Card]:
    return sorted((Counter(after) - Counter(before)).elements())


def _cards(names: Sequence[str]) -> list[Card]:
    return [parse_card(n) for n in names]


def _canasta_words(facts_before: dict[str, Any], facts_after: dict[str, Any], seat: int,
                   key: str) -> str:
    """`` (a natural canasta of kings!)`` when the meld of ``key`` just became a canasta (in
    the family's word for one: ``a natural book of kings``)."""
    was = own_melds(facts_before, seat).get(key)
    now = own_melds(facts_after, seat).get(key)
    kind = now["canasta"] if now is not None else None
    if kind is None or (was is not None and was["canasta"] is not None):
        return ""
    word = facts_after["canasta_name"][0]
    return f" (a {kind} {word} of {facts_after['meld_names'].get(key, key)}!)"


def _group_words(family: Family, rules: Rules, before: dict[str, Any], after: dict[str, Any],
                 seat: int, groups: Sequence[Group]) -> list[str]:
    """What each group of a meld did: started a meld, added to one, made a canasta."""
    parts = []
    for group in groups:
        key = group_key(family, rules, group)
        text = " ".join(format_card(c) for c in group.cards)
        name = after["meld_names"].get(key, key)
        new = key not in own_melds(before, seat)
        if key not in after["meld_keys"] or (new and all(IS_WILD[c] for c in group.cards)):
            # a meld a table seldom shows, or one of wild cards alone: say what it is
            parts.append(f"melds {name} {text}")
            continue
        words = f"melds {text}" if new else f"adds {text} to the {name}"
        parts.append(words + _canasta_words(before, after, seat, key))
    return parts


def describe(family: Family, before: Any, action: Action, after: Any, names: Sequence[str],
             viewer: int | None = 0) -> list[str]:
    """Short lines saying what ``action`` did, as ``viewer`` may know it (``None``: as someone
    who sees every card, for replays)."""
    rules = before.rules
    seat = before.to_move
    name = names[seat]
    seen = viewer is None or seat == viewer
    obs_before, obs_after = family.observe(before, seat), family.observe(after, seat)
    fb, fa = screen_facts(family, obs_before), screen_facts(family, obs_after)
    side = rules.side_of(seat)
    laid = _diff(_cards(fa["laid"][side]), _cards(fb["laid"][side]))
    laid_text = ""
    if laid:
        one, many = fa["laid_name"]
        laid_text = (" and lay " if name == "You" else " and lays ") + \
            f"{'a ' + one if len(laid) == 1 else many} {format_cards(laid)}"
    got = _diff(obs_after.hand, obs_before.hand)
    verb = action.verb
    lines: list[str] = []
    if verb == "draw":
        drawn = f" {format_cards(got)}" if got and seen else ""
        lines.append(_verb(name, "draw", "draws") + drawn + laid_text)
    elif verb == "take":
        pile = fb["pile"]
        top = pile["top"]
        first = action.groups[0] if action.groups else None
        key = group_key(family, rules, Group(first.rank, (parse_card(top), *first.cards))) \
            if first is not None else rank_char(RANK_OF[parse_card(top)])
        with_text = (f", melding {top} with {' '.join(format_card(c) for c in first.cards)}"
                     if first is not None
                     else f", adding {top} to the {fa['meld_names'].get(key, key)}")
        moved = pile["size"] - fa["pile"]["size"]  # a family may leave part of the pile
        lines.append(_verb(name, "take", "takes")
                     + (f" the pile ({moved} cards)" if not fa["pile"]["size"]
                        else f" {moved} cards of the pile ({fa['pile']['size']} left)")
                     + with_text + laid_text + _canasta_words(fb, fa, seat, key))
        more = _group_words(family, rules, fb, fa, seat, action.groups[1:])
        if more:
            lines.append(f"{name} " + ", ".join(_you(w, name) for w in more))
    elif verb == "meld":
        words = _group_words(family, rules, fb, fa, seat, action.groups)
        lines.append(f"{name} " + ", ".join(_you(w, name) for w in words))
    elif verb == "discard":
        text = _verb(name, "discard", "discards") + " " + format_card(action.card)
        blocked = fa["pile"].get("blocked")
        if fa["pile"].get("frozen_by") and not fb["pile"].get("frozen_by"):
            text += " (the pile is frozen)"
        elif blocked and not (IS_WILD[action.card] and fb["pile"].get("frozen_by")):
            what = blocked.removesuffix(" is on top")
            text += f" ({what}: the pile is blocked for the next player)"
        if got:  # cards due after the discard (a talon)
            text += f" and {'get' if name == 'You' else 'gets'} {len(got)} card" + (
                "s" if len(got) > 1 else "") + (
                f" {format_cards(got)}" if seen else "")
        lines.append(text)
    elif verb == "ask":
        lines.append(_verb(name, "ask", "asks") + ' "Partner, may I go out?"')
    elif verb in ("yes", "no"):
        lines.append(_verb(name, "answer", "answers") + f" {verb}")
    elif verb == "pass":
        lines.append(_verb(name, "pass", "passes") + " (the stock is exhausted)")
    else:
        said = family.action_words(rules, action, seen=seen)
        if said is None:
            said = "plays " + family.format_action(rules, action) if seen else f"plays {verb}"
        if said:
            lines.append(_person(name, said) + laid_text)
        elif laid_text:  # nothing to read but the cards laid
            lines.append(name + laid_text.removeprefix(" and"))
    if after.is_over and "ending" in fa:
        last = ending(fa, names)
        if lines and last.startswith(lines[-1]):  # the move's words already say how it ended
            lines.pop()
        lines.append(last)
    return lines


def _you(words: str, name: str) -> str:
    if name != "You":
        return words
    return words.replace("melds", "meld", 1).replace("adds", "add", 1)


def ending(facts: dict[str, Any], names: Sequence[str]) -> str:
    """How the hand ended, in a line (from the facts of an ended hand)."""
    end = facts["ending"]
    if end["seat"] is None:
        return f"{end['words']}."
    return f"{_person(names[end['seat']], end['words'])}! The hand is over."


def record_names(record: GameRecord) -> list[str]:
    """What the players of a record are called at the table: the terminal's player (``human``)
    is ``You``, people keep their names, and bots get the friendly names the game gave them
    (seeded by its key, so ``canasta play`` and its replay agree)."""
    from canasta.interfaces.terminal.session import HUMAN_NAME, game_key

    key = game_key(record.rules, record.hands[0].deck) if record.hands else ""
    players = ["You" if p == HUMAN_NAME else p for p in record.players]
    return seat_names(players, key)


def replay_text(record: GameRecord, names: Sequence[str] | None = None) -> Iterator[str]:
    """A record of any family told hand by hand in readable lines, every card face up (for
    ``canasta replay``): who plays (bots with their level), every move, each hand's scores
    with the running totals, and who won.

    Raises what :func:`canasta.game.replay` raises for a record that does not replay.
    """
    rules = record.rules
    family = family_of(rules)
    if names is None:
        names = record_names(record)
        yield "Players: " + ", ".join(
            f"{n} ({level_of(p[len(BOT_PREFIX):], family)})" if p.startswith(BOT_PREFIX) else n
            for n, p in zip(names, record.players))
    scores: tuple[int, ...] = (0,) * rules.num_sides
    winner: int | None = None
    for hand in replay(record):
        yield f"Hand {hand.number}: {_verb(names[hand.record.dealer], 'deal', 'deals')}"
        state = family.new_hand(rules, deck=hand.record.deck, dealer=hand.record.dealer,
                                scores=scores, number=hand.number)
        dealt = family.position_to_json(state)
        for s in range(rules.num_players):
            yield f"  {_verb(names[s], 'hold', 'holds')} {hand_text(_cards(dealt['hands'][s]))}"
        yield ("  the pile starts with " + " ".join(dealt["pile"]) if dealt["pile"]
               else "  the pile starts empty")
        for line in hand.record.actions:
            action = parse_action_line(rules, line)[1]
            after = family.apply(state, action)
            for text in describe(family, state, action, after, names, viewer=None):
                yield "  " + text
            state = after
        scores = hand.scores
        if hand.state.is_over:
            totals = ", ".join(f"{side_label(rules, names, i)} {total:+d}"
                               for i, total in enumerate(family.totals(hand.state)))
            yield f"  hand scores: {totals}; game: " + ", ".join(
                f"{side_label(rules, names, i)} {score}" for i, score in enumerate(scores))
            winner = family.winner(rules, scores, hand.state)
    yield game_line(rules, names, scores, winner)


def game_line(rules: Rules, names: Sequence[str], scores: Sequence[int],
              winner: int | None) -> str:
    """The last line of a replay: who won with how many points, or where the game stands."""
    standing = ", ".join(f"{side_label(rules, names, i)} {score}"
                         for i, score in enumerate(scores))
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
    return join_names([names[s] for s in range(rules.num_players) if rules.side_of(s) == side])
