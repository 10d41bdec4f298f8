"""A TCP proxy on loopback in front of PostgreSQL that a fault test switches to refuse or hang, so
that the machine's own PostgreSQL is never stopped:

- ``forward()``: passes bytes both ways;
- ``refuse()``: closes every connection, and each new one at once (PostgreSQL stopped);
- ``hang()``: keeps every connection, and accepts new ones, but passes nothing (PostgreSQL hung).
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading

FORWARD, REFUSE, HANG = "forward", "refuse", "hang"
POLL_S = 0.05


class PostgresProxy:
    def __init__(self, upstream: tuple[str, int] = ("127.0.0.1", 5432)):
        self.upstream = upstream
        self.mode = FORWARD
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(POLL_S)
        self.port = self._listener.getsockname()[1]
        self._stopped = threading.Event()
        self._threads = [threading.Thread(target=self._accept, daemon=True)]
        self._threads[0].start()

    def forward(self):
        self.mode = FORWARD

    def refuse(self):
        self.mode = REFUSE

    def hang(self):
        self.mode = HANG

    def close(self):
        self._stopped.set()
        for thread in self._threads:
            thread.join(timeout=5)
        self._listener.close()

    def __enter__(self) -> PostgresProxy:
        return self

    def __exit__(self, *exc):
        self.close()

    def _accept(self):
        while not self._stopped.is_set():
            try:
                client, _address = self._listener.accept()
            except TimeoutError:
                continue
            if self.mode == REFUSE:
                client.close()
                continue
            thread = threading.Thread(target=self._pump, args=(client,), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _pump(self, client: socket.socket):
        server = None
        try:
            while not self._stopped.is_set() and server is None:
                if self.mode == REFUSE:
                    return
                if self.mode == FORWARD:
                    server = socket.create_connection(self.upstream, timeout=5)
                else:
                    self._stopped.wait(POLL_S)
            if server is None:
                return
            peer = {client: server, server: client}
            while not self._stopped.is_set():
                if self.mode == REFUSE:
                    return
                if self.mode == HANG:
                    self._stopped.wait(POLL_S)
                    continue
                readable, _, _ = select.select(list(peer), [], [], POLL_S)
                for source in readable:
                    data = source.recv(65536)
                    if not data:
                        return
                    peer[source].sendall(data)
        except OSError:
            return
        finally:
            for end in (client, server):
                if end is not None:
                    with contextlib.suppress(OSError):
                        end.close()
