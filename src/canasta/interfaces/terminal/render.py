"""The table on the screen, drawn with rich: the player's hand, the melds, the pile, the scores.

Everything here draws from an :class:`~canasta.observation.Observation` of the player's seat, so
the screen can never show a card the player may not see. Imported only by ``canasta play``
(rich is an optional dependency).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from canasta.actions import Action, format_action
from canasta.cards import (
    BLACK_THREE_RANK,
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_WILD,
    RANK_OF,
    Card,
    format_card,
    rank_char,
)
from canasta.interfaces.terminal.advice import (
    SECTIONS,
    Suggestion,
    canasta_kind,
    card_label,
    join_names,
    owner_of,
    side_label,
)
from canasta.observation import Observation
from canasta.plans import top_block
from canasta.rules import Rules
from canasta.scoring import table_points
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
    """Cards as styled text with their suit symbols (``K♥ 10♦ Joker``), in the order given."""
    text = Text()
    for i, c in enumerate(cards):
        if i:
            text.append(sep)
        text.append(card_label(format_card(c)), style=card_style(c))
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
    """The hand on one line, grouped by rank: ``A♠ A♥ · K♣ · ... · 2♠ Joker``."""
    text = Text()
    for i, (_, group) in enumerate(hand_groups(cards)):
        if i:
            text.append(" · ", style="dim")
        text.append_text(cards_text(group))
    return text


def side_names(rules: Rules, names: Sequence[str]) -> list[str]:
    """A name per side: its seats' names joined (``You & North``)."""
    return [side_label(rules, names, i) for i in range(rules.num_sides)]


def _owners(obs: Observation, names: Sequence[str]) -> list[tuple[int, str, list[int]]]:
    """(index into melds, label, seats) of every set of melds on the table, the player's first."""
    rules = obs.rules
    seen: dict[int, list[int]] = {}
    for seat in range(rules.num_players):
        seen.setdefault(owner_of(obs, seat), []).append(seat)
    mine = owner_of(obs, obs.seat)
    order = sorted(seen, key=lambda o: (o != mine, o))
    return [(o, join_names([names[s] for s in seen[o]]), seen[o]) for o in order]


def freezer(obs: Observation) -> Card | None:
    """The card that froze the pile for everyone, if one did (the top card may hide it)."""
    return obs.freeze.card


def pile_text(obs: Observation) -> Text:
    """The pile: its size, top card, what froze it and whether the player may take it."""
    text = Text()
    pile = obs.pile
    if not pile:
        text.append("Pile empty")
        return text
    top = pile[-1]
    text.append(f"Pile {len(pile)}, top ")
    text.append_text(cards_text([top]))
    notes: list[tuple[str, str]] = []
    blocked = top_block(pile)
    if blocked is not None:
        notes.append((f"blocked: {blocked}", "yellow"))
    rules = obs.rules
    side_melded = obs.side_has_melded(obs.seat)
    frozen_by = freezer(obs)
    if obs.pile_frozen:
        why = ("frozen by " + card_label(format_card(frozen_by))) if frozen_by is not None \
            else "frozen"
        notes.append((f"{why}: a natural pair takes it", "cyan"))
    elif rules.pile_frozen_until_side_melds and not side_melded:
        notes.append(("frozen until your side melds", "cyan"))
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


def rank_label(rank: int) -> str:
    """A meld's rank as a player reads it: ``K``, ``10``, ``3`` (black threes)."""
    return "10" if rank_char(rank) == "T" else rank_char(rank)


def meld_token(meld: Sequence[Card], rank: int, rules: Rules, hidden: bool) -> Text:
    """One meld in a few characters: rank, natural cards + wild cards; a canasta in brackets,
    natural red, mixed bold: ``J 3``, ``5 2+1``, ``[K 6+1 mixed]``."""
    naturals = sum(1 for c in meld if not IS_WILD[c])
    wilds = len(meld) - naturals
    body = f"{rank_label(rank)} {naturals}" + (f"+{wilds}" if wilds else "")
    kind = canasta_kind(rules, meld)
    if kind is None:
        return Text(body)
    return Text(f"[{body} {kind}{' hidden' if hidden else ''}]",
                style="bold red" if kind == "natural" else "bold")


def melds_line(obs: Observation, owner: int) -> Text:
    """One side's melds on a line (it wraps when long), aces first, black threes last."""
    melds = obs.melds[owner]
    ranks = sorted((r for r, m in enumerate(melds) if m is not None),
                   key=lambda r: (r == BLACK_THREE_RANK, -r))
    line = Text("  ")
    for i, r in enumerate(ranks):
        if i:
            line.append("  ")
        line.append_text(meld_token(melds[r] or (), r, obs.rules, r in obs.hidden[owner]))
    return line


