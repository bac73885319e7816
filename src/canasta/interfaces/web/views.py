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
from canasta.cards import card_names
from canasta.game import Game
from canasta.interfaces.web.tables import Table
from canasta.legal import legal_actions
from canasta.observation import observe
from canasta.position import result_to_json
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
    return view


def public_record(table: Table) -> dict[str, Any]:
    """The game record while the game is on: NOTATION §4 without the decks (which would show
    the hands and the stock), and ``"complete": false``. Once the game is over the whole record
    (:meth:`~canasta.game.GameRecord.to_json`) is given instead."""
    record = table.game.record.to_json()
    for hand in record["hands"]:
        del hand["deck"]
    record["complete"] = False
    return record
