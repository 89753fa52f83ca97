"""Where a webhook may be sent: only to public internet addresses, checked at registration and at every attempt.

A webhook's URL is typed by an organizer, and any signed-in account may organize a tournament: without this
check the server would post to (and log the answer of) its own loopback services, its private network or
the cloud's metadata address. So:

- the URL's host is resolved (``resolve``: ``socket.getaddrinfo``, one lookup) and EVERY address it gives
  must be public (``refusal``): not loopback, private, link-local, shared (100.64.0.0/10), benchmarking
  (198.18.0.0/15), multicast, unspecified or reserved; an IPv6 form that carries an IPv4 address (mapped
  ``::ffff:a.b.c.d``, compatible ``::a.b.c.d``, NAT64 ``64:ff9b::/96``, 6to4 ``2002::/16``) is judged by
  the IPv4 address it carries;
- ``WEBHOOK_ALLOWED_NETWORKS`` (comma-separated CIDRs, none by default) lets a club's LAN install reach
  its own network (``192.168.1.0/24``);
- a delivery connects to the addresses that were checked, never to a second lookup's (``PinnedHTTPConnection``,
  ``PinnedHTTPSConnection``): the URL's host name goes only into the ``Host`` header and the TLS handshake
  (SNI, and the certificate is verified against it), so a name that resolves differently a moment later
  (DNS rebinding) changes nothing.

The addresses are judged with an explicit table rather than ``ipaddress``'s ``is_global`` alone, whose answer
changed between Python patch releases; ``is_global`` is the last resort for what the table does not name.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

LOOPBACK = _("loopback")
PRIVATE = _("private network")
LINK_LOCAL = _("link-local")
SHARED = _("shared address space, carrier-grade NAT")
BENCHMARKING = _("benchmarking network")
MULTICAST = _("multicast")
UNSPECIFIED = _("unspecified address")
RESERVED = _("reserved or special-purpose")

_N = ipaddress.ip_network
REFUSED_NETWORKS = (
    # IPv4 (RFC 6890 and its updates)
    (_N("0.0.0.0/8"), UNSPECIFIED),  # "this network": 0.0.0.0 reaches the server itself on Linux
    (_N("10.0.0.0/8"), PRIVATE),
    (_N("100.64.0.0/10"), SHARED),
    (_N("127.0.0.0/8"), LOOPBACK),
    (_N("169.254.0.0/16"), LINK_LOCAL),  # the cloud metadata service lives at 169.254.169.254
    (_N("172.16.0.0/12"), PRIVATE),
    (_N("192.0.0.0/24"), RESERVED),
    (_N("192.0.2.0/24"), RESERVED),
    (_N("192.88.99.0/24"), RESERVED),
    (_N("192.168.0.0/16"), PRIVATE),
    (_N("198.18.0.0/15"), BENCHMARKING),
    (_N("198.51.100.0/24"), RESERVED),
    (_N("203.0.113.0/24"), RESERVED),
    (_N("224.0.0.0/4"), MULTICAST),
    (_N("240.0.0.0/4"), RESERVED),  # with the broadcast address 255.255.255.255
    # IPv6 (the forms carrying an IPv4 address are unwrapped before this table)
    (_N("::/128"), UNSPECIFIED),
    (_N("::1/128"), LOOPBACK),
    (_N("::/96"), RESERVED),  # IPv4-compatible, deprecated (RFC 4291): refused whatever it carries
    (_N("64:ff9b:1::/48"), PRIVATE),  # local-use NAT64 (RFC 8215)
    (_N("100::/64"), RESERVED),  # discard-only
    (_N("2001::/23"), RESERVED),  # IETF protocol assignments, Teredo (2001::/32) included
    (_N("2001:db8::/32"), RESERVED),  # documentation
    (_N("3fff::/20"), RESERVED),  # documentation (RFC 9637)
    (_N("5f00::/16"), RESERVED),  # SRv6 SIDs
    (_N("fc00::/7"), PRIVATE),  # unique local
    (_N("fe80::/10"), LINK_LOCAL),
    (_N("fec0::/10"), PRIVATE),  # site-local, deprecated
    (_N("ff00::/8"), MULTICAST),
)
_MAPPED = _N("::ffff:0:0/96")
_COMPATIBLE = _N("::/96")
_NAT64 = _N("64:ff9b::/96")
_SIXTOFOUR = _N("2002::/16")


def allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """The networks ``WEBHOOK_ALLOWED_NETWORKS`` lets webhooks reach although they are not public."""
    return [ipaddress.ip_network(n, strict=False) for n in getattr(settings, "WEBHOOK_ALLOWED_NETWORKS", ())]


def carried_ipv4(ip: Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries: mapped, compatible, NAT64 (well-known prefix) or 6to4."""
    if ip.version != 6:
        return None
    if ip in _MAPPED:
        return ip.ipv4_mapped
    if ip in _COMPATIBLE and int(ip) > 1:  # not :: nor ::1
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in _SIXTOFOUR:
        return ip.sixtofour
    return None


