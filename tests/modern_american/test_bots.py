"""The Modern American bots: the table's names and levels, the rules of thumb that make the
heuristic, the search's candidates and worlds, and their reasons in a player's words."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import canasta.modern_american.search as search
from canasta.actions import Action
from canasta.bots import BotSpecError, bot_table, explain, hint, make_bot
from canasta.bots.names import level_of
from canasta.cards import RANK_OF, parse_cards
from canasta.modern_american.action_text import format_action
from canasta.modern_american.hand import Hand
from canasta.modern_american.heuristic import HeuristicBot
from canasta.modern_american.inference import determinize
from canasta.modern_american.knobs import MODERN_AMERICAN
from canasta.modern_american.observation import observe as seat_view
from canasta.modern_american.play import apply, legal_actions, new_hand
from canasta.modern_american.record import NOTHING_SEEN, Seen
from canasta.modern_american.search import SearchBot
from tests.modern_american.games import deal_hidden
from tests.modern_american.test_turns import position

TABLE = bot_table(MODERN_AMERICAN)
DISCARD = position("Ac 5c 9d Jh Qs Td 8h", ns={"K": ["Kc", "Kh", "Ks"]}, pile="8c 6d",
                   turn={"drew": True})
"""A discard with no safe card: the search tries its candidates here."""


def decide(bot: object, h: Hand, seed: int = 1) -> Action:
    """What ``bot`` plays for the player to move in ``h``, from that seat's observation."""
    chosen: Action = bot.choose(seat_view(h, h.to_move), legal_actions(h),  # type: ignore
                                random.Random(seed))
    return chosen


def reasoned(bot: object, h: Hand, seed: int = 1) -> tuple[Action, str]:
    said: tuple[Action, str] = bot.explain(seat_view(h, h.to_move),  # type: ignore
                                           legal_actions(h), random.Random(seed))
    return said


def test_the_table_names_the_bots_short_and_keeps_their_older_names() -> None:
    assert TABLE.names() == ["random", "greedy", "heuristic", "heuristic-v1", "search",
                             "easy", "medium", "hard", "expert"]
    for old, name in (("modern-random", "random"), ("modern-greedy", "greedy"),
                      ("modern-heuristic", "heuristic"), ("modern-search", "search")):
        assert make_bot(old, MODERN_AMERICAN).name == name
    bot = make_bot("modern-search:rollouts=2,width=2,shed_held=0", MODERN_AMERICAN)
    assert isinstance(bot, SearchBot)
    assert (bot.rollouts, bot.width, bot.shed_held) == (2, 2, 0)
    assert [level_of(s, MODERN_AMERICAN) for s in ("greedy", "modern-heuristic", "search",
                                                   TABLE.levels["expert"], "random")] == [
        "easy", "medium", "hard", "expert", "random"]


@pytest.mark.parametrize(("spec", "words"), [
    ("modern-nobody", "unknown bot 'modern-nobody' for Modern American"),
    ("heuristic:colour=3", "bad parameters for bot 'heuristic'"),
    ("heuristic:shed_held=lots", "shed_held must be a number"),
    ("heuristic:risky_hold=5.5", "risky_hold must be an integer"),
    ("search:rollouts=0", "rollouts and width must be at least 1"),
    ("ismcts", "unknown bot 'ismcts'"),  # classic's search does not play this family
])
def test_bad_specs_say_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(BotSpecError, match=words):
        make_bot(spec, MODERN_AMERICAN)


def test_it_sheds_an_ace_while_it_holds_three() -> None:
    h = position("Ac Ad Ah 5c 9d Jh Qs", ns={"K": ["Kc", "Kd", "Kh"]}, pile="8c 6d",
                 turn={"drew": True})
    shed = decide(HeuristicBot(), h)
    assert shed.verb == "discard" and RANK_OF[shed.card] == RANK_OF[parse_cards("Ac")[0]]
    first = decide(HeuristicBot(shed_held=0), h)
    assert first.verb == "discard" and RANK_OF[first.card] != RANK_OF[shed.card]


def test_it_begins_no_meld_of_sevens_it_cannot_finish() -> None:
    h = position("7c 7d 7h 5c 9d Jh Qs", ns={"K": ["Kc", "Kd", "Kh"]}, pile="8c 6d",
                 turn={"drew": True})
    choice = decide(HeuristicBot(), h)
    assert choice.verb == "discard", format_action(h, choice)
    many = position("7c 7d 7h 7s 7c 7d 5c 9d", ns={"K": ["Kc", "Kd", "Kh"]}, pile="8c 6d",
                    turn={"drew": True})
    assert decide(HeuristicBot(), many).verb == "meld"


def test_it_asks_before_going_out_while_the_partner_holds_cards() -> None:
    from tests.modern_american.test_turns import TWO_CANASTAS

    ready = position("9h 9s 9d 9c 6d", ns=TWO_CANASTAS, turn={"drew": True})
    assert decide(HeuristicBot(), ready).verb != "ask"  # two cards cannot cost 1500
    loaded = ready.but(hands=(ready.hands[0], ready.hands[1],
                              tuple(parse_cards("Ac Ad Ah 5c 5d")), ready.hands[3]))
    assert decide(HeuristicBot(), loaded).verb == "ask"
    assert decide(HeuristicBot(ask=0), loaded).verb != "ask"
    assert decide(make_bot("heuristic-v1", MODERN_AMERICAN), loaded).verb != "ask"


