"""Modern American's research interface (``canasta.modern_american.research``): its 142 ids
spell the legal list one to one, its tensor of 394 shows what a seat may see and nothing
more, a ``keep`` is private in OpenSpiel's information strings, and its house rules reach the
adapters. What every family's adapters do is tested once for all in tests/rl/test_families.py.
"""

from __future__ import annotations

import random
import warnings
from collections import Counter

import pytest

from canasta.actions import Action, Group
from canasta.cards import FIRST_THREE, make_pack, parse_cards
from canasta.modern_american.hand import RULES, Hand
from canasta.modern_american.knobs import KNOBS, Knobs
from canasta.modern_american.melds import WILD_MELD
from canasta.modern_american.observation import observe
from canasta.modern_american.play import apply, legal_actions, new_hand
from canasta.modern_american.research import (
    GROUP_W,
    KEEP,
    KEEP_NONE_ID,
    MODERN,
    MODERN_KEYS,
    MODERN_PHASES,
    SPECIAL,
    ModernAlphabet,
    alphabet_for,
    modern_tensor,
    modern_tensor_layout,
    piece_slices,
    tensor_size,
)
from canasta.rl import encoding as enc
from canasta.rl.encoding import CLASSIC, Choice
from canasta.rl.research import research_of
from canasta.rl.table import Table
from tests.rl.test_encoding import spellings

RESEARCH = research_of("modern-american")


