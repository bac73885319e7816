"""Words for the bots' explanations: ranks as words, small numbers as words, cards as text.

Explanations are sentences for players ("keep the JK: our kings need two more for a canasta").
Cards in them are written as NOTATION card codes (``Kh``, ``JK``), which the interfaces may
render as symbols; ranks and counts are words.
"""

from __future__ import annotations

from collections.abc import Iterable

from canasta.actions import Action
from canasta.cards import Card, Rank, format_card

RANK_WORDS = ("four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king",
              "ace")
"""The natural ranks 0..10 in words (singular)."""

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten")


def rank_word(rank: Rank, count: int = 2) -> str:
    """``kings`` (or ``king`` for a count of one); black threes for the three slot."""
    if rank >= len(RANK_WORDS):
        return "black three" if count == 1 else "black threes"
    word = RANK_WORDS[rank]
    if count == 1:
        return word
    return word + ("es" if word == "six" else "s")


def a_rank(rank: Rank) -> str:
    """One card of a rank with its article: ``a king``, ``an eight``, ``an ace``."""
    word = rank_word(rank, 1)
    return ("an " if word[0] in "aeiou" else "a ") + word


def a_size(n: int, noun: str, spelled: bool = False) -> str:
    """A size with its article: ``a 25-card``, ``an 11-card``, ``an 8-card`` (``noun`` after
    the dash); ``spelled``, small numbers in words: ``a one-card``, ``an eight-card``."""
    number = count_words(n) if spelled else str(n)
    spoken_vowel = number.startswith(("8", "eight")) or n in (11, 18)  # eleven, eighteen, eighty
    return f"{'an' if spoken_vowel else 'a'} {number}-{noun}"


def count_words(n: int) -> str:
    """``two`` for 2; digits from eleven on."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def percent_words(p: float) -> str:
    """A chance as a player reads it: ``23%``, ``under 1%`` (for a chance that is not quite
    nothing), ``over 99%``."""
    n = round(100 * p)
    if n == 0 and p > 0:
        return "under 1%"
    if n == 100 and p < 1:
        return "over 99%"
    return f"{n}%"


def card_words(card: Card) -> str:
    """A card as a player calls it in a sentence: its code (``Kh``, ``JK``)."""
    return format_card(card)


def wild_words(cards: Iterable[Card]) -> str:
    """``the JK``, ``the 2c``, or ``two wild cards``."""
    cards = list(cards)
    if len(cards) == 1:
        return "the " + format_card(cards[0])
    return f"{count_words(len(cards))} wild cards"


def action_words(action: Action) -> str:
    """An action as a gerund for a sentence: ``discarding 7h``, ``taking the pile``."""
    verb = action.verb
    if verb == "discard":
        return "discarding " + format_card(action.card)
    if verb == "meld":
        ranks = sorted({g.rank for g in action.groups})
        named = " and ".join(rank_word(r) for r in ranks)
        return "melding " + named
    if verb == "take":
        return "taking the pile"
    return {"draw": "drawing", "ask": "asking partner", "yes": "answering yes",
            "no": "answering no", "pass": "passing"}.get(verb, verb)
