"""The table on the screen, drawn with rich: the player's hand, the melds, the pile, the scores.

Everything here draws from an :class:`~canasta.observation.Observation` of the player's seat, so
the screen can never show a card the player may not see. Imported only by ``canasta play``
(rich is an optional dependency).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from canasta.actions import Action, format_action
from canasta.cards import (
    BLACK_THREE_RANK,
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_RED_THREE,
    IS_WILD,
    RANK_OF,
    Card,
    format_card,
    rank_char,
)
from canasta.interfaces.terminal.advice import SECTIONS, Suggestion, canasta_kind, owner_of
from canasta.observation import Observation
from canasta.rules import Rules
from canasta.state import ANSWER, DRAW, OVER, PLAY, HandResult

RED_SUITS = ("d", "h")


def card_style(card: Card) -> str:
    """The rich style of a card: red suits red, wild cards magenta, black threes dim."""
    if IS_WILD[card]:
        return "bold magenta"
    if IS_BLACK_THREE[card]:
        return "dim"
    if format_card(card)[1] in RED_SUITS:
        return "bold red"
    return "bold"


def cards_text(cards: Sequence[Card], sep: str = " ") -> Text:
    """Cards as styled text, in the order given."""
    text = Text()
    for i, c in enumerate(cards):
        if i:
            text.append(sep)
        text.append(format_card(c), style=card_style(c))
    return text


def hand_groups(cards: Sequence[Card]) -> list[tuple[str, list[Card]]]:
    """The hand grouped by rank from aces down, then black threes, then wild cards apart."""
    groups: dict[int, list[Card]] = {}
    for c in sorted((c for c in cards if IS_NATURAL[c]), key=lambda c: (-RANK_OF[c], c)):
        groups.setdefault(RANK_OF[c], []).append(c)
    out = [(rank_char(r), g) for r, g in groups.items()]
    threes = sorted(c for c in cards if IS_BLACK_THREE[c])
    if threes:
        out.append(("black 3", threes))
    wilds = sorted(c for c in cards if IS_WILD[c])
    if wilds:
        out.append(("wild", wilds))
    return out


def hand_text(cards: Sequence[Card]) -> Text:
    """The hand on one line: ``A: As Ah   K: Kc   ...   wild: 2s JK``."""
    text = Text()
    for i, (label, group) in enumerate(hand_groups(cards)):
        if i:
            text.append("   ")
        text.append(label + ":", style="cyan")
        text.append(" ")
        text.append_text(cards_text(group))
    return text


def join_names(names: Sequence[str]) -> str:
    """``You``, ``You & North``, ``You, Northwest & Northeast``."""
    if len(names) <= 2:
        return " & ".join(names)
    return ", ".join(names[:-1]) + " & " + names[-1]


def side_names(rules: Rules, names: Sequence[str]) -> list[str]:
    """A name per side: its seats' names joined (``You & North``)."""
    return [join_names([names[s] for s in range(rules.num_players) if s % rules.num_sides == i])
            for i in range(rules.num_sides)]


def _owners(obs: Observation, names: Sequence[str]) -> list[tuple[int, str, list[int]]]:
    """(index into melds, label, seats) of every set of melds on the table, the player's first."""
    rules = obs.rules
    seen: dict[int, list[int]] = {}
    for seat in range(rules.num_players):
        seen.setdefault(owner_of(obs, seat), []).append(seat)
    mine = owner_of(obs, obs.seat)
    order = sorted(seen, key=lambda o: (o != mine, o))
    return [(o, join_names([names[s] for s in seen[o]]), seen[o]) for o in order]


def pile_text(obs: Observation) -> Text:
    """The pile: its size, top card and whether the player may take it."""
    text = Text()
    pile = obs.pile
    if not pile:
        text.append("Pile empty")
        return text
    top = pile[-1]
    text.append(f"Pile {len(pile)} card{'s' if len(pile) != 1 else ''}, top ")
    text.append(format_card(top), style=card_style(top))
    notes: list[tuple[str, str]] = []
    if IS_BLACK_THREE[top]:
        notes.append(("blocked: a black three is on top (nobody may take it now)", "yellow"))
    elif IS_WILD[top]:
        notes.append(("blocked: a wild card is on top", "yellow"))
    elif IS_RED_THREE[top]:
        notes.append(("blocked: a red three is on top", "yellow"))
    rules = obs.rules
    side_melded = any(m is not None for m in obs.melds[owner_of(obs, obs.seat)])
    if obs.pile_frozen:
        notes.append(("frozen: a natural pair is needed to take it", "cyan"))
    elif rules.pile_frozen_until_side_melds and not side_melded:
        notes.append(("frozen until your side melds: a natural pair is needed", "cyan"))
    elif not notes:
        notes.append(("not frozen", "green"))
    for note, style in notes:
        text.append(" · ")
        text.append(note, style=style)
    return text


