"""The Modern American bots: their specs, and the rules of thumb that make the heuristic."""

from __future__ import annotations

import pytest

from canasta.bots.modern import ModernHeuristicBot, make_modern_bot
from canasta.cards import RANK_OF, parse_cards
from canasta.modern_american.action_text import format_action
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