def played(seeds: range, knobs: Knobs = KNOBS) -> list[tuple[Hand, Action]]:
    """Every position of one hand per seed with the action played there: random legal actions,
    melds and takes preferred (so that the table fills)."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        h = new_hand(seed, rules=RULES.replace(knobs=knobs))
        while h.end is None:
            legal = legal_actions(h)
            laying = [a for a in legal if a.verb in ("meld", "take", "special")]
            action = rng.choice(laying) if laying and rng.random() < 0.7 else rng.choice(legal)
            out.append((h, action))
            h = apply(h, action)
    return out


POSITIONS = played(range(6))


def deck_for(hands: list[list[int]], stock: list[int], dealer: int = 0) -> list[int]:
    """A pack that deals ``hands`` by seat (dealt one at a time from the dealer's left) with
    ``stock`` on top of the rest, the rest being what the pack has left."""
    rest = Counter(make_pack(2, 4)) - Counter(c for h in hands for c in h) - Counter(stock)
    filler = sorted(rest.elements())
    full = [list(h) for h in hands]
    for h in full:  # fill short hands from the rest (no threes: they would be laid)
        while len(h) < 13:
            card = next(c for c in filler if not FIRST_THREE <= c < FIRST_THREE + 4)
            filler.remove(card)
            h.append(card)
    deck = []
    for i in range(13):
        for k in range(1, 5):
            deck.append(full[(dealer + k) % 4][i])
    return deck + list(stock) + filler


def special_position() -> Hand:
    """Seat 1 holds thirteen cards of Pairs and draws the fourteenth: the special hand is
    legal."""
    pairs = parse_cards("6c 6d 7c 7d 8c 8d 9c 9d Jc Jd Qc Qd Kc Kd")
    hands: list[list[int]] = [[], pairs[:13], [], []]
    h = new_hand(deck=deck_for(hands, [pairs[13]]))
    return apply(h, Action("draw"))


# -- the ids ---------------------------------------------------------------------------------

def assert_one_to_one(h: Hand) -> list[Action]:
    legal = legal_actions(h)
    found = spellings(Choice(legal, MODERN))
    assert len(found) == len(legal)
    assert sorted(map(str, (a for _, a in found))) == sorted(map(str, legal))
    for ids, action in found:
        assert MODERN.encode(action) == ids
        assert MODERN.decode(ids) == action
        assert all(0 <= i < MODERN.size for i in ids)
    return legal


def test_finished_spellings_are_the_legal_actions_each_once() -> None:
    legal = [a for h, _ in POSITIONS[::3] for a in assert_one_to_one(h)]
    legal += assert_one_to_one(special_position())
    verbs = Counter(a.verb for a in legal)
    assert {"keep", "draw", "take", "meld", "discard", "special"} <= set(verbs)
    assert any(g.rank == WILD_MELD for a in legal for g in a.groups)  # a W group
    assert any(a.verb == "keep" and a.card == -1 for a in legal)  # keep none
    assert any(len(a.groups) > 1 for a in legal)


def test_the_alphabet_is_sized_from_the_family_and_keeps_the_classic_ids() -> None:
    assert CLASSIC.size == enc.NUM_IDS == 125 and MODERN.size == 142
    assert RESEARCH.alphabet is MODERN and RESEARCH.max_steps_per_hand() == 14 * 108
    names = [MODERN.id_text(i) for i in range(MODERN.size)]
    assert len(set(names)) == MODERN.size
    assert names[:125] == [enc.id_text(i) for i in range(125)]
    assert names[GROUP_W] == "group W" and names[KEEP_NONE_ID] == "keep none"
    assert names[KEEP:KEEP + 4] == ["keep 3c", "keep 3d", "keep 3h", "keep 3s"]
    assert names[SPECIAL] == "special Pairs" and names[-1] == "special Dream Hand Plus 5"
    pagat = alphabet_for("pagat")
    assert pagat.size == 142 and pagat.id_text(SPECIAL + 2) == "special Straight"
    assert alphabet_for("cla") is MODERN
    assert [i for i in range(MODERN.size) if MODERN.is_private(i)] == list(
        range(KEEP, KEEP_NONE_ID + 1))
    with pytest.raises(ValueError):
        MODERN.id_text(142)
    with pytest.raises(ValueError, match="catalogue"):
        ModernAlphabet("hoyle")


def test_each_new_verb_is_one_id_and_a_w_group_spells_like_a_rank() -> None:
    assert MODERN.encode(Action("keep", (), FIRST_THREE + 3)) == (KEEP + 3,)
    assert MODERN.encode(Action("keep", (), -1)) == (KEEP_NONE_ID,)
    assert MODERN.encode(Action("special", (), 4)) == (SPECIAL + 4,)
    meld = Action("meld", (Group(9, tuple(parse_cards("Kc Kd Kh"))),
                           Group(WILD_MELD, tuple(parse_cards("2c 2d JK")))))
    ids = MODERN.encode(meld)
    assert ids == (enc.GROUP + 9, 36, 37, 38, GROUP_W, 48, 49, 52, enc.END)
    assert MODERN.decode(ids) == meld
    for single in (KEEP, KEEP_NONE_ID, SPECIAL, enc.DRAW_ID, enc.DISCARD):
        assert MODERN.is_single(single)
    assert not MODERN.is_single(GROUP_W) and not MODERN.is_single(enc.TAKE_ID)


@pytest.mark.parametrize("ids", [
    (), (GROUP_W,), (GROUP_W, 48, 49, 52),  # not closed by end
    (GROUP_W, 48, 49, 52, enc.GROUP + 9, 36, 37, 38, enc.END),  # W is the last group
    (enc.GROUP + 9, 37, 36, 38, enc.END),  # cards out of order
    (enc.GROUP + 11, 44, 45, 46, enc.END),  # threes are never melded
    (enc.TAKE_ID, enc.END),  # the pile is always frozen: a take names its pair
    (KEEP, enc.END), (enc.DRAW_ID, KEEP),
])
def test_decode_refuses_what_is_not_a_canonical_spelling(ids: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        MODERN.decode(ids)


def test_a_special_hand_beyond_the_catalogue_is_no_action() -> None:
    pagat = alphabet_for("pagat")
    assert pagat.decode((SPECIAL + 3,)) == Action("special", (), 3)
    with pytest.raises(ValueError, match="no special hand"):
        pagat.decode((SPECIAL + 4,))  # pagat has four special hands
    with pytest.raises(ValueError, match="no special hand"):
        pagat.encode(Action("special", (), 4))


def test_the_table_plays_the_family_s_ids_and_refuses_others() -> None:
    table = Table("modern-american")
    for seed in range(20):  # a deal whose first player holds a three, and keeps it or not
        table.reset(seed=seed)
        ids = table.legal_ids()
        if KEEP_NONE_ID in ids:
            break
    assert ids and all(KEEP <= i <= KEEP_NONE_ID for i in ids)
    with pytest.raises(ValueError, match="not legal"):
        table.play(enc.DRAW_ID)  # the threes come first
    table.play(KEEP_NONE_ID)
    assert table.state.turn.threes_chosen and table.legal_ids()[0] == enc.DRAW_ID


# -- the tensor ------------------------------------------------------------------------------

def reshuffle_hidden(h: Hand, seat: int, rng: random.Random) -> Hand:
    """``h`` with the cards ``seat`` cannot see (the other hands, the stock, the pile below
    what a player may look at) dealt anew."""
    others = [s for s in range(4) if s != seat]
    depth = h.knobs.pile_visible_depth
    below = 0 if depth is None else max(0, len(h.pile) - depth)
    pool = [c for s in others for c in h.hands[s]] + list(h.stock) + list(h.pile[:below])
    rng.shuffle(pool)
    hands = list(h.hands)
    at = below
    for s in others:
        size = len(h.hands[s])
        hands[s] = tuple(sorted(pool[at:at + size]))
        at += size
    return h.but(hands=tuple(hands), stock=tuple(pool[at:]),
                 pile=(*pool[:below], *h.pile[below:]))


HOUSE = Knobs(pile_visible_depth=3, special_hand_after_partner_meld="next_turn_courtesy")
"""House rules that hide the pile below its top three cards and give a courtesy turn."""


def tensor(h: Hand, seat: int, prefix: tuple[int, ...] = ()) -> list[float]:
    return modern_tensor(observe(h, seat), prefix)


@pytest.mark.parametrize("knobs", [KNOBS, HOUSE], ids=["preset", "house"])
def test_reshuffling_what_a_seat_cannot_see_leaves_its_tensor_unchanged(knobs: Knobs) -> None:
    rng = random.Random(7)
    checked = 0
    positions = POSITIONS if knobs is KNOBS else played(range(4), HOUSE)
    for h, action in positions[::7]:
        ids = MODERN.encode(action)
        prefix = ids[: len(ids) // 2]
        for seat in range(4):
            pre = prefix if seat == h.to_move else ()
            before = tensor(h, seat, pre)
            for _ in range(2):
                other = reshuffle_hidden(h, seat, rng)
                assert other.hands[seat] == h.hands[seat] and other != h
                assert tensor(other, seat, pre) == before
            checked += 1
    assert checked > 40


def piece(values: list[float], name: str) -> list[float]:
    start, stop = piece_slices()[name]
    return values[start:stop]


def test_a_limited_look_at_the_pile_and_the_courtesy_turn_are_shown() -> None:
    positions = [h for h, _ in played(range(8), HOUSE)]
    deep = next(h for h in positions if len(h.pile) > 5)
    values = tensor(deep, 0)
    assert sum(piece(values, "pile")) == 3 and piece(values, "pile_size") == [len(deep.pile) / 10]
    assert all(piece(values, "pile")[c] for c in deep.pile[-3:])
    assert piece(tensor(new_hand(1), 0), "courtesy") == [0.0] * 4 + [1.0]
    courtesy = next((h for h in positions if h.courtesy is not None), None)
    if courtesy is not None:
        seat = (courtesy.courtesy + 1) % 4
        flags = piece(tensor(courtesy, seat), "courtesy")
        assert flags.index(1.0) == 3 and sum(flags) == 1.0  # the seat before the observer


def test_the_tensor_shows_the_seat_s_hand_the_table_and_the_turn() -> None:
    h = next(h for h, _ in POSITIONS if h.melds[0][WILD_MELD] and h.threes[1] and h.pile)
    values = tensor(h, 1)
    assert sum(piece(values, "hand")) == len(h.hands[1])
    assert piece(values, "hand_sizes") == [len(h.hands[(1 + k) % 4]) / 10 for k in range(4)]
    assert piece(values, "to_move")[(h.to_move - 1) % 4] == 1.0
    assert sum(piece(values, "to_move")) == 1.0
    melds = piece(values, "melds")
    w_row = MODERN_KEYS.index(WILD_MELD) * 3
    theirs = len(MODERN_KEYS) * 3  # seat 1 plays for side 1: side 0 is the second block
    assert melds[theirs + w_row] == 0 and sum(melds[theirs + w_row:theirs + w_row + 3]) == len(
        h.melds[0][WILD_MELD])
    threes = piece(values, "threes")
    assert threes[0] + threes[1] == len(h.threes[1])  # the observer's side first
    assert piece(values, "pile_top")[h.pile[-1]] == 1.0
    assert piece(values, "stock_size") == [len(h.stock) / 10]
    assert piece(values, "turn_card_drawn") == [float(h.turn_card_drawn)]
    phase = MODERN_PHASES[piece(values, "phase").index(1.0)]
    assert phase == ("keep" if h.phase == "draw" and not h.turn.threes_chosen else h.phase)
    first = tensor(new_hand(2), 1)
    assert MODERN_PHASES[piece(first, "phase").index(1.0)] == "keep"  # threes to choose


def test_the_talon_due_and_the_dead_ranks_are_shown() -> None:
    talon = next(h for h, _ in POSITIONS if h.turn.talon)
    assert piece(tensor(talon, talon.to_move), "talon") == [talon.turn.talon / 10]
    dead = next((h for h, _ in POSITIONS if h.dead), None)
    if dead is not None:
        flags = piece(tensor(dead, 0), "dead")
        assert [r for r, f in enumerate(flags) if f] == sorted(dead.dead)


def test_the_layout_covers_the_tensor_and_the_spelling_is_shown() -> None:
    layout = modern_tensor_layout()
    sizes = [len(range(*piece_slices()[name])) for name, _ in layout]
    assert sum(sizes) == tensor_size() == 394 == len(RESEARCH.dealing_tensor())
    h, meld = next((h, a) for h, a in POSITIONS
                   if a.verb == "meld" and any(g.rank == WILD_MELD for g in a.groups))
    ids = MODERN.encode(meld)
    plain = RESEARCH.tensor(h, h.to_move)
    spelled = RESEARCH.respell(plain, ids[:-1])
    assert spelled == tensor(h, h.to_move, ids[:-1])
    assert sum(piece(spelled, "building_cards")) == sum(len(g.cards) for g in meld.groups)
    assert piece(spelled, "building_verb") == [0.0, 1.0, 0.0]
    assert piece(spelled, "building_group")[11] == 1.0  # the W group is the last row
    wild = next(g for g in meld.groups if g.rank == WILD_MELD)
    assert sum(piece(spelled, "building_groups")[33:36]) == len(wild.cards)


# -- OpenSpiel: a keep is private, a special hand ends the hand, house rules are parameters ----

def test_openspiel_keeps_are_private_in_the_information_strings() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import canasta.rl.openspiel  # noqa: F401  (registers python_canasta)

    game = pyspiel.load_game("python_canasta(preset=modern-american)")
    state = game.new_initial_state()
    rng = random.Random(3)
    private = 0
    while not state.is_terminal() and private < 4:
        if state.is_chance_node():
            state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
            continue
        ids = state.legal_actions()
        seat = state.current_player()
        kept = [i for i in ids if KEEP <= i < KEEP_NONE_ID]
        i = kept[0] if kept else rng.choice(ids)
        state.apply_action(i)
        if kept:
            mine = state.information_state_string(seat).splitlines()
            theirs = state.information_state_string((seat + 1) % 4).splitlines()
            assert f"p{seat} {MODERN.id_text(i)}" in mine and f"p{seat} keep ?" in theirs
            assert MODERN.id_text(i) not in "\n".join(theirs)
            private += 1
    assert private


def test_openspiel_a_special_hand_ends_the_hand_and_house_rules_are_parameters() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from canasta.rl import openspiel as cos

    game = cos.load("modern-american")
    assert game.max_game_length() == 14 * 108
    state = cos.state_at(game, special_position())
    assert state.legal_actions()[-1] == SPECIAL  # Pairs, the first hand of the catalogue
    state.apply_action(SPECIAL)
    assert state.is_terminal() and state.engine_state.end.special == (1, "Pairs")
    assert state.returns()[1] == 2500 - state.engine_state.end.sides[0].total
    pagat = pyspiel.load_game("python_canasta(preset=modern-american,rules=special_hands:pagat)")
    assert pagat.rules.knobs.special_hands == "pagat" and pagat.num_distinct_actions() == 142
    assert cos.load(pagat.research).rules == pagat.rules  # a research interface, back again
    with pytest.raises(Exception, match="unknown modern-american rules field"):
        pyspiel.load_game("python_canasta(preset=modern-american,rules=colour:1)")


@pytest.mark.parametrize("rules", ["", "pile_visible_depth:3"])
def test_openspiel_resampling_deals_the_hidden_pile_anew(rules: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import canasta.rl.openspiel  # noqa: F401  (registers python_canasta)

    game = pyspiel.load_game("python_canasta", {"preset": "modern-american", "rules": rules})
    state = game.new_initial_state()
    rng = random.Random(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    deep = checked = 0
    while not state.is_terminal() and checked < 12:
        if state.is_chance_node():
            state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
            continue
        if len(state.engine_state.pile) > 3 and rng.random() < 0.3:
            other = state.resample_from_infostate(0, sampler)
            assert other.information_state_string(0) == state.information_state_string(0)
            assert other.engine_state.pile[-3:] == state.engine_state.pile[-3:]
            deep += other.engine_state.pile != state.engine_state.pile
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked and (deep if rules else not deep)


def test_a_hand_of_the_pagat_catalogue_through_the_environments() -> None:
    pytest.importorskip("pettingzoo")
    from canasta.rl.gym import CanastaEnv
    from canasta.rl.pettingzoo import env

    rules = {"preset": "modern-american", "special_hands": "pagat"}
    e = env(rules=rules)
    e.reset(seed=0)
    table = e.unwrapped.table
    assert table.alphabet.specials == ("Pairs", "Wild Pairs", "Straight", "Garbage")
    assert table.game.record.to_json()["rules"] == rules
    gym = CanastaEnv(rules=rules, opponents="easy")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gym.reset(seed=1)
    assert gym.table.rules.knobs.special_hands == "pagat"


def test_openspiel_plays_a_whole_game_to_8500_with_win_returns() -> None:
    pytest.importorskip("pyspiel")
    from canasta.bots import make_bot
    from canasta.rl import openspiel as cos
    from canasta.rl.table import win_returns

    game = cos.load("modern-american", hands=30, returns="win")
    family = game.family
    state = game.new_initial_state()
    rng = random.Random(4)
    bots = [make_bot("medium", family) for _ in range(4)]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([c for c, _ in outcomes],
                                           [p for _, p in outcomes])[0])
            continue
        h = state.engine_state
        action = bots[h.to_move].choose(observe(h, h.to_move), legal_actions(h), rng)
        for i in MODERN.encode(action):
            state.apply_action(i)
    t = state._t
    assert max(t.scores) >= 8500 or t.engine.end.wins_game  # the target, or a Dream Hand
    assert 1 < t.hand < 30
    assert state.returns() == win_returns(game.rules, list(t.returns))
    assert t.returns[0] == t.scores[0] - t.scores[1] == -t.returns[1]
