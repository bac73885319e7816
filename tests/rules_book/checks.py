"""Assertions shared by the rules book: legal and illegal actions, and the legal-action list.

``assert_legal`` applies an action, checks that the given state did not change, and checks that
the action is listed by ``canasta.legal_actions`` or can be made from a shorter listed action
followed by a plain meld of the remaining cards (NOTATION §5 lists single-group melds and minimal
openings). ``assert_illegal`` checks that ``canasta.apply`` raises ``IllegalActionError``, that
the state is unchanged, and that the action is not listed.
"""

from __future__ import annotations

from collections import Counter

import pytest

import canasta
from canasta import Action, Group, IllegalActionError, State, format_action, parse_action

_RESULT_FIELDS = (
    "hands", "stock", "pile", "melds", "red_threes", "pile_frozen", "phase", "to_move", "result",
)


def listed(state: State) -> list[str]:
    """The canonical text of every legal action of ``state``."""
    return [format_action(a) for a in canasta.legal_actions(state)]


def canonical(text: str) -> str:
    """The canonical text of an action."""
    return format_action(parse_action(text))


def _snapshot(state: State) -> tuple[State, dict[str, object]]:
    return state.copy(), canasta.state_to_json(state)


def _unchanged(state: State, snap: tuple[State, dict[str, object]]) -> None:
    copy, data = snap
    assert state == copy, "the given state changed"
    assert canasta.state_to_json(state) == data, "the given state changed"


def _same_result(a: State, b: State) -> bool:
    """Same cards everywhere, same turn position; hidden canastas only where they score."""
    if a.rules.hidden_canasta_bonus and a.hidden != b.hidden:
        return False
    return all(getattr(a, f) == getattr(b, f) for f in _RESULT_FIELDS)


def _remainder(target: Action, part: Action) -> Action | None:
    """The groups of ``target`` left once ``part``'s cards are laid, as one ``meld``; or None."""
    if part.verb != target.verb:
        return None
    by_rank: dict[int, Counter[int]] = {g.rank: Counter(g.cards) for g in target.groups}
    if target.verb == "take":
        if not part.groups and not target.groups:
            return Action("meld")
        if part.groups and target.groups and part.groups[0].rank != target.groups[0].rank:
            return None
    for g in part.groups:
        have = by_rank.get(g.rank)
        need = Counter(g.cards)
        if have is None or any(have[c] < n for c, n in need.items()):
            return None
        have.subtract(need)
    groups = tuple(
        Group(rank, tuple(sorted(cnt.elements())))
        for rank, cnt in by_rank.items()
        if sum(cnt.values()) > 0
    )
    return Action("meld", groups)


def _reachable_from_listed(state: State, action: Action, result: State) -> bool:
    """True when a listed action, then a ``meld`` of the remaining cards, gives ``result``."""
    for part in canasta.legal_actions(state):
        rest = _remainder(action, part)
        if rest is None:
            continue
        try:
            after = canasta.apply(state, part)
            if rest.groups:
                after = canasta.apply(after, rest)
        except IllegalActionError:
            continue
        if _same_result(after, result):
            return True
    return False


def assert_legal(state: State, text: str, *, check_listed: bool = True) -> State:
    """Apply ``text`` (it must be legal) and return the new state; see the module docstring."""
    snap = _snapshot(state)
    action = parse_action(text)
    new = canasta.apply(state, action)
    _unchanged(state, snap)
    if check_listed and format_action(action) not in listed(state):
        assert action.verb in ("meld", "take"), (
            f"{format_action(action)!r} is legal but not listed: {listed(state)}")
        assert _reachable_from_listed(state, action, new), (
            f"{format_action(action)!r} is legal but neither listed nor made of listed actions")
    return new


def assert_illegal(state: State, text: str, *, reason: str | None = None) -> IllegalActionError:
    """Check that ``text`` is illegal, leaves the state unchanged and is not listed."""
    snap = _snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        canasta.apply(state, text)
    _unchanged(state, snap)
    # illegal for the rule under test, not because the position lacks the cards
    assert "you hold no" not in info.value.reason, info.value.reason
    assert not canasta.is_legal(state, text)
    assert canonical(text) not in listed(state)
    if reason is not None:
        assert reason in info.value.reason, info.value.reason
    return info.value


def play(state: State, *texts: str) -> State:
    """Apply several legal actions in order (each checked by :func:`assert_legal`)."""
    for text in texts:
        state = assert_legal(state, text)
    return state
