"""What a seat, or a spectator, may see of a table, as JSON.

A seat's view is the NOTATION §3 position with every card that seat may not see left out
(:meth:`~canasta.observation.Observation.to_json`: the other hands and the stock are counts),
with the table's keys added: the seat's legal actions when it is to move, the seats, this
hand's actions and the score sheet. A spectator's view is the same with no hand at all.
Nothing here ever reads another seat's cards or the order of the stock.
"""

from __future__ import annotations

import weakref
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from canasta.actions import format_action
from canasta.bots.names import BOT_PREFIX, friendly_names, level_of
from canasta.cards import NUM_CARD_TYPES, card_names, format_card
from canasta.deal import new_hand
from canasta.family import apply_line
from canasta.game import Game, GameRecord
from canasta.interfaces.web.house_rules import FORM, Field
from canasta.legal import legal_actions
from canasta.observation import observe
from canasta.plans import top_block
from canasta.position import result_to_json, state_to_json
from canasta.rules import PRESETS, Rules
from canasta.scoring import table_points
from canasta.state import State
from canasta.table import freeze_for

if TYPE_CHECKING:
    from canasta.interfaces.web.tables import Table


def seat_position(state: State, seat: int) -> dict[str, Any]:
    """The position as ``seat`` sees it."""
    return observe(state, seat).to_json()


def public_position(state: State) -> dict[str, Any]:
    """The position as a spectator sees it: every hand a count, the stock a count; the cards
    known to be in a hand (taken with the pile, seen by all) stay."""
    position = observe(state, 0).to_json()
    position["seat"] = None
    position["hands"] = [len(hand) for hand in state.hands]
    position["known"] = [card_names(known) for known in state.known]
    return position


def score_sheet(game: Game) -> tuple[list[dict[str, Any]], list[int]]:
    """Every ended hand's result with the cumulative scores after it, and the scores now (an
    ended hand waiting for the next deal counted)."""
    totals = [0] * game.rules.num_sides
    sheet: list[dict[str, Any]] = []
    ended = [(record.dealer, state) for record, state in game.finished]
    if not game.is_over and game.state.is_over:
        ended.append((game.state.dealer, game.state))
    for number, (dealer, state) in enumerate(ended, 1):
        assert state.result is not None
        totals = [t + side.total for t, side in zip(totals, state.result.sides)]
        sheet.append({"hand": number, "dealer": dealer, "result": result_to_json(state.result),
                      "scores": list(totals)})
    return sheet, totals


def build_view(table: Table, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator), as the table's family builds it: for the
    classic presets :func:`classic_view`, for Modern American
    :func:`~canasta.interfaces.web.modern_room.build_modern_view`."""
    return table.family.view(table, seat)


def classic_view(table: Table, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator) at a classic table: the position as the
    seat sees it, with the table's keys added (see
    :class:`~canasta.interfaces.web.messages.TableView`)."""
    game = table.game
    state = game.state
    mine = (seat is not None and not state.is_over and state.to_move == seat
            and not table.seats[seat].is_bot)
    sheet, scores = score_sheet(game)
    view = seat_position(state, seat) if seat is not None else public_position(state)
    log = [{"seat": s, "action": a, **facts}
           for (s, a), facts in zip(table.history, log_facts(table))]
    view.update({
        "family": table.family.name,
        "table_id": table.id,
        "status": table.status,
        "hand_number": table.hand_number,
        "version": sum(len(h.actions) for h, _ in game.finished)
        + (0 if game.is_over else len(game.actions)) + table.hand_number - 1,
        "your_turn": mine,
        "legal": [format_action(a) for a in legal_actions(state)] if mine else [],
        "players": list(game.players),
        "seats": [s.to_json() for s in table.seats],
        "log": log,
        "last_action": log[-1] if log else None,
        "scores": scores,
        "score_sheet": sheet,
        "target": game.rules.target_score,
        "winner": game.winner,
        "next_hand": "auto" if table.deals_by_itself() else "request",
        "waiting_for": table.waiting_for(),
    })
    view.update(table_extras(table))
    view["pile_freeze"] = pile_freeze(state, seat)
    return view


# -- what the page shows beyond the position: names, running points, the hands at the end -------

def table_extras(table: Table) -> dict[str, Any]:
    """The keys a player's screen needs that the position does not hold: each seat's display
    name and level, each side's running points, the card values, and once the hand is over
    every seat's remaining cards (they are counted openly)."""
    state = table.game.state
    extras: dict[str, Any] = {
        "names": display_names(table),
        "live": live_points(state),
        "card_points": card_points(state.rules),
        "table_rules": table_rules(state.rules),
    }
    if state.is_over:
        extras["revealed"] = [card_names(hand) for hand in state.hands]
        extras["hand_points"] = [sum(state.rules.value_of[c] for c in hand)
                                 for hand in state.hands]
    return extras


