"""``canasta play`` without a terminal: the short-form parser, completion, the rendering of a
position, the suggestion list, move lines, and a scripted session that is saved and resumed."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("rich")

from rich.console import Console

from canasta import observe, parse_action, parse_cards, state_from_json
from canasta.actions import format_action
from canasta.errors import NotationError
from canasta.family import family_of
from canasta.game import GameRecord, replay
from canasta.interfaces.terminal import render
from canasta.interfaces.terminal.advice import describe, suggestions
from canasta.interfaces.terminal.app import NEXT_HAND_PROMPT, TerminalApp
from canasta.interfaces.terminal.commands import complete, parse_command
from canasta.interfaces.terminal.session import Table, seat_names
from canasta.rules import get_rules

NAMES = seat_names(4)
CLASSIC = family_of("classic")


def hand(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_cards(text)))


# -- the short-form parser -------------------------------------------------------------------

@pytest.mark.parametrize(("typed", "canonical"), [
    ("d", "draw"), ("draw", "draw"), ("DRAW", "draw"),
    ("t", "take"), ("t 7h 7d", "take 7d 7h"), ("take 7h 7d, As Ac Ad", "take 7d 7h, Ac Ad As"),
    ("m Kh Kd Ks", "meld Kd Kh Ks"), ("m K", "meld Kd Kh Ks"), ("m k 2c", "meld Kd Kh Ks 2c"),
    ("m 7: 2c", "meld 7: 2c"), ("meld K, 7 JK", "meld Kd Kh Ks, 7h 7s JK"),
    ("x 9s", "discard 9s"), ("discard 10h", "discard Th"), ("x 9", "discard 9s"),
    ("x jk", "discard JK"), ("a", "ask"), ("y", "yes"), ("n", "no"), ("p", "pass"),
])
def test_short_forms_read_as_notation(typed: str, canonical: str) -> None:
    cards = hand("Kh Kd Ks 9s 7h 7s Th 2c JK")
    command = parse_command(typed, cards)
    assert command.kind == "action"
    assert command.action is not None
    assert format_action(command.action) == canonical


@pytest.mark.parametrize(("typed", "kind"), [
    ("", "empty"), ("help", "help"), ("?", "help"), ("h", "help"), ("hint", "hint"),
    ("legal", "legal"), ("l", "legal"), ("show", "show"), ("score", "score"), ("log", "log"),
    ("q", "quit"), ("quit", "quit"), ("save", "save"),
])
def test_table_commands(typed: str, kind: str) -> None:
    assert parse_command(typed).kind == kind


def test_numbers_pick_suggestions() -> None:
    command = parse_command(" 12 ")
    assert (command.kind, command.number) == ("pick", 12)


@pytest.mark.parametrize(("typed", "says"), [
    ("dance", "unknown command"), ("x 7", "which one: 7h or 7s"), ("x", "say which card"),
    ("m Q", "you hold no natural Q"), ("m 2", "2s are wild"), ("x Zz", "not a card"),
    ("help me", "takes nothing"), ("d 9s", "takes no cards"),
])
def test_bad_input_is_explained(typed: str, says: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_command(typed, hand("Kh Kd Ks 7h 7s"))
    assert says in str(err.value)


def test_discard_alone_with_one_card() -> None:
    command = parse_command("x", hand("Qd"))
    assert command.action == parse_action("discard Qd")


def test_completion_of_verbs_and_cards() -> None:
    cards = hand("Kh Kd Kd 9s JK")
    assert complete("dr", "dr", cards) == ["draw "]  # the space comes with the word
    assert "discard " in complete("di", "di", cards)
    assert complete("x k", "k", cards) == ["Kd ", "Kh "]
    assert complete("m Kd Kd K", "K", cards) == ["Kh "]  # both Kd are used already
    assert complete("x ", "", cards) == ["9s ", "Kd ", "Kh ", "JK "]
    assert complete("ask ", "", cards) == []


# -- rendering ---------------------------------------------------------------------------------

POSITION = {
    "rules": "classic", "dealer": 3, "to_move": 0, "phase": "draw",
    "hands": [["As", "Ah", "Kc", "9s", "9d", "7h", "5c", "5c", "4d", "3c", "2s", "JK"],
              ["4c"] * 2 + ["6c"] * 2 + ["8c"], ["Td"] * 2 + ["Jh"], ["Qs"] * 2],
    "stock": ["5d", "6d", "7d"],
    "pile": ["8h", "2c", "Qh", "3s"],
    "sides": [
        {"score": 0, "melds": {}, "red_threes": ["3h"]},
        {"score": 1600, "red_threes": [],
         "melds": {"K": ["Kh", "Kd", "Ks", "Ks", "Kh", "Kd", "Kc"],
                   "8": ["8c", "8d", "8h", "8s", "8s", "2d", "2h"],
                   "7": ["7c", "7d", "7s"]}},
    ],
}


def render_text(renderable: object, width: int = 100) -> str:
    console = Console(record=True, width=width, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def test_board_shows_what_the_player_may_see() -> None:
    state = state_from_json(POSITION)
    levels = ["", "medium", "hard", "easy"]
    text = render_text(render.board(CLASSIC, observe(state, 0), NAMES, 3, "seed 9", levels))
    assert "Hand 3 · classic · your turn: draw, or take the pile" in text
    assert "Game to 5000: You & North 0 · West & East 1600   seed 9" in text
    assert "Stock 3" in text
    assert "Pile 4, top 3♠ · blocked: a black three is on top" in text
    assert "frozen by 2♣: a natural pair takes it" in text  # what froze it, under the top
    assert "You & North not opened: 50 to open · red threes -100 3♥" in text
    # the other side's running points (melds, canasta bonuses) and its melds on one line
    assert "West & East +975 (melds 175 · 2 canastas 800)" in text
    assert "  [K 7 natural]  [8 5+2 mixed]  7 3" in text
    assert ("West (medium) 5 cards · North (hard, partner) 3 cards · East (easy) 2 cards D"
            in text)
    # the hand: grouped by rank from aces down, black threes and wild cards apart
    assert "Your hand (12): A♥ A♠ · K♣ · 9♦ 9♠ · 7♥ · 5♣ 5♣ · 4♦ · 3♣ · 2♠ Joker" in text
    # nothing of the other hands leaks
    assert "10♦" not in text and "Q♠" not in text and "6♣" not in text


def test_pile_states() -> None:
    data = dict(POSITION)
    data["pile"] = ["8h", "Qh"]
    data["sides"] = [dict(POSITION["sides"][0], melds={"A": ["Ac", "Ad", "As"]}),
                     POSITION["sides"][1]]
    data["hands"] = [["Kc", "9s"], *POSITION["hands"][1:]]
    text = render_text(render.pile_text(CLASSIC.facts(observe(state_from_json(data), 0))))
    assert text.strip() == "Pile 2, top Q♥ · not frozen"
    data["pile"] = ["8h", "2c"]
    text = render_text(render.pile_text(CLASSIC.facts(observe(state_from_json(data), 0))))
    assert "blocked: a wild card is on top" in text and "frozen" in text


def test_breakdown_and_score_sheet() -> None:
    data = dict(POSITION, phase="over")
    state = state_from_json(data)
    assert state.result is not None
    rules = get_rules("classic")
    facts = CLASSIC.facts(observe(state, 0))
    text = render_text(render.breakdown(facts, rules, NAMES, 3, "the stock ran out"))
    for label in ("Melded cards", "Canastas", "Red threes", "Going out", "Cards in hand",
                  "Total", "You & North", "West & East"):
        assert label in text
    assert "Hidden" not in text  # classic gives no bonus for hidden canastas
    sheet = render_text(render.score_sheet([[100, -50], [20, 30]], rules, NAMES))
    assert "+100  (100)" in sheet and "-50  (-50)" in sheet and "+30  (-20)" in sheet
    assert "Total" in sheet and "120" in sheet


# -- suggestions and move lines -----------------------------------------------------------

def play_position(melds: dict[str, list[str]]) -> dict[str, object]:
    return {
        "rules": "classic", "dealer": 3, "to_move": 0, "phase": "play",
        "hands": [["Kh", "Kd", "Ks", "9s", "9d", "7h", "2c", "JK", "4d"], [], [], []],
        "stock": ["5d"], "pile": ["6h"],
        "sides": [{"score": 0, "melds": melds}, {"score": 0}],
    }


def test_suggestions_once_the_side_has_melded() -> None:
    state = state_from_json(play_position({"7": ["7c", "7d", "7s"], "9": ["9c", "9h", "9h"]}))
    from canasta import legal_actions

    items = suggestions(CLASSIC, observe(state, 0), legal_actions(state))
    melds = [format_action(s.action) for s in items if s.section == "Meld"]
    # one per rank, the most natural cards, no wild card where none is needed
    assert melds == ["meld Kd Kh Ks", "meld 9d 9s", "meld 7h"]
    discards = [format_action(s.action) for s in items if s.section == "Discard"]
    assert len(discards) == 9  # every kind of card in the hand
    assert len(legal_actions(state)) > len(items)


def test_opening_suggestions_prefer_few_wild_cards() -> None:
    state = state_from_json(play_position({}))
    from canasta import legal_actions

    items = suggestions(CLASSIC, observe(state, 0), legal_actions(state))
    opens = [format_action(s.action) for s in items if s.section == "Open"]
    assert opens and len(opens) <= 5
    assert opens[0] == "meld Kd Kh Ks 2c"  # 50 points with one wild card and fewest cards
    assert "meld Kd Kh Ks, 9d 9s 2c" in opens


def test_move_lines_hide_drawn_cards_from_others() -> None:
    table = Table.new(get_rules("classic"), 5, "random", "random", Path("/dev/null"))
    before = table.state
    assert before.to_move == 1
    action = parse_action("draw")
    from canasta import apply

    after = apply(before, action)
    line = describe(CLASSIC, before, action, after, NAMES, viewer=0)[0]
    assert line.startswith("West draws")
    drawn = set(after.hands[1]) - set(before.hands[1])
    assert not any(c in line for c in map(str, drawn))
    seen_by_west = describe(CLASSIC, before, action, after, ["A", "You", "B", "C"],
                            viewer=1)[0]
    assert seen_by_west.startswith("You draw ")


# -- scripted sessions, saving and resuming ---------------------------------------------------

class Script:
    """Answers prompts: '1' (the first suggestion, Enter between hands) ``budget`` times, then
    leaves with 'quit'."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.budget <= 0:
            return "quit"
        self.budget -= 1
        return "" if prompt == NEXT_HAND_PROMPT else "1"


