"""The error tree of the package.

Every error is a :class:`ValueError`, so callers that only want "bad input" can catch that.
Messages are one lowercase line that names the rule or the bad input.
"""

from __future__ import annotations


class CanastaError(ValueError):
    """Base class of every error raised by the package."""


class NotationError(CanastaError):
    """Text or JSON that cannot be understood: an unknown card, verb, key or value."""


class RulesError(CanastaError):
    """A rules preset or field that does not exist or has a bad value."""


class PositionError(CanastaError):
    """A position that breaks the position format (NOTATION §3), e.g. too many copies of a card."""


class IllegalActionError(CanastaError):
    """A well-formed action that the rules do not allow in this position.

    ``action`` holds the action's text and ``reason`` the rule it breaks; the state is unchanged.
    """

    def __init__(self, action: str, reason: str) -> None:
        super().__init__(f"illegal action {action!r}: {reason}")
        self.action = action
        self.reason = reason