_FACTS: weakref.WeakKeyDictionary[Table, tuple[tuple[int, int], list[dict[str, Any]], State]]
_FACTS = weakref.WeakKeyDictionary()


def log_facts(table: Table) -> list[dict[str, Any]]:
    """By action of the current hand, what every seat saw it do beyond its text: a take's
    ``took`` (the pile's size) and ``top`` (its top card), and the ``red_threes`` it laid
    (a red three drawn is laid face up). Kept per table and extended action by action."""
    game = table.game
    actions = game.actions
    key = (len(game.finished), id(game.deck))
    cached = _FACTS.get(table)
    if cached is not None and cached[0] == key and len(cached[1]) <= len(actions):
        facts, state = cached[1], cached[2]
    else:
        facts = []
        state = new_hand(game.rules, deck=game.deck, dealer=game.state.dealer,
                         scores=game.scores if not game.is_over else _scores_before(game))
    for line in actions[len(facts):]:
        before = state
        state = apply_line(state, line)
        side = before.to_move % game.rules.num_sides
        fact: dict[str, Any] = {}
        if line.startswith("take"):
            fact["took"] = len(before.pile)
            fact["top"] = format_card(before.pile[-1])
        laid = len(state.red_threes[side]) - len(before.red_threes[side])
        if laid > 0:
            fact["red_threes"] = card_names(state.red_threes[side][-laid:])
        facts.append(fact)
    _FACTS[table] = (key, facts, state)
    return facts


def _scores_before(game: Game) -> tuple[int, ...]:
    """The scores before the last hand of a game that is over."""
    scores = [0] * game.rules.num_sides
    for _, state in game.finished[:-1]:
        assert state.result is not None
        scores = [s + side.total for s, side in zip(scores, state.result.sides)]
    return tuple(scores)


def display_names(table: Table) -> list[dict[str, Any]]:
    """By seat: ``{"name", "level", "bot"}``. A bot seat (named ``bot:SPEC`` when the table was
    made) gets a friendly name, distinct at the table and fixed by its id; a person keeps theirs.
    ``level`` is the level of the bot playing the seat now (``null`` for a person)."""
    names = [s.name for s in table.seats]
    bots = [i for i, n in enumerate(names) if n.startswith(BOT_PREFIX)]
    people = [n for i, n in enumerate(names) if i not in bots]
    given = iter(friendly_names(table.id, len(bots), taken=people))
    out = []
    for i, seat in enumerate(table.seats):
        name = next(given) if i in bots else seat.name
        level = level_of(seat.bot) if seat.is_bot and seat.bot else None
        out.append({"name": name, "level": level, "bot": seat.is_bot})
    return out


def live_points(state: State) -> list[dict[str, Any]]:
    """By side, what its melds and red threes count so far (the running total of the hand),
    its canastas, and what its opening needs while it has not melded."""
    rules = state.rules
    out = []
    for side in range(rules.num_sides):
        first = next(s for s in range(rules.num_players) if s % rules.num_sides == side)
        owner = state.owner_of(first)
        melds = state.melds[owner]
        points = table_points(rules, melds, state.hidden[owner], len(state.red_threes[side]))
        opened = any(m is not None for m in melds)
        out.append({
            "melded": points.melded, "canastas": points.canastas, "hidden": points.hidden,
            "natural_canastas": points.natural_canastas,
            "mixed_canastas": points.mixed_canastas, "red_threes": points.red_threes,
            "total": points.total, "opened": opened,
            "minimum": None if opened else rules.minimum_for(state.scores[side]),
        })
    return out


def card_points(rules: Rules) -> dict[str, int]:
    """What each card counts in a meld under ``rules``, by card (``Kh``: 10)."""
    return {format_card(c): rules.value_of[c] for c in range(NUM_CARD_TYPES)}


def pile_freeze(state: State, seat: int | None) -> dict[str, Any]:
    """Whether the pile is frozen for ``seat`` (``None``: a spectator, who is told the freeze
    that holds for everyone), why in a player's words, and the card that froze it."""
    everyone = freeze_for(state.rules, state.pile, state.pile_frozen, side_melded=True)
    freeze = everyone if seat is None else state.freeze_for(seat)
    return {"frozen": freeze.frozen, "reason": freeze.reason,
            "card": format_card(freeze.card) if freeze.card is not None else None,
            "for_everyone": everyone.frozen, "blocked": top_block(state.pile)}


# -- the rules as a screen states them -----------------------------------------------------------

PRESET_NAMES: dict[str, str] = {
    "classic": "Classic",
    "classic-2p": "Classic",
    "classic-3p": "Classic",
    "classic-3p-cutthroat": "Cutthroat",
    "classic-6p": "Classic",
    "classic-6p-3x2": "Classic",
    "korean-old": "Korean (old)",
    "spruce-classic": "Spruce classic",
}
"""The name of each preset's game; the seating words of its label follow from its rules."""

