"""The ratings chart of an arena run: one point per bot with its 95% interval.

matplotlib is imported only inside :func:`plot_ratings` (with the non-interactive Agg
backend), so importing this module costs nothing and needs no third-party package.
"""

from __future__ import annotations

from collections.abc import Sequence

from canasta.arena.tournament import Rating


def plot_ratings(ratings: Sequence[Rating], path: str, title: str = "") -> None:
    """Draw ``ratings`` (best at the top) with their intervals into ``path`` (PNG, SVG or PDF,
    by the file name's ending). Raises :class:`ImportError` without matplotlib and
    :class:`OSError` when the file cannot be written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = sorted(ratings, key=lambda r: r.rating)
    ys = list(range(len(order)))
    values = [r.rating for r in order]
    below = [max(0.0, r.rating - r.ci95[0]) for r in order]
    above = [max(0.0, r.ci95[1] - r.rating) for r in order]
    fig, ax = plt.subplots(figsize=(7.0, 1.2 + 0.55 * len(order)))
    try:
        ax.errorbar(values, ys, xerr=[below, above], fmt="o", color="tab:blue",
                    ecolor="tab:gray", elinewidth=2, capsize=4)
        for y, r in zip(ys, order):
            ax.annotate(f"{r.rating:.0f}", (r.rating, y), textcoords="offset points",
                        xytext=(0, 7), ha="center", fontsize=8)
        ax.set_yticks(ys)
        ax.set_yticklabels([r.bot for r in order])
        ax.set_ylim(-0.7, len(order) - 0.3)
        ax.set_xlabel("rating (Bradley-Terry on games, Elo scale) with 95% interval")
        ax.grid(axis="x", alpha=0.3)
        if title:
            ax.set_title(title, fontsize=10)
        fig.tight_layout()
        fig.savefig(path, dpi=120)
    finally:
        plt.close(fig)
