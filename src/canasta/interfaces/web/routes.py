"""The HTTP API (``/api``): tables, views, actions, deals, seats, records, hints.

Every error is ``{"error": message, "code": code}``: 403 a wrong token, 404 an unknown table,
409 an illegal action or one out of turn (the message names the rule), 422 input that cannot be
understood, 503 a change the database could not store (nothing changed). A seat's token may be
given as the ``token`` query parameter or the ``X-Canasta-Token`` header on a view request; a
hint needs the ``token`` query parameter.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Path, Query, Request
from fastapi.responses import JSONResponse

from canasta.bots import bot_table
from canasta.errors import RulesError
from canasta.family import Family, families, get_rules, preset_names
from canasta.interfaces.web.errors import NotFound
from canasta.interfaces.web.games import hint_bot, seat_bot
from canasta.interfaces.web.lobby import Lobby
from canasta.interfaces.web.messages import (
    ChatLine,
    CreateTable,
    ErrorOut,
    HandToBot,
    HintOut,
    MetaOut,
    PlayAction,
    SeatToken,
    SeatTokenOut,
    TableCreated,
    TableLine,
    TableView,
)
from canasta.interfaces.web.views import card_points, preset_lines, rules_facts, table_rules

router = APIRouter(prefix="/api")

ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorOut, "description": "A wrong token, or one that may not do this."},
    404: {"model": ErrorOut, "description": "No such table (or seat)."},
    409: {"model": ErrorOut, "description": "Not now: an illegal action (the message names "
                                            "the rule), out of turn, the hand or game over."},
    422: {"model": ErrorOut, "description": "Input that cannot be understood."},
    503: {"model": ErrorOut, "description": "The database could not store it; nothing "
                                            "changed, try again."},
}

TABLE = "$response.body#/table_id"
FIRST_SEAT = "$response.body#/seats/0/seat"
FIRST_TOKEN = "$response.body#/seats/0/token"
TABLE_LINKS: dict[str, dict[str, Any]] = {
    "view": {"operationId": "getView", "description": "The first human seat's view.",
             "parameters": {"path.table_id": TABLE, "query.token": FIRST_TOKEN}},
    "watch": {"operationId": "getView", "description": "The spectators' view.",
              "parameters": {"path.table_id": TABLE}},
    "play": {"operationId": "playAction", "description": "An action of the first human seat.",
             "parameters": {"path.table_id": TABLE}, "requestBody": {"token": FIRST_TOKEN}},
    "draw": {"operationId": "playAction", "description": "The first human seat draws.",
             "parameters": {"path.table_id": TABLE},
             "requestBody": {"token": FIRST_TOKEN, "action": "draw"}},
    "next": {"operationId": "dealNextHand", "description": "Deal the next hand.",
             "parameters": {"path.table_id": TABLE}, "requestBody": {"token": FIRST_TOKEN}},
    "hint": {"operationId": "getHint", "description": "A hint for the first human seat.",
             "parameters": {"path.table_id": TABLE, "query.token": FIRST_TOKEN}},
    "toBot": {"operationId": "handSeatToBot", "description": "The first human seat leaves.",
              "parameters": {"path.table_id": TABLE, "path.seat": FIRST_SEAT},
              "requestBody": {"token": FIRST_TOKEN}},
    "claim": {"operationId": "claimSeat", "description": "The first human seat comes back.",
              "parameters": {"path.table_id": TABLE, "path.seat": FIRST_SEAT},
              "requestBody": {"token": FIRST_TOKEN}},
    "record": {"operationId": "getRecord", "description": "The table's record.",
               "parameters": {"path.table_id": TABLE}},
}
"""OpenAPI links from a new table to what can be done at it (they document the API, and let
a stateful test of the schema play at the tables it creates)."""

CREATE_ERRORS: dict[int | str, dict[str, Any]] = {
    201: {"links": TABLE_LINKS},
    **ERRORS,
    429: {"model": ErrorOut, "description": "Too many new tables from this client: see "
                                            "Retry-After."},
    503: {"model": ErrorOut, "description": "The database could not store it, or the server "
                                            "holds all the tables it may (`server_full`, "
                                            "with Retry-After): try again."}}
HINT_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS, 429: {"model": ErrorOut, "description": "Too many hints for this seat: see "
                                                      "Retry-After."}}

TableId = Annotated[str, Path(description="The table's id.", max_length=64)]
SeatIndex = Annotated[int, Path(ge=0, le=5, description="A seat, from 0.")]


def get_lobby(request: Request) -> Lobby:
    """The server's :class:`~canasta.interfaces.web.lobby.Lobby`."""
    lobby: Lobby = request.app.state.lobby
    return lobby


LobbyDep = Annotated[Lobby, Depends(get_lobby)]


def read_token(
    token: Annotated[str | None, Query(max_length=128, description="A seat token; without "
                                       "one, the spectators' view.")] = None,
    x_canasta_token: Annotated[str | None, Header(max_length=128)] = None,
) -> str | None:
    """The seat token of a GET request: the ``token`` query parameter or the header."""
    return token if token is not None else x_canasta_token


