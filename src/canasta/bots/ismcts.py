"""The ``ismcts`` bot (ladder rungs L3/L4): Monte-Carlo search over sampled deals, guided by the
heuristic (:mod:`canasta.bots.heuristic`).

Only decisions that matter are searched: a take (or drawing instead), the discard, going out or
asking against playing on, melding now or not — and of those only the close ones: the
candidates are the heuristic's choice and the alternatives it rates within ``margin`` points
(:func:`~canasta.bots.heuristic.alternatives`). Anything else is the heuristic's move, as are
a draw and the answer to "may I go out?": searched, they cost points
(``benchmarks/search_deviations.py``).

Every simulation starts from a deal sampled to fit the seat's view
(:mod:`canasta.bots.determinize`), so the search never uses what the seat cannot see. Inside a
simulation every other seat plays the heuristic on its own view (the blueprint of BOTS.md §2.4),
for ``horizon`` turns past the searched decisions or to the end of the hand, and the end
position is valued by :func:`~canasta.bots.value.counted_lead` (or, with ``value=fit``,
:func:`~canasta.bots.value.fitted_lead`): the side's lead in points.

Two modes:

* ``flat`` (PIMC/SPARTA-style, BOTS.md L3): each sampled deal is played out once for
  every candidate (common random numbers: the candidates are compared on identical deals and
  stock orders, which removes most of the luck from the comparison). The heuristic's choice is
  kept unless another candidate beats it on the paired differences by more than ``z`` standard
  errors, over at least ``FLAT_MIN_DEALS`` deals. With ``prune``, candidates clearly worse than
  the heuristic's choice drop out early, so the contenders get more deals for the same work.
* ``tree`` (the default; single-observer ISMCTS, BOTS.md L4): one sampled deal per iteration
  descends a tree of the seat's own decisions (``depth`` of them, keyed by its own actions,
  UCB1 with availability counts, untried candidates first); the most visited root candidate is
  played, unless its mean value beats the heuristic's choice by less than ``defer`` points.

``iterations=N`` fixes the work (N simulations; reproducible: the same seed and N give the same
choice); ``seconds=S`` bounds the time instead.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from canasta.actions import Action
from canasta.bots.determinize import Determinizer
from canasta.bots.heuristic import alternatives, decide_in, reason_for
from canasta.bots.moves import Moves, NoMoveError
from canasta.bots.value import counted_lead, fitted_lead
from canasta.bots.weights import HeuristicWeights, WeightBook
from canasta.bots.words import action_words
from canasta.engine import apply
from canasta.observation import Observation, observe
from canasta.state import DRAW, OVER, State

MODES = ("flat", "tree")

VALUES: dict[str, Callable[[State, int], float]] = {"count": counted_lead, "fit": fitted_lead}
"""How a play-out's end is valued (``value``): the lead as the table counts it, or as fitted to
where self-play hands ended (:mod:`canasta.bots.value`)."""

Stats = list[tuple[Action, int, float]]
"""Per candidate: the action, its simulations, its mean value (the side's lead in points)."""


class _Node:
    """One decision of the searching seat: visit and value sums, availability, children."""

    __slots__ = ("visits", "total", "avail", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.children: dict[Action, _Node] = {}


DEFAULT_ITERATIONS = 400

QUIET_TURNS = 16
"""Most turns a play-out goes on past its horizon while a big pile is fought over (``quiet``)."""

FLAT_MIN_DEALS = 8
"""Fewest sampled deals on which a ``flat`` search may overrule the heuristic: on one or two the
paired differences show no spread, and one lucky play-out would decide (a time budget cut
short by a busy machine)."""


class ISMCTSBot:
    """Search over sampled deals with heuristic play-outs; see the module docstring.

    Parameters (spec strings are accepted): ``iterations`` (simulations, default 400 when no
    time is given) and/or ``seconds`` (a time budget; with both, whichever runs out first),
    ``mode`` (``tree`` or ``flat``), ``horizon`` (turns simulated past the searched decisions,
    default 8), ``width`` (most candidates, default 4), ``margin`` (points: alternatives the
    heuristic rates further below its choice are not searched, default 120), ``z`` (flat:
    standard errors another candidate must win by, default 1), ``prune`` (flat: from
    ``FLAT_MIN_DEALS`` deals on, a candidate whose paired difference is more than ``prune``
    standard errors below the heuristic's choice is played out no more, and its share of the
    budget goes to the others; the search ends when none is left; default 0: every candidate on
    every deal), ``depth``, ``c`` and ``scale`` (tree: own decisions in the tree, UCB
    exploration, points per unit of reward), ``defer`` (tree: points by which the most visited
    candidate's mean value must beat the heuristic's choice to be played instead, default 0:
    close calls are within the play-outs' noise, docs/bot-experiments.md), ``model`` (1, the
    default: sampled deals follow what the other players showed, see
    :mod:`canasta.bots.determinize`; 0: uniform deals), ``quiet`` (a play-out that reaches its
    horizon beside a pile of ``quiet`` cards or more goes on until the pile is taken, up to
    ``QUIET_TURNS`` turns more: a block's worth shows only once the fight over the pile ends;
    default 0, off), ``value`` (how a play-out's end is valued: ``count``, the default, the lead
    as the table shows it; ``fit``, as fitted to where self-play hands ended, see
    :mod:`canasta.bots.value`) and any heuristic weight by name.
    """

    name = "ismcts"

    def __init__(self, iterations: int | str | None = None, seconds: float | str | None = None,
                 mode: str = "tree", horizon: int | str = 8, width: int | str = 4,
                 margin: float | str = 120.0, z: float | str = 1.0, prune: float | str = 0.0,
                 depth: int | str = 2,
                 c: float | str = 0.7, scale: float | str = 600.0, defer: float | str = 0.0,
                 model: int | str = 1, quiet: int | str = 0, value: str = "count",
                 weights: HeuristicWeights | None = None, **params: str) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode = mode
        self.seconds = None if seconds is None else _float_param("seconds", seconds)
        if iterations is None and self.seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.iterations = None if iterations is None else _int_param("iterations", iterations)
        self.horizon = _int_param("horizon", horizon)
        self.width = _int_param("width", width)
        self.margin = _float_param("margin", margin, allow_zero=True)
        self.z = _float_param("z", z, allow_zero=True)
        self.prune = _float_param("prune", prune, allow_zero=True)
        self.depth = _int_param("depth", depth)
        self.c = _float_param("c", c, allow_zero=True)
        self.scale = _float_param("scale", scale)
        self.defer = _float_param("defer", defer, allow_zero=True)
        if str(model) not in ("0", "1"):
            raise ValueError(f"model must be 1 (deals follow what players showed) or 0, "
                             f"not {model!r}")
        self.model = str(model) == "1"
        self.quiet = _int_param("quiet", quiet, allow_zero=True)
        if value not in VALUES:
            raise ValueError(f"value must be one of {', '.join(VALUES)}, not {value!r}")
        self.value = VALUES[value]
        self.book = WeightBook(weights, params)
        self.weights = self.book.default
        """The heuristic's weights on any preset without its own (``PRESET_WEIGHTS``)."""

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The searched choice (the heuristic's pick when the decision is trivial or clear)."""
        return self.search(obs, legal, rng)[0]

    def explain(self, obs: Observation, legal: Sequence[Action],
                rng: random.Random) -> tuple[Action, str]:
        """The choice, why in the heuristic's words, and what the search found: the deals played
        out and the choice's edge over the best other candidate."""
        action, stats = self.search(obs, legal, rng)
        why = reason_for(obs, legal, action, self.book.of(obs.rules))
        if len(stats) < 2:
            return action, why
        deals = sum(n for _, n, _ in stats) if self.mode == "tree" else stats[0][1]
        values = {a: v for a, _, v in stats}
        other, other_value = max(((a, v) for a, v in values.items() if a != action),
                                 key=lambda t: t[1])
        edge = values.get(action, other_value) - other_value
        found = (f"it beats {action_words(other)} by about {edge:.0f} points" if edge >= 1
                 else f"it does about as well as {action_words(other)}")
        return action, f"{why}; played out on {deals} deals, {found}"

    def search(self, obs: Observation, legal: Sequence[Action],
               rng: random.Random) -> tuple[Action, Stats]:
        """Run the search; returns the choice and the statistics of each candidate."""
        candidates = alternatives(obs, legal, self.book.of(obs.rules), self.width, self.margin)
        if len(candidates) == 1:
            return candidates[0], []
        # a private generator: the bot's rng advances by one draw whatever the budget
        search_rng = random.Random(rng.getrandbits(64))
        sampler = Determinizer(obs, model_opponents=self.model)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        if self.mode == "flat":
            return self._flat(obs.seat, candidates, sampler, search_rng, deadline)
        return self._tree(obs.seat, candidates, sampler, search_rng, deadline)

    def _more(self, done: int, step: int, deadline: float | None) -> bool:
        """Whether the budget allows ``step`` more simulations after ``done`` (at least one)."""
        if not done:
            return True
        if deadline is not None and time.perf_counter() >= deadline:
            return False
        return self.iterations is None or done + step <= self.iterations

    # -- flat: every candidate on the same sampled deals ---------------------------------------
    def _flat(self, seat: int, candidates: list[Action], sampler: Determinizer,
              rng: random.Random, deadline: float | None) -> tuple[Action, Stats]:
        k = len(candidates)
        deals = [0] * k
        sums = [0.0] * k
        diff = [0.0] * k
        diff_sq = [0.0] * k
        alive = list(range(k))  # the heuristic's choice (0) is played out on every deal
        done = 0
        while self._more(done, len(alive), deadline):
            world = sampler.sample(rng)
            base = 0.0
            for j in alive:
                v = self._play_out(apply(world, candidates[j]), seat)
                base = v if j == 0 else base
                d = v - base
                deals[j] += 1
                sums[j] += v
                diff[j] += d
                diff_sq[j] += d * d
            done += len(alive)
            if self.prune and deals[0] >= FLAT_MIN_DEALS:
                # a candidate clearly worse than the heuristic's choice can no longer overrule
                # it: its deals go to the others
                alive = [j for j in alive
                         if not j or _bound(diff[j], diff_sq[j], deals[j], self.prune) >= 0]
                if len(alive) == 1:
                    break
        best, best_score = 0, 0.0
        for j in range(1, k):
            if deals[j] >= FLAT_MIN_DEALS:
                score = _bound(diff[j], diff_sq[j], deals[j], -self.z)
                if score > best_score:
                    best, best_score = j, score
        stats = [(candidates[j], deals[j], sums[j] / deals[j]) for j in range(k)]
        chosen = stats.pop(best)
        stats.sort(key=lambda t: -t[2])
        return candidates[best], [chosen, *stats]

    def _play_out(self, state: State, seat: int) -> float:
        """Every seat plays the heuristic for ``horizon`` turns or to the end; the lead then."""
        return self.value(self.play_on(state)[0], seat)

    def play_on(self, state: State) -> tuple[State, int]:
        """A play-out's end: every seat plays the heuristic for ``horizon`` turns (longer while
        a big pile is fought over, ``quiet``) or to the end of the hand; the state then and the
        turns played."""
        w = self.book.of(state.rules)
        turns = 0
        while state.phase != OVER:
            try:
                action = decide_in(state, w)
            except NoMoveError:
                break  # a sample the seat could not rule out left a player stuck
            state = apply(state, action)
            if state.phase == DRAW:
                turns += 1
                if turns >= self.horizon and self._settled(state, turns):
                    break
        return state, turns

    def _settled(self, state: State, turns: int) -> bool:
        """Whether a play-out past its horizon may stop: no big pile is still fought over."""
        return (not self.quiet or len(state.pile) < self.quiet
                or turns >= self.horizon + QUIET_TURNS)

    # -- tree: single-observer ISMCTS over the seat's own decisions ----------------------------
    def _tree(self, seat: int, candidates: list[Action], sampler: Determinizer,
              rng: random.Random, deadline: float | None) -> tuple[Action, Stats]:
        root = _Node()
        done = 0
        while self._more(done, 1, deadline):
            self._iterate(sampler.sample(rng), seat, root, candidates)
            done += 1
        stats: Stats = []
        for a in candidates:
            child = root.children.get(a)
            if child is not None and child.visits:
                mean = max(-0.999999, min(0.999999, child.total / child.visits))
                stats.append((a, child.visits, self.scale * math.atanh(mean)))
        stats.sort(key=lambda t: (-t[1], -t[2]))
        choice = stats[0][0]
        if self.defer and choice != candidates[0]:
            values = {a: v for a, _, v in stats}
            own = values.get(candidates[0])
            if own is not None and values[choice] - own < self.defer:
                choice = candidates[0]  # a close call: the heuristic's choice stands
        return choice, stats

    def _iterate(self, state: State, seat: int, root: _Node, root_candidates: list[Action]) -> None:
        w = self.book.of(state.rules)
        path = [root]
        node = root
        candidates: list[Action] | None = root_candidates
        in_tree = True
        own = turns = 0
        while state.phase != OVER:
            if in_tree and state.to_move == seat:
                if candidates is None:
                    candidates = alternatives(observe(state, seat), Moves(state=state), w,
                                              self.width, self.margin)
                if len(candidates) > 1:
                    action, child = self._select(node, candidates)
                    path.append(child)
                    own += 1
                    turns = 0
                    if child.visits == 0 or own >= self.depth:
                        in_tree = False  # a new leaf, or deep enough: play out from here
                    node = child
                else:
                    action = candidates[0]
                candidates = None
            else:
                try:
                    action = decide_in(state, w)
                except NoMoveError:
                    break
            state = apply(state, action)
            if state.phase == DRAW:
                turns += 1
                if not in_tree and turns >= self.horizon and self._settled(state, turns):
                    break
        reward = math.tanh(self.value(state, seat) / self.scale)
        for n in path:
            n.visits += 1
            n.total += reward

    def _select(self, node: _Node, candidates: list[Action]) -> tuple[Action, _Node]:
        children = node.children
        for a in candidates:
            child = children.get(a)
            if child is None:
                child = children[a] = _Node()
            child.avail += 1
        for a in candidates:  # untried first, in the heuristic's order
            if children[a].visits == 0:
                return a, children[a]
        best_a = candidates[0]
        best = -math.inf
        for a in candidates:
            child = children[a]
            score = child.total / child.visits + self.c * math.sqrt(
                math.log(child.avail) / child.visits)
            if score > best:
                best, best_a = score, a
        return best_a, children[best_a]


def _bound(total: float, total_sq: float, n: int, z: float) -> float:
    """The mean of ``n`` paired differences plus ``z`` standard errors (sample variance)."""
    mean = total / n
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    return mean + z * math.sqrt(var / n)


def _int_param(name: str, value: object, allow_zero: bool = False) -> int:
    """A positive (or with ``allow_zero`` non-negative) integer spec parameter; raises
    ``ValueError`` naming it."""
    try:
        number = int(str(value))
    except ValueError:
        raise ValueError(f"{name} must be an integer, not {value!r}") from None
    if number < 0 or (number == 0 and not allow_zero):
        raise ValueError(f"{name} must be {'at least 0' if allow_zero else 'positive'}, "
                         f"not {value!r}")
    return number


def _float_param(name: str, value: object, allow_zero: bool = False) -> float:
    """A positive (or with ``allow_zero`` non-negative) number spec parameter."""
    try:
        number = float(str(value))
    except ValueError:
        raise ValueError(f"{name} must be a number, not {value!r}") from None
    if not math.isfinite(number) or number < 0 or (number == 0 and not allow_zero):
        raise ValueError(f"{name} must be {'at least 0' if allow_zero else 'positive'}, "
                         f"not {value!r}")
    return number
