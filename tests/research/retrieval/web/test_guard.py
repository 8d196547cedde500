"""The fetcher's guard: only public http(s) addresses on their standard ports, checked after resolving, unless
the allow-list names the host (every case of server-side request forgery the issue lists)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from research.retrieval.web import Refused, WebError
from research.retrieval.web.guard import AllowList, public, system_resolver, target

NAMES = {
    "example.com": ["93.184.216.34"],
    "private.test": ["10.1.2.3"],
    "rebind.test": ["93.184.216.34", "127.0.0.1"],  # one public answer does not make the host public
    "mapped.test": ["::ffff:127.0.0.1"],
    "v6.test": ["2606:2800:220:1:248:1893:25c8:1946"],
    "intranet.corp": ["10.9.8.7"],
    "localhost": ["127.0.0.1", "::1"],
}
NOBODY = AllowList()


def resolve(host: str, port: int) -> list[str]:
    return NAMES.get(host, [host])  # an address literal resolves to itself


def test_a_public_address_is_fetched_from_the_address_it_was_checked_at() -> None:
    checked = target("https://Example.com/pricing?plan=1", allow=NOBODY, resolve=resolve)
    assert (checked.scheme, checked.host, checked.port, checked.address) == (
        "https",
        "example.com",
        443,
        "93.184.216.34",
    )
    assert target("http://v6.test/", allow=NOBODY, resolve=resolve).address.startswith("2606:")


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("file:///etc/passwd", "only http and https"),
        ("gopher://example.com/", "only http and https"),
        ("ftp://example.com/x", "only http and https"),
        ("/relative/path", "only http and https addresses are fetched, not a relative address"),
        ("http://user:pw@example.com/", "user name or password"),
        ("http://example.com@127.0.0.1/", "user name or password"),
        ("http://example.com:8080/", "port 8080 is not the standard port"),
        ("https://example.com:80/", "port 80 is not the standard port of https"),
        ("http://example.com:99999/", "not a valid address"),
        ("http://127.0.0.1/", "127.0.0.1, a private, local or reserved address"),
        ("http://localhost/", "private, local or reserved"),
        ("http://0.0.0.0/", "private, local or reserved"),
        ("http://10.0.0.1/", "private, local or reserved"),
        ("http://172.16.5.4/", "private, local or reserved"),
        ("http://192.168.1.1/", "private, local or reserved"),
        ("http://169.254.169.254/latest/meta-data/", "private, local or reserved"),
        ("http://100.64.0.1/", "private, local or reserved"),
        ("http://224.0.0.1/", "private, local or reserved"),
        ("http://240.0.0.1/", "private, local or reserved"),
        ("http://[::1]/", "private, local or reserved"),
        ("http://[::2]/", "private, local or reserved"),  # reserved, though Python calls it global
        ("http://[fe80::1]/", "private, local or reserved"),
        ("http://[fc00::1]/", "private, local or reserved"),
        ("http://[::ffff:10.0.0.1]/", "private, local or reserved"),
        ("http://[64:ff9b::a00:1]/", "private, local or reserved"),  # NAT64 of 10.0.0.1
        ("http://[2002:a00:1::]/", "private, local or reserved"),  # 6to4 of 10.0.0.1
        ("http://private.test/", "10.1.2.3"),
        ("http://rebind.test/", "127.0.0.1"),
        ("http://mapped.test/", "::ffff:127.0.0.1"),
        ("http:///nohost", "names no host"),
    ],
)
def test_every_forbidden_address_is_refused_with_its_reason(url: str, reason: str) -> None:
    with pytest.raises(Refused, match=reason.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        target(
            url, allow=NOBODY, resolve=lambda host, port: resolve(host, port) if host != "localhost" else ["127.0.0.1"]
        )


def test_the_allow_list_is_the_only_way_to_a_private_address_or_another_port() -> None:
    allow = AllowList.of(["intranet.corp", "127.0.0.1:8765", " "])
    assert target("http://intranet.corp/wiki", allow=allow, resolve=resolve).address == "10.9.8.7"
    assert target("http://intranet.corp:8443/", allow=allow, resolve=resolve).port == 8443  # a host: any port
    assert target("http://127.0.0.1:8765/page", allow=allow, resolve=resolve).address == "127.0.0.1"
    with pytest.raises(Refused, match="port 8766"):
        target("http://127.0.0.1:8766/", allow=allow, resolve=resolve)
    with pytest.raises(Refused, match="private"):
        target("http://127.0.0.1/", allow=allow, resolve=resolve)  # the pair names one port only


@given(st.ip_addresses())
def test_public_means_globally_routable_unicast(address: object) -> None:
    import ipaddress

    parsed = ipaddress.ip_address(str(address))
    if public(str(address)):
        assert parsed.is_global
        assert not parsed.is_multicast
        assert not (parsed.is_private)
        assert not (parsed.is_loopback)
        assert not (parsed.is_link_local)
        assert not (parsed.is_reserved)


def test_a_name_that_does_not_resolve_fails_and_is_not_refused() -> None:
    """DNS may answer later: the page fails (its row offers to fetch it again); nothing is connected to."""
    with pytest.raises(WebError) as failed:
        system_resolver("no-such-host.invalid", 443)
    assert not isinstance(failed.value, Refused)
    assert "does not resolve" in str(failed.value)
