"""Invariants of Hand and Foot over seeded games on every preset: every card stays in play,
no seat's view holds another seat's hidden cards (nor any foot), a position's JSON reads back
as itself, every listed action applies and a refused one changes nothing, the score's parts
add up, and a game record replays to the same scores."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator

import pytest

import canasta
from canasta.actions import Action, Group
from canasta.bots import make_bot
from canasta.cards import IS_NATURAL, IS_WILD, RANK_OF, Card, card_names, make_pack
from canasta.hand_and_foot import PRESETS
from canasta.hand_and_foot.deal import IN_FOOT, Deal
from canasta.hand_and_foot.notation import deal_from_json, deal_to_json
from canasta.hand_and_foot.observation import observe
from canasta.hand_and_foot.turn import problem
from tests.hand_and_foot.builders import position

SEEDS = range(3)


def table_cards(deal: Deal) -> Counter[Card]:
    """Every card of a position, wherever it lies."""
    cards: Counter[Card] = Counter()
    for part in (*deal.hands, *deal.feet, deal.stock, deal.pile, *deal.red_threes,
                 *(m for side in deal.melds for m in side if m is not None),
                 *(b for side in deal.books for b in side)):
        cards.update(part)
    return cards


def played(preset: str, seed: int) -> Iterator[tuple[Deal, list[Action], Action, Deal]]:
    """A deal played by greedy players with a random move now and then (so that feet are
    reached and hands go out, and odd moves are tried too)."""
    rules = PRESETS[preset]
    deal = canasta.new_hand(rules, seed=seed)
    greedy = make_bot("greedy", rules)
    rng = random.Random(seed)
    while not deal.is_over:
        legal = canasta.legal_actions(deal)
        obs = observe(deal, deal.to_move)
        action = rng.choice(legal) if rng.random() < 0.2 else greedy.choose(obs, legal, rng)
        after = canasta.apply(deal, action)
        yield deal, legal, action, after
        deal = after


@pytest.mark.parametrize("preset", list(PRESETS))
def test_seeded_deals_keep_every_invariant(preset: str) -> None:
    rules = PRESETS[preset]
    pack = Counter(make_pack(rules.num_decks, rules.num_jokers))
    feet_reached = 0
    for seed in SEEDS:
        for _deal, legal, action, after in played(preset, seed):
            assert legal and len(set(legal)) == len(legal)
            for listed in legal:  # the list holds actions as their text reads back
                text = canasta.format_action(listed, rules)
                assert canasta.parse_action(text, rules) == listed, text
            assert table_cards(after) == pack, f"{preset} {seed}: cards lost at {action}"
            assert deal_from_json(json.loads(json.dumps(deal_to_json(after)))) == after
            for seat in range(rules.num_players):
                view = observe(after, seat).to_json()
                assert view["hands"][seat] == card_names(after.hands[seat])
                assert [n for s, n in enumerate(view["hands"]) if s != seat] == [
                    len(h) for s, h in enumerate(after.hands) if s != seat]
                assert view["feet"] == [len(f) for f in after.feet]  # counts, never cards
                assert view["stock"] == len(after.stock)
            if after.is_over:
                assert after.end is not None
                for s in after.end.sides:
                    assert s.total == (s.melded + s.books + s.red_threes + s.going_out
                                       - s.in_hand)
            feet_reached += sum(1 for seat in range(rules.num_players)
                                if after.foot_state[seat] == IN_FOOT)
    assert feet_reached > 0, f"{preset}: no foot was ever picked up"


def test_a_refused_action_changes_nothing() -> None:
    deal = canasta.new_hand(PRESETS["hand-and-foot"], seed=4)
    before = deal_to_json(deal)
    for text in ("meld Kc Kd Kh", "discard 4c", "take Kc Kd", "yes", "pass", "ask"):
        action = canasta.parse_action(text, deal.rules)
        if problem(deal, action) is not None:
            with pytest.raises(canasta.IllegalActionError):
                canasta.apply(deal, action)
    assert deal_to_json(deal) == before


def _suitless(action: Action) -> tuple[str, tuple[tuple[int, tuple[int, ...]], ...]]:
    """An action with its cards read by rank and kind only (suits never matter here)."""
    def kind(c: Card) -> int:
        return RANK_OF[c] if IS_NATURAL[c] else 100 + (c == 52) if IS_WILD[c] else 200 + c
    return action.verb, tuple(sorted((g.rank, tuple(sorted(kind(c) for c in g.cards)))
                                     for g in action.groups))


@pytest.mark.parametrize("preset", ["hand-and-foot", "hand-and-foot-pagat"])
def test_every_single_group_meld_the_engine_accepts_is_listed(preset: str) -> None:
    """Brute force: every group of one key from the hand that the turn accepts is in the legal
    list (with its suits as the list names them) once the side has melded."""
    checked = 0
    for deal, legal, _action, _after in played(preset, 11):
        if deal.phase != "play" or not deal.opened(deal.side_of(deal.to_move)):
            continue
        listed = {_suitless(a) for a in legal}
        held = deal.hands[deal.to_move]
        wilds = [c for c in held if IS_WILD[c]]
        for rank in {RANK_OF[c] for c in held if IS_NATURAL[c]}:
            naturals = [c for c in held if IS_NATURAL[c] and RANK_OF[c] == rank]
            for k in range(len(naturals) + 1):
                for mask in range(1 << min(len(wilds), 4)):
                    chosen = [wilds[i] for i in range(min(len(wilds), 4)) if mask >> i & 1]
                    cards = tuple(sorted(naturals[:k] + chosen))
                    if not cards:
                        continue
                    action = Action("meld", (Group(rank, cards),))
                    if problem(deal, action) is None:
                        checked += 1
                        assert _suitless(action) in listed, (deal_to_json(deal), action)
    assert checked > 20


def test_a_game_record_replays_to_the_same_scores() -> None:
    rules = PRESETS["hand-and-foot-2p"]
    game = canasta.Game(rules, seed=5)
    bots = [make_bot("greedy", rules), make_bot("random", rules)]
    rng = random.Random(5)
    while not game.is_over:
        position = game.state
        if position.is_over:
            game.next_hand()
            continue
        seat = position.to_move
        game.apply(bots[seat].choose(observe(position, seat), canasta.legal_actions(position),
                                     rng))
    record = canasta.GameRecord.loads(game.record.dumps())
    assert len(record.hands) >= rules.knobs.rounds_per_game
    replayed = list(canasta.replay(record))
    assert replayed[-1].scores == game.scores
    assert [h.state.number for h in replayed] == list(range(1, len(replayed) + 1))


def test_a_last_red_three_that_leaves_one_card_in_the_foot_ends_the_deal() -> None:
    """In the foot with one card, the draw brings only the stock's last card, a red three: it
    is laid without a replacement and the one card may not be discarded (the side cannot go
    out), so the deal ends rather than leave the player without a move (HF §10.7)."""
    deal = position(phase="draw", hands={"N": "9c"}, in_foot=["N"], stock="3h")
    after = canasta.apply(deal, "draw")
    assert after.is_over and after.end is not None and after.end.went_out is None
    assert after.red_threes[0] == (canasta.parse_card("3h"),)
    assert canasta.legal_actions(after) == []
