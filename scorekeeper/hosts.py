"""Which names this server answers to, and whether a visitor is surely on the server itself
(first-run setup without the console's code). Part of the gate (``access.check_request``)."""

from __future__ import annotations

import ipaddress
import socket
from functools import cache
from urllib.parse import urlsplit

from flask import Flask, current_app, request


@cache
def _machine_names() -> frozenset[str]:
    names = {"localhost"}
    for name in (socket.gethostname(), socket.getfqdn()):
        if name:
            names.add(name.lower())
    return frozenset(names)


def host_name(host: str) -> str:
    """The name a Host header gives, without its port or brackets, lower case."""
    name = host.strip().lower()
    if name.startswith("["):
        name = name[1 : name.find("]")] if "]" in name else name
    elif name.count(":") == 1:
        name = name.partition(":")[0]
    return name.rstrip(".")


def host_allowed(app: Flask, host: str) -> bool:
    """Whether ``host`` (a Host header, port and all) names this server."""
    name = host_name(host)
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    if name in _machine_names() or name.endswith(".localhost"):
        return True
    trusted = app.config.get("EXTRA_HOSTS") or []
    if isinstance(trusted, str):
        trusted = [part for part in trusted.replace(",", " ").split() if part]
    public = urlsplit(app.config.get("PUBLIC_URL") or "").hostname
    allowed = {str(part).lower().rstrip(".") for part in trusted}
    if public:
        allowed.add(public.lower())
    return name in allowed


def from_this_machine() -> bool:
    """Whether the visitor is surely on the server itself: it came from a loopback address,
    asking for a loopback name, with no sign of having been forwarded. Anything in front of
    the app (Caddy, nginx, a tunnel) connects from loopback too, so behind a declared proxy
    nobody counts, and without one a request that names another host or carries forwarding
    headers does not: first-run setup then asks for the code from the server's console."""
    if current_app.config.get("PROXY_COUNT"):
        return False
    forwarded = any(
        request.headers.get(header) for header in ("X-Forwarded-For", "Forwarded", "X-Real-Ip")
    )
    if forwarded:
        return False
    return _is_loopback(request.remote_addr or "") and _names_loopback(request.host)


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def _names_loopback(host: str) -> bool:
    """Whether a Host header (port and all) names this machine's loopback."""
    name = host_name(host)
    return name == "localhost" or name.endswith(".localhost") or _is_loopback(name)