def run_app(table: Table, reader: Script | object) -> tuple[int, str]:
    console = Console(record=True, width=100, file=io.StringIO(), color_system=None)
    app = TerminalApp(table, console, reader)  # type: ignore[arg-type]
    status = app.run()
    return status, console.export_text()


def new_table(tmp_path: Path, name: str) -> Table:
    return Table.new(get_rules("classic"), 21, "random", "random", tmp_path / name)


def test_resume_goes_on_exactly_as_without_the_break(tmp_path: Path) -> None:
    whole = new_table(tmp_path, "whole.json")
    status, text = run_app(whole, Script(90))
    assert status == 0 and "Game saved to" in text
    dealer = whole.names[1]  # a friendly name, fixed by the game
    assert "Score sheet" in text and f"Hand 2: {dealer} deals" in text  # a hand was crossed

    first = new_table(tmp_path, "broken.json")
    run_app(first, Script(37))
    record = GameRecord.loads((tmp_path / "broken.json").read_text())
    resumed = Table.resume(record, tmp_path / "broken.json", "heuristic", "heuristic")
    assert [b.spec for b in resumed.bots.values()] == ["random"] * 3  # the record's bots
    run_app(resumed, Script(90 - 37))

    a = (tmp_path / "whole.json").read_text()
    b = (tmp_path / "broken.json").read_text()
    assert a == b
    hands = list(replay(GameRecord.loads(b)))
    assert len(hands) >= 2 and hands[0].state.is_over


