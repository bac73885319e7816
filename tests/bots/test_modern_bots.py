"""The Modern American bots: their specs, and the rules of thumb that make the heuristic."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from canasta.bots.modern import ModernHeuristicBot, make_modern_bot
from canasta.cards import RANK_OF, parse_cards
from canasta.modern_american.action_text import format_action
from canasta.modern_american.hand import Hand
from canasta.modern_american.inference import NOTHING_SEEN, Seen, determinize, observe
from canasta.modern_american.play import apply, legal_actions, new_hand
from canasta.modern_american.view import deal_hidden
from tests.modern_american.test_turns import position


def test_a_spec_names_a_bot_and_its_settings() -> None:
    bot = make_modern_bot("modern-heuristic:shed_held=0,risky_hold=5", seed=1)
    assert isinstance(bot, ModernHeuristicBot)
    assert (bot.shed_held, bot.risky_hold) == (0, 5)
    with pytest.raises(ValueError, match="unknown bot"):
        make_modern_bot("modern-nobody")
    with pytest.raises(ValueError, match="bad settings"):
        make_modern_bot("modern-heuristic:colour=3")
    with pytest.raises(ValueError, match="bad setting"):
        make_modern_bot("modern-heuristic:shed_held=lots")


def test_it_sheds_an_ace_while_it_holds_three() -> None:
    h = position("Ac Ad Ah 5c 9d Jh Qs", ns={"K": ["Kc", "Kd", "Kh"]}, pile="8c 6d",
                 turn={"drew": True})
    shed = ModernHeuristicBot(1).choose(h)
    assert shed.verb == "discard" and RANK_OF[shed.card] == RANK_OF[parse_cards("Ac")[0]]
    first = ModernHeuristicBot(1, shed_held=0).choose(h)
    assert first.verb == "discard" and RANK_OF[first.card] != RANK_OF[shed.card]


def test_it_begins_no_meld_of_sevens_it_cannot_finish() -> None:
    h = position("7c 7d 7h 5c 9d Jh Qs", ns={"K": ["Kc", "Kd", "Kh"]}, pile="8c 6d",
                 turn={"drew": True})
    choice = ModernHeuristicBot(1).choose(h)
    assert choice.verb == "discard", format_action(h, choice)
    many = position("7c 7d 7h 7s 7c 7d 5c 9d", ns={"K": ["Kc", "Kd", "Kh"]}, pile="8c 6d",
                    turn={"drew": True})
    assert ModernHeuristicBot(1).choose(many).verb == "meld"


def test_it_lays_a_special_hand_and_picks_a_big_pack() -> None:
    pairs = "6c 6d 7c 7d 8c 8d 9c 9d Jc Jd Qc Qd Kc Kd"
    h = position(pairs, turn={"drew": True})
    assert format_action(h, ModernHeuristicBot(1).choose(h)) == "special Pairs"
    pack = position("Qd Qh 5c 9d", phase="draw", pile="4c 5d 6h 8s Jc Qc",
                    ns={"K": ["Kc", "Kd", "Kh"]}, turn={"threes_chosen": True})
    assert ModernHeuristicBot(1).choose(pack).verb == "take"


def test_the_search_tries_its_candidates_without_seeing_hidden_cards() -> None:
    from canasta.bots.modern import ModernSearchBot
    from canasta.modern_american.play import legal_actions
    from canasta.modern_american.view import deal_hidden

    h = position("Ac 5c 9d Jh Qs Td 8h", ns={"K": ["Kc", "Kh", "Ks"]}, pile="8c 6d",
                 turn={"drew": True})
    bot = ModernSearchBot(3, rollouts=2, width=3)
    choice = bot.choose(h)
    assert choice in legal_actions(h) and choice.verb == "discard"
    import random
    other = deal_hidden(h, random.Random(9))
    assert other.hands[0] == h.hands[0] and other.hands[1] != h.hands[1]
    assert ModernSearchBot(3, rollouts=2, width=3).choose(other) == choice


def test_the_search_compares_its_candidates_on_the_same_worlds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import canasta.bots.modern as modern
    from canasta.bots.modern import ModernSearchBot

    h = position("Ac 5c 9d Jh Qs Td 8h", ns={"K": ["Kc", "Kh", "Ks"]}, pile="8c 6d",
                 turn={"drew": True})
    seen: dict[int, list[tuple[object, int]]] = {}
    scores = iter(range(1000))

    def recorded(after: object, side: int, seed: int) -> float:
        discard = after.pile[-1]  # type: ignore[attr-defined]
        seen.setdefault(discard, []).append((after.stock, seed))  # type: ignore[attr-defined]
        return float(next(scores))

    monkeypatch.setattr(modern, "_play_out", recorded)
    ModernSearchBot(3, rollouts=4, width=3).choose(h)
    worlds = list(seen.values())
    assert len(worlds) == 3 and len(worlds[0]) == 4
    assert worlds[0] == worlds[1] == worlds[2]  # the same stocks and play-out seeds
    assert len({stock for stock, _ in worlds[0]}) == 4  # dealt anew each time


def test_the_search_keeps_the_heuristics_choice_unless_another_is_surely_better() -> None:
    from canasta.bots.modern import ModernSearchBot

    h = position("Ac 5c 9d Jh Qs Td 8h", ns={"K": ["Kc", "Kh", "Ks"]}, pile="8c 6d",
                 turn={"drew": True})
    mine = ModernHeuristicBot(3).choose(h)
    assert ModernSearchBot(3, rollouts=3, margin=1e9).choose(h) == mine
    chosen = {ModernSearchBot(seed, rollouts=3, margin=0).choose(h) for seed in range(6)}
    assert chosen - {mine}  # with no margin, the play-outs alone decide, and differ


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
        bot = ModernHeuristicBot(1)
        action, why = bot.explain(h)
        assert action == ModernHeuristicBot(1).choose(h)
        assert text is None or format_action(h, action) == text
        assert why.startswith(reason), why


def test_the_search_says_what_its_play_outs_found() -> None:
    from canasta.bots.modern import ModernSearchBot

    h = position("Ac 5c 9d Jh Qs Td 8h", ns={"K": ["Kc", "Kh", "Ks"]}, pile="8c 6d",
                 turn={"drew": True})
    mine = ModernHeuristicBot(3).choose(h)
    said = {}
    for seed in range(6):
        action, why = ModernSearchBot(seed, rollouts=3, margin=0).explain(h)
        assert action == ModernSearchBot(seed, rollouts=3, margin=0).choose(h)
        said[action == mine] = why
    assert said[False].startswith("over 3 play-outs of the hand")
    assert f"more than {format_action(h, mine)}, the rule of thumb's choice" in said[False]
    kept, why = ModernSearchBot(3, rollouts=3, margin=1e9).explain(h)
    assert kept == mine and why.endswith("3 play-outs of the hand found nothing surely better")


def _picked_position() -> tuple[Hand, list[int], Seen]:
    """N picks the pile (five cards under the Q on top), lays the picked K on the side's meld
    and discards the picked 4; E is then to move. The position, the cards N picked and still
    holds, and the record a bot at the table kept."""
    from canasta.bots.modern import ModernSearchBot, tell

    h = position("Qd Qh 5c 9d", phase="draw", pile="4c 5d Kh 8s Jc Qc",
                 ns={"K": ["Kc", "Kd", "Ks"]}, turn={"threes_chosen": True})
    bots = [ModernSearchBot(s, rollouts=1) for s in range(4)]
    for text in ("take Qd Qh", "meld Kh", "discard 4c"):
        action = next(a for a in legal_actions(h) if format_action(h, a) == text)
        tell(bots, h, action)
        h = apply(h, action)
    assert h.to_move == 1 and h.phase == "draw"
    assert all(bot.seen == bots[1].seen for bot in bots)  # the record is public
    return h, parse_cards("5d 8s Jc"), bots[1].seen


def test_the_worlds_give_a_player_the_pile_cards_it_picked_and_still_holds() -> None:
    h, kept, seen = _picked_position()
    assert not Counter(kept) - Counter(h.hands[0])  # the position is what the test says
    assert Counter(seen.held[0]) == Counter(kept)
    for seed in range(40):
        world = determinize(h, seen, random.Random(seed))
        assert not Counter(kept) - Counter(world.hands[0]), seed
    uniform = [determinize(h, NOTHING_SEEN, random.Random(seed)) for seed in range(40)]
    assert any(Counter(kept) - Counter(w.hands[0]) for w in uniform)  # dealt alone, they go


def test_every_world_holds_every_card_once_and_the_table_as_it_is() -> None:
    from canasta.bots.modern import tell

    for seed in range(2):
        h = new_hand(seed=seed)
        bots = [ModernHeuristicBot(seed * 4 + s) for s in range(4)]
        seen = NOTHING_SEEN
        while h.end is None:
            world = determinize(h, seen, random.Random(seed))
            assert sorted(world.all_cards()) == sorted(h.all_cards())
            assert [len(c) for c in world.hands] == [len(c) for c in h.hands]
            assert world.hands[h.to_move] == h.hands[h.to_move]
            assert (world.melds, world.threes, world.pile) == (h.melds, h.threes, h.pile)
            assert len(world.stock) == len(h.stock)
            for s, cards in enumerate(seen.held):
                assert not Counter(cards) - Counter(h.hands[s])  # the record is never wrong
            action = bots[h.to_move].choose(h)
            tell(bots, h, action)
            seen = observe(seen, h, action)
            h = apply(h, action)


def test_a_world_reads_no_card_its_seat_cannot_see() -> None:
    from canasta.bots.modern import ModernSearchBot

    h, _, seen = _picked_position()
    # the same table, the hidden cards (the other hands, the stock) in other places
    for k in range(3):
        other = deal_hidden(h, random.Random(k))
        assert other.hands[1] == h.hands[1] and other.hands != h.hands
        for seed in range(5):
            assert determinize(other, seen, random.Random(seed)) == determinize(
                h, seen, random.Random(seed))
    # and the record of a move does not depend on them either
    after = next(a for a in legal_actions(h) if a.verb == "draw")
    assert observe(seen, other, after) == observe(seen, h, after)
    bot, twin = ModernSearchBot(5, rollouts=2), ModernSearchBot(5, rollouts=2)
    bot.seen = twin.seen = seen
    assert bot.choose(h) == twin.choose(other)


def test_a_player_who_discarded_a_rank_is_dealt_fewer_pairs_of_it() -> None:
    h = new_hand(seed=1)
    bots = [ModernHeuristicBot(s) for s in range(4)]
    seen = NOTHING_SEEN
    while not seen.discarded[(h.to_move + 3) % 4]:  # the last player has discarded
        action = bots[h.to_move].choose(h)
        seen = observe(seen, h, action)
        h = apply(h, action)
    last = (h.to_move + 3) % 4
    (rank,) = seen.discarded[last]
    assert len(h.hands[last]) > 10 and not seen.held[last]

    def pairs(avoid: float) -> int:
        count = 0
        for seed in range(200):
            world = determinize(h, seen, random.Random(seed), avoid=avoid)
            count += sum(1 for c in world.hands[last] if RANK_OF[c] == rank) >= 2
        return count

    assert pairs(1.0) == 0 < pairs(0.5) < pairs(0.0)
