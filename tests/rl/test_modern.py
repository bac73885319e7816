"""The research adapters on Modern American Canasta: its ids spell the legal list one to one,
its tensor hides what a seat cannot see, and ``python_canasta(preset=modern-american)``, the
PettingZoo and the Gymnasium environments pass their libraries' conformance checks."""

from __future__ import annotations

import random
import warnings
from collections import Counter

import pytest

from canasta.actions import Action, Group
from canasta.bots.modern import ModernHeuristicBot, ModernRandomBot
from canasta.cards import FIRST_THREE, make_pack, parse_cards
from canasta.modern_american.game import replay
from canasta.modern_american.hand import RULES, Hand
from canasta.modern_american.knobs import KNOBS, Knobs
from canasta.modern_american.melds import WILD_MELD
from canasta.modern_american.play import apply, legal_actions, new_hand
from canasta.rl import encoding as enc
from canasta.rl.encoding import CLASSIC, MODERN, Choice, ModernAlphabet, alphabet_for
from canasta.rl.table import ModernFamily, Table, family_of
from canasta.rl.tensor import (
    MODERN_KEYS,
    MODERN_PHASES,
    modern_piece_slices,
    modern_tensor,
    modern_tensor_layout,
    modern_tensor_size,
    modern_view,
)
from tests.rl.test_encoding import spellings

FAMILY = ModernFamily()


def played(seeds: range, bot: str = "random", knobs: Knobs = KNOBS
           ) -> list[tuple[Hand, Action]]:
    """Every position of one hand per seed with the action the bots chose there."""
    out = []
    for seed in seeds:
        kind = ModernHeuristicBot if bot == "heuristic" else ModernRandomBot
        players = [kind(seed + i) for i in range(4)]
        h = new_hand(seed, rules=RULES.replace(knobs=knobs))
        while h.end is None:
            action = players[h.to_move].choose(h)
            out.append((h, action))
            h = apply(h, action)
    return out


POSITIONS = played(range(3)) + played(range(3), "heuristic")


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
    assert {"keep", "draw", "take", "meld", "discard", "ask", "special"} <= set(verbs)
    assert any(g.rank == WILD_MELD for a in legal for g in a.groups)  # a W group
    assert any(a.verb == "keep" and a.card == -1 for a in legal)  # keep none
    assert any(len(a.groups) > 1 for a in legal)


def test_the_alphabet_is_sized_from_the_family_and_keeps_the_classic_ids() -> None:
    assert CLASSIC.size == enc.NUM_IDS == 125 and MODERN.size == enc.MODERN_NUM_IDS == 142
    names = [MODERN.id_text(i) for i in range(MODERN.size)]
    assert len(set(names)) == MODERN.size
    assert names[:125] == [enc.id_text(i) for i in range(125)]
    assert names[enc.GROUP_W] == "group W" and names[enc.KEEP_NONE_ID] == "keep none"
    assert names[enc.KEEP:enc.KEEP + 4] == ["keep 3c", "keep 3d", "keep 3h", "keep 3s"]
    assert names[enc.SPECIAL] == "special Pairs" and names[-1] == "special Dream Hand Plus 5"
    pagat = alphabet_for("pagat")
    assert pagat.size == 142 and pagat.id_text(enc.SPECIAL + 2) == "special Straight"
    assert alphabet_for(None) is CLASSIC and alphabet_for("cla") is MODERN
    with pytest.raises(ValueError):
        MODERN.id_text(142)
    with pytest.raises(ValueError, match="catalogue"):
        ModernAlphabet("hoyle")


def test_each_new_verb_is_one_id_and_a_w_group_spells_like_a_rank() -> None:
    assert MODERN.encode(Action("keep", (), FIRST_THREE + 3)) == (enc.KEEP + 3,)
    assert MODERN.encode(Action("keep", (), -1)) == (enc.KEEP_NONE_ID,)
    assert MODERN.encode(Action("special", (), 4)) == (enc.SPECIAL + 4,)
    meld = Action("meld", (Group(9, tuple(parse_cards("Kc Kd Kh"))),
                           Group(WILD_MELD, tuple(parse_cards("2c 2d JK")))))
    ids = MODERN.encode(meld)
    assert ids == (enc.GROUP + 9, 36, 37, 38, enc.GROUP_W, 48, 49, 52, enc.END)
    assert MODERN.decode(ids) == meld
    for single in (enc.KEEP, enc.KEEP_NONE_ID, enc.SPECIAL, enc.DRAW_ID, enc.DISCARD):
        assert MODERN.is_single(single)
    assert not MODERN.is_single(enc.GROUP_W) and not MODERN.is_single(enc.TAKE_ID)