def test_resume_between_hands(tmp_path: Path) -> None:
    table = new_table(tmp_path, "g.json")
    script = Script(500)

    def reader(prompt: str) -> str:
        return "quit" if prompt == NEXT_HAND_PROMPT else script(prompt)

    status, text = run_app(table, reader)
    assert status == 0 and "Cards in hand" in text
    record = GameRecord.loads((tmp_path / "g.json").read_text())
    assert len(record.hands) == 1
    resumed = Table.resume(record, tmp_path / "g.json", "random", "random")
    assert resumed.state.is_over
    status, text = run_app(resumed, Script(3))
    assert "Hand 1: " in text and "Hand 2: " in text  # the breakdown again, then the next deal


def test_illegal_action_changes_nothing(tmp_path: Path) -> None:
    table = new_table(tmp_path, "i.json")
    lines: Iterator[str] = iter(["take 9s 9s", "discard JK", "bogus", "quit"])
    before: list[object] = []

    def reader(prompt: str) -> str:
        before.append(table.state)
        return next(lines)

    status, text = run_app(table, reader)
    assert status == 0
    assert "Not allowed: " in text
    assert "Cannot read that: unknown command 'bogus'" in text
    assert all(s is before[0] for s in before)


@pytest.mark.parametrize("signal", [EOFError, KeyboardInterrupt])
def test_ctrl_d_and_ctrl_c_save_and_leave(tmp_path: Path, signal: type[BaseException]) -> None:
    table = new_table(tmp_path, "c.json")

    def reader(prompt: str) -> str:
        raise signal

    status, text = run_app(table, reader)
    assert status == 0
    assert "Game saved to" in text and "canasta play --resume" in text
    record = GameRecord.loads((tmp_path / "c.json").read_text())
    assert record.players == ("human", "bot:random", "bot:random", "bot:random")


