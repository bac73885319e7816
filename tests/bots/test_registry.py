"""The bot registry: names, levels, spec parameters and their errors, explanations."""

from __future__ import annotations

import random

import pytest

from canasta import get_rules, legal_actions, new_hand, observe
from canasta.bots import (
    LEVEL_NAMES,
    BotSpecError,
    bot_table,
    explain,
    hint,
    make_bot,
    parse_spec,
    register_bot,
)
from canasta.bots.base import Bot, Explainer
from canasta.bots.heuristic import HeuristicBot
from canasta.bots.ismcts import ISMCTSBot
from canasta.bots.random_bot import RandomBot
from canasta.bots.weights import HeuristicWeights
from canasta.family import families

BOTS = bot_table().bots
LEVELS = bot_table().levels


def test_every_registered_bot_and_level_builds() -> None:
    for name in BOTS:
        bot = make_bot(name)
        assert isinstance(bot, Bot)
        assert bot.name == name
    assert set(LEVELS) == {"easy", "medium", "hard", "expert"}
    for level, spec in LEVELS.items():
        assert make_bot(level).name == parse_spec(spec)[0]
    assert make_bot("EASY").name == "greedy"


def test_parameters_reach_the_bot() -> None:
    bot = make_bot("heuristic:aggression=1.5, keep_cards=4")
    assert isinstance(bot, HeuristicBot)
    assert bot.weights.aggression == 1.5
    assert bot.weights.keep_cards == 4
    assert bot.weights.danger == HeuristicWeights().danger
    search = make_bot("ismcts:iterations=2000")
    assert isinstance(search, ISMCTSBot)
    assert search.iterations == 2000 and search.seconds is None
    timed = make_bot("ismcts:seconds=1,danger=2")
    assert isinstance(timed, ISMCTSBot)
    assert timed.seconds == 1.0 and timed.weights.danger == 2.0


@pytest.mark.parametrize(("spec", "words"), [
    ("minimax", "unknown bot 'minimax'"),
    ("heuristic:aggression", "want key=value"),
    ("heuristic:bravery=2", "unknown weight 'bravery'"),
    ("heuristic:aggression=lots", "must be a number"),
    ("heuristic:keep_cards=2.5", "must be an integer"),
    ("heuristic:aggression=1,aggression=2", "given twice"),
    ("ismcts:iterations=-5", "iterations must be positive"),
    ("ismcts:iterations=many", "iterations must be an integer"),
    ("ismcts:seconds=0", "seconds must be positive"),
    ("ismcts:seconds=nan", "seconds must be positive"),
    ("greedy:depth=3", "bad parameters for bot 'greedy'"),
    ("heuristic:weights=1", "give the weights either"),
    ("ismcts:weights=1", "give the weights either"),
    ("ismcts:mode=deep", "mode must be one of"),
    ("ismcts:model=2", "model must be 1"),
    ("ismcts:value=guess", "value must be one of count, fit"),
    ("heuristic-v1:nerve=1", "unknown weight 'nerve'"),
    ("random:x=1", "bad parameters for bot 'random'"),
])
def test_bad_specs_say_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(BotSpecError, match=words):
        make_bot(spec)


def test_unknown_bot_lists_the_known_ones() -> None:
    with pytest.raises(BotSpecError) as info:
        make_bot("minimax")
    for name in [*BOTS, *LEVELS]:
        assert name in str(info.value)


def test_explain_matches_choose_and_falls_back_to_a_generic_line() -> None:
    state = new_hand(get_rules("classic"), seed=4)
    obs, legal = observe(state, state.to_move), legal_actions(state)
    heuristic = make_bot("heuristic")
    assert isinstance(heuristic, Explainer)
    action, why = explain(heuristic, obs, legal, random.Random(1))
    assert action == heuristic.choose(obs, legal, random.Random(1))
    assert why and action in legal
    random_bot = make_bot("random")
    assert not isinstance(random_bot, Explainer)
    action, why = explain(random_bot, obs, legal, random.Random(1))
    assert action in legal
    assert why == f"the random bot plays {action}"
    action, why = hint(obs, legal)
    assert action == heuristic.choose(obs, legal, random.Random(0)) and why


@pytest.mark.parametrize("family", families(), ids=lambda f: f.name)
def test_every_family_gives_its_bots_and_the_four_levels(family: object) -> None:
    table = bot_table(family)
    assert table.family is family and bot_table(family) is table
    assert tuple(table.levels) == LEVEL_NAMES
    assert "random" in table.bots  # every family's
    for name in [*table.bots, *table.aliases]:
        assert isinstance(make_bot(name, family), Bot)
    for level, spec in table.levels.items():
        assert make_bot(level, family).name == table.resolve(spec)[0]
    assert not set(table.aliases) & set(table.names())  # older names are not listed
    assert table.hint_level in table.levels


@pytest.mark.parametrize("family", families(), ids=lambda f: f.name)
def test_every_familys_hint_gives_a_legal_action_and_a_reason(family: object) -> None:
    fam = bot_table(family).family
    position = fam.new_hand(fam.default_rules, 3)
    while len(fam.legal_actions(position)) < 2:
        position = fam.apply(position, fam.legal_actions(position)[0])
    legal = fam.legal_actions(position)
    action, why = hint(fam.observe(position, position.to_move), legal)
    assert action in legal
    assert why and "bot plays" not in why  # its own words, not the generic line


def test_a_registered_bot_plays_until_undone() -> None:
    undo = register_bot("coin", RandomBot)
    try:
        assert make_bot("coin").name == "random" and "coin" in bot_table().names()
    finally:
        undo()
    assert "coin" not in bot_table().bots
    undo = register_bot("heuristic", RandomBot)  # in place of a bot of the table
    try:
        assert make_bot("heuristic").name == "random"
    finally:
        undo()
    assert make_bot("heuristic").name == "heuristic"