FORM_FIELDS: dict[str, Field] = {f.name: f for _, fields in FORM for f in fields}


def seating_words(rules: Rules) -> str:
    """``4 players, partners``, ``3 players``, ``6 players, 3 teams of 2``."""
    n, k = rules.num_players, rules.num_sides
    if n == k:
        return f"{n} players"
    if k * 2 == n and k == 2:
        return f"{n} players, partners"
    return f"{n} players, {k} teams of {n // k}"


def preset_label(rules: Rules) -> str:
    """The preset's label in a player's words: ``Classic — 6 players, 3 teams of 2``."""
    return f"{PRESET_NAMES.get(rules.name, rules.name)} — {seating_words(rules)}"


def _value_words(field: Field | None, value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if field is not None and field.kind == "choice" and value in field.choices:
        return (field.choice_labels or field.choices)[field.choices.index(value)]
    if value is None:
        return "no limit"
    if field is not None and field.kind == "thresholds":
        return ", ".join(f"{m} below {value[1][0]}" if low is None else f"{m} from {low}"
                         for low, m in value) if len(value) > 1 else f"{value[0][1]}"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in sorted(value))
    return str(value)


def house_rules_in_force(rules: Rules) -> list[dict[str, Any]]:
    """The fields that differ from the preset's (as the rules' own JSON gives them), with the
    lobby's label and the value in a player's words: ``{"field", "label", "value", "text"}``."""
    changed = rules.to_json()
    if isinstance(changed, str):
        return []
    out = []
    for name, value in changed.items():
        if name == "preset":
            continue
        field = FORM_FIELDS.get(name)
        label = field.label if field is not None else name.replace("_", " ").capitalize()
        out.append({"field": name, "label": label, "value": value,
                    "text": f"{label}: {_value_words(field, value)}"})
    return out


@lru_cache(maxsize=256)
def _table_rules(rules: Rules) -> tuple[tuple[str, Any], ...]:
    house = house_rules_in_force(rules)
    return (("preset", rules.name), ("label", preset_label(rules)), ("custom", bool(house)),
            ("players", rules.num_players), ("sides", rules.num_sides),
            ("canasta_size", rules.canasta_size),
            ("canastas_to_go_out", rules.min_canastas_to_go_out),
            ("draw_count", rules.draw_count), ("target_score", rules.target_score),
            ("ask_partner", rules.permission_question_enabled), ("house_rules", house))


def table_rules(rules: Rules) -> dict[str, Any]:
    """The rule facts a screen states, as the engine's rules hold them (see API.md, *Views*)."""
    return dict(_table_rules(rules))


def preset_lines() -> list[dict[str, Any]]:
    """Every preset for the lobby: ``{"name", "label", "players", "sides", "target"}``."""
    return [{"name": name, "label": preset_label(r), "players": r.num_players,
             "sides": r.num_sides, "target": r.target_score} for name, r in PRESETS.items()]


# -- replays --------------------------------------------------------------------------------------

REPLAY_KEYS = ("dealer", "to_move", "phase", "hands", "pile", "sides", "pile_frozen", "answer",
               "result")


def replay_position(state: State) -> dict[str, Any]:
    """A position of a replay, face up: the NOTATION §3 keys a replay shows, the stock a
    count, and the freeze that holds for everyone."""
    full = state_to_json(state)
    out = {k: full[k] for k in REPLAY_KEYS if k in full}
    out["stock"] = len(state.stock)
    out["pile_freeze"] = pile_freeze(state, None)
    return out


def replay_positions(record: GameRecord) -> dict[str, Any]:
    """Every position of a finished game as the engine plays its record again:
    ``{"table_rules", "players", "hands": [{"dealer", "actions", "positions"}]}``, the
    positions after the deal and after each action."""
    rules = record.rules
    scores = [0] * rules.num_sides
    hands = []
    for hand in record.hands:
        state = new_hand(rules, deck=hand.deck, dealer=hand.dealer, scores=scores)
        positions = [replay_position(state)]
        for line in hand.actions:
            state = apply_line(state, line)
            positions.append(replay_position(state))
        if state.result is not None:
            scores = [s + side.total for s, side in zip(scores, state.result.sides)]
        hands.append({"dealer": hand.dealer, "actions": list(hand.actions),
                      "positions": positions})
    return {"table_rules": table_rules(rules), "players": list(record.players), "hands": hands}


def public_record(table: Table) -> dict[str, Any]:
    """The game record while the game is on: NOTATION §4 without the decks (which would show
    the hands and the stock), and ``"complete": false``. Once the game is over the whole record
    (:meth:`~canasta.game.GameRecord.to_json`) is given instead."""
    record: dict[str, Any] = table.game.record.to_json()
    for hand in record["hands"]:
        del hand["deck"]
    record["complete"] = False
    return record
