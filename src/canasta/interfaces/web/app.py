"""The ASGI application: :func:`create_app` puts the API, the WebSocket and the page together.

At start-up the database is migrated and every unfinished table is rebuilt from it (its bots
go on playing), and what is alive then is frozen out of the garbage collector's passes; at
shutdown the bots stop (nothing is lost: every action was committed when it
was accepted).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.routing import Match, Mount
from starlette.types import Scope

from canasta import __version__
from canasta.interfaces.web import house_rules, routes, sockets
from canasta.interfaces.web.api_docs import mount_api_docs
from canasta.interfaces.web.bot_runner import BotRunner
from canasta.interfaces.web.errors import ApiError
from canasta.interfaces.web.lobby import Lobby
from canasta.interfaces.web.messages import describe
from canasta.interfaces.web.middleware import BodyLimit
from canasta.interfaces.web.settings import Settings
from canasta.interfaces.web.storage import Database

log = logging.getLogger(__name__)

DESCRIPTION = """\
Play Canasta at a table in the browser, against people and bots.

Create a table (`POST /api/tables`), keep the seat tokens, then play over HTTP
(`GET .../view`, `POST .../actions`) or a WebSocket (`/ws/tables/{id}`, first message
`{"type": "hello", "token": T}`), which pushes the seat's view after every change. Actions are
written as in NOTATION §2 (`draw`, `meld Kh Kd Ks`, `discard 9s`, ...). The server is the only
judge of legality, and each view holds only what its seat may see. Every accepted action is
stored before anyone is told, so a restart loses nothing.
"""

NO_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Canasta</title></head>
<body><h1>Canasta</h1><p>The page is not installed. The API is described at
<a href="/docs">/docs</a>.</p></body></html>
"""


def _error_response(status: int, message: str, code: str) -> JSONResponse:
    return JSONResponse(ApiError(message, code).to_json(), status_code=status)


async def _api_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse(exc.to_json(), status_code=exc.status, headers=exc.headers())


async def _validation_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    return _error_response(422, f"invalid request: {describe(exc.errors())}", "invalid")


HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(app: Starlette, path: str) -> list[str]:
    """Every method an API route of ``app`` answers at ``path`` (a 405's ``Allow``), found
    by asking each route as the router does."""
    methods = []
    for method in HTTP_METHODS:
        scope: Scope = {"type": "http", "path": path, "method": method, "root_path": ""}
        if any(not isinstance(route, Mount) and route.matches(scope)[0] is Match.FULL
               for route in app.router.routes):
            methods.append(method)
    return methods


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 400 and "parsing the body" in str(exc.detail):
        # the framework's answer to a body its JSON reader gives up on (e.g. nested too deep)
        return _error_response(422, "the body is not valid JSON", "invalid")
    code = "not_found" if exc.status_code == 404 else f"http_{exc.status_code}"
    response = _error_response(exc.status_code, str(exc.detail).lower(), code)
    if exc.headers:
        response.headers.update(exc.headers)
    if exc.status_code == 405:
        methods = allowed_methods(request.app, request.url.path)
        if methods:
            response.headers["Allow"] = ", ".join(methods)
    return response


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server application for ``settings`` (defaults: :class:`Settings`)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.database_url, durability=settings.durability)
        runner = BotRunner(settings.bot_workers, settings.bot_timeout)
        runner.start()
        lobby = Lobby(settings, db, runner)
        app.state.lobby = lobby
        try:
            await lobby.start()
            # Objects alive now (modules, the framework, resumed tables) are never garbage:
            # keep them out of the collector's full passes, which otherwise stall the loop
            # for tens of milliseconds.
            gc.collect()
            gc.freeze()
            yield
        finally:
            gc.unfreeze()
            await lobby.stop()
            runner.close()
            db.close()

    app = FastAPI(title="canasta", version=__version__, description=DESCRIPTION,
                  lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.add_middleware(BodyLimit)
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.include_router(routes.router)
    app.include_router(sockets.router)
    app.include_router(house_rules.router)
    mount_api_docs(app)

    index = settings.static_dir / "index.html"

    @app.get("/", include_in_schema=False)
    async def page() -> Response:
        if index.is_file():
            return FileResponse(index, media_type="text/html")
        return HTMLResponse(NO_PAGE)

    @app.get("/modern.html", include_in_schema=False)
    async def old_page() -> Response:
        # links of the former Modern American page (#/m/ID?token=T) open its table on the one
        # page: the browser keeps the fragment across the redirect
        return RedirectResponse("/", status_code=308)

    app.router.routes.append(PageFiles("/", StaticFiles(directory=settings.static_dir,
                                                        check_dir=False), name="static"))
    return app


class PageFiles(Mount):
    """The page's files, served at ``/``; paths under ``/api/`` and ``/ws/`` are left to the
    API, so that an unknown one is a 404 and a wrong method a 405 naming the right ones."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        """No match under ``/api/`` and ``/ws/``; else as any mount."""
        if str(scope.get("path", "")).startswith(("/api/", "/ws/")):
            return Match.NONE, {}
        return super().matches(scope)
