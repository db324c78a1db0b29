"""`provost sim --backend ray --address ADDR` on a cluster of two nodes, made on this machine with
Ray's own test utility (``ray.cluster_utils.Cluster``: a head node and a worker node, each its own
raylet), driven by the `provost` command in a separate process as a user would run it."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")


@pytest.fixture(scope="module")
def two_nodes():
    if ray.is_initialized():
        pytest.skip("Ray is already initialised in this process")
    cluster = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    try:
        yield cluster
    finally:
        cluster.shutdown()


def sim(*argv: str) -> tuple[int, dict, str]:
    done = subprocess.run([sys.executable, "-m", "provost.tools.cli", "sim", *argv, "--format", "json"],
                          capture_output=True, text=True, timeout=300)
    return done.returncode, json.loads(done.stdout), done.stderr


def test_a_two_node_cluster_gives_the_local_report(two_nodes):
    argv = ("caylus", "--games", "8", "--seed", "3")
    code, local, _ = sim(*argv)
    assert code == 0
    code, remote, err = sim(*argv, "--backend", "ray", "--address", two_nodes.address, "--jobs", "2")
    assert code == 0, err
    assert remote["timing"]["backend"] == "ray"
    strip = ("timing", "ok")
    assert {k: v for k, v in remote.items() if k not in strip} == {k: v for k, v in local.items() if k not in strip}
    assert "Traceback" not in err


def test_an_address_nobody_listens_on_is_a_usage_error_at_once():
    done = subprocess.run([sys.executable, "-m", "provost.tools.cli", "sim", "caylus", "--games", "2", "--backend", "ray",
                           "--address", "127.0.0.1:9"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "no Ray cluster at '127.0.0.1:9'" in done.stderr and "Traceback" not in done.stderr
