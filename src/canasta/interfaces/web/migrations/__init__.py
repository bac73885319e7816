"""Alembic migrations of the web table's database; run at start-up by
:meth:`canasta.interfaces.web.storage.Storage.migrate`."""