def test_answering_the_partner(tmp_path: Path) -> None:
    table = new_table(tmp_path, "a.json")
    state = state_from_json({
        "rules": "classic", "dealer": 3, "to_move": 0, "phase": "answer",
        "hands": [["4c", "5c"], [], ["Kc", "Kd"], []], "stock": ["5d"], "pile": ["6h"],
        "sides": [{"score": 0, "melds": {"K": ["Kh", "Ks", "Ks", "Kh", "2c", "2d", "JK"]}},
                  {"score": 0}],
    })
    table.game.state = state
    lines = iter(["show", "y", "quit"])
    status, text = run_app(table, lambda prompt: next(lines))
    assert status == 0
    assert f"{table.names[2]} asks: may I go out? Answer yes or no" in text
    assert "Answer  1 yes   2 no" in text
    assert "You answer yes" in text
    assert table.state.answer == "yes" and table.state.to_move == 2


def test_asking_the_partner(tmp_path: Path) -> None:
    table = new_table(tmp_path, "q.json")
    table.game.state = state_from_json({
        "rules": "classic", "dealer": 3, "to_move": 0, "phase": "play",
        "hands": [["Kc", "4d"], ["5c"], ["Qc", "Qd"], ["6c"]], "stock": ["5d"], "pile": ["6h"],
        "sides": [{"score": 0, "melds": {"K": ["Kh", "Ks", "Ks", "Kh", "2c", "2d", "JK"]}},
                  {"score": 0}],
    })
    lines = iter(["a", "quit"])
    status, text = run_app(table, lambda prompt: next(lines))
    assert status == 0
    assert 'You ask "Partner, may I go out?"' in text
    answer = table.state.answer
    assert answer in ("yes", "no") and table.state.to_move == 0
    tail = "you must go out this turn" if answer == "yes" else "you may not go out this turn"
    assert f"{table.names[2]} answers {answer}: {tail}" in text
    assert "your partner said " + answer in text  # the table says what the answer means


def test_table_commands_in_a_session(tmp_path: Path) -> None:
    table = new_table(tmp_path, "s.json")
    lines = iter(["legal", "log", "score", "save", "show", "9999", "t", "quit"])
    status, text = run_app(table, lambda prompt: next(lines))
    assert status == 0
    assert "legal action" in text and "draw" in text
    assert f"{table.names[1]} draws" in text  # the log repeats the moves of this hand
    assert "Score sheet (game to 5000)" in text
    assert f"The game is saved after every move, to {tmp_path / 's.json'}" in text
    assert "There is no suggestion 9999" in text
    assert text.count("Hand 1 · classic") == 2  # shown, then shown again by 'show'


