"""The built site on a local port for the browser benchmarks, with a few extra pages (the bare
Pyodide pages) served from memory at the site's root, so they load the very same files.

``bandwidth`` (bytes per second) makes it a slow link: every response body, on every connection,
draws from one shared budget, as a phone's one radio link does (the browser's own throttling
slows the page, not its workers or service worker)."""

from __future__ import annotations

import functools
import shutil
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Extra = dict[str, tuple[str, str]]  # path -> (content type, body)


class QuietServer(ThreadingHTTPServer):
    """A browser that drops a request it no longer needs (a page left mid-load, a run's browser
    closed) is not an error: no traceback in the benchmark's report for it."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


class Link:
    """One shared budget of bytes per second for every response."""

    CHUNK = 16 * 1024

    def __init__(self, bandwidth: float) -> None:
        self.bandwidth = bandwidth
        self.lock = threading.Lock()
        self.free_at = time.monotonic()  # when the link has sent everything asked of it so far

    def send(self, out: Any, data: bytes) -> None:
        for start in range(0, len(data), self.CHUNK):
            chunk = data[start:start + self.CHUNK]
            with self.lock:
                self.free_at = max(self.free_at, time.monotonic()) + len(chunk) / self.bandwidth
                due = self.free_at
            time.sleep(max(0.0, due - time.monotonic()))
            out.write(chunk)


def make_handler(extra: Extra, link: Link | None = None) -> type[SimpleHTTPRequestHandler]:
    class Handler(SimpleHTTPRequestHandler):
        extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                          ".wasm": "application/wasm", ".json": "application/json", ".gz": "application/gzip"}

        def do_GET(self) -> None:
            page = extra.get(self.path.split("?")[0])
            if page is None:
                return super().do_GET()
            body = page[1].encode()
            self.send_response(200)
            self.send_header("Content-Type", page[0])
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.write(body)

        def write(self, body: bytes) -> None:
            if link is None:
                self.wfile.write(body)
            else:
                link.send(self.wfile, body)

        def copyfile(self, source: Any, outputfile: Any) -> None:
            if link is None:
                shutil.copyfileobj(source, outputfile)
            else:
                link.send(outputfile, source.read())

        def log_message(self, format: str, *args: object) -> None:
            pass

        def handle_one_request(self) -> None:
            try:
                super().handle_one_request()
            except (ConnectionResetError, BrokenPipeError):
                pass  # a page left mid-load: not the benchmark's concern

    return Handler


def serve(site: Path, extra: Extra, bandwidth: float | None = None) -> tuple[ThreadingHTTPServer, str]:
    """site/ on 127.0.0.1 at a free port, in a thread; returns the server and its root URL."""
    handler = make_handler(extra, Link(bandwidth) if bandwidth else None)
    server = QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"
