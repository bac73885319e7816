"""The web table: an ASGI server (FastAPI) for playing Canasta in the browser.

Layout, one concept per module:

- :mod:`.settings`: what the server is started with (database, bot pacing, workers, limits);
- :mod:`.schema`, :mod:`.storage`: the database (SQLAlchemy Core; alembic migrations in
  ``migrations/``, run at start-up): every accepted action is committed there before anyone
  is told, and tables are rebuilt by replay;
- :mod:`.tables`: a table in memory (the room): the game, the seats, the lock, the listeners;
- :mod:`.views`: what a seat or a spectator may see, as JSON;
- :mod:`.lobby`: all tables: creating, acting, dealing, handing seats to bots, recovery;
- :mod:`.bot_runner`: bots' time, shared fairly between tables; :mod:`.bot_workers`: the
  processes (or threads) where bots think, each ended alone when out of time;
- :mod:`.limits`: the bounds on a table's rules, and the rate limits;
- :mod:`.logs`: the server's logging, seat tokens blotted out;
- :mod:`.messages`: typed inbound messages (HTTP bodies, WebSocket messages) and replies;
  :mod:`.errors`: the errors the API answers with;
- :mod:`.routes`, :mod:`.sockets`: the HTTP API and the WebSocket endpoint;
  :mod:`.middleware`: the cap on request bodies;
- :mod:`.app`: :func:`~canasta.interfaces.web.app.create_app`; :mod:`.cli`: ``canasta serve``.

The API is described in ``API.md`` beside this file and in the OpenAPI schema at ``/docs``.
Nothing here is imported by the engine core; fastapi and friends come with the ``web`` extra.
"""
