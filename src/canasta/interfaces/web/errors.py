"""Errors the API answers with: each has an HTTP status, a short ``code`` and a message.

They reach clients as ``{"error": message, "code": code, "words": words}`` over HTTP and as
``{"type": "error", "error": message, "code": code, "words": words}`` over a WebSocket:
``error`` is the engine's or the server's own text, ``words`` the same in a player's words
(:func:`~canasta.interfaces.web.words.player_words`), for a page to show.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar


class ApiError(Exception):
    """Base class: a request the server refuses."""

    status: ClassVar[int] = 400
    default_code: ClassVar[str] = "bad_request"

    def __init__(self, message: str, code: str | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.retry_after = retry_after
        """Seconds after which the request may succeed (the ``Retry-After`` header)."""

    def headers(self) -> dict[str, str]:
        """The reply's headers: ``Retry-After`` (whole seconds) when there is one."""
        if self.retry_after is None:
            return {}
        return {"Retry-After": str(max(1, math.ceil(self.retry_after)))}

    def to_json(self) -> dict[str, Any]:
        """``{"error": message, "code": code, "words": the message in a player's words}``."""
        from canasta.interfaces.web.words import player_words

        return {"error": self.message, "code": self.code, "words": player_words(self.message)}


class NotFound(ApiError):
    """No such table or seat (404)."""

    status = 404
    default_code = "not_found"


class Forbidden(ApiError):
    """A token that is wrong, or that may not do this (403)."""

    status = 403
    default_code = "bad_token"


class Conflict(ApiError):
    """Not now: an illegal action, an action out of turn, a hand or game that is over (409)."""

    status = 409
    default_code = "illegal"


class Invalid(ApiError):
    """Input that cannot be understood: bad JSON, an unknown card, verb, preset or bot (422)."""

    status = 422
    default_code = "invalid"


class TooSlow(ApiError):
    """A client that did not say what it had to in time (408)."""

    status = 408
    default_code = "timeout"


class TooMany(ApiError):
    """Too many requests from this client or seat: try again after ``retry_after`` (429)."""

    status = 429
    default_code = "too_many_requests"


class Unavailable(ApiError):
    """The database could not store the change, or the server holds all the tables it may:
    nothing changed, try again (503)."""

    status = 503
    default_code = "unavailable"
