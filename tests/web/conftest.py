"""Fixtures of the web table's tests (helpers are in :mod:`tests.web.support`)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra (pip install -e .[dev])")

from tests.web.support import (
    POSTGRES_ENV,
    LiveServer,
    TestClient,
    chromium,
    running_app,
    system_test_missing,
)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One headless Chromium for a module's browser tests (a page each)."""
    yield from chromium()


def _postgres_schema_url(base: str, schema: str) -> str:
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{schema}"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL URL whose tables live in a fresh schema, dropped afterwards."""
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        system_test_missing(f"PostgreSQL tests need {POSTGRES_ENV} (.ci/run sets it)")
    assert base is not None
    from sqlalchemy import create_engine, text

    from canasta.interfaces.web.storage import engine_url

    schema = f"t_{uuid.uuid4().hex[:12]}"
    engine = create_engine(engine_url(base))
    try:
        with engine.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as e:  # the server is down or the URL is wrong
        engine.dispose()
        system_test_missing(f"PostgreSQL at {POSTGRES_ENV} is not reachable: {e}")
    try:
        yield _postgres_schema_url(base, schema)
    finally:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each storage test runs on a SQLite file and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'canasta.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A SQLite file in the test's folder."""
    return f"sqlite:///{tmp_path / 'canasta.sqlite3'}"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    """An app on a fresh SQLite file; bots play at once."""
    with running_app(sqlite_url) as c:
        yield c


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """A factory of running servers (``live_server(database_url, *args)``), stopped after the
    test. Default arguments: ``--bot-delay 0 --bot-workers 0``."""
    servers: list[LiveServer] = []

    def start(database_url: str | None = None, *args: str) -> LiveServer:
        url = database_url or f"sqlite:///{tmp_path / 'live.sqlite3'}"
        server = LiveServer(url, tmp_path / f"server-{len(servers)}.log",
                            *(args or ("--bot-delay", "0", "--bot-workers", "0")))
        servers.append(server)
        server.start()
        return server

    yield start
    for server in servers:
        server.stop()