def side_line(obs: Observation, side: int, owner: int, label: str, mine: bool) -> Text:
    """A side's running points: what its melds, canastas and red threes count so far, or what
    its opening still needs."""
    rules = obs.rules
    points = table_points(rules, obs.melds[owner], obs.hidden[owner], len(obs.red_threes[side]))
    text = Text()
    text.append(label, style="bold underline" if mine else "bold")
    opened = any(m is not None for m in obs.melds[owner])
    if opened:
        text.append(f" {points.total:+d}", style="bold green" if mine else "bold")
        canastas = points.natural_canastas + points.mixed_canastas
        parts = [f"melds {points.melded}"]
        if canastas:
            parts.append(f"{canastas} canasta{'s' if canastas > 1 else ''} {points.canastas}")
        if points.hidden:
            parts.append(f"hidden {points.hidden}")
        text.append(" (" + " · ".join(parts) + ")", style="dim")
    else:
        minimum = rules.minimum_for(obs.scores[side])
        text.append(f" not opened: {minimum} to open", style="yellow" if mine else "dim")
    if obs.red_threes[side]:
        text.append(f" · red 3s {points.red_threes:+d} ")
        text.append_text(cards_text(obs.red_threes[side]))
    return text


def seats_line(obs: Observation, names: Sequence[str], levels: Sequence[str]) -> Text:
    """The other seats: name, level, role, cards in hand; the dealer marked."""
    rules = obs.rules
    my_side = obs.seat % rules.num_sides
    line = Text()
    for s in range(rules.num_players):
        if s == obs.seat:
            continue
        if line:
            line.append(" · ")
        if obs.lone_hand is not None:
            role = "lone hand" if s == obs.lone_hand else (
                "with you" if obs.seat != obs.lone_hand else "")
        else:
            role = "partner" if s % rules.num_sides == my_side and rules.partnership else ""
        words = ", ".join(w for w in (levels[s] if s < len(levels) else "", role) if w)
        line.append(names[s], style="bold reverse" if s == obs.to_move else "bold")
        if words:
            line.append(f" ({words})", style="dim")
        n = obs.hand_sizes[s]
        line.append(f" {n} card{'s' if n != 1 else ''}")
        if s == obs.dealer:
            line.append(" D", style="dim")
    return line


def board(obs: Observation, names: Sequence[str], hand_number: int, seed_note: str = "",
          levels: Sequence[str] = ()) -> RenderableType:
    """The whole table as the player sees it, compact enough for 80×24 in mid-hand: the game
    score, stock and pile, the other seats, each side's running points and melds, the hand."""
    rules = obs.rules
    sides = side_names(rules, names)
    my_side = obs.seat % rules.num_sides
    lines: list[RenderableType] = []

    title = Text(f"Hand {hand_number} · {rules.name} · ", style="bold")
    title.append(_phase_words(obs, names), style="bold yellow" if obs.to_move == obs.seat
                 and obs.phase != OVER else "bold")
    lines.append(title)

    game = Text(f"Game to {rules.target_score}: ", style="dim")
    for i, name in enumerate(sides):
        if i:
            game.append(" · ")
        game.append(f"{name} ")
        game.append(str(obs.scores[i]), style="bold green" if i == my_side else "bold")
    if seed_note:
        game.append(f"   {seed_note}", style="dim")
    lines.append(game)

    table_line = Text()
    table_line.append(f"Stock {obs.stock_size}", style="bold" if obs.stock_size else "bold red")
    table_line.append(" · ")
    table_line.append_text(pile_text(obs))
    lines.append(table_line)
    lines.append(seats_line(obs, names, levels))

    known = [(s, k) for s, k in enumerate(obs.known) if k and s != obs.seat]
    if known:
        line = Text("Known from the pile: ", style="dim")
        for i, (s, k) in enumerate(known):
            if i:
                line.append(" · ")
            line.append(f"{names[s]} ")
            line.append_text(cards_text(k))
        lines.append(line)

    for owner, label, seats_of in _owners(obs, names):
        mine = obs.seat in seats_of
        side = (obs.seat if mine else seats_of[0]) % rules.num_sides
        lines.append(side_line(obs, side, owner, label, mine))
        if any(m is not None for m in obs.melds[owner]):
            lines.append(melds_line(obs, owner))

    hand = Text(f"Your hand ({len(obs.hand)}): ", style="bold")
    hand.append_text(hand_text(obs.hand))
    lines.append(hand)
    return Group(*lines)


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
