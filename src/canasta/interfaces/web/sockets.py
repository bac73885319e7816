"""The WebSocket endpoint ``/ws/tables/{id}``.

The first message of a connection says who it is: ``{"type": "hello", "token": T}`` for a
seat, ``{"type": "hello"}`` for a spectator (the token never travels in the URL: URLs are
logged by servers and proxies). The client then gets its view, and after every change at the
table (anyone's action, bots' included; a deal; a seat change; someone connecting) the new
view as ``{"type": "view", "view": {...}}``. It may send (see :mod:`.messages`):

- ``{"type": "action", "action": "discard 9s"}`` (or just ``{"action": ...}``): answered by
  the next view push, or ``{"type": "error", "error": ..., "code": ...}``;
- ``{"type": "next"}``, ``{"type": "view"}``, ``{"type": "hint"}``, ``{"type": "ping"}``;
- ``{"type": "chat", "text": "good game"}``: a line at the table, pushed to everyone with the
  next view.

Any message may carry an ``id`` (a string or a number), echoed in the error, hint or pong that
answers it. A malformed or hostile message is answered with an error and changes nothing; the
connection stays open. A wrong token, an unknown table or a first message that is no hello
gets an error message, then the connection is closed with code 4403, 4404 or 4422 (4408 when
no hello comes in time). A browser page from another site (its ``Origin``) is refused before
the connection opens. Messages are handled one at a time, in order.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.datastructures import Headers

from canasta.interfaces.web.errors import ApiError, Forbidden, Invalid, TooSlow
from canasta.interfaces.web.lobby import Lobby
from canasta.interfaces.web.messages import (
    ActionMessage,
    ChatMessage,
    ErrorMessageOut,
    HelloMessage,
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


async def on_chat(session: Session, message: Any) -> None:
    """A line at the table (everyone gets the new view)."""
    assert isinstance(message, ChatMessage)
    await session.lobby.say(session.table.id, session.player_token(), message.text)


async def on_ping(session: Session, message: Any) -> None:
    """Pong."""
    assert isinstance(message, PingMessage)
    out: PongOut = {"type": "pong", "id": message.id}
    session.reply(out)


async def on_hello(session: Session, message: Any) -> None:
    """A connection says hello once, first."""
    assert isinstance(message, HelloMessage)
    raise Invalid("hello comes once, as the first message")


Handler = Callable[[Session, Any], Awaitable[None]]

HANDLERS: dict[str, Handler] = {
    "hello": on_hello,
    "action": on_action,
    "next": on_next,
    "view": on_view,
    "hint": on_hint,
    "ping": on_ping,
    "chat": on_chat,
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


def origin_allowed(headers: Headers, allowed: tuple[str, ...]) -> bool:
    """True for a client that is no browser (no ``Origin``), a page served by this server
    (its origin names the ``Host`` asked for), or one of the ``allowed`` origins. Browsers
    let any site open a WebSocket to any server: without this check, a page elsewhere could
    watch and play with a visitor's stored seat."""
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin in allowed or "*" in allowed:
        return True
    host = headers.get("host")
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()


async def receive_hello(websocket: WebSocket, seconds: float) -> HelloMessage | None:
    """The connection's first message, which must be a hello; ``None`` if the client left.
    Raises :class:`TooSlow` after ``seconds``, :class:`Invalid` for anything else."""
    try:
        incoming = await asyncio.wait_for(websocket.receive(), seconds)
    except TimeoutError:
        raise TooSlow(f"no hello within {seconds:g} s", "no_hello") from None
    if incoming["type"] == "websocket.disconnect":
        return None
    text = incoming.get("text")
    message = parse_message(text) if text is not None else None
    if not isinstance(message, HelloMessage):
        raise Invalid('the first message must be {"type": "hello", "token": T} '
                      '(or {"type": "hello"} to watch)', "hello_first")
    return message


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """A seat's (or a spectator's) live connection to a table; see the module docstring."""
    lobby: Lobby = websocket.app.state.lobby
    if not origin_allowed(websocket.headers, lobby.settings.allowed_origins):
        await websocket.close(code=1008)  # before the handshake: the browser gets a 403
        return
    await websocket.accept()
    try:
        if "token" in websocket.query_params:
            raise Invalid("send the token in the hello message, never in the URL",
                          "token_in_url")
        hello = await receive_hello(websocket, lobby.settings.hello_seconds)
        if hello is None:
            return
        table, seat = await lobby.seat_of(table_id, hello.token)
        listener = lobby.listen(table, seat)
    except ApiError as e:
        await websocket.send_text(dumps({"type": "error", **e.to_json()}))
        await websocket.close(code=4000 + e.status)
        return
    except (WebSocketDisconnect, RuntimeError):
        return
    session = Session(lobby, table, hello.token, seat, listener)
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
