"""The ``ray`` backend: arena game pairs and self-play shards on a Ray cluster.

Ray (the ``ray`` extra) is imported only when this backend is chosen, so everything else works
without it. :func:`connect` joins a cluster (``--address``) or starts a local Ray instance;
:class:`RayPool` is the arena's :class:`~canasta.arena.tournament.WorkerPool` made of Ray actors
(``ray.util.multiprocessing.Pool``); :func:`run_shards` plays self-play shards as Ray tasks.

Faults: a pool actor that dies (its node lost, its process killed) is restarted and its chunk
of game pairs played again; a self-play task whose worker dies is run again. Both are
deterministic from their seeds, so retried work gives the same results, and each game pair or
shard is counted once.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from canasta.arena.play import ArenaError
from canasta.errors import CanastaError
from canasta.selfplay.plan import SelfplayError
from canasta.selfplay.shards import ShardResult, ShardTask

INSTALL_HINT = "the ray backend needs Ray: pip install 'canasta[ray]'"

LOCAL_OBJECT_STORE_BYTES = 256 * 1024 * 1024
"""Object store of a local Ray instance started here: only small values (tasks, results,
summaries) go through it, so a small store leaves the machine's memory to the workers."""

RETRIES = 3
"""How often a dead pool actor is restarted, or a self-play task whose worker died is run
again, before the run fails."""


Task = TypeVar("Task")
Result = TypeVar("Result")


class RayBackendError(CanastaError):
    """Ray is missing, or the cluster cannot be reached or used."""


@dataclass(frozen=True)
class Cluster:
    """The Ray cluster a run uses."""

    address: str
    """Where it is (``local`` for an instance started by this run)."""
    cpus: int
    nodes: int
    dashboard: str | None
    """The dashboard's address, ``None`` when the cluster runs none (``ray[default]`` not
    installed)."""

    def describe(self) -> str:
        """One line for the user: where, how big, the dashboard."""
        return (f"Ray cluster {self.address}: {self.cpus} CPUs on {self.nodes} "
                f"node{'s' if self.nodes > 1 else ''}; dashboard "
                f"{self.dashboard or 'not running (it comes with ray[default])'}")


def import_ray() -> Any:
    """The ``ray`` module, or :class:`RayBackendError` with the install command."""
    try:
        import ray
    except ImportError:
        raise RayBackendError(INSTALL_HINT) from None
    return ray


@contextmanager
def connect(address: str | None, cpus: int | None = None,
            runtime_env: dict[str, Any] | None = None) -> Iterator[Cluster]:
    """Join the Ray cluster at ``address`` (``auto``: the one started on this machine with
    ``ray start``), or start a local instance with ``cpus`` CPUs (all by default) when
    ``address`` is ``None`` or ``local``; leave it on exit. ``runtime_env`` is Ray's runtime
    environment of the run's workers (e.g. ``{"py_modules": [...], "pip": [...]}``).

    A process already connected to Ray (``ray.init`` called before) keeps its connection.
    """
    ray = import_ray()
    joined = not ray.is_initialized()
    if joined:
        local = address in (None, "local")
        options: dict[str, Any] = {"logging_level": logging.WARNING,
                                   "runtime_env": runtime_env}
        if local:
            options.update(address="local", num_cpus=cpus,
                           object_store_memory=LOCAL_OBJECT_STORE_BYTES)
        else:
            options["address"] = address
            check_cluster(str(address))
        try:
            context = ray.init(**options)
        except ray.exceptions.AuthenticationError:
            raise RayBackendError(auth_message(str(address))) from None
        except (ConnectionError, ValueError, RuntimeError, TypeError) as e:
            if _is_authentication_failure(e):
                raise RayBackendError(auth_message(str(address))) from None
            raise RayBackendError(f"cannot reach the Ray cluster at {address!r}: {e}") \
                from None
        url = getattr(context, "dashboard_url", None)
    else:
        url = None
    try:
        nodes = [n for n in ray.nodes() if n.get("Alive")]
        resources = ray.cluster_resources()
        yield Cluster(address="local" if address in (None, "local") else str(address),
                      cpus=int(resources.get("CPU", 0)), nodes=len(nodes),
                      dashboard=f"http://{url}" if url and "://" not in url else url or None)
    finally:
        if joined:
            ray.shutdown()


