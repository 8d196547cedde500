"""Where the fetcher may connect (server-side request forgery guard).

Only http and https, no user name or password in the address, the standard port of the scheme, and a host whose
every resolved address is a public one: loopback, private, link-local, multicast, reserved, unspecified, shared
(100.64/10) and their IPv6 forms (IPv4-mapped, 6to4, Teredo, NAT64 well-known prefix) are refused. The checked
address is the one connected to (``Target.address``), so DNS cannot answer differently between the check and the
connection. ``AllowList`` entries (``WEB_FETCH_ALLOWED_HOSTS``: ``host`` or ``host:port``) are the only way to reach
a private address or another port (tests, intranets).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from research.retrieval.web import Refused, WebError

DEFAULT_PORTS = {"http": 80, "https": 443}
NAT64 = ipaddress.ip_network("64:ff9b::/96")
Resolver = Callable[[str, int], list[str]]


def system_resolver(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (IPv4 and IPv6), as strings, in the resolver's order of preference. A name
    that does not resolve is a failure, not a refusal: DNS answers again later (a mistyped name fails the same way,
    and the page's row offers to fetch it again either way); nothing is connected to."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except UnicodeError as error:
        raise Refused(f"{host} is not a valid host name ({error})") from None
    except socket.gaierror as error:
        raise WebError(f"{host} does not resolve ({error})") from None
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


@dataclass(frozen=True)
class AllowList:
    """Hosts (any port) and host:port pairs that may be private or use another port."""

    entries: frozenset[str] = frozenset()

    @classmethod
    def of(cls, entries: Iterable[str]) -> AllowList:
        return cls(frozenset(entry.strip().lower() for entry in entries if entry.strip()))

    def allows(self, host: str, port: int) -> bool:
        host = host.lower()
        return host in self.entries or f"{host}:{port}" in self.entries


@dataclass(frozen=True)
class Target:
    url: str
    scheme: str
    host: str
    port: int
    addresses: tuple[str, ...]  # the checked addresses, in order: the connection goes to one of them, no other

    @property
    def address(self) -> str:
        return self.addresses[0]


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def public(text: str) -> bool:
    """Whether an address is a public unicast one (and so is any IPv4 address hidden inside an IPv6 one)."""
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address):
        inner = _embedded_ipv4(address)
        if inner is not None and not public(str(inner)):
            return False
    refused = (
        address.is_private,
        address.is_loopback,
        address.is_link_local,
        address.is_multicast,
        address.is_reserved,  # Python's is_global lets some reserved blocks through (::/8, for one)
        address.is_unspecified,
    )
    return bool(address.is_global) and not any(refused)


def _parts(url: str) -> SplitResult:
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 (raises ValueError for a port that is not a number)
    except ValueError as error:
        raise Refused(f"not a valid address: {error}") from None
    return parts


def target(
    url: str, *, allow: AllowList, resolve: Resolver = system_resolver, allowed_by: str = "WEB_FETCH_ALLOWED_HOSTS"
) -> Target:
    """The address ``url`` may be fetched from, or ``Refused`` with the reason (``allowed_by``: the setting that
    lists the exceptions, named in the reason)."""
    parts = _parts(url)
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise Refused(f"only http and https addresses are fetched, not {scheme or 'a relative address'}")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise Refused("addresses with a user name or password are not fetched")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise Refused("the address names no host")
    port = parts.port or DEFAULT_PORTS[scheme]
    allowed = allow.allows(host, port)
    if port != DEFAULT_PORTS[scheme] and not allowed:
        raise Refused(
            f"port {port} is not the standard port of {scheme} ({allowed_by} may list {host}:{port})",
            allowable=f"{host}:{port}",
        )
    addresses = resolve(host, port)
    if not addresses:
        raise Refused(f"{host} does not resolve")
    if not allowed:
        private = [address for address in addresses if not public(address)]
        if private:
            raise Refused(
                f"{host} resolves to {private[0]}, a private, local or reserved address "
                f"({allowed_by} lists the hosts that may be)",
                allowable=host,
            )
    return Target(url=parts.geturl(), scheme=scheme, host=host, port=port, addresses=tuple(addresses))
