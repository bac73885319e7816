"""Typed messages: HTTP request bodies, WebSocket messages in both directions, replies.

Inbound messages are validated here (pydantic, unknown fields refused, lengths capped) before
any handler sees them; a WebSocket message is one of :data:`InboundMessage`, told apart by its
``type`` (a message with an ``action`` and no ``type`` is an action).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from typing import Annotated, Any, Literal, TypedDict

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from canasta.interfaces.web.errors import Invalid

MAX_MESSAGE_BYTES = 4096
"""The largest WebSocket message read; longer ones are refused unread."""

Token = Annotated[str, Field(min_length=1, max_length=128, description="A seat token.")]
ActionText = Annotated[str, Field(min_length=1, max_length=300,
                                  description="An action in NOTATION §2, e.g. 'meld Kh Kd Ks'.",
                                  examples=["draw", "meld Kh Kd Ks", "discard 9s"])]
SeatSpec = Annotated[str, Field(
    min_length=1, max_length=120, pattern=r"^(human|bot(:[A-Za-z0-9_.:=,\- ]+)?)$",
    description="'human', 'bot' (the default bot) or 'bot:SPEC' with any bot spec, e.g. "
                "'bot:heuristic', 'bot:ismcts:iterations=500'.")]
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""Characters that change the direction of the text around them (U+202E turns ``ann`` into
``nna``): a name could make a player's line, or another name, read as something else."""
VISIBLE_CATEGORIES = "LNPS"
"""Unicode categories (first letter) of characters that show: letters, digits, punctuation,
symbols (a name of spaces or zero-width characters alone would be a blank)."""


def check_name(name: str) -> str:
    """A player's name: no text-direction controls, and something to see."""
    if any(c in BIDI_CONTROLS for c in name):
        raise ValueError("a name may not hold text-direction controls (such as U+202E)")
    if not any(unicodedata.category(c)[0] in VISIBLE_CATEGORIES for c in name):
        raise ValueError("a name needs a visible character (not only spaces or invisible ones)")
    return name


Name = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f\x7f]+$",
                            description="A player's name: something visible, without control "
                                        "or text-direction characters."),
                 AfterValidator(check_name)]
MAX_CHAT = 200
"""The longest line of a table's chat (characters)."""
ChatText = Annotated[str, Field(min_length=1, max_length=MAX_CHAT, pattern=r"^[^\x00-\x1f\x7f]+$",
                                description="A line of the table's chat: something visible, no "
                                            "control or text-direction characters."),
                     AfterValidator(check_name)]
BotSpec = Annotated[str, Field(min_length=1, max_length=120,
                               pattern=r"^[A-Za-z0-9_.:=,\- ]+$")]
MessageId = Annotated[str, Field(max_length=64)] | Annotated[int, Field(ge=0, lt=2**53)]


class Strict(BaseModel):
    """Unknown fields are refused, and so are values of the wrong JSON type (no ``"1"`` or
    ``true`` for a number, no ``"yes"`` for a boolean)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# -- HTTP bodies ---------------------------------------------------------------------------------

class CreateTable(Strict):
    """``POST /api/tables``."""

    rules: str | dict[str, Any] | None = Field(
        None, description="A preset name of any family, or a rules object (NOTATION §3); "
                          "default: the first family's default preset.")
    seats: list[SeatSpec] | None = Field(
        None, min_length=2, max_length=6,
        description="One entry per seat; default: a human at seat 0 and the default bot "
                    "elsewhere.", examples=[["human", "bot:heuristic", "human", "bot:heuristic"]])
    names: list[Name] | None = Field(None, min_length=2, max_length=6,
                                     description="Players' names, by seat.")
    seed: int | None = Field(None, ge=0, lt=2**63,
                             description="Shuffle seed (kept secret); default: random.")
    auto_next: bool | None = Field(
        None, description="Deal each next hand by itself (true) or on a 'next' request "
                          "(false); default: by itself only when no human holds a seat.")


class SeatToken(Strict):
    """A seat token, for ``next`` and ``claim``."""

    token: Token


class PlayAction(Strict):
    """``POST /api/tables/{id}/actions``."""

    token: Token
    action: ActionText


class ChatLine(Strict):
    """``POST /api/tables/{id}/chat``: a line of the seat's player."""

    token: Token
    text: ChatText


