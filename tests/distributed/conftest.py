"""One two-node Ray cluster on this machine, shared by every test here: it takes seconds to
start, so the tests are marked ``ray`` and ``make test`` runs them in one process after the
others. Both nodes have one CPU and a small object store; the tests and every process they
start see the same ``RAY_AUTH_MODE`` (Ray 2.60 turns token authentication on for new clusters
unless told otherwise) and send no usage statistics.

The cluster is this session's own: the tests stop only the Ray processes they started.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

OBJECT_STORE_BYTES = 80 * 1024 * 1024
"""Per node: the smallest Ray accepts is 75 MiB; the machine is shared."""

RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[Any]:
    """A head node and one more node, one CPU each, with this process connected to them."""
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    saved = {name: os.environ.get(name) for name in RAY_ENV}
    os.environ.update(RAY_ENV)
    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "object_store_memory": OBJECT_STORE_BYTES})
    try:
        cluster.add_node(num_cpus=1, object_store_memory=OBJECT_STORE_BYTES)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, logging_level="WARNING")
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