def _phase_words(obs: Observation, names: Sequence[str]) -> str:
    who = names[obs.to_move]
    if obs.phase == OVER:
        return "hand over"
    if obs.to_move != obs.seat:
        return f"{who} to play"
    if obs.phase == DRAW:
        return "your turn: draw, or take the pile" + (
            " (or pass)" if obs.stock_size == 0 else "")
    if obs.phase == PLAY:
        extra = ""
        if obs.answer == "yes":
            extra = " — your partner said yes: you must go out"
        elif obs.answer == "no":
            extra = " — your partner said no: you may not go out"
        return "your turn: meld, then discard" + extra
    if obs.phase == ANSWER:
        asker = (obs.to_move - obs.rules.num_sides) % obs.rules.num_players
        return f"{names[asker]} asks: may I go out? Answer yes or no"
    return obs.phase


def melds_table(obs: Observation, owner: int) -> Table | Text:
    """One side's melds: rank, cards, count, and canastas marked natural or mixed."""
    rules = obs.rules
    melds = obs.melds[owner]
    ranks = sorted((r for r, m in enumerate(melds) if m is not None),
                   key=lambda r: (r == BLACK_THREE_RANK, -r))
    if not ranks:
        return Text("  no melds", style="dim")
    table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
    table.add_column(justify="right", style="cyan", no_wrap=True)
    table.add_column()
    table.add_column(justify="right", no_wrap=True)
    table.add_column(no_wrap=True)
    for r in ranks:
        meld = melds[r] or ()
        naturals = [c for c in meld if not IS_WILD[c]]
        wilds = [c for c in meld if IS_WILD[c]]
        cards = cards_text(naturals)
        if wilds:
            cards.append(" + ")
            cards.append_text(cards_text(wilds))
        status = Text()
        if len(meld) >= rules.canasta_size:
            kind = canasta_kind(meld)
            status.append(f"{kind} canasta",
                          style="bold red" if kind == "natural" else "bold white")
            if r in obs.hidden[owner]:
                status.append(" (hidden)", style="italic")
        elif r != BLACK_THREE_RANK:
            status.append(f"{rules.canasta_size - len(meld)} to a canasta", style="dim")
        table.add_row("  " + rank_char(r), cards, str(len(meld)), status)
    return table


def board(obs: Observation, names: Sequence[str], hand_number: int, seed_note: str = ""
          ) -> RenderableType:
    """The whole table as the player sees it."""
    rules = obs.rules
    sides = side_names(rules, names)
    my_side = obs.seat % rules.num_sides
    parts: list[RenderableType] = []

    scores = Text("Scores ")
    for i, name in enumerate(sides):
        if i:
            scores.append(" · ")
        scores.append(f"{name} ", style="bold" if i == my_side else "")
        scores.append(str(obs.scores[i]), style="bold green" if i == my_side else "bold")
    scores.append(f"   (game to {rules.target_score})", style="dim")
    parts.append(scores)

    table_line = Text()
    table_line.append(f"Stock {obs.stock_size}", style="bold" if obs.stock_size else "bold red")
    table_line.append(" · ")
    table_line.append_text(pile_text(obs))
    parts.append(table_line)

    seats = Text("Hands ")
    for s in range(rules.num_players):
        if s == obs.seat:
            continue
        if len(seats) > 6:
            seats.append(" · ")
        role = ("partner" if s % rules.num_sides == my_side and rules.partnership
                and obs.lone_hand is None else "")
        if obs.lone_hand is not None:
            role = "lone hand" if s == obs.lone_hand else (
                "with you" if obs.seat != obs.lone_hand else "")
        seats.append(names[s], style="bold" if s == obs.to_move else "")
        if role:
            seats.append(f" ({role})", style="dim")
        n = obs.hand_sizes[s]
        seats.append(f" {n} card{'s' if n != 1 else ''}")
        if s == obs.dealer:
            seats.append(" [dealer]", style="dim")
    parts.append(seats)

    reds = Text("Red threes ")
    for i, name in enumerate(sides):
        if i:
            reds.append(" · ")
        reds.append(f"{name} ")
        if obs.red_threes[i]:
            reds.append_text(cards_text(obs.red_threes[i]))
        else:
            reds.append("-", style="dim")
    parts.append(reds)

    known = [(s, k) for s, k in enumerate(obs.known) if k and s != obs.seat]
    if known:
        line = Text("Known from the pile ")
        for i, (s, k) in enumerate(known):
            if i:
                line.append(" · ")
            line.append(f"{names[s]} ")
            line.append_text(cards_text(k))
        parts.append(line)

    for owner, label, seats_of in _owners(obs, names):
        melded = any(m is not None for m in obs.melds[owner])
        mine = obs.seat in seats_of
        head = Text()
        if mine:
            head.append("Your melds" if len(seats_of) == 1 else f"Your side's melds ({label})",
                        style="bold underline")
        else:
            head.append(f"{label}'s melds" if len(seats_of) == 1 else f"{label} melds",
                        style="bold underline")
        side = (obs.seat if mine else seats_of[0]) % rules.num_sides
        if not melded:
            minimum = rules.minimum_for(obs.scores[side])
            who = ("you need" if len(seats_of) == 1 else "your side needs") if mine else "needs"
            head.append(f"  not opened: {who} {minimum} points to open",
                        style="yellow" if mine else "dim")
        parts.append(Padding(head, (1, 0, 0, 0)))
        parts.append(melds_table(obs, owner))

    hand_head = Text()
    hand_head.append(f"Your hand ({len(obs.hand)})", style="bold underline")
    parts.append(Padding(hand_head, (1, 0, 0, 0)))
    hand_line = hand_text(obs.hand)
    hand_line.pad_left(2)
    parts.append(hand_line)

    title = (f"Hand {hand_number} · {rules.name}" + (f" · {seed_note}" if seed_note else "")
             + f" · {_phase_words(obs, names)}")
    return Panel(Group(*parts), title=title, title_align="left", expand=True)


