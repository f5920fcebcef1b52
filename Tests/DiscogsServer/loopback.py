"""What every loopback test server shares (server.py, the Discogs API; data_site.py, Discogs'
data site): how it starts, says where it listens, stays quiet, and ends.

A server binds 127.0.0.1 on an ephemeral port and prints the port as the first line of
stdout (Tests/CratesTestSupport waits for that line). It exits when its stdin closes, and
when its parent is gone, so that a killed test never leaves it running.
"""
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class QuietHandler(BaseHTTPRequestHandler):
    """A keep-alive handler that never echoes request lines (or their headers) to stderr."""
    protocol_version = "HTTP/1.1"   # keep-alive: the client reuses its connection

    def log_message(self, fmt, *args):
        pass


def serve(handler, state=None):
    """Serves `handler` on 127.0.0.1 until stdin closes or the parent exits; `state` is
    kept on the server (`self.server.state` in a handler)."""
    # A child of Foundation's Process inherits the spawning thread's signal mask, and
    # libdispatch threads block nearly everything: unblock, so that SIGTERM works.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.state = state
    print(server.server_address[1], flush=True)

    def watch_stdin():
        try:
            while sys.stdin.buffer.read(4096):
                pass
        finally:
            os._exit(0)

    # Stdin's write end can outlive the parent when another child it spawned inherited it
    # (e.g. a daemon started without closing descriptors): so also exit when orphaned.
    parent = os.getppid()

    def watch_parent():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    threading.Thread(target=watch_parent, daemon=True).start()
    server.serve_forever()
