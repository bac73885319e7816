"""The WebSocket endpoint ``/ws/tables/{id}?token=T``.

On connecting, the client gets its view; after every change at the table (anyone's action,
bots' included; a deal; a seat change; someone connecting) it gets the new view as
``{"type": "view", "view": {...}}``. It may send (see :mod:`.messages`):

- ``{"type": "action", "action": "discard 9s"}`` (or just ``{"action": ...}``): answered by
  the next view push, or ``{"type": "error", "error": ..., "code": ...}``;
- ``{"type": "next"}``, ``{"type": "view"}``, ``{"type": "hint"}``, ``{"type": "ping"}``.

Any message may carry an ``id`` (a string or a number), echoed in the error, hint or pong that
answers it. A malformed or hostile message is answered with an error and changes nothing; the
connection stays open. Without a token the client is a spectator. A wrong token or an unknown
table gets an error message, then the connection is closed with code 4403 or 4404. Messages are
handled one at a time, in order.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from canasta.interfaces.web.errors import ApiError, Forbidden, Invalid
from canasta.interfaces.web.lobby import Lobby
from canasta.interfaces.web.messages import (
    ActionMessage,
    ErrorMessageOut,
    HintMessage,
    HintMessageOut,
    InboundMessage,
    NextMessage,
    PingMessage,
    PongOut,
    ViewMessage,
    ViewOut,
    dumps,
    parse_message,
)
from canasta.interfaces.web.tables import Listener, Table

log = logging.getLogger(__name__)

router = APIRouter()


class Session:
    """One connection: the table, the token's seat (``None``: a spectator), the listener."""

    def __init__(self, lobby: Lobby, table: Table, token: str | None, seat: int | None,
                 listener: Listener) -> None:
        self.lobby = lobby
        self.table = table
        self.token = token
        self.seat = seat
        self.listener = listener

    def reply(self, message: Any) -> None:
        """Queue a message for this connection (after the views already queued)."""
        self.listener.send(dumps(message))

    def error(self, error: ApiError, message_id: str | int | None) -> None:
        """Queue an error reply."""
        out: ErrorMessageOut = {"type": "error", "error": error.message, "code": error.code}
        if message_id is not None:
            out["id"] = message_id
        self.reply(out)

    def player_token(self) -> str:
        """The seat's token; spectators may not act."""
        if self.token is None or self.seat is None:
            raise Forbidden("spectators may not act: connect with a seat's token", "spectator")
        return self.token


async def on_action(session: Session, message: Any) -> None:
    """Play an action; the view push that follows is the answer."""
    assert isinstance(message, ActionMessage)
    await session.lobby.act(session.table.id, session.player_token(), message.action)


async def on_next(session: Session, message: Any) -> None:
    """Deal the next hand."""
    assert isinstance(message, NextMessage)
    await session.lobby.next_hand(session.table.id, session.player_token())


async def on_view(session: Session, message: Any) -> None:
    """Send the view again."""
    assert isinstance(message, ViewMessage)
    view = await session.lobby.view(session.table.id, session.token)
    out: ViewOut = {"type": "view", "view": view}
    session.reply(out)


async def on_hint(session: Session, message: Any) -> None:
    """What the hint bot would play."""
    assert isinstance(message, HintMessage)
    hint = await session.lobby.hint(session.table.id, session.player_token())
    out: HintMessageOut = {"type": "hint", "hint": hint, "id": message.id}
    session.reply(out)


async def on_ping(session: Session, message: Any) -> None:
    """Pong."""
    assert isinstance(message, PingMessage)
    out: PongOut = {"type": "pong", "id": message.id}
    session.reply(out)


Handler = Callable[[Session, Any], Awaitable[None]]

HANDLERS: dict[str, Handler] = {
    "action": on_action,
    "next": on_next,
    "view": on_view,
    "hint": on_hint,
    "ping": on_ping,
}
"""Inbound message handlers by ``type``."""


async def handle(session: Session, text: str) -> None:
    """Handle one inbound text message; every failure becomes an error reply."""
    message_id: str | int | None = None
    try:
        message: InboundMessage = parse_message(text)
        message_id = message.id
        await HANDLERS[message.type](session, message)
    except ApiError as e:
        session.error(e, message_id)
    except Exception:
        log.exception("table %s: a message could not be handled", session.table.id)
        session.error(ApiError("internal error: nothing changed", "internal"), message_id)


async def _pump(websocket: WebSocket, listener: Listener) -> None:
    """Write the listener's queue to the socket, in order, until it is closed."""
    try:
        while True:
            text = await listener.queue.get()
            if text is None:
                await websocket.close(code=listener.close_code)
                return
            await websocket.send_text(text)
    except (WebSocketDisconnect, RuntimeError, OSError):
        return


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
    """A seat's (or a spectator's) live connection to a table; see the module docstring."""
    lobby: Lobby = websocket.app.state.lobby
    await websocket.accept()
    try:
        table, seat = await lobby.seat_of(table_id, token)
        listener = lobby.listen(table, seat)
    except ApiError as e:
        await websocket.send_text(dumps({"type": "error", **e.to_json()}))
        await websocket.close(code=4000 + e.status)
        return
    session = Session(lobby, table, token, seat, listener)
    sender = asyncio.create_task(_pump(websocket, listener))
    try:
        while not listener.closed:
            incoming = await websocket.receive()
            if incoming["type"] == "websocket.disconnect":
                break
            text = incoming.get("text")
            if text is None:
                session.error(Invalid("send JSON text messages, not bytes"), None)
                continue
            await handle(session, text)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        lobby.unlisten(table, listener)
        try:
            await asyncio.wait_for(sender, timeout=1.0)
        except (TimeoutError, asyncio.CancelledError):
            sender.cancel()