def _choice_text(s: Suggestion) -> Text:
    a = s.action
    if a.verb == "discard":
        return cards_text([a.card])
    if a.verb == "take" and not a.groups:
        return Text("top card onto your meld")
    if a.verb in ("meld", "take"):
        text = Text()
        for i, g in enumerate(a.groups):
            if i:
                text.append(", ")
            if g.cards and all(IS_WILD[c] for c in g.cards):
                text.append(f"{rank_char(g.rank)}: ", style="cyan")
            text.append_text(cards_text(g.cards))
        return text
    return Text(format_action(a))


def hands_left(hands: Sequence[Sequence[Card]], names: Sequence[str], viewer: int
               ) -> RenderableType:
    """The cards left in the other hands once a hand is over (they are counted openly)."""
    table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
    table.add_column(no_wrap=True)
    table.add_column()
    for seat, cards in enumerate(hands):
        if seat == viewer:
            continue
        table.add_row(f"{names[seat]}:", hand_text(cards) if cards else Text("-", style="dim"))
    return table


def suggestions_view(items: Sequence[Suggestion]) -> RenderableType:
    """The numbered short list, one line per heading."""
    table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
    table.add_column(style="cyan", no_wrap=True)
    table.add_column()
    for section in SECTIONS:
        line = Text()
        for number, s in enumerate(items, 1):
            if s.section != section:
                continue
            if line:
                line.append("   ")
            line.append(f"{number}", style="bold yellow")
            line.append(" ")
            line.append_text(_choice_text(s))
        if line:
            table.add_row(section, line)
    return table


def legal_view(legal: Sequence[Action]) -> RenderableType:
    """Every legal action, canonical, in columns."""
    return Columns([format_action(a) for a in legal], padding=(0, 3))


BREAKDOWN_ROWS = (("melded", "Melded cards"), ("canastas", "Canastas"),
                  ("hidden", "Hidden canastas"), ("red_threes", "Red threes"),
                  ("going_out", "Going out"), ("in_hand", "Cards in hand"))


def breakdown(result: HandResult, rules: Rules, names: Sequence[str], hand_number: int,
              ending: str) -> Table:
    """Each side's score for the hand: melded, canastas, hidden, red threes, going out, in hand,
    total."""
    sides = side_names(rules, names)
    table = Table(title=f"Hand {hand_number}: {ending}", title_justify="left",
                  title_style="bold")
    table.add_column("")
    for name in sides:
        table.add_column(name, justify="right")
    for key, label in BREAKDOWN_ROWS:
        if key == "hidden" and not rules.hidden_canasta_bonus:
            continue
        values = [getattr(side, key) for side in result.sides]
        table.add_row(label, *[(f"-{v}" if key == "in_hand" and v else str(v)) for v in values])
    table.add_section()
    table.add_row(Text("Total", style="bold"),
                  *[Text(str(side.total), style="bold") for side in result.sides])
    return table


def score_sheet(totals: Sequence[Sequence[int]], rules: Rules, names: Sequence[str]) -> Table:
    """The running score sheet: each hand's totals, and the cumulative scores."""
    sides = side_names(rules, names)
    table = Table(title=f"Score sheet (game to {rules.target_score})", title_justify="left",
                  title_style="bold")
    table.add_column("Hand", justify="right")
    for name in sides:
        table.add_column(name, justify="right")
    running = [0] * rules.num_sides
    for number, row in enumerate(totals, 1):
        running = [r + t for r, t in zip(running, row)]
        table.add_row(str(number), *[f"{t:+d}  ({r})" for t, r in zip(row, running)])
    table.add_section()
    table.add_row(Text("Total", style="bold"), *[Text(str(r), style="bold") for r in running])
    return table