@pytest.mark.parametrize("ids", [
    (), (enc.GROUP_W,), (enc.GROUP_W, 48, 49, 52),  # not closed by end
    (enc.GROUP_W, 48, 49, 52, enc.GROUP + 9, 36, 37, 38, enc.END),  # W is the last group
    (enc.GROUP + 9, 37, 36, 38, enc.END),  # cards out of order
    (enc.GROUP + 11, 44, 45, 46, enc.END),  # threes are never melded
    (enc.TAKE_ID, enc.END),  # the pile is always frozen: a take names its pair
    (enc.KEEP, enc.END), (enc.DRAW_ID, enc.KEEP),
])
def test_decode_refuses_what_is_not_a_canonical_spelling(ids: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        MODERN.decode(ids)


def test_a_special_hand_beyond_the_catalogue_is_no_action() -> None:
    pagat = alphabet_for("pagat")
    assert pagat.decode((enc.SPECIAL + 3,)) == Action("special", (), 3)
    with pytest.raises(ValueError, match="no special hand"):
        pagat.decode((enc.SPECIAL + 4,))  # pagat has four special hands
    with pytest.raises(ValueError, match="no special hand"):
        pagat.encode(Action("special", (), 4))


def test_the_table_plays_the_family_s_ids_and_refuses_others() -> None:
    table = Table(FAMILY)
    table.reset(seed=3)
    ids = table.legal_ids()
    assert ids and all(enc.KEEP <= i <= enc.KEEP_NONE_ID for i in ids)
    with pytest.raises(ValueError, match="not legal"):
        table.play(enc.DRAW_ID)  # the threes come first
    table.play(enc.KEEP_NONE_ID)
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


@pytest.mark.parametrize("knobs", [KNOBS, HOUSE], ids=["preset", "house"])
def test_reshuffling_what_a_seat_cannot_see_leaves_its_tensor_unchanged(knobs: Knobs) -> None:
    rng = random.Random(7)
    checked = 0
    positions = POSITIONS if knobs is KNOBS else played(range(3), "heuristic", HOUSE)
    for h, action in positions[::5]:
        ids = MODERN.encode(action)
        prefix = ids[: len(ids) // 2]
        for seat in range(4):
            pre = prefix if seat == h.to_move else ()
            before = modern_tensor(modern_view(h, seat), pre)
            for _ in range(2):
                other = reshuffle_hidden(h, seat, rng)
                assert other.hands[seat] == h.hands[seat] and other != h
                assert modern_tensor(modern_view(other, seat), pre) == before
            checked += 1
    assert checked > (100 if knobs is KNOBS else 40)


def test_a_limited_look_at_the_pile_and_the_courtesy_turn_are_shown() -> None:
    positions = [h for h, _ in played(range(6), "heuristic", HOUSE)]
    deep = next(h for h in positions if len(h.pile) > 5)
    values = modern_tensor(modern_view(deep, 0))
    assert sum(piece(values, "pile")) == 3 and piece(values, "pile_size") == [len(deep.pile) / 10]
    assert all(piece(values, "pile")[c] for c in deep.pile[-3:])
    courtesy = next(h for h in positions if h.courtesy is not None)
    seat = (courtesy.courtesy + 1) % 4
    flags = piece(modern_tensor(modern_view(courtesy, seat)), "courtesy")
    assert flags.index(1.0) == 3 and sum(flags) == 1.0  # the seat before the observer
    assert piece(modern_tensor(modern_view(new_hand(1), 0)), "courtesy") == [0.0] * 4 + [1.0]


def piece(values: list[float], name: str) -> list[float]:
    start, stop = modern_piece_slices()[name]
    return values[start:stop]


def test_the_tensor_shows_the_seat_s_hand_the_table_and_the_turn() -> None:
    h = next(h for h, _ in POSITIONS if h.melds[0][WILD_MELD] and h.threes[1] and h.pile)
    values = modern_tensor(modern_view(h, 1))
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
    first = modern_tensor(modern_view(new_hand(2), 1))
    assert MODERN_PHASES[piece(first, "phase").index(1.0)] == "keep"  # threes to choose


def test_the_talon_due_and_the_dead_ranks_are_shown() -> None:
    talon = next(h for h, _ in POSITIONS if h.turn.talon)
    assert piece(modern_tensor(modern_view(talon, talon.to_move)), "talon") == [
        talon.turn.talon / 10]
    dead = next(h for h, _ in POSITIONS if h.dead)
    flags = piece(modern_tensor(modern_view(dead, 0)), "dead")
    assert [r for r, f in enumerate(flags) if f] == sorted(dead.dead)


def test_the_layout_covers_the_tensor_and_the_spelling_is_shown() -> None:
    layout = modern_tensor_layout()
    sizes = [len(range(*modern_piece_slices()[name])) for name, _ in layout]
    assert sum(sizes) == modern_tensor_size() == 394
    h, meld = next((h, a) for h, a in POSITIONS
                   if a.verb == "meld" and any(g.rank == WILD_MELD for g in a.groups))
    ids = MODERN.encode(meld)
    plain = FAMILY.tensor(h, h.to_move)
    spelled = FAMILY.respell(plain, ids[:-1])
    assert spelled == modern_tensor(modern_view(h, h.to_move), ids[:-1])
    assert sum(piece(spelled, "building_cards")) == sum(len(g.cards) for g in meld.groups)
    assert piece(spelled, "building_verb") == [0.0, 1.0, 0.0]
    assert piece(spelled, "building_group")[11] == 1.0  # the W group is the last row
    wild = next(g for g in meld.groups if g.rank == WILD_MELD)
    assert sum(piece(spelled, "building_groups")[33:36]) == len(wild.cards)


# -- the table and its record ----------------------------------------------------------------

def test_a_table_s_hands_follow_one_another_and_its_record_replays_to_the_totals() -> None:
    table = Table(family_of("modern-american"), hands=3)
    table.reset(seed=5)
    rng = random.Random(1)
    finished = []
    while not table.over:
        table.play(rng.choice(table.legal_ids()))
        if table.finished is not None:
            finished.append(table.finished)
            assert sum(table.finished) == 0 and table.finished[0] == table.finished[2]
    assert len(finished) == 3
    hands = list(replay(table.game.record))
    assert len(hands) == 3 and hands[-1].hand.end is not None
    totals = [sum(h.hand.end.sides[s].total for h in hands) for s in range(2)]
    assert table.returns[0] == sum(f[0] for f in finished) == totals[0] - totals[1]


def test_family_of_reads_the_preset_and_the_family_s_rules() -> None:
    assert family_of("modern-american") == FAMILY and family_of(rules=RULES) == FAMILY
    pagat = family_of(rules={"preset": "modern-american", "special_hands": "pagat"})
    assert isinstance(pagat, ModernFamily) and pagat.knobs.special_hands == "pagat"
    assert pagat != FAMILY and pagat.alphabet.specials[-1] == "Garbage"
    assert family_of("classic").alphabet is CLASSIC
    with pytest.raises(ValueError, match="Rules value"):
        family_of(rules={"preset": "classic"})


# -- OpenSpiel -------------------------------------------------------------------------------

def _openspiel():  # type: ignore[no-untyped-def]
    pyspiel = pytest.importorskip("pyspiel")
    from canasta.rl import openspiel as cos

    return pyspiel, cos


def test_openspiel_random_simulation_with_serialization() -> None:
    pyspiel, _ = _openspiel()
    game = pyspiel.load_game("python_canasta(preset=modern-american)")
    assert (game.num_players(), game.num_distinct_actions()) == (4, 142)
    assert game.observation_tensor_shape() == [394]
    assert game.information_state_tensor_shape() == [394 + 4 * 53]
    assert game.max_game_length() == 14 * 108
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    several = pyspiel.load_game("python_canasta(preset=modern-american,hands=2,returns=scaled)")
    pyspiel.random_sim_test(several, num_sims=1, serialize=False, verbose=False)


def test_openspiel_fed_the_pack_by_chance_plays_the_engine_s_hand() -> None:
    # chance outcomes given in the pack's order rebuild the deal, the threes' replacements and
    # the talons, so the same choices lead to the same hand
    _, cos = _openspiel()
    from canasta.modern_american.hand import shuffled_pack

    game = cos.load("modern-american")
    for seed in range(3):
        deck = shuffled_pack(RULES, seed)
        native = new_hand(deck=deck)
        state = game.new_initial_state()
        bots = [ModernHeuristicBot(seed + i) for i in range(4)]
        drawn = 0
        while native.end is None:
            while state.is_chance_node():
                assert deck[drawn] in dict(state.chance_outcomes())
                state.apply_action(deck[drawn])
                drawn += 1
            engine = state.engine_state
            assert engine.hands == native.hands and engine.pile == native.pile
            assert engine.threes == native.threes and engine.turn == native.turn
            assert sorted(engine.stock) == sorted(native.stock)
            assert state.engine_actions() == legal_actions(native)
            action = bots[native.to_move].choose(native)
            for i in MODERN.encode(action):
                state.apply_action(i)
            native = apply(native, action)
        while state.is_chance_node():
            state.apply_action(deck[drawn])
            drawn += 1
        assert state.is_terminal() and state.engine_state.end == native.end
        totals = [s.total for s in native.end.sides]
        assert state.returns() == [totals[s % 2] - totals[1 - s % 2] for s in range(4)]


def test_openspiel_plays_a_whole_game_to_the_target_with_the_game_s_returns() -> None:
    _, cos = _openspiel()
    for returns in ("points", "win"):
        game = cos.load("modern-american", hands=30, returns=returns)
        state = game.new_initial_state()
        rng = random.Random(4)
        bots = [ModernHeuristicBot(10 + i) for i in range(4)]
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([c for c, _ in outcomes],
                                               [p for _, p in outcomes])[0])
                continue
            h = state.engine_state
            for i in MODERN.encode(bots[h.to_move].choose(h)):
                state.apply_action(i)
        t = state._t
        assert max(t.scores) >= 8500 and 1 < t.hand < 30
        returns_now = state.returns()
        if returns == "win":
            best = 0 if t.scores[0] > t.scores[1] else 1
            assert returns_now == [1.0 if s % 2 == best else -1.0 for s in range(4)]
        else:
            assert returns_now[0] == t.scores[0] - t.scores[1] == -returns_now[1]


@pytest.mark.parametrize("rules", ["", "pile_visible_depth:3"])
def test_openspiel_resampling_keeps_the_seat_s_information_and_keeps_are_private(
        rules: str) -> None:
    pyspiel, _ = _openspiel()
    game = pyspiel.load_game("python_canasta", {"preset": "modern-american", "rules": rules})
    state = game.new_initial_state()
    rng = random.Random(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = private = deep = 0
    while not state.is_terminal() and checked < 25:
        if state.is_chance_node():
            state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
            continue
        if rng.random() < 0.2:
            for p in range(4):
                other = state.resample_from_infostate(p, sampler)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
                assert other.observation_tensor(p) == state.observation_tensor(p)
                assert other.engine_state.hands[p] == state.engine_state.hands[p]
                assert other.legal_actions()
                if rules and len(state.engine_state.pile) > 3:  # its hidden part dealt anew
                    assert other.engine_state.pile[-3:] == state.engine_state.pile[-3:]
                    deep += other.engine_state.pile != state.engine_state.pile
            checked += 1
        ids = state.legal_actions()
        seat = state.current_player()
        kept = [i for i in ids if enc.KEEP <= i < enc.KEEP_NONE_ID]
        i = kept[0] if kept else rng.choice(ids)
        state.apply_action(i)
        if kept:
            mine = state.information_state_string(seat).splitlines()
            theirs = state.information_state_string((seat + 1) % 4).splitlines()
            assert f"p{seat} {MODERN.id_text(i)}" in mine and f"p{seat} keep ?" in theirs
            assert MODERN.id_text(i) not in "\n".join(theirs)
            private += 1
    assert checked >= 10 and private and (deep or not rules)


def test_openspiel_spelling_moves_the_engine_only_when_complete_and_rules_are_parameters() -> None:
    pyspiel, cos = _openspiel()
    game = cos.load("modern-american")
    h = special_position()
    state = cos.state_at(game, h)
    assert state.legal_actions()[-1] == enc.SPECIAL  # Pairs, the first hand of the catalogue
    state.apply_action(enc.SPECIAL)
    assert state.is_terminal() and state.engine_state.end.special == (1, "Pairs")
    assert state.returns()[1] == 2500 - state.engine_state.end.sides[0].total
    meld_at = next(h for h, a in POSITIONS if a.verb == "meld" and len(MODERN.encode(a)) > 3)
    action = next(a for h2, a in POSITIONS if h2 is meld_at)
    state = cos.state_at(game, meld_at)
    ids = MODERN.encode(action)
    for i in ids[:-1]:
        state.apply_action(i)
        assert state.engine_state.hands == meld_at.hands and state.prefix
    state.apply_action(ids[-1])
    assert state.engine_state.melds == apply(meld_at, action).melds and state.prefix == ()
    pagat = pyspiel.load_game("python_canasta(preset=modern-american,rules=special_hands:pagat)")
    assert pagat.family.knobs.special_hands == "pagat" and pagat.num_distinct_actions() == 142
    assert cos.load(pagat.family).family == pagat.family  # a family, back to parameters
    with pytest.raises(Exception, match="unknown modern-american rules field"):
        pyspiel.load_game("python_canasta(preset=modern-american,rules=colour:1)")
    with pytest.raises(ValueError, match="rules"):
        cos.state_at(cos.load("classic"), h)


def test_shimmy_wraps_the_modern_american_game_for_pettingzoo() -> None:
    _openspiel()
    shimmy = pytest.importorskip("shimmy")
    from pettingzoo.test import api_test

    env = shimmy.OpenSpielCompatibilityV0(game_name="python_canasta",
                                          config={"preset": "modern-american"})
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Agent's m.* observation space value is")
        api_test(env, num_cycles=40)


# -- PettingZoo and Gymnasium ----------------------------------------------------------------

DICT_OBSERVATION_WARNINGS = ("Observation is not a NumPy array",
                             "Observation space for each agent probably should be")


def test_pettingzoo_aec_and_parallel_pass_their_api_and_seed_tests() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

    from canasta.rl.pettingzoo import env, parallel_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(preset="modern-american"), num_cycles=80)
    assert all(str(w.message).startswith(DICT_OBSERVATION_WARNINGS) for w in caught)
    for observation in ("dict", "box"):
        parallel_api_test(parallel_env(preset="modern-american", observation=observation),
                          num_cycles=80)
    seed_test(lambda: env(preset="modern-american"), num_cycles=150)
    parallel_seed_test(lambda: parallel_env(preset="modern-american"), num_cycles=150)


def test_pettingzoo_episodes_stay_in_bounds_and_record_the_game() -> None:
    pytest.importorskip("pettingzoo")
    import numpy as np

    from canasta.rl.pettingzoo import env, observation_box

    e = env(preset="modern-american", hands=2, observation="box", render_mode="ansi")
    box = observation_box(FAMILY, hands=2)
    assert box.shape == (394,) and np.all(box.high > box.low)
    e.reset(seed=2)
    assert e.action_space("player_0").n == 142
    rng = np.random.default_rng(2)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(10_000):
        obs, reward, terminated, truncated, info = e.last()
        totals[agent] += reward
        assert box.contains(obs)
        if terminated or truncated:
            e.step(None)
            continue
        mask = info["action_mask"]
        assert mask.shape == (142,) and mask.sum() > 0
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert totals["player_0"] == totals["player_2"] == -totals["player_1"] != 0
    record = e.unwrapped.table.game.record
    hands = list(replay(record))
    assert len(hands) == 2
    assert '"melds"' in e.unwrapped.table.family.describe(hands[-1].hand)


def test_gymnasium_checker_make_and_seeded_episodes() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import numpy as np
    from gymnasium.utils.env_checker import check_env

    import canasta.rl.gym  # noqa: F401  (registers canasta/Canasta-v0)
    from canasta.rl.gym import CanastaEnv

    for opponents in ("random", "modern-heuristic"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(CanastaEnv(preset="modern-american", opponents=opponents),
                      skip_render_check=True)
    env = gymnasium.make("canasta/Canasta-v0", preset="modern-american")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=True)

    def run(seed: int) -> tuple[float, int]:
        env = CanastaEnv(preset="modern-american", opponents="heuristic", reward_scale=1.0)
        _, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        total, steps, done = 0.0, 0, False
        while not done:
            assert info["action_mask"].shape == (142,)
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, reward, done, _, info = env.step(action)
            total += reward
            steps += 1
        hand = env.table.state.end
        assert total == hand.sides[0].total - hand.sides[1].total
        return total, steps

    assert run(3) == run(3)
    with pytest.raises(ValueError, match="Modern American bot"):
        CanastaEnv(preset="modern-american", opponents="expert")


def test_gymnasium_partner_self_plays_both_seats_of_the_side() -> None:
    pytest.importorskip("gymnasium")
    import numpy as np

    from canasta.rl.gym import CanastaEnv

    env = CanastaEnv(preset="modern-american", opponents="greedy", partner="self")
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    seats = set()
    done = False
    while not done:
        seats.add(info["seat"])
        _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    assert seats == {0, 2}


def test_a_hand_of_the_pagat_catalogue_through_the_environments() -> None:
    pytest.importorskip("pettingzoo")
    from canasta.rl.pettingzoo import env

    e = env(rules={"preset": "modern-american", "special_hands": "pagat"})
    e.reset(seed=0)
    assert e.unwrapped.table.family.alphabet.specials == ("Pairs", "Wild Pairs", "Straight",
                                                          "Garbage")
    assert e.unwrapped.table.game.record["rules"] == {"preset": "modern-american",
                                                      "special_hands": "pagat"}