def _kind(ip: Address):
    for network, kind in REFUSED_NETWORKS:
        if ip.version == network.version and ip in network:
            return kind
    if ip.is_multicast:
        return MULTICAST
    if not ip.is_global:
        return RESERVED
    return None


def refusal(ip: Address | str):
    """Why a webhook may not be sent to ``ip`` (a translatable label), or None when it may."""
    ip = ipaddress.ip_address(ip)
    if ip.version == 6 and ip.scope_id:
        ip = ipaddress.IPv6Address(str(ip).split("%")[0])
    carried = carried_ipv4(ip)
    allowed = allowed_networks()
    if any(ip.version == n.version and ip in n for n in allowed):
        return None
    if carried is not None:
        if any(carried in n for n in allowed if n.version == 4):
            return None
        return _kind(carried) or (RESERVED if ip in _COMPATIBLE else None)
    return _kind(ip)


def resolve(host: str, port: int) -> list[Address]:
    """Every address ``host`` resolves to, in the resolver's order, without repeats (one lookup)."""
    found = []
    for _family, _type, _proto, _name, sockaddr in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        ip = ipaddress.ip_address(sockaddr[0].split("%")[0])
        if ip not in found:
            found.append(ip)
    return found


class TargetRefused(ValidationError):
    """A webhook URL whose host is not (only) public internet addresses, or that cannot be resolved."""


@dataclass(frozen=True)
class Target:
    """A checked webhook URL: where to connect (``addresses``) and what to say the host is (``host``)."""

    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[Address, ...]


def check_url(url: str) -> Target:
    """Resolve the URL's host once and refuse it (``TargetRefused``) unless every address may be reached."""
    parts = urlsplit(url or "")
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        port = -1
    if scheme not in ("http", "https") or not parts.hostname or port == -1:
        raise TargetRefused(_("Enter an http:// or https:// URL."), code="invalid_url")
    host = parts.hostname
    port = port or (443 if scheme == "https" else 80)
    literal = _literal(host)
    try:
        addresses = [literal] if literal is not None else resolve(host, port)
    except (OSError, UnicodeError, ValueError) as exc:
        raise TargetRefused(_("The host name %(host)s could not be resolved (%(reason)s): check it and try again."),
                            code="unresolvable_host", params={"host": host, "reason": exc}) from exc
    if not addresses:
        raise TargetRefused(_("The host name %(host)s could not be resolved (%(reason)s): check it and try again."),
                            code="unresolvable_host", params={"host": host, "reason": "no address"})
    for ip in addresses:
        kind = refusal(ip)
        if kind is None:
            continue
        params = {"host": host, "address": str(ip), "kind": kind}
        if literal is not None:
            message = _("Webhooks are sent only to public internet addresses: %(address)s is not one (%(kind)s). "
                        "The site's administrator can allow a local network.")
        else:
            message = _("Webhooks are sent only to public internet addresses: %(host)s resolves to %(address)s "
                        "(%(kind)s). The site's administrator can allow a local network.")
        raise TargetRefused(message, code="forbidden_address", params=params)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(scheme=scheme, host=host, port=port, path=path, addresses=tuple(addresses))


def _literal(host: str) -> Address | None:
    """The address a URL's host spells in standard form (an IPv6 zone, ``%25eth0``, left out), else None."""
    try:
        return ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return None


def validate_target(value: str) -> None:
    """A model-field validator: the URL's host resolves only to addresses a webhook may reach.

    Not an http(s) URL with a host: left to ``validate_http_url``, which says so.
    """
    parts = urlsplit(value or "")
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return
    check_url(value)


# --- connecting to the checked addresses ------------------------------------------------------------------------

def _connect(addresses, port: int, timeout: float) -> socket.socket:
    """A TCP connection to the first of the checked ``addresses`` that answers (as ``socket.create_connection``
    does with a lookup's answers, but with no lookup)."""
    error = None
    for ip in addresses:
        try:
            sock = socket.create_connection((str(ip), port), timeout)
        except OSError as exc:
            error = exc
            continue
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock
    raise error or OSError("no address to connect to")


class PinnedHTTPConnection(http.client.HTTPConnection):
    """HTTP to the checked addresses; ``host`` (the URL's name) is only the ``Host`` header."""

    def __init__(self, host: str, port: int, *, addresses, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self.addresses = tuple(addresses)

    def connect(self):
        self.sock = _connect(self.addresses, self.port, self.timeout)


class PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to the checked addresses; ``host`` is the ``Host`` header, the TLS SNI and the name the
    certificate must be valid for (the system's trusted authorities, ``ssl.create_default_context``)."""

    def __init__(self, host: str, port: int, *, addresses, timeout: float):
        self.tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.addresses = tuple(addresses)

    def connect(self):
        sock = _connect(self.addresses, self.port, self.timeout)
        try:
            self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)
        except BaseException:
            sock.close()
            raise


def connection_for(target: Target, timeout: float) -> http.client.HTTPConnection:
    """An unopened connection to a checked target."""
    cls = PinnedHTTPSConnection if target.scheme == "https" else PinnedHTTPConnection
    return cls(target.host, target.port, addresses=target.addresses, timeout=timeout)