class HandToBot(Strict):
    """``POST /api/tables/{id}/seats/{seat}/bot``."""

    token: Token
    bot: BotSpec | None = Field(None, description="The bot spec; default: the server's bot.")


# -- HTTP replies --------------------------------------------------------------------------------

class SeatTokenOut(BaseModel):
    """A human seat and its token (given once, when the table is created)."""

    seat: int
    token: str


class TableCreated(BaseModel):
    """Reply to ``POST /api/tables``."""

    table_id: str
    seats: list[SeatTokenOut]


class ErrorOut(BaseModel):
    """Every error reply."""

    error: str
    code: str
    words: str | None = Field(default=None, description="The message in a player's words: "
                              "no notation, no field names.")


class HintOut(BaseModel):
    """Reply to the hint endpoint."""

    action: str = Field(description="What the bot would play.")
    explanation: str | None = Field(description="Why, when the bot can say.")
    words: str | None = Field(None, description="The explanation addressed to the player "
                                                "(\"your pair of fours\"), without the "
                                                "action it restates, for a page to show.")
    details: str | None = Field(None, description="What a search found (play-outs, point "
                                                  "differences), for a player who asks.")
    bot: str = Field(description="The bot that chose.")


class TableLine(BaseModel):
    """A line of ``GET /api/tables``."""

    table_id: str
    rules: str | dict[str, Any]
    players: list[str]
    status: str
    hands: int
    created_at: str


class SeatOut(BaseModel):
    """A seat as every view shows it."""

    seat: int
    name: str
    controller: Literal["human", "bot"]
    bot: str | None = Field(description="The bot spec while a bot plays the seat.")
    connected: bool = Field(description="Someone holds a WebSocket open with its token.")


class HistoryLine(BaseModel):
    """One action of the current hand, as the viewing seat may read it."""

    model_config = ConfigDict(extra="allow")

    seat: int
    action: str = Field(description="Its text; another player's move whose cards only its "
                                    "player sees gives its verb alone.")
    words: str | None = Field(None, description="For a verb of the family's own: the move in "
                                                "words, after the player's name.")


class SheetLine(BaseModel):
    """One ended hand on the score sheet."""

    hand: int
    dealer: int
    result: dict[str, Any] = Field(description="The hand's result (NOTATION §3 ``result``).")
    totals: list[int] = Field(description="The hand's points by side.")
    scores: list[int] = Field(description="Cumulative scores by side after this hand.")
    ending: dict[str, Any] | None = Field(None, description="How the hand ended (the facts' "
                                                            "``ending``).")
    score: list[dict[str, int]] | None = Field(
        None, description="By side, the hand's score part by part as it counts, and its total "
                          "(the facts' ``score``).")


class HouseRule(BaseModel):
    """A rules field that differs from the preset's."""

    field: str = Field(description="The RULES §6 field.")
    label: str = Field(description="The house-rules form's label (the field's name where the "
                                   "form has none).")
    value: Any = Field(description="Its value, as in a rules object.")
    text: str = Field(description="The rule in a player's words: 'A black three discarded "
                                  "freezes the pile: yes'.")


class TableRules(BaseModel):
    """The rule facts a screen states, from the table's rules."""

    family: str
    title: str = Field(description="The family's name in words.")
    preset: str
    label: str = Field(description="The preset in a player's words: 'Classic — 6 players, "
                                   "3 teams of 2'.")
    custom: bool = Field(description="Some field differs from the preset's (house_rules).")
    players: int
    sides: int
    canasta_size: int = Field(description="Cards that make a meld a canasta.")
    canastas_to_go_out: int = Field(description="Canastas a side needs to go out.")
    canasta_name: list[str] = Field(description="The family's word for a completed meld, "
                                                "singular and plural: ['canasta', 'canastas'], "
                                                "['book', 'books'].")
    draw_count: int = Field(description="Cards drawn from the stock.")
    target_score: int
    ask_partner: bool = Field(description="A player may ask a partner 'may I go out?'.")
    house_rules: list[HouseRule]


