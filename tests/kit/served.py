"""The local HTTP server the browser tests and the benchmarks serve the built site from."""

from __future__ import annotations

import sys
from http.server import ThreadingHTTPServer
from typing import Any


class QuietServer(ThreadingHTTPServer):
    """A browser that drops a request it no longer needs (a page left mid-load, a run's browser
    closed) is not an error: no traceback in a test's output or a benchmark's report for it."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)
