"""``python -m rollbook`` is the ``rollbook`` command."""

from rollbook.cli import main

raise SystemExit(main())
