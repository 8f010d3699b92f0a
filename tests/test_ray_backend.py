"""Tournaments on Ray: the same seed gives the same records as the local backend."""

from __future__ import annotations

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
