"""No seat token ever reaches the server's log, at any level: a real server (uvicorn in a
subprocess, ``--log-level debug --access-log``) plays a table over HTTP and WebSockets, then
its whole output is searched for every token."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable
from typing import Any

import httpx
from websockets.sync.client import connect

from canasta.interfaces.web.logs import RedactTokens, redact
from tests.web.support import LiveServer, new_table


def test_redact_blots_out_every_shape_of_token() -> None:
    secret = "Yh6-abc_DEF123xyz"
    for line in (f"GET /api/tables/T/view?token={secret} HTTP/1.1",
                 f"GET /api/tables/T/view?x=1&token={secret}&y=2",
                 f'< TEXT \'{{"type":"hello","token":"{secret}"}}\' [52 bytes]',
                 f"{{'token': '{secret}'}}",
                 f"x-canasta-token: {secret}"):
        assert secret not in redact(line) and "***" in redact(line), line
    assert redact("this token holds no seat") == "this token holds no seat"


def test_the_filter_reaches_arguments_and_tracebacks() -> None:
    secret = "s3cr3t-t0ken-value"
    try:
        raise ValueError(f"bad ?token={secret}")
    except ValueError:
        record = logging.getLogger("t").makeRecord(
            "t", logging.ERROR, __file__, 1, '%s - "WebSocket %s" %d',
            ("127.0.0.1:5", f"/ws/tables/T?token={secret}", 403), __import__("sys").exc_info())
    RedactTokens().filter(record)
    text = logging.Formatter().format(record)
    assert secret not in text and "403" in text and "ValueError" in text


def _play(server: LiveServer) -> tuple[list[str], str]:
    """Play at a table every way a token travels; returns the tokens and the table id."""
    rng = random.Random(5)
    with httpx.Client(base_url=server.url, timeout=10) as http:
        table_id, tokens = new_table(http, rules="classic-2p", seats=["human", "human"],
                                     seed=5)
        ws_url = server.url.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        with connect(ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
            assert json.loads(ws.recv())["type"] == "view"
            ws.send(json.dumps({"type": "hint"}))
            for _ in range(40):
                view: dict[str, Any] = http.get(f"/api/tables/{table_id}/view").json()
                seat = view["to_move"]
                mine = http.get(f"/api/tables/{table_id}/view",
                                params={"token": tokens[seat]}).json()
                http.get(f"/api/tables/{table_id}/hint", params={"token": tokens[seat]})
                http.get(f"/api/tables/{table_id}/view",
                         headers={"X-Canasta-Token": tokens[seat]})
                if mine["legal"]:
                    action = rng.choice(mine["legal"])
                    if seat == 0:
                        ws.send(json.dumps({"action": action}))
                    else:
                        http.post(f"/api/tables/{table_id}/actions",
                                  json={"token": tokens[seat], "action": action})
            http.post(f"/api/tables/{table_id}/seats/1/bot", json={"token": tokens[1]})
            http.post(f"/api/tables/{table_id}/seats/1/claim", json={"token": tokens[1]})
            http.post(f"/api/tables/{table_id}/actions", json={"token": tokens[1],
                                                               "action": "dance"})
        with connect(f"{ws_url}?token={tokens[1]}") as old_style:  # refused, but logged
            assert json.loads(old_style.recv())["code"] == "token_in_url"
    return list(tokens.values()), table_id


def test_no_token_in_the_log_of_a_played_table(
        live_server: Callable[..., LiveServer]) -> None:
    server = live_server(None, "--bot-delay", "0", "--bot-workers", "0", "--log-level",
                         "debug", "--access-log")
    tokens, table_id = _play(server)
    server.stop()
    log = server.log_path.read_text(errors="replace")
    assert f"/api/tables/{table_id}/view" in log and "WebSocket" in log  # the log is there
    assert "token=***" in log
    for token in tokens:
        assert token not in log
        assert token[:12] not in log and token[-12:] not in log  # nor a piece of it