AUTH_MODE = "RAY_AUTH_MODE"
"""Ray's switch for token authentication (``token``, ``disabled``)."""
PROBE_SECONDS = 2.0
"""How long one attempt to open the cluster's port waits."""
REACH_SECONDS = 10.0
"""How long the cluster's port is tried before the run gives up on the address."""


def auth_message(address: str) -> str:
    """One line: the cluster refused this process's authentication, and what to do."""
    if os.environ.get(AUTH_MODE, "").lower() == "token":
        fix = ("this process has no token or not the cluster's: give it the head node's "
               "(`ray get-auth-token` there) in RAY_AUTH_TOKEN or ~/.ray/auth_token")
    else:
        fix = ("it uses token authentication: set RAY_AUTH_MODE=token and give this machine "
               "the head node's token (`ray get-auth-token` there) in RAY_AUTH_TOKEN or "
               "~/.ray/auth_token")
    return f"the Ray cluster at {address!r} refused this process's authentication: {fix} " \
           "(docs/scale.md)"


def _is_authentication_failure(error: BaseException) -> bool:
    """Whether ``ray.init``'s failure was the cluster refusing this process's token (Ray
    retries for seconds and reports it as a connection failure, the cause in the chain)."""
    seen: BaseException | None = error
    while seen is not None:
        text = f"{type(seen).__name__} {seen}"
        if "AuthenticationError" in text or "InvalidAuthToken" in text \
                or "Unauthenticated" in text:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def check_cluster(address: str) -> None:
    """:class:`RayBackendError` at once when nothing answers at ``address`` for
    :data:`REACH_SECONDS` (Ray itself would wait for minutes), or when the cluster there
    refuses this process's authentication (Ray would retry for 20 seconds, then blame the
    address).

    The check asks the cluster's control store for its id once, as ``ray.init`` does first,
    with the authentication ``ray.init`` would use (for ``auto``, Ray turns token
    authentication on when a token is found here and ``RAY_AUTH_MODE`` is unset). Any other
    outcome (an address of another form, a failure other than these) is left to
    ``ray.init``."""
    try:
        from ray._private.authentication.authentication_token_setup import (
            ensure_token_if_auth_enabled,
            maybe_enable_token_auth_if_token_available,
        )
        from ray._private.utils import read_ray_address
        from ray._raylet import GcsClient  # type: ignore[attr-defined]
        from ray.exceptions import AuthenticationError
    except ImportError:  # another Ray: ray.init reports it as it does
        return
    if "://" in address:  # a Ray Client address (ray://): Ray checks it its own way
        return
    if address == "auto":
        found = os.environ.get("RAY_ADDRESS") or read_ray_address()
        if not found or "://" in found:
            return
        maybe_enable_token_auth_if_token_available(warn_if_disabled=False)
        address = found
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit():
        return
    deadline = time.monotonic() + REACH_SECONDS
    while True:
        try:
            socket.create_connection((host, int(port)), timeout=PROBE_SECONDS).close()
            break
        except OSError as e:
            if time.monotonic() >= deadline:  # Ray would try for minutes
                raise RayBackendError(
                    f"cannot reach the Ray cluster at {address!r}: nothing answers there "
                    f"({e.strerror or e}); is `ray start` running on that node?") from None
            time.sleep(0.5)
    try:  # token authentication on and no token: Ray's client would abort the process
        ensure_token_if_auth_enabled(None, create_token_if_missing=False)
    except AuthenticationError:
        raise RayBackendError(auth_message(address)) from None
    with _quiet_stderr():  # Ray's core logs the refusal on standard error as well
        try:
            GcsClient(address=address, cluster_id=None)
        except AuthenticationError:
            refused = True
        except Exception:  # any other trouble: ray.init's to report
            refused = False
        else:
            refused = False
    if refused:
        raise RayBackendError(auth_message(address))


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """File descriptor 2 sent to /dev/null for a moment (Ray's C++ core writes there)."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class RayPool:
    """Ray actors that play game pairs (of any family's rules), one CPU each, spread over the
    cluster's nodes."""

    def __init__(self, size: int | None = None) -> None:
        """``size`` actors (default: one per CPU of the cluster); needs :func:`connect`."""
        import_ray()
        from ray.util.multiprocessing import Pool

        try:
            self._pool = Pool(size, ray_remote_args={
                "num_cpus": 1, "scheduling_strategy": "SPREAD",
                "max_restarts": RETRIES, "max_task_retries": RETRIES})
        except ValueError as e:  # more workers asked for than the cluster has CPUs
            raise RayBackendError(str(e)) from None
        self.size: int = len(self._pool._actor_pool)

    def workers(self) -> list[tuple[str, int]]:
        """The node and process id of every actor, in pool order."""
        return [self._pool.apply(_where_am_i) for _ in range(self.size)]

    def imap(self, func: Callable[[Task], Result], tasks: Sequence[Task],
             chunksize: int) -> Iterator[Result]:
        """``func`` of every task in order; raises the first error a task raised."""
        from ray.exceptions import RayError
        from ray.util.multiprocessing.pool import PoolTaskError

        # Ray's pool hands errors back as results: raise them as the other pools do
        for result in self._pool.imap(func, list(tasks), chunksize):
            if isinstance(result, PoolTaskError):
                raise result.underlying
            if isinstance(result, RayError):
                raise ArenaError(f"a Ray worker failed: {result}")
            yield result

    def __enter__(self) -> RayPool:
        return self

    def __exit__(self, *exc: object) -> None:
        # killed outright: the pool's own terminate first asks each actor to exit, a call
        # that Ray would retry (and report) on an actor that may restart
        ray = import_ray()
        for actor, _ in self._pool._actor_pool:
            ray.kill(actor, no_restart=True)


def run_shards(tasks: Sequence[ShardTask], limit: int | None = None) -> Iterator[ShardResult]:
    """Play self-play shards as Ray tasks, one CPU each, spread over the nodes, at most
    ``limit`` at a time (default: as many as the cluster runs); yield their results as they
    finish. A task whose worker dies is run again (the shard's temporary files are replaced;
    its finished files appear once)."""
    ray = import_ray()
    remote = ray.remote(num_cpus=1, max_retries=RETRIES, scheduling_strategy="SPREAD")(
        _play_shard_here)
    waiting = list(reversed(tasks))
    pending: dict[Any, ShardTask] = {}
    try:
        while waiting or pending:
            while waiting and (limit is None or len(pending) < limit):
                task = waiting.pop()
                pending[remote.remote(task)] = task
            done, _ = ray.wait(list(pending), num_returns=1)
            task = pending.pop(done[0])
            try:
                yield ray.get(done[0])
            except ray.exceptions.RayTaskError as e:  # the shard raised: no retry helps
                cause = getattr(e, "cause", None)
                message = str(cause) if isinstance(cause, CanastaError) else str(e)
                raise SelfplayError(message) from None
            except ray.exceptions.RayError as e:  # its worker died once too often
                raise RayBackendError(f"shard {task.shard}: {e}") from None
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def _play_shard_here(task: ShardTask) -> ShardResult:
    """A Ray task: play a shard and say on which node."""
    import ray

    from canasta.selfplay.shards import play_shard

    return dataclasses.replace(play_shard(task),
                               node=str(ray.get_runtime_context().get_node_id()))


def _where_am_i() -> tuple[str, int]:
    """The Ray node and process id of the worker that runs this."""
    import ray

    return str(ray.get_runtime_context().get_node_id()), os.getpid()

