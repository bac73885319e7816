"""The server's logging: uvicorn's and canasta's lines, with every seat token blotted out.

Seat tokens are the only keys to the seats, so none may reach a log, at any level. The page
and the API keep them out of URLs where they can (the WebSocket takes its token in its first
message); :class:`RedactTokens` catches the rest, on every handler: a ``token=...`` in a
request line (``GET /api/tables/ID/view?token=...`` with ``--access-log``), a
``"token": "..."`` in a WebSocket frame logged at ``debug``, an ``X-Canasta-Token: ...``
header, in messages, their arguments and tracebacks alike.
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

TOKEN_VALUE = re.compile(
    r"""(?ix)
    (token ["']? \s* [=:] \s* ["']?)   # token= / "token": " / 'token': ' / token: (a header)
    [^\s"'&,;}\]]+                      # the value, up to the next separator
    """)
"""A token's value after its name, in a query string, JSON, a Python repr or a header."""

HIDDEN = "***"

CANASTA_FORMAT = "%(levelname)s:     %(name)s: %(message)s"


def redact(text: str) -> str:
    """``text`` with the value of every ``token`` in it replaced by ``***``."""
    return TOKEN_VALUE.sub(lambda m: m.group(1) + HIDDEN, text)


def _redact_arg(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float):
        return value  # formatters may need numbers as numbers (the access line's status)
    return redact(value if isinstance(value, str) else str(value))


class RedactTokens(logging.Filter):
    """Blots out tokens in a record's message, arguments and traceback (see the module)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite ``record`` in place; every record passes."""
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        else:
            record.msg = redact(str(record.msg))
        if isinstance(record.args, tuple):
            record.args = tuple(_redact_arg(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redact_arg(v) for k, v in record.args.items()}
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def log_config(level: str) -> dict[str, Any]:
    """The ``logging.config`` dictionary ``canasta serve`` runs with: uvicorn's own (its
    formats and loggers), a handler for canasta's lines at ``level``, and
    :class:`RedactTokens` on every handler."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"redact_tokens": {"()": RedactTokens}}
    config["formatters"]["canasta"] = {"format": CANASTA_FORMAT}
    config["handlers"]["canasta"] = {"formatter": "canasta", "class": "logging.StreamHandler",
                                     "stream": "ext://sys.stderr"}
    for handler in config["handlers"].values():
        handler["filters"] = ["redact_tokens"]
    config["root"] = {"handlers": ["canasta"], "level": level.upper()}
    config["loggers"]["alembic"] = {"level": "WARNING"}
    return config