@pytest.mark.parametrize(("hand", "answer"), [
    ("Ac Ad Ah 5c 9d", "no"),  # one discard sheds the third ace: wait a turn
    ("Ac Ad 5c 9d", "yes"),  # nothing costs
    ("Ac Ad Ah Ac Ad 9d", "yes"),  # three discards away: the penalty stays either way
])
def test_a_partner_asks_for_a_turn_that_sheds_its_aces(hand: str, answer: str) -> None:
    asked = position(hand, phase="answer", to_move=2, ns={"K": ["Kc", "Kd", "Kh"]},
                     asks=[1, 0, 0, 0], answer=None)
    assert format_action(asked, decide(HeuristicBot(), asked)) == answer


def test_a_rank_the_next_side_has_five_of_is_a_safe_discard() -> None:
    """A pair cannot pick the pack onto a meld of five: it would pass seven (MA §6.3)."""
    h = position("Jh 9d Qs Qh 5d 5h 4c 4d", ns={"K": ["Kc", "Kc", "Ks"]},
                 ew={"J": ["Jc", "Jc", "Js", "Js", "Jd"]}, pile="8c 6d", turn={"drew": True})
    assert format_action(h, decide(HeuristicBot(), h)) == "discard Jh"
    assert format_action(h, decide(HeuristicBot(read_safe=0), h)) == "discard 9d"


def test_it_lays_a_special_hand_and_picks_a_big_pack() -> None:
    pairs = "6c 6d 7c 7d 8c 8d 9c 9d Jc Jd Qc Qd Kc Kd"
    h = position(pairs, turn={"drew": True})
    assert format_action(h, decide(HeuristicBot(), h)) == "special Pairs"
    pack = position("Qd Qh 5c 9d", phase="draw", pile="4c 5d 6h 8s Jc Qc",
                    ns={"K": ["Kc", "Kd", "Kh"]}, turn={"threes_chosen": True})
    assert decide(HeuristicBot(), pack).verb == "take"


def test_the_heuristic_says_why_in_a_players_words() -> None:
    cases = [
        (position("Qd Qh 5c 9d", phase="draw", pile="4c 5d 6h 8s Jc Qc",
                  ns={"K": ["Kc", "Kd", "Kh"]}, turn={"threes_chosen": True}),
         "take Qd Qh", "6 cards are worth picking with your pair of queens"),
        (position("Tc Ad Ah 9d", ns={"T": ["Td", "Th", "Ts", "Tc", "Td", "Th", "Ts"]},
                  pile="8c 6d", turn={"drew": True}),
         "discard Tc", "tens are dead: nobody can pick the pack with one"),
        (position("Qd Qh 5c 9d Kc Ks", phase="draw", pile="4c Qc",
                  turn={"threes_chosen": True}),
         "draw", "your pair of queens cannot pick the pack: to open by picking the pack"),
        (position("Ac Ad Ah 5c 9d Jh Qs", ns={"K": ["Kc", "Kd", "Kh"]}, pile="8c 6d",
                  turn={"drew": True}),
         None, "3 aces held when the hand ends cost a penalty"),
    ]
    for h, text, reason in cases:
        action, why = reasoned(HeuristicBot(), h)
        assert action == decide(HeuristicBot(), h)
        assert text is None or format_action(h, action) == text
        assert why.startswith(reason), why


def test_the_hint_is_the_search_and_speaks_a_players_words() -> None:
    obs = seat_view(DISCARD, DISCARD.to_move)
    action, why = hint(obs, legal_actions(DISCARD))
    assert action.verb == "discard"
    assert make_bot(TABLE.hint_level, MODERN_AMERICAN).name == "search"
    assert "play-outs of the hand" in why
    assert not any(word in why for word in ("obs", "None", "Action(", "rollout"))


def test_the_search_compares_its_candidates_on_the_same_worlds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[int, list[tuple[object, int]]] = {}
    scores = iter(range(1000))

    def recorded(after: Hand, side: int, seed: int) -> float:
        seen.setdefault(after.pile[-1], []).append((after.stock, seed))
        return float(next(scores))

    monkeypatch.setattr(search, "play_out", recorded)
    decide(SearchBot(rollouts=4, width=3), DISCARD, 3)
    worlds = list(seen.values())
    assert len(worlds) == 3 and len(worlds[0]) == 4
    assert worlds[0] == worlds[1] == worlds[2]  # the same stocks and play-out seeds
    assert len({stock for stock, _ in worlds[0]}) == 4  # dealt anew each time


