"""Properties of Modern American play over seeded games: cards are conserved, every listed
action is accepted and canonical, positions survive JSON, scores add up, the legal list is
complete, records replay to their totals. (The command line and the terminal play every
family alike: tests/interfaces.)"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import fields
from typing import Any

import pytest

from canasta import GameRecord, replay
from canasta.actions import Action, Group, make_group
from canasta.bots.random_bot import RandomBot
from canasta.cards import IS_NATURAL, IS_WILD, RANK_OF, THREE, make_pack, parse_cards
from canasta.modern_american.action_text import format_action, parse_action
from canasta.modern_american.hand import PLAY, RULES, Hand
from canasta.modern_american.heuristic import HeuristicBot
from canasta.modern_american.knobs import rules_from_json
from canasta.modern_american.melds import WILD_MELD
from canasta.modern_american.notation import hand_from_json, hand_to_json
from canasta.modern_american.observation import observe, world
from canasta.modern_american.play import apply, legal_actions, new_hand, problem
from canasta.modern_american.scoring import SideScore
from tests.modern_american.games import play_game, seated

PACK = Counter(make_pack(2, 4))
PARTS = [f.name for f in fields(SideScore) if f.name not in ("canastas", "total")]


def positions(seeds: range, bot: str, switch: dict[str, Any] | None = None) -> list[Hand]:
    """Every position of one hand per seed, played by four bots of a kind, under the
    preset or with the house-rule ``switch`` (its hands numbered 1, 2, ... by seed)."""
    table = rules_from_json({"preset": "modern-american", **(switch or {})})
    out = []
    for seed in seeds:
        players = [seated(HeuristicBot() if bot == "heuristic" else RandomBot(),
                          random.Random(seed + i)) for i in range(4)]
        h = new_hand(seed, rules=table, number=1 + seed % 4)
        out.append(h)
        while h.end is None:
            h = apply(h, players[h.to_move](h))
            out.append(h)
    return out


SWITCHES: dict[str, dict[str, Any]] = {
    "set-aside": {"talon_source": "set_aside"},
    "by-hand-number": {"initial_meld_by_hand_number": [125, 155, 180]},
    "past-seven": {"max_meld_size_exception_when_going_out": True},
    "retract": {"no_legal_discard_remedy": "retract_melds"},
}
"""The house-rule switches of MA §16.2 that the sources disagree on, each played here on
random positions as the preset is."""
GAMES = {"heuristic": positions(range(8), "heuristic"), "random": positions(range(4), "random"),
         **{f"heuristic/{name}": positions(range(20, 24), "heuristic", switch)
            for name, switch in SWITCHES.items()},
         **{f"random/{name}": positions(range(30, 32), "random", switch)
            for name, switch in SWITCHES.items()}}


@pytest.mark.parametrize("bot", GAMES)
def test_cards_are_conserved_and_positions_survive_json(bot: str) -> None:
    for h in GAMES[bot]:
        assert Counter(h.all_cards()) == PACK
        assert all(RANK_OF[c] != THREE for c in h.pile)
        data = json.loads(json.dumps(hand_to_json(h)))
        assert hand_from_json(data) == h


@pytest.mark.parametrize("bot", GAMES)
def test_every_listed_action_is_accepted_once_in_canonical_form(bot: str) -> None:
    for h in GAMES[bot][::3]:
        listed = legal_actions(h)
        texts = [format_action(h, a) for a in listed]
        assert len(set(texts)) == len(texts), texts
        assert h.end is not None or listed, hand_to_json(h)
        for text in texts:
            again = parse_action(h, text)
            assert format_action(h, again) == text
            assert problem(h, again) is None, (text, problem(h, again))


@pytest.mark.parametrize("bot", GAMES)
def test_the_score_adds_up(bot: str) -> None:
    ended = [h for h in GAMES[bot] if h.end is not None]
    assert ended
    for h in ended:
        assert h.end is not None
        for side in h.end.sides:
            assert side.total == sum(getattr(side, part) for part in PARTS)


def _random_groups(h: Hand, rng: random.Random, count: int) -> list[Group]:
    hand = h.hands[h.to_move]
    wilds = [c for c in hand if IS_WILD[c]]
    out = []
    by_rank: dict[int, list[int]] = {}
    for c in hand:
        if IS_NATURAL[c]:
            by_rank.setdefault(RANK_OF[c], []).append(c)
    for _ in range(count):
        if by_rank and rng.random() < 0.8:
            rank = rng.choice(sorted(by_rank))
            naturals = by_rank[rank]
            cards = rng.sample(naturals, rng.randint(0, len(naturals)))
            cards += rng.sample(wilds, rng.randint(0, min(2, len(wilds))))
            if cards:
                out.append(make_group(cards, rank))
        elif wilds:
            out.append(Group(WILD_MELD, tuple(sorted(rng.sample(wilds, rng.randint(
                1, len(wilds)))))))
    return out


def test_the_legal_list_is_complete_for_melds() -> None:
    """A legal meld of one group after the initial meld is listed; a legal initial meld holds
    a listed one (what it adds follows as further melds)."""
    rng = random.Random(7)
    checked = 0
    for h in (h for games in GAMES.values() for h in games):
        if h.phase != PLAY:
            continue
        listed = {format_action(h, a) for a in legal_actions(h) if a.verb == "meld"}
        melded = h.side_melded(h.side_of(h.to_move))
        for _ in range(6):
            groups = _random_groups(h, rng, 1 if melded else rng.randint(1, 4))
            if not groups or len({g.rank for g in groups}) < len(groups):
                continue
            action = Action("meld", tuple(groups))
            if problem(h, action) is not None:
                continue
            checked += 1
            if melded:
                assert format_action(h, action) in listed
            else:
                assert any(_within(h, parse_action(h, text), action) for text in listed), \
                    format_action(h, action)
    assert checked > 20


def _within(h: Hand, small: Action, big: Action) -> bool:
    mine = {g.rank: Counter(g.cards) for g in big.groups}
    return all(g.rank in mine and not Counter(g.cards) - mine[g.rank] for g in small.groups)


def test_a_game_of_four_bots_replays_to_its_totals() -> None:
    bots = [seated(HeuristicBot(), random.Random(i)) for i in range(4)]
    game, record = play_game(bots, seed=1)
    assert game.winner is not None and max(game.scores) >= 8500
    played = list(replay(GameRecord.from_json(json.loads(json.dumps(record.to_json())))))
    assert played[-1].scores == game.scores
    totals = [sum(p.state.end.sides[s].total for p in played if p.state.end) for s in (0, 1)]
    assert tuple(totals) == game.scores


def test_no_listed_action_lays_a_card_the_player_lacks() -> None:
    for h in GAMES["random"][::5]:
        hand = Counter(h.hands[h.to_move])
        for a in legal_actions(h):
            laid = Counter(c for g in a.groups for c in g.cards)  # a pick lists hand cards
            assert not laid - hand, format_action(h, a)


def test_no_seat_sees_a_card_hidden_from_it() -> None:
    for h in GAMES["heuristic"][::4]:
        if h.end is not None:
            continue  # at the end every hand is shown
        for seat in range(4):
            view = observe(h, seat).to_json()
            text = json.dumps(view)
            assert view["hands"][seat] == hand_to_json(h)["hands"][seat]
            assert all(isinstance(n, int) for s, n in enumerate(view["hands"]) if s != seat)
            assert isinstance(view["stock"], int) and "turn_card\"" not in text
            # the cards the view names are exactly the seat's own and the table's
            public = Counter(h.pile) + Counter(c for side in h.threes for c in side) + Counter(
                c for melds in h.melds for m in melds if m for c in m)
            named = Counter(parse_cards(view["hands"][seat])) + public
            assert named == Counter(h.hands[seat]) + public
            assert sum(Counter(h.hands[s]).total() for s in range(4) if s != seat) == sum(
                view["hands"][s] for s in range(4) if s != seat)


def test_the_bots_decide_on_what_their_seat_sees() -> None:
    """Dealing the hidden cards (the other hands and the stock) anew changes no choice."""
    rng = random.Random(11)
    checked = 0
    for h in GAMES["heuristic"][::3]:
        if h.end is not None:
            continue
        other = world(observe(h, h.to_move), rng)
        for bot in (HeuristicBot(), RandomBot()):
            assert seated(bot, random.Random(5))(h) == seated(bot, random.Random(5))(other)
        checked += 1
    assert checked > 20


def test_a_record_deals_under_its_own_rules() -> None:
    rules = {"preset": "modern-american", "draw_count": 2, "target_score": 3000}
    bots = [seated(HeuristicBot(), random.Random(i)) for i in range(4)]
    table = rules_from_json(rules)
    game, record = play_game(bots, seed=4, rules=table)
    assert record.to_json()["rules"] == rules and max(game.scores) >= 3000
    played = list(replay(record))
    assert played[-1].scores == game.scores
    first = played[0].state
    assert first.rules.draw_count == 2


def test_the_legal_list_is_complete_for_going_out_past_seven() -> None:
    """With an eighth card allowed when going out, on random tables of canastas and short
    hands: every meld the rules accept, of any number of groups, that passes seven cards is
    listed whole, and every other accepted one-group meld is listed."""
    from itertools import product

    from canasta.modern_american.action_text import format_action as text_of
    from canasta.modern_american.hand import NO_MELDS, Turn
    from canasta.modern_american.knobs import ACE, SEVEN, Knobs

    knobs = Knobs(max_meld_size_exception_when_going_out=True)
    rng = random.Random(19)
    passed = 0
    for _ in range(150):
        pack = list(make_pack(2, 4))
        rng.shuffle(pack)
        pack = [c for c in pack if RANK_OF[c] != THREE]
        melds = list(NO_MELDS)
        for rank in rng.sample(sorted({RANK_OF[c] for c in pack if IS_NATURAL[c]}), 3):
            naturals = [c for c in pack if RANK_OF[c] == rank and IS_NATURAL[c]]
            size = rng.choice([5, 6, 7, 7, 7])
            wild = rng.randint(0, 2) if rank not in (SEVEN, ACE) else 0
            meld = naturals[:size - wild] + [c for c in pack if IS_WILD[c]][:wild]
            for c in meld:
                pack.remove(c)
            melds[rank] = tuple(sorted(meld))
        hand = tuple(sorted([*(c for c in pack if IS_WILD[c])][:rng.randint(0, 2)]
                            + rng.sample([c for c in pack if IS_NATURAL[c]], 2)))
        h = new_hand(0, rules=RULES.replace(knobs=knobs))
        h = h.but(phase=PLAY, to_move=0, hands=(hand, *h.hands[1:]),
                  melds=(tuple(melds), NO_MELDS), pile=tuple(pack[-3:]),
                  turn=Turn(threes_chosen=True, drew=True))
        listed = {text_of(h, a) for a in legal_actions(h) if a.verb == "meld"}
        keys = sorted({RANK_OF[c] for c in hand if IS_NATURAL[c]} | {
            k for k, m in enumerate(melds) if m is not None} | {WILD_MELD})
        for choice in product(*[[None, *keys] if IS_WILD[c] else [None, RANK_OF[c]]
                                for c in hand]):
            groups: dict[int, list[int]] = {}
            for c, key in zip(hand, choice):
                if key is not None:
                    groups.setdefault(key, []).append(c)
            if not groups:
                continue
            action = Action("meld", tuple(Group(k, tuple(sorted(cs)))
                                          for k, cs in sorted(groups.items())))
            if problem(h, action) is not None:
                continue
            past = any(len(melds[k] or ()) + len(cs) > 7 for k, cs in groups.items())
            if past or len(groups) == 1:
                assert text_of(h, action) in listed, (text_of(h, action), sorted(listed))
                passed += past
    assert passed > 20, passed
