"""Train sb3-contrib's MaskablePPO on Canasta, evaluate it against two bots, save it.

The agent plays seat 0 of ``canasta/Canasta-v0`` (:mod:`canasta.rl.gym`; ``classic-2p`` by
default) against the ``random`` bot. MaskablePPO reads the legal ids from
``env.action_masks()``, so it only ever plays legal ids, each action spelled id by id
(docs/rl.md); the reward is the hand's points in hundreds (the environment's ``points``
returns). No glue code: the environment goes to MaskablePPO as Gymnasium makes it.

After training it plays ``--eval-hands`` fresh hands (deals never met in training) against
``random`` and against ``greedy``, choosing the most likely legal id, and prints its points
per hand (mean, 95% Student-t interval) and the share of hands it won (95% Wilson interval),
beside the untrained network's on the same deals. The model is saved with ``--save`` (load it
with ``MaskablePPO.load``).

Usage (``pip install 'canasta[rl,learn]'``)::

    python examples/train_maskable_ppo.py --timesteps 150000 --seed 1 --save ppo_canasta.zip
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

import gymnasium
import numpy as np

import canasta.rl.gym  # noqa: F401  (registers canasta/Canasta-v0)

T_975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 10: 2.23, 20: 2.09, 30: 2.04}
"""Student-t 97.5% points by degrees of freedom (the nearest smaller one is used)."""


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% Student-t interval."""
    n = len(values)
    mean = float(np.mean(values))
    if n < 2:
        return mean, -math.inf, math.inf
    dof = n - 1
    t = T_975[max(k for k in T_975 if k <= dof)] if dof < 60 else NormalDist().inv_cdf(0.975)
    half = t * float(np.std(values, ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a share ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.975)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(model: Any, preset: str, opponent: str, hands: int, seed: int) -> str:
    """The greedy policy's figures over ``hands`` fresh hands against ``opponent``."""
    env = gymnasium.make("canasta/Canasta-v0", preset=preset, opponents=opponent,
                         reward_scale=1.0)
    points = []
    for k in range(hands):
        obs, info = env.reset(seed=seed + k)
        total, done = 0.0, False
        while not done:
            mask = info["action_mask"].astype(bool)
            action, _ = model.predict(obs, action_masks=mask, deterministic=True)
            obs, reward, terminated, truncated, info = env.step(int(action))
            total += float(reward)
            done = terminated or truncated
        points.append(total)
    mean, low, high = mean_interval(points)
    wins = sum(p > 0 for p in points)
    w_low, w_high = wilson(wins, hands)
    return (f"{mean:+.0f} points per hand [{low:+.0f}, {high:+.0f}], won {wins}/{hands} "
            f"({100 * wins / hands:.0f}%, {100 * w_low:.0f}–{100 * w_high:.0f}%)")


def main(argv: Sequence[str] | None = None) -> int:
    """Train, evaluate against random and greedy, save."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="classic-2p", help="rules preset (default: "
                        "classic-2p)")
    parser.add_argument("--opponent", default="random", help="bot spec of the other seats in "
                        "training (default: random)")
    parser.add_argument("--timesteps", type=int, default=150_000,
                        help="agent steps (ids) of training (default 150000)")
    parser.add_argument("--n-steps", type=int, default=2048,
                        help="steps per PPO update (default 2048)")
    parser.add_argument("--eval-hands", type=int, default=200,
                        help="hands of each evaluation (default 200)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of everything (default 0)")
    parser.add_argument("--save", help="save the trained model to this .zip")
    args = parser.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(args.threads)
    env = gymnasium.make("canasta/Canasta-v0", preset=args.preset, opponents=args.opponent)
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps,
                        batch_size=min(256, args.n_steps), learning_rate=3e-4, gamma=1.0,
                        ent_coef=0.01, seed=args.seed, verbose=0,
                        policy_kwargs={"net_arch": [128, 128]})
    eval_seed = 10 ** 9 + args.seed  # evaluation deals never met in training
    untrained = {bot: evaluate(model, args.preset, bot, args.eval_hands, eval_seed)
                 for bot in ("random", "greedy")}
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    seconds = time.perf_counter() - start
    print(f"trained {model.num_timesteps} steps in {seconds:.0f} s "
          f"({model.num_timesteps / seconds:.0f} steps/s), {args.preset} against "
          f"{args.opponent}", flush=True)
    for bot in ("random", "greedy"):
        trained = evaluate(model, args.preset, bot, args.eval_hands, eval_seed)
        print(f"against {bot}: trained {trained}; untrained {untrained[bot]}", flush=True)
    if args.save:
        model.save(args.save)
        print(f"model saved: {args.save}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