def test_replay_text_tells_a_record_hand_by_hand(tmp_path: Path) -> None:
    from canasta.interfaces.terminal.advice import replay_text

    table = new_table(tmp_path, "r.json")
    run_app(table, Script(60))
    lines = list(replay_text(GameRecord.loads((tmp_path / "r.json").read_text())))
    west, north = table.names[1], table.names[2]  # the replay calls the bots as the game did
    assert lines[0] == f"Players: You, {west} (random), {north} (random), {table.names[3]} (random)"
    assert lines[1] == "Hand 1: You deal"
    assert lines[2].startswith("  You hold ")
    assert any(line.startswith(f"  {west} draws ") for line in lines)  # every card face up
    assert any(line.startswith(f"  hand scores: You & {north} ") for line in lines)
    assert lines[-1].startswith("The game goes on (to 5000): You & ")


def test_replay_text_names_the_winner() -> None:
    from canasta.interfaces.terminal.advice import game_line

    rules = get_rules("classic")
    names = ["You", "Rosa", "Hugo", "Ines"]
    assert game_line(rules, names, [5120, 3400], 0) == (
        "Game over: You & Hugo win with 5120 points (You & Hugo 5120, Rosa & Ines 3400).")
    assert game_line(rules, names, [1200, 300], None).startswith("The game goes on")


def test_bots_get_distinct_friendly_names_with_their_level(tmp_path: Path) -> None:
    table = Table.new(get_rules("classic-6p"), 3, "heuristic", "greedy", tmp_path / "n.json")
    assert table.names[0] == "You" and len(set(table.names)) == 6
    assert table.levels == ["", "easy", "medium", "easy", "medium", "easy"]
    table.save()
    again = Table.resume(GameRecord.loads((tmp_path / "n.json").read_text()),
                         tmp_path / "n.json", "random", "random")
    assert again.names == table.names  # a resumed game keeps its names
    other = Table.new(get_rules("classic-6p"), 4, "heuristic", "greedy", tmp_path / "m.json")
    assert other.names != table.names  # another game, other names


def test_the_board_fits_80_columns_and_24_lines_in_mid_hand() -> None:
    """A six-player table late in a hand: both sides with many melds, pile and known cards."""
    state = state_from_json({
        "rules": "classic-6p", "dealer": 5, "to_move": 0, "phase": "play",
        "hands": [["As", "Ah", "Kc", "9s", "9d", "7h", "5c", "5c", "4d", "3c", "2s", "JK",
                   "Qd", "Jd"], ["6d", "6d", "6h", "7d", "7d", "9h", "9h", "Th", "Jh"],
                  ["5h", "5h", "6h", "6h"], ["Qs", "Qs", "8h", "8h", "4h", "4h", "4s", "4s"],
                  ["Kd", "Kd", "Jh", "Th", "Th", "7s", "7s"],
                  ["Ks", "8d", "8d", "9h", "5s", "5s", "6s", "6s", "Js", "Js"]],
        "stock": ["5d", "6c", "Ad", "Ad", "Ad"], "pile": ["8h", "2c", "Qh", "Td", "6s"],
        "sides": [
            {"score": 3200, "red_threes": ["3h", "3d"],
             "melds": {"K": ["Kh", "Kh", "Kh", "Kc", "Kc", "Kd", "Ks"],
                       "8": ["8c", "8c", "8c", "8s", "8s", "2d", "2h"], "7": ["7c", "7c", "7c"],
                       "6": ["6c", "6c", "JK"], "T": ["Tc", "Tc", "Tc", "Ts"],
                       "J": ["Jc", "Jc", "Jc"]}},
            {"score": 4100, "red_threes": ["3h"],
             "melds": {"A": ["Ac", "Ac", "Ac", "Ah", "Ah", "As", "2c"],
                       "Q": ["Qc", "Qc", "Qc", "Qh", "Qh", "Qd", "Qd", "Qs"],
                       "9": ["9c", "9c", "9c"], "5": ["5d", "5d", "5c", "5s"],
                       "4": ["4c", "4c", "2s"]}},
        ],
    })
    names = ["You", "Rosa", "Hugo", "Ines", "Teo", "Vera"]
    levels = ["", "medium", "medium", "medium", "medium", "medium"]
    obs = observe(state, 0)
    from canasta import legal_actions

    screen = render_text(render.board(CLASSIC, obs, names, 7, "seed 12", levels), width=80)
    items = suggestions(CLASSIC, obs, legal_actions(state))
    screen += render_text(render.suggestions_view(CLASSIC, state.rules, items), width=80)
    lines = screen.rstrip("\n").split("\n")
    assert max(len(line.rstrip()) for line in lines) <= 80
    assert len(lines) <= 22, "\n".join(lines)  # with a move line and the prompt: 24
    assert "You, Hugo & Teo +" in screen  # running points of each side