OptionalToken = Annotated[str | None, Depends(read_token)]


def json_reply(data: Any, status: int = 200) -> JSONResponse:
    """A JSON reply built without re-validation (views are plain dicts)."""
    return JSONResponse(data, status_code=status)


@router.post("/tables", status_code=201, response_model=TableCreated, responses=CREATE_ERRORS,
             operation_id="createTable", summary="Create a table")
async def create_table(body: CreateTable, lobby: LobbyDep, request: Request) -> TableCreated:
    """A new table with its first hand dealt. Tokens are given for human seats only, once:
    keep them (a token is the only key to its seat). Bots start playing at once. A client
    (an address) may create a few tables a minute (429 past that)."""
    client = request.client.host if request.client else ""
    table, tokens = await lobby.create(body, client)
    return TableCreated(table_id=table.id,
                        seats=[SeatTokenOut(seat=s, token=t) for s, t in tokens.items()])


@router.get("/tables", response_model=list[TableLine], operation_id="listTables",
            summary="List recent tables")
async def list_tables(
    lobby: LobbyDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    status: Literal["playing", "idle", "over"] | None = None,
) -> list[TableLine]:
    """The most recent tables, newest first (anyone may watch a table as a spectator)."""
    return [TableLine(table_id=t.id, rules=t.rules, players=list(t.players), status=t.status,
                      hands=t.hands, created_at=t.created_at.isoformat())
            for t in await lobby.list_tables(limit, status)]


@router.get("/tables/{table_id}/view", response_model=TableView, responses=ERRORS,
            operation_id="getView", summary="A seat's view, or the spectators'")
async def get_view(table_id: TableId, lobby: LobbyDep, token: OptionalToken = None) -> Any:
    """The seat's view (the position with every card the seat may not see left out, its legal
    actions, the score sheet); without a token, the spectators' view (no hand at all)."""
    return json_reply(await lobby.view(table_id, token))


@router.post("/tables/{table_id}/actions", response_model=TableView, responses=ERRORS,
             operation_id="playAction", summary="Play an action")
async def post_action(table_id: TableId, body: PlayAction, lobby: LobbyDep) -> Any:
    """Play an action (NOTATION §2) for the token's seat; the reply is the seat's new view.
    The action is stored before anyone is told."""
    return json_reply(await lobby.act(table_id, body.token, body.action))


@router.post("/tables/{table_id}/next", response_model=TableView, responses=ERRORS,
             operation_id="dealNextHand", summary="Deal the next hand")
async def post_next(table_id: TableId, body: SeatToken, lobby: LobbyDep) -> Any:
    """Once a hand is over, any seated player deals the next one (tables with no human seat,
    or created with ``auto_next``, deal by themselves)."""
    return json_reply(await lobby.next_hand(table_id, body.token))


@router.post("/tables/{table_id}/seats/{seat}/bot", response_model=TableView,
             responses=ERRORS, operation_id="handSeatToBot", summary="Hand a seat to a bot")
async def post_seat_bot(table_id: TableId, seat: SeatIndex, body: HandToBot,
                        lobby: LobbyDep) -> Any:
    """A bot plays the seat from now on. The seat's own token may do this at any time; another
    seated player's token once the seat is idle (no connection and no request for
    ``idle_seconds``). The reply is the asker's view."""
    return json_reply(await lobby.hand_to_bot(table_id, seat, body.token, body.bot))


@router.post("/tables/{table_id}/seats/{seat}/claim", response_model=TableView,
             responses=ERRORS, operation_id="claimSeat", summary="Take a seat back from a bot")
async def post_seat_claim(table_id: TableId, seat: SeatIndex, body: SeatToken,
                          lobby: LobbyDep) -> Any:
    """The seat's player (its own token) plays it again."""
    return json_reply(await lobby.claim(table_id, seat, body.token))


@router.post("/tables/{table_id}/chat", response_model=TableView, responses=HINT_ERRORS,
             operation_id="sayAtTable", summary="Say a line at the table")
async def post_chat(table_id: TableId, body: ChatLine, lobby: LobbyDep) -> Any:
    """A line of the token's seat's player in the table's chat: stored, then shown to every
    seat and spectator (the view's ``chat``). A seat may say a few lines a minute (429 past
    that). The reply is the seat's view."""
    return json_reply(await lobby.say(table_id, body.token, body.text))


@router.post("/tables/{table_id}/rematch", responses=ERRORS, operation_id="rematch",
             summary="Play again with the same seats")
async def post_rematch(table_id: TableId, body: SeatToken, lobby: LobbyDep) -> Any:
    """Once the game is over, a new table with the same rules and seats: ``{"table_id"}``.
    Every seat's token holds the same seat there, so the links of the table open the rematch
    (the view's ``rematch``). Asked again, the same table. 409 ``game_not_over`` before."""
    return json_reply(await lobby.rematch(table_id, body.token))


@router.get("/tables/{table_id}/record", responses=ERRORS, operation_id="getRecord",
            summary="The game record")
