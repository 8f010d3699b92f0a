"""Tournaments on Ray: the same seed gives the same records as the local backend; a wrong
address fails at once; without one, a new local Ray (whatever RAY_ADDRESS says)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest

pytest.importorskip("ray", reason="the ray extra is not installed: pip install 'rummykit[ray]'")

import ray

import rummykit as rk
from rummykit.cli import main


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_same_seed_same_results_as_local(local_ray: None) -> None:
    agents = ["greedy", "random"]
    local = rk.tournament(agents, "oklahoma-gin", hands=60, seed=5, progress=False)
    distributed = rk.tournament(agents, "oklahoma-gin", hands=60, seed=5, backend="ray", progress=False)
    assert distributed == local
    assert distributed.records == local.records and distributed.workers == 2


def test_cli_backend_ray(local_ray: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "greedy", "random", "--game", "kaluki", "--hands", "4", "--backend", "ray"]) == 0
    assert "greedy" in capsys.readouterr().out


def test_bad_backend_and_address() -> None:
    with pytest.raises(rk.InvalidOptionError, match="backend"):
        rk.tournament(["greedy", "random"], "gin", hands=2, backend="dask")
    with pytest.raises(rk.InvalidOptionError, match="address"):
        rk.tournament(["greedy", "random"], "gin", hands=2, address="ray://head:10001")
    with pytest.raises(rk.InvalidOptionError, match="host:port"):
        rk.tournament(["greedy", "random"], "gin", hands=2, backend="ray", address="head")


def _closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_wrong_address_fails_at_once_with_a_clear_error(scheme: str) -> None:
    """Ray alone waits minutes for a wrong address; the port check answers within seconds (the
    timeout only stops a hang: Ray's own wait is far longer)."""
    address = f"{scheme}127.0.0.1:{_closed_port()}"
    args = ["tournament", "greedy", "random", "--hands", "2", "--backend", "ray", "--address", address]
    out = subprocess.run(
        [sys.executable, "-m", "rummykit", *args], capture_output=True, text=True, timeout=30, check=False
    )
    assert out.returncode == 2
    assert f"no Ray cluster answers at {address}" in out.stderr and "Traceback" not in out.stderr


def test_without_address_a_new_local_ray_even_with_ray_address_set() -> None:
    """The README: without --address, a local Ray started for the call (not a stale or
    unreachable cluster named by RAY_ADDRESS, where ray.init() would wait for minutes)."""
    env = {**os.environ, "RAY_ADDRESS": f"127.0.0.1:{_closed_port()}"}
    args = ["tournament", "greedy", "random", "--hands", "2", "--backend", "ray", "--no-progress"]
    out = subprocess.run(
        [sys.executable, "-m", "rummykit", *args], capture_output=True, text=True, timeout=240, env=env, check=False
    )
    assert out.returncode == 0, out.stderr
    assert "greedy" in out.stdout