def test_card_codes_read_with_suit_symbols() -> None:
    from canasta.interfaces.terminal.advice import pretty_cards

    assert pretty_cards("illegal action 'meld 4c 4d JK'") == "illegal action 'meld 4♣ 4♦ Joker'"
    assert pretty_cards("discard Td, then 10h") == "discard 10♦, then 10♥"
    assert pretty_cards("As the pile is frozen, keep As") == "As the pile is frozen, keep A♠"
    assert pretty_cards("Kings and sevens") == "Kings and sevens"  # words stay words


def test_house_rules_from_the_command_line() -> None:
    from canasta.errors import RulesError
    from canasta.interfaces.terminal import house_rules

    rules = house_rules(get_rules("classic-2p"), ["target_score=3000",
                                                  "pile_frozen_by_wild=false",
                                                  "initial_meld_thresholds=[[null, 10], [0, 40]]"])
    assert (rules.name, rules.target_score) == ("classic-2p", 3000)
    assert not rules.pile_frozen_by_wild
    assert rules.minimum_for(0) == 40 and rules.num_players == 2
    with pytest.raises(RulesError, match="asking a partner needs partnerships"):
        house_rules(get_rules("classic-3p"), ["permission_question_enabled=true"])
    with pytest.raises(RulesError, match="unknown rules field 'colour'"):
        house_rules(get_rules("classic"), ["colour=red"])


def test_how_to_run_names_the_activation_when_canasta_is_not_on_the_path(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from canasta.interfaces.terminal import session

    monkeypatch.setattr(session.shutil, "which", lambda name: None)
    if sys.prefix == sys.base_prefix:
        pytest.skip("not in a virtual environment")
    assert session.how_to_run("canasta play").endswith("bin/activate && canasta play")
    monkeypatch.setattr(session.shutil, "which", lambda name: "/usr/bin/canasta")
    assert session.how_to_run("canasta play") == "canasta play"


def test_plural_ranks_are_words() -> None:
    from canasta.cards import THREE, rank_name

    assert [rank_name(r) for r in (10, 9, 3, THREE)] == ["aces", "kings", "sevens", "black threes"]


OLD_SAVE = Path(__file__).resolve().parents[1] / "saves" / (
    "classic-6p-3x2-saved-before-the-one-card-rule.json")


def test_a_save_from_before_the_one_card_rule_plays_on(tmp_path: Path) -> None:
    """The save holds a one-card take of a one-card pile with stock left (hand 1, action 150),
    legal when it was played and illegal under today's classic family: the game goes on under
    ``one_card_pile_take_ban: "stock_out"``, and says so."""
    path = tmp_path / "old.json"
    path.write_text(OLD_SAVE.read_text())
    record = GameRecord.loads(path.read_text())
    assert record.rules == get_rules("classic-6p-3x2")
    resumed = Table.resume(record, path, "random", "random")
    assert resumed.rules.one_card_pile_take_ban == "stock_out"
    assert resumed.game.hand_number == 3 and not resumed.state.is_over
    assert any("saved before a rule of its family changed" in n
               and "one_card_pile_take_ban 'stock_out'" in n for n in resumed.notes)
    status, _ = run_app(resumed, Script(6))
    assert status == 0
    saved = GameRecord.loads(path.read_text())
    assert saved.rules.one_card_pile_take_ban == "stock_out"  # written down from now on
    assert len(saved.hands[2].actions) > 20  # played on
    again = Table.resume(saved, path, "random", "random")
    assert again.rules == resumed.rules and not any("one-card" in n for n in again.notes)