def test_the_search_keeps_the_heuristics_choice_unless_another_is_surely_better() -> None:
    mine = decide(HeuristicBot(), DISCARD, 3)
    assert decide(SearchBot(rollouts=2, margin=1e9), DISCARD, 3) == mine
    said = {}
    for seed in range(4):
        action, why = reasoned(SearchBot(rollouts=2, margin=0), DISCARD, seed)
        assert action == decide(SearchBot(rollouts=2, margin=0), DISCARD, seed)
        said[action == mine] = why
    assert said[False].startswith("over 2 play-outs of the hand")  # no margin: they decide
    assert f"more than {format_action(DISCARD, mine)}, the rule of thumb's choice" in said[False]
    kept, why = reasoned(SearchBot(rollouts=2, margin=1e9), DISCARD, 3)
    assert kept == mine and why.endswith("2 play-outs of the hand found nothing surely better")


def _picked_position() -> tuple[Hand, list[int], Seen]:
    """N picks the pile (five cards under the Q on top), lays the picked K on the side's meld
    and discards the picked 4; E is then to move. The position, the cards N picked and still
    holds, and the table's record."""
    h = position("Qd Qh 5c 9d", phase="draw", pile="4c 5d Kh 8s Jc Qc",
                 ns={"K": ["Kc", "Kd", "Ks"]}, turn={"threes_chosen": True})
    for text in ("take Qd Qh", "meld Kh", "discard 4c"):
        h = apply(h, next(a for a in legal_actions(h) if format_action(h, a) == text))
    assert h.to_move == 1 and h.phase == "draw"
    assert seat_view(h, 1).seen == h.seen  # the observation carries the record
    return h, parse_cards("5d 8s Jc"), h.seen


def test_the_worlds_give_a_player_the_pile_cards_it_picked_and_still_holds() -> None:
    h, kept, seen = _picked_position()
    assert not Counter(kept) - Counter(h.hands[0])  # the position is what the test says
    assert Counter(seen.held[0]) == Counter(kept)
    obs = seat_view(h, 1)
    for seed in range(40):
        world = determinize(obs, random.Random(seed))
        assert not Counter(kept) - Counter(world.hands[0]), seed
    uniform = [determinize(obs, random.Random(seed), seen=NOTHING_SEEN) for seed in range(40)]
    assert any(Counter(kept) - Counter(w.hands[0]) for w in uniform)  # dealt alone, they go


def test_every_world_holds_every_card_once_and_the_table_as_it_is() -> None:
    h = new_hand(seed=0)
    bot, rng = HeuristicBot(), random.Random(0)
    while h.end is None:
        world = determinize(seat_view(h, h.to_move), random.Random(1))
        assert sorted(world.all_cards()) == sorted(h.all_cards())
        assert [len(c) for c in world.hands] == [len(c) for c in h.hands]
        assert world.hands[h.to_move] == h.hands[h.to_move]
        assert (world.melds, world.threes, world.pile) == (h.melds, h.threes, h.pile)
        assert len(world.stock) == len(h.stock) and world.seen == h.seen
        for s, cards in enumerate(h.seen.held):
            assert not Counter(cards) - Counter(world.hands[s])  # the record holds there
        h = apply(h, bot.choose(seat_view(h, h.to_move), legal_actions(h), rng))


def test_a_world_reads_no_card_its_seat_cannot_see() -> None:
    h, _, _ = _picked_position()
    # the same table, the hidden cards (the other hands, the stock) in other places
    for k in range(3):
        other = deal_hidden(h, random.Random(k))
        assert other.hands[1] == h.hands[1] and other.hands != h.hands
        assert seat_view(other, 1) == seat_view(h, 1)
        for seed in range(5):
            assert determinize(seat_view(other, 1), random.Random(seed)) == (
                determinize(seat_view(h, 1), random.Random(seed)))
    # and the search decides alike, from the record the observation carries
    bot = SearchBot(rollouts=1, width=2)
    assert decide(bot, other, 5) == decide(bot, h, 5)


def test_a_player_who_discarded_a_rank_is_dealt_fewer_pairs_of_it() -> None:
    h = new_hand(seed=1)
    bot, rng = HeuristicBot(), random.Random(1)
    while not h.seen.discarded[(h.to_move + 3) % 4]:  # the last player has discarded
        h = apply(h, bot.choose(seat_view(h, h.to_move), legal_actions(h), rng))
    seen = h.seen
    last = (h.to_move + 3) % 4
    (rank,) = seen.discarded[last]
    assert len(h.hands[last]) > 10 and not seen.held[last]
    obs = seat_view(h, h.to_move)

    def pairs(avoid: float) -> int:
        count = 0
        for seed in range(200):
            world = determinize(obs, random.Random(seed), avoid=avoid)
            count += sum(1 for c in world.hands[last] if RANK_OF[c] == rank) >= 2
        return count

    assert pairs(1.0) == 0 < pairs(0.5) < pairs(0.0)


def test_every_level_says_why_in_a_players_words() -> None:
    obs, legal = seat_view(DISCARD, DISCARD.to_move), legal_actions(DISCARD)
    for level in TABLE.levels:
        name, params = TABLE.resolve(level)
        if name == "search":
            params["rollouts"] = "1"  # the same words, sooner
        bot = TABLE.bots[name](**params)
        action, why = explain(bot, obs, legal, random.Random(2))
        assert action == bot.choose(obs, legal, random.Random(2))
        assert why and "bot plays" not in why, (level, why)