async def get_record(table_id: TableId, lobby: LobbyDep) -> Any:
    """Once the game is over, the whole game record (NOTATION §4, decks included). While it is
    on, the public record: the same without the decks, with ``"complete": false``."""
    return json_reply(await lobby.record(table_id))


@router.get("/tables/{table_id}/replay", responses=ERRORS, operation_id="getReplay",
            summary="Every position of a finished game")
async def get_replay(table_id: TableId, lobby: LobbyDep) -> Any:
    """Once the game is over, every position of every hand, face up, as the engine plays the
    record again (the deal, then each action), with the table's rules in a player's words
    (``table_rules``). 409 while the game is on."""
    return json_reply(await lobby.replay(table_id))


@router.get("/tables/{table_id}/hint", response_model=HintOut, responses=HINT_ERRORS,
            operation_id="getHint", summary="What the hint bot would play")
async def get_hint(table_id: TableId, lobby: LobbyDep,
                   token: Annotated[str, Query(min_length=1, max_length=128,
                                               description="The seat's token.")]) -> Any:
    """What the hint bot would play for the seat to move, and why (when the bot can say).
    Needs the seat's token; 409 when it is not the seat's turn. Asked again before anything is
    played, it answers the same hint and spends nothing of the seat's hint limit."""
    return json_reply(await lobby.hint(table_id, token))


def family_bots(family: Family, lobby: Lobby) -> dict[str, Any]:
    """One family's bots: ``{"family", "title", "bots": [names], "levels": {level: spec},
    "default": spec, "hint": spec}`` (a seat may be ``"bot:LEVEL"`` or ``"bot:NAME"``)."""
    table = bot_table(family)
    return {"family": family.name, "title": family.title, "bots": list(table.bots),
            "levels": dict(table.levels),
            "default": seat_bot(family, lobby.settings.default_bot),
            "hint": hint_bot(family, lobby.settings.hint_bot)}


@router.get("/meta", response_model=MetaOut, operation_id="getMeta", summary="Presets and bots")
async def get_meta(lobby: LobbyDep) -> MetaOut:
    """What a table can be created with: every family's presets and bots (``bots``,
    ``default_bot`` and ``hint_bot`` are the first family's)."""
    first = family_bots(families()[0], lobby)
    return MetaOut(presets=preset_names(), bots=[*first["bots"], *first["levels"]],
                   default_bot=first["default"], hint_bot=first["hint"],
                   families=[family_bots(family, lobby) for family in families()])


@router.get("/bots", operation_id="getBots", summary="Bots and levels")
async def get_bots(lobby: LobbyDep) -> dict[str, Any]:
    """``{"families": [{"family", "title", "bots", "levels": {level: spec}, "default",
    "hint"}]}``, the first family's keys also at the top: a seat may be ``"bot:LEVEL"``,
    ``"bot:NAME"`` with any of its family's (or any spec with parameters)."""
    every = [family_bots(family, lobby) for family in families()]
    first = every[0]
    return {"bots": [*first["bots"], *first["levels"]], "levels": first["levels"],
            "default": first["default"], "hint": first["hint"], "families": every}


@router.get("/presets", operation_id="getPresets", summary="Rules presets")
async def get_presets() -> dict[str, Any]:
    """``{"presets": [{"name", "label", "family", "title", "players", "sides",
    "target"}...]}``, every family's, the default first: the label in a player's words
    (``Classic — 6 players, 3 teams of 2``)."""
    return {"presets": preset_lines()}


@router.get("/rules/{preset}", responses=ERRORS, operation_id="getRules",
            summary="What a screen states of a preset's rules")
async def get_rules_facts(preset: Annotated[str, Path(max_length=64)]) -> dict[str, Any]:
    """The rules of a preset as the rules page states them: ``{"table_rules", "facts" (the
    family's facts that do not change in play: canasta size, canastas to go out, the word for
    a canasta, meld names, the laid cards' name, notes, how a game ends...), "card_points"}``;
    404 for an unknown preset."""
    try:
        rules = get_rules(preset)
    except RulesError:
        raise NotFound(f"no preset {preset!r}") from None
    facts = rules_facts(rules)
    keep = ("family", "title", "preset_title", "canasta_size", "canastas_to_go_out",
            "canasta_name", "opening_minimum", "meld_keys", "meld_names", "laid_name", "notes",
            "house_rules", "game_end")
    return {"table_rules": table_rules(rules), "facts": {k: facts[k] for k in keep if k in facts},
            "card_points": card_points(rules)}


@router.get("/health", operation_id="getHealth", summary="Is the server up")
async def get_health(lobby: LobbyDep) -> dict[str, Any]:
    """``{"ok": true, "tables": n}`` (tables in memory)."""
    return {"ok": True, "tables": len(lobby.tables)}


@router.get("/stats", operation_id="getStats", summary="Actions and their latency")
async def get_stats(lobby: LobbyDep) -> dict[str, Any]:
    """Committed actions since start-up, by humans and bots, with p50/p99 latency (ms); the
    bot workers (busy, searching, decisions waiting, timeouts)."""
    return {**lobby.stats.to_json(), "tables": len(lobby.tables), "bots": lobby.runner.stats()}
