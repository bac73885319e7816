"""Alembic environment: runs the migrations on the connection the server hands over.

The server calls :meth:`canasta.interfaces.web.storage.Storage.migrate`, which puts an open
connection in ``config.attributes["connection"]``; from the alembic command line
(``alembic -x url=sqlite:///file.sqlite3 upgrade head`` with ``script_location`` pointing here)
a URL given with ``-x url=...`` is used instead.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from canasta.interfaces.web.schema import metadata


def run_migrations() -> None:
    """Upgrade (or downgrade) on the given connection, or on ``-x url=...``."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("url")
    if not url:
        raise SystemExit("give the database with -x url=...")
    engine = create_engine(url)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run_migrations()
