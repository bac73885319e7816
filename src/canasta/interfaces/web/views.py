"""What a seat, or a spectator, may see of a table, as JSON.

A seat's view is the NOTATION §3 position with every card that seat may not see left out
(:meth:`~canasta.observation.Observation.to_json`: the other hands and the stock are counts),
with the table's keys added: the seat's legal actions when it is to move, the seats, this
hand's actions and the score sheet. A spectator's view is the same with no hand at all.
Nothing here ever reads another seat's cards or the order of the stock.
"""

from __future__ import annotations

from typing import Any

from canasta.actions import format_action
from canasta.bots.names import BOT_PREFIX, friendly_names, level_of
from canasta.cards import NUM_CARD_TYPES, card_names, format_card
from canasta.game import Game
from canasta.interfaces.web.tables import Table
from canasta.legal import legal_actions
from canasta.observation import observe
from canasta.position import result_to_json
from canasta.rules import Rules
from canasta.scoring import table_points
from canasta.state import State


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
    """The view of ``seat`` (``None``: a spectator): the position as the seat sees it, with the
    table's keys added (see :class:`~canasta.interfaces.web.messages.TableView`)."""
    game = table.game
    state = game.state
    mine = (seat is not None and not state.is_over and state.to_move == seat
            and not table.seats[seat].is_bot)
    sheet, scores = score_sheet(game)
    view = seat_position(state, seat) if seat is not None else public_position(state)
    log = [{"seat": s, "action": a} for s, a in table.history]
    view.update({
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
    })
    view.update(table_extras(table))
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
    }
    if state.is_over:
        extras["revealed"] = [card_names(hand) for hand in state.hands]
        extras["hand_points"] = [sum(state.rules.value_of[c] for c in hand)
                                 for hand in state.hands]
    return extras


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


def public_record(table: Table) -> dict[str, Any]:
    """The game record while the game is on: NOTATION §4 without the decks (which would show
    the hands and the stock), and ``"complete": false``. Once the game is over the whole record
    (:meth:`~canasta.game.GameRecord.to_json`) is given instead."""
    record = table.game.record.to_json()
    for hand in record["hands"]:
        del hand["deck"]
    record["complete"] = False
    return record
