"""The built site on a local port for the browser benchmarks, with a few extra pages (the bare
Pyodide pages) served from memory at the site's root, so they load the very same files."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

Extra = dict[str, tuple[str, str]]  # path -> (content type, body)


def make_handler(extra: Extra) -> type[SimpleHTTPRequestHandler]:
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
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

        def handle_one_request(self) -> None:
            try:
                super().handle_one_request()
            except (ConnectionResetError, BrokenPipeError):
                pass  # a page left mid-load: not the benchmark's concern

    return Handler


def serve(site: Path, extra: Extra) -> tuple[ThreadingHTTPServer, str]:
    """site/ on 127.0.0.1 at a free port, in a thread; returns the server and its root URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(make_handler(extra), directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"
