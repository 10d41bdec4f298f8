"""Serving the class's tablets on the school's network (``make run LAN=1``, README).

``make run`` alone listens on this machine only (127.0.0.1). With ``SERVE_LOCAL_NETWORK`` the
server listens on every interface, answers to this machine's own addresses on the network, and
the pages that tell children where to go (the projector, its QR code, the login cards) name the
address the tablets reach, even when the teacher opened them as 127.0.0.1.

That address is this machine's on its default route, found by asking the kernel which source
address it would use (a UDP socket's ``connect`` sends nothing); ``LOCAL_NETWORK_ADDRESS`` names
it instead, for a machine on several networks.

    python -m config.local_network PORT   # prints the address tablets join at
"""

from __future__ import annotations

import contextlib
import socket
import sys

LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1", "[::1]"}
# Any address outside this machine: connect() on a UDP socket only chooses the route to it.
_ROUTE_PROBE = ("192.0.2.1", 9)  # TEST-NET-1 (RFC 5737)


def default_route_address() -> str | None:
    """This machine's IPv4 address on its default route, or None without one."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(_ROUTE_PROBE)
        address = probe.getsockname()[0]
        if not address.startswith("127.") and address != "0.0.0.0":
            return address
    return None


def machine_addresses() -> set[str]:
    """The names and IPv4 addresses this machine answers to on the network."""
    names = {socket.gethostname(), f"{socket.gethostname()}.local"}
    with contextlib.suppress(OSError):
        for *_rest, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            names.add(sockaddr[0])
    if address := default_route_address():
        names.add(address)
    return {name for name in names if name and not name.startswith("127.")}


def device_base(request, network_address: str | None) -> str:
    """``scheme://host[:port]`` as the children's devices reach this site: the request's own,
    but this machine's network address for a request made on this machine itself while the
    site serves the local network (``network_address``; None: it does not)."""
    host = request.get_host()
    name, colon, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not colon:
        name, port = host, ""
    if network_address and name in LOOPBACK_NAMES:
        host = f"{network_address}:{port}" if port else network_address
    return f"{request.scheme}://{host}"


def main(argv: list[str]) -> int:
    import os

    port = argv[0] if argv else "8000"
    address = os.environ.get("LOCAL_NETWORK_ADDRESS") or default_route_address()
    if address is None:
        print("This machine is on no network: tablets cannot reach it.")
        return 1
    print(
        f"Tablets and phones on this network join at http://{address}:{port}/student/ "
        f"(the projector and the login cards say so too)."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
