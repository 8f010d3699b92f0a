"""``rummykit serve`` without the serve extra says how to install it (this runs in the default suite)."""

from __future__ import annotations

import sys

import pytest

from rummykit.cli import main


def test_serve_without_the_extra(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("starlette", "uvicorn"):
        monkeypatch.setitem(sys.modules, name, None)  # an import of it fails
    monkeypatch.delitem(sys.modules, "rummykit.serve.app", raising=False)
    assert main(["serve", "--port", "1"]) == 2
    assert 'pip install "rummykit[serve]"' in capsys.readouterr().err


def test_serve_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = capsys.readouterr().out
    assert "--host" in out and "127.0.0.1" in out and "--db" in out
