"""``python -m rummykit``: the command line."""

from rummykit.cli import main

raise SystemExit(main())