class DisplayName(BaseModel):
    """A seat as a screen names it."""

    name: str = Field(description="A person's name, or a bot's friendly name (never a spec).")
    level: str | None = Field(description="The level of the bot playing the seat ('easy' ... "
                                          "'expert', 'random' or 'custom'); null for a person.")
    bot: bool


class TableView(BaseModel):
    """What one seat (or a spectator) sees, at a table of any family: the reply of the view,
    action, next and seat endpoints, and the ``view`` of every WebSocket ``view`` message.

    It is the seat's observation as its family writes it (NOTATION §3 for classic: its own hand
    as cards, every other hand and the stock as counts; spectators see every hand as a count),
    plus the table's keys, plus the family's ``facts``.
    """

    model_config = ConfigDict(extra="allow")

    rules: str | dict[str, Any]
    seat: int | None = Field(description="Whose view; null for spectators.")
    dealer: int
    to_move: int = Field(description="The seat to act (as in the position; see phase).")
    phase: str = Field(description="The family's name for the moment of the turn ('draw', "
                                   "'play', 'answer', ..., 'over').")
    hands: list[list[str] | int] = Field(description="By seat: the seat's own hand as cards, "
                                                     "every other hand as its size.")
    stock: int = Field(description="Cards left in the stock (never their order).")
    pile: list[str] = Field(description="The discard pile as the seat may see it, top last.")
    sides: list[dict[str, Any]] = Field(description="By side: the score at the start of the "
                                                    "hand, the melds and the family's own keys.")
    turn: dict[str, Any] = Field(description="What the player to move did this turn.")
    result: dict[str, Any] | None = Field(None, description="Once the hand is over.")
    family: str = Field(description="The family of the table's rules.")
    table_id: str
    status: Literal["playing", "hand_over", "game_over"]
    hand_number: int = Field(description="The current hand, from 1.")
    version: int = Field(description="Grows with every action and deal (equal for views that "
                                     "differ only in seats or connections).")
    your_turn: bool
    legal: list[str] = Field(description="The seat's legal actions (canonical) when it is to "
                                         "move and no bot plays it, else [].")
    legal_words: dict[str, str] = Field(
        {}, description="A player's words for the legal actions of the family's own verbs "
                        "(a kept three, a special hand), by action.")
    players: list[str] = Field(description="Names by seat, as in the game record.")
    seats: list[SeatOut]
    names: list[DisplayName] = Field(description="By seat, the name a screen shows and the "
                                                 "level of the bot playing it.")
    log: list[HistoryLine] = Field(description="This hand's actions so far.")
    last_action: HistoryLine | None
    scores: list[int] = Field(description="Cumulative scores by side, ended hands counted.")
    score_sheet: list[SheetLine]
    target: int = Field(description="The score that ends the game.")
    winner: int | None = Field(description="The winning side once the game is over.")
    next_hand: Literal["auto", "request"] = Field(
        description="How the next hand is dealt: by itself, or on a 'next' request.")
    waiting_for: list[int] = Field(
        [], description="Seats people play whose player has not sat down yet (never used the "
                        "seat's token): the bots wait until this is empty.")
    facts: dict[str, Any] = Field(description="What a screen states, as the family gives it "
                                              "(canasta.family.Family.facts).")
    chat: list[dict[str, Any]] = Field([], description="The latest lines of the table's chat: "
                                                       "``{\"seat\", \"name\", \"text\"}``.")
    rematch: str | None = Field(None, description="The table of the rematch, once a player "
                                                  "asked for one (every seat's token holds "
                                                  "its seat there).")
    table_rules: TableRules
    card_points: dict[str, int] = Field(description="What each card counts in a meld.")


