"""Builds the wheel and checks its file list: the compiled module, the
typing files and the Python package; no C or Cython sources."""

from __future__ import annotations

import glob
import subprocess
import sys
import tempfile
import zipfile

with tempfile.TemporaryDirectory() as out:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", out, "."], check=True)
    (wheel,) = glob.glob(f"{out}/*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    required = {
        "rummykit/__init__.py",
        "rummykit/py.typed",
        "rummykit/_core.pyi",
        "rummykit/knock/state.py",
        "rummykit/docs/rules.md",
        "rummykit/engine/view.schema.json",
    }
    required |= {f"rummykit/serve/static/{name}" for name in ("index.html", "table.js", "table.css")}
    missing = required - names
    compiled = [n for n in names if n.startswith("rummykit/_core.") and n.endswith((".so", ".pyd"))]
    sources = [n for n in names if n.endswith((".c", ".h", ".pyx", ".pxd"))]
    problems = [f"missing {sorted(missing)}"] if missing else []
    problems += [] if len(compiled) == 1 else [f"expected one compiled rummykit._core, found {compiled}"]
    problems += [f"sources in the wheel: {sources}"] if sources else []
    if problems:
        sys.exit("wheel check failed: " + "; ".join(problems))
    print(f"wheel ok: {len(names)} files, {compiled[0]}")
