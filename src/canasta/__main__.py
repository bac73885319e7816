"""``python -m canasta`` runs the command line."""

from canasta.interfaces.cli import entry_point

entry_point()