class MetaOut(BaseModel):
    """Reply to ``GET /api/meta``: what a table can be created with."""

    presets: list[str]
    bots: list[str]
    default_bot: str
    hint_bot: str
    families: list[dict[str, Any]] = Field(
        [], description="By family: its bots, levels, default and hint bot.")


# -- WebSocket, inbound --------------------------------------------------------------------------

class HelloMessage(Strict):
    """The first message of every connection: ``{"type": "hello", "token": T}`` for a seat,
    ``{"type": "hello"}`` for a spectator. The token travels here, never in the URL, which
    proxies and servers log."""

    type: Literal["hello"]
    token: Token | None = None
    id: MessageId | None = None


class ActionMessage(Strict):
    """Play an action: ``{"type": "action", "action": "discard 9s"}``."""

    type: Literal["action"] = "action"
    action: ActionText
    id: MessageId | None = None


class NextMessage(Strict):
    """Deal the next hand: ``{"type": "next"}``."""

    type: Literal["next"]
    id: MessageId | None = None


class ViewMessage(Strict):
    """Send my view again: ``{"type": "view"}``."""

    type: Literal["view"]
    id: MessageId | None = None


class HintMessage(Strict):
    """What would the hint bot play? ``{"type": "hint"}``."""

    type: Literal["hint"]
    id: MessageId | None = None


class ChatMessage(Strict):
    """Say a line at the table: ``{"type": "chat", "text": "good game"}``."""

    type: Literal["chat"]
    text: ChatText
    id: MessageId | None = None


class PingMessage(Strict):
    """``{"type": "ping"}`` answered by ``{"type": "pong"}``."""

    type: Literal["ping"]
    id: MessageId | None = None


InboundMessage = Annotated[HelloMessage | ActionMessage | NextMessage | ViewMessage | HintMessage
                           | ChatMessage | PingMessage, Field(discriminator="type")]
_INBOUND: TypeAdapter[InboundMessage] = TypeAdapter(InboundMessage)


def describe(errors: Sequence[Any]) -> str:
    """A one-line account of the first of pydantic's errors (of a message or a request):
    where, and what is wrong."""
    if not errors:
        return "malformed request"
    first = errors[0]
    if first.get("type") == "json_invalid":
        return "the body is not valid JSON"
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    what = str(first.get("msg", "invalid")).removeprefix("Value error, ")
    return f"{where}: {what}" if where else what


def parse_message(text: str) -> InboundMessage:
    """A WebSocket text message as a typed message; raises :class:`Invalid`."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise Invalid(f"message too long (at most {MAX_MESSAGE_BYTES} characters)")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise Invalid("a message must be a JSON object") from None
    if not isinstance(data, dict):
        raise Invalid("a message must be a JSON object")
    if "type" not in data and "action" in data:
        data = {**data, "type": "action"}
    try:
        return _INBOUND.validate_python(data)
    except ValidationError as e:
        raise Invalid(f"bad message: {describe(e.errors())}") from None


# -- WebSocket, outbound -------------------------------------------------------------------------

class ViewOut(TypedDict):
    """The seat's view, pushed after every change: ``{"type": "view", "view": {...}}``."""

    type: Literal["view"]
    view: dict[str, Any]


class ErrorMessageOut(TypedDict, total=False):
    """``{"type": "error", "error": message, "code": code, "id": ...}``."""

    type: Literal["error"]
    error: str
    code: str
    words: str
    id: str | int | None


class HintMessageOut(TypedDict):
    """``{"type": "hint", "hint": {"action", "explanation", "bot"}, "id": ...}``."""

    type: Literal["hint"]
    hint: dict[str, Any]
    id: str | int | None


class PongOut(TypedDict):
    """``{"type": "pong", "id": ...}``."""

    type: Literal["pong"]
    id: str | int | None


def dumps(message: Any) -> str:
    """Compact JSON for the wire."""
    return json.dumps(message, separators=(",", ":"))
