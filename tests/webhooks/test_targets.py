"""Webhooks reach only public internet addresses (issue #24): the check at registration (API, admin, services)
and at every delivery, the connection pinned to the checked address (DNS rebinding), no redirect followed,
``WEBHOOK_ALLOWED_NETWORKS`` for a club's LAN, and the refusal said in the organizer's language.

DNS is the one faked part: ``socket.getaddrinfo`` answers for names under ``.example.test`` (and asks the real
resolver for everything else); the receivers are real HTTP(S) servers on 127.0.0.1."""

import datetime
import ipaddress
import os
import socket
import ssl
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from rest_framework.test import APIClient

from api.models import AuthToken
from tests.factories import TournamentFactory, UserFactory
from webhooks.models import Delivery, Endpoint
from webhooks.services import endpoint_create
from webhooks.targets import (BENCHMARKING, LINK_LOCAL, LOOPBACK, MULTICAST, PRIVATE, RESERVED, SHARED, UNSPECIFIED,
                              TargetRefused, check_url, refusal)
from webhooks.tasks import deliver_task

from .conftest import POLL_SECONDS, Receiver

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(db):
    return TournamentFactory(name="Gentse Beker")


@pytest.fixture
def organizer(tournament):
    user = UserFactory(username="organizer")
    tournament.organizers.add(user)
    return user


def client_for(user, language: str | None = None) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user)[1]}",
                       **({"HTTP_ACCEPT_LANGUAGE": language} if language else {}))
    return client


def hooks_url(tournament):
    return f"/api/v1/tournaments/{tournament.pk}/webhooks/"


class FakeDNS:
    """Answers ``getaddrinfo`` for ``*.example.test`` from ``answers`` (a list per name: each lookup takes the
    next entry, the last one repeats) and counts the lookups; other names go to the real resolver."""

    def __init__(self, real):
        self.real = real
        self.answers: dict[str, list[list[str]]] = {}
        self.lookups: dict[str, int] = {}

    def __call__(self, host, port, family=0, type=0, proto=0, flags=0):
        name = host.decode() if isinstance(host, bytes) else str(host)
        if not name.endswith(".example.test"):
            return self.real(host, port, family, type, proto, flags)
        n = self.lookups[name] = self.lookups.get(name, 0) + 1
        if name not in self.answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        script = self.answers[name]
        out = []
        for address in script[min(n, len(script)) - 1]:
            ip = ipaddress.ip_address(address)
            af = socket.AF_INET if ip.version == 4 else socket.AF_INET6
            sockaddr = (address, int(port or 0)) if ip.version == 4 else (address, int(port or 0), 0, 0)
            out.append((af, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", sockaddr))
        return out


@pytest.fixture
def dns(monkeypatch):
    fake = FakeDNS(socket.getaddrinfo)
    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return fake


def deliver(endpoint) -> Delivery:
    """One attempt (as the last retry: a failure is not tried again in-process), and the delivery as logged."""
    delivery = Delivery.objects.create(endpoint=endpoint, event="webhook.test", body='{"x":1}')
    deliver_task.apply((delivery.pk,), retries=deliver_task.max_retries, throw=False)
    delivery.refresh_from_db()
    return delivery


# --- the address classes ------------------------------------------------------------------------------------------

REFUSED = [
    ("127.0.0.1", LOOPBACK), ("127.45.6.7", LOOPBACK), ("::1", LOOPBACK),
    ("10.1.2.3", PRIVATE), ("172.16.0.1", PRIVATE), ("172.31.255.254", PRIVATE), ("192.168.1.10", PRIVATE),
    ("fc00::1", PRIVATE), ("fd12:3456::1", PRIVATE), ("fec0::1", PRIVATE), ("64:ff9b:1::a", PRIVATE),
    ("169.254.169.254", LINK_LOCAL), ("fe80::1", LINK_LOCAL),
    ("100.64.0.1", SHARED), ("100.127.255.254", SHARED),
    ("198.18.0.1", BENCHMARKING), ("198.19.255.254", BENCHMARKING),
    ("224.0.0.1", MULTICAST), ("239.255.255.250", MULTICAST), ("ff02::1", MULTICAST),
    ("0.0.0.0", UNSPECIFIED), ("0.1.2.3", UNSPECIFIED), ("::", UNSPECIFIED),
    ("240.0.0.1", RESERVED), ("255.255.255.255", RESERVED), ("192.0.2.1", RESERVED), ("192.0.0.8", RESERVED),
    ("198.51.100.7", RESERVED), ("203.0.113.9", RESERVED), ("2001:db8::1", RESERVED), ("100::1", RESERVED),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", RESERVED),  # Teredo
    # IPv4 carried in IPv6: mapped, compatible, NAT64 (well-known prefix), 6to4
    ("::ffff:127.0.0.1", LOOPBACK), ("::ffff:7f00:1", LOOPBACK), ("::ffff:169.254.169.254", LINK_LOCAL),
    ("::ffff:10.0.0.1", PRIVATE), ("::ffff:100.64.0.1", SHARED), ("::ffff:0.0.0.0", UNSPECIFIED),
    ("::127.0.0.1", LOOPBACK), ("::169.254.169.254", LINK_LOCAL), ("::192.168.0.1", PRIVATE),
    ("::8.8.8.8", RESERVED),  # the deprecated compatible form, refused whatever it carries
    ("64:ff9b::7f00:1", LOOPBACK), ("64:ff9b::a9fe:a9fe", LINK_LOCAL),
    ("2002:7f00:1::1", LOOPBACK), ("2002:c0a8:101::1", PRIVATE),
]
PUBLIC = ["8.8.8.8", "93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e",
          "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"]


@pytest.mark.parametrize("address,kind", REFUSED)
def test_each_refused_address_class(address, kind):
    assert refusal(address) == kind


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_pass(address):
    assert refusal(address) is None


@pytest.mark.parametrize("url,kind", [
    ("http://127.0.0.1:6379/", LOOPBACK), ("http://localhost:6379/", LOOPBACK), ("http://[::1]/", LOOPBACK),
    ("http://169.254.169.254/latest/meta-data/", LINK_LOCAL), ("http://[::ffff:127.0.0.1]:8000/", LOOPBACK),
    ("http://[::ffff:a9fe:a9fe]/", LINK_LOCAL), ("http://[::127.0.0.1]/", LOOPBACK),
    ("http://2130706433/", LOOPBACK), ("http://0x7f.1/", LOOPBACK), ("http://127.1/", LOOPBACK),
    ("https://10.0.0.5/hooks", PRIVATE), ("http://100.100.100.200/", SHARED), ("http://198.18.0.1/", BENCHMARKING),
    ("http://0.0.0.0:8000/", UNSPECIFIED), ("http://224.0.0.251/", MULTICAST), ("http://[fe80::1%25eth0]/", LINK_LOCAL),
])
def test_the_api_refuses_internal_targets(organizer, tournament, url, kind):
    """The written forms of an internal address (names, decimal, hexadecimal, short, IPv6) are all resolved
    first: what is judged is the address connected to."""
    response = client_for(organizer).post(hooks_url(tournament), {"url": url}, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["errors"][0]
    assert (error["attr"], error["code"]) == ("url", "forbidden_address")
    assert f"({kind})" in error["detail"]
    assert not Endpoint.objects.exists()


def test_a_name_with_one_private_address_among_several_is_refused(dns, organizer, tournament):
    dns.answers["mixed.example.test"] = [["93.184.216.34", "2606:4700:4700::1111", "10.0.0.7"]]
    response = client_for(organizer).post(hooks_url(tournament), {"url": "https://mixed.example.test/h"},
                                          format="json")
    assert response.status_code == 400
    assert "mixed.example.test resolves to 10.0.0.7 (private network)" in response.json()["errors"][0]["detail"]
    dns.answers["public.example.test"] = [["93.184.216.34", "2606:4700:4700::1111"]]
    response = client_for(organizer).post(hooks_url(tournament), {"url": "https://public.example.test/h"},
                                          format="json")
    assert response.status_code == 201, response.content


def test_an_unresolvable_name_is_refused_at_registration(dns, organizer, tournament):
    response = client_for(organizer).post(hooks_url(tournament), {"url": "https://nowhere.example.test/"},
                                          format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "unresolvable_host"


def test_every_door_checks_create_and_update(dns, organizer, tournament, admin_client):
    dns.answers["public.example.test"] = [["93.184.216.34"]]
    endpoint = endpoint_create(tournament=tournament, url="https://public.example.test/h")
    # The service (the code's door)
    from webhooks.services import endpoint_update

    with pytest.raises(TargetRefused):
        endpoint_create(tournament=tournament, url="http://169.254.169.254/")
    with pytest.raises(TargetRefused):
        endpoint_update(endpoint=endpoint, url="http://[::1]:8000/")
    # The API's update
    answer = client_for(organizer).patch(f"{hooks_url(tournament)}{endpoint.pk}/", {"url": "http://127.0.0.1/"},
                                         format="json")
    assert answer.status_code == 400 and answer.json()["errors"][0]["code"] == "forbidden_address"
    # The admin's add and change forms
    add = admin_client.post("/admin/webhooks/endpoint/add/", {
        "tournament": tournament.pk, "url": "http://192.168.0.1/", "description": "", "events": "[]", "active": "on",
        "deliveries-TOTAL_FORMS": "0", "deliveries-INITIAL_FORMS": "0"})
    assert add.status_code == 200 and "(private network)" in add.content.decode()
    change = admin_client.post(f"/admin/webhooks/endpoint/{endpoint.pk}/change/", {
        "tournament": tournament.pk, "url": "http://localhost/", "description": "", "events": "[]", "active": "on",
        "deliveries-TOTAL_FORMS": "0", "deliveries-INITIAL_FORMS": "0"})
    assert change.status_code == 200 and "(loopback)" in change.content.decode()
    endpoint.refresh_from_db()
    assert endpoint.url == "https://public.example.test/h" and Endpoint.objects.count() == 1
    ok = admin_client.post("/admin/webhooks/endpoint/add/", {
        "tournament": tournament.pk, "url": "https://public.example.test/other", "description": "",
        "events": "[]", "active": "on", "deliveries-TOTAL_FORMS": "0", "deliveries-INITIAL_FORMS": "0"})
    assert ok.status_code == 302 and Endpoint.objects.count() == 2


# --- the reason, in the organizer's language ----------------------------------------------------------------------

def test_the_refusal_is_said_in_the_organizers_language(organizer, tournament, admin_client):
    detail = client_for(organizer, "nl").post(hooks_url(tournament), {"url": "http://10.0.0.1/"},
                                              format="json").json()["errors"][0]["detail"]
    assert detail.startswith("Webhooks worden alleen naar openbare internetadressen gestuurd")
    assert "(privénetwerk)" in detail
    detail = client_for(organizer, "fr").post(hooks_url(tournament), {"url": "http://localhost/"},
                                              format="json").json()["errors"][0]["detail"]
    assert "localhost" in detail and "adresses publiques" in detail
    page = admin_client.post("/admin/webhooks/endpoint/add/", {
        "tournament": tournament.pk, "url": "http://169.254.169.254/", "description": "", "events": "[]",
        "deliveries-TOTAL_FORMS": "0", "deliveries-INITIAL_FORMS": "0"}, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "openbare internetadressen" in page and "(link-local)" in page


# --- at delivery: checked again, pinned, no redirect --------------------------------------------------------------

@pytest.fixture
def receivers():
    made = []

    def make(host="127.0.0.1", port=0):
        made.append(Receiver(host, port))
        return made[-1]

    yield make
    for r in made:
        r.close()


def test_rebinding_the_name_after_the_check_changes_nothing(settings, dns, tournament, receivers):
    """The name's first answers are the real receiver (127.0.0.1); any later lookup says 127.0.0.2, where another
    server listens on the same port. The delivery reaches 127.0.0.1 with the name in ``Host``: it connected to
    the address its check saw, and looked the name up only once per attempt."""
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    good = receivers()
    evil = receivers("127.0.0.2", good.port)
    dns.answers["hooks.example.test"] = [["127.0.0.1"], ["127.0.0.1"], ["127.0.0.2"]]
    endpoint = endpoint_create(tournament=tournament, url=f"http://hooks.example.test:{good.port}/hook?club=3")
    assert dns.lookups["hooks.example.test"] == 1
    delivery = deliver(endpoint)
    assert (delivery.status, delivery.response_status) == ("succeeded", 200), delivery.error
    assert dns.lookups["hooks.example.test"] == 2 and evil.requests == []
    [request] = good.requests
    assert request["headers"]["Host"] == f"hooks.example.test:{good.port}" and request["path"] == "/hook?club=3"
    # The next attempt looks the name up again and goes where that lookup says (the rebinding is seen, and
    # checked: 127.0.0.2 is allowed here).
    assert deliver(endpoint).status == "succeeded" and len(evil.requests) == 1 and len(good.requests) == 1


def test_a_name_that_turns_internal_is_refused_at_delivery_with_no_answer_kept(settings, dns, tournament,
                                                                                 receivers):
    """Public at registration, loopback at delivery (nothing allowed): nothing is sent, no answer is logged."""
    receiver = receivers()
    dns.answers["turncoat.example.test"] = [["93.184.216.34"], ["127.0.0.1"]]
    endpoint = endpoint_create(tournament=tournament, url=f"http://turncoat.example.test:{receiver.port}/hook")
    delivery = deliver(endpoint)
    assert receiver.requests == []
    assert (delivery.status, delivery.attempts, delivery.response_status, delivery.response_body) == (
        "failed", 1, None, "")
    assert "turncoat.example.test resolves to 127.0.0.1 (loopback)" in delivery.error


def test_a_stored_internal_url_is_never_fetched(settings, tournament, receivers):
    """Registered while the site allowed loopback; the setting since removed: refused, nothing kept."""
    receiver = receivers()
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    endpoint = endpoint_create(tournament=tournament, url=receiver.url)
    assert deliver(endpoint).response_body.startswith("answer 1: 200")
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    delivery = deliver(endpoint)
    assert len(receiver.requests) == 1
    assert (delivery.status, delivery.response_status, delivery.response_body) == ("failed", None, "")
    assert "(loopback)" in delivery.error


def test_a_redirect_is_the_answer_not_followed(settings, tournament, receivers):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    receiver = receivers()
    other = receivers()
    for status in (301, 302, 303, 307, 308):
        receiver.script = [status]
        receiver.headers = {"Location": other.url}
        endpoint = endpoint_create(tournament=tournament, url=receiver.url)
        delivery = deliver(endpoint)
        assert (delivery.status, delivery.response_status) == ("failed", status)
    assert len(receiver.requests) == 5 and other.requests == []


def test_the_allowed_networks_setting(settings, organizer, tournament, receivers):
    assert django_settings.WEBHOOK_ALLOWED_NETWORKS == [] or os.environ.get("WEBHOOK_ALLOWED_NETWORKS")
    settings.WEBHOOK_ALLOWED_NETWORKS = ["192.168.1.0/24", "fd00:1::/64"]
    assert refusal("192.168.1.20") is None and refusal("::ffff:192.168.1.20") is None
    assert refusal("fd00:1::5") is None
    assert refusal("192.168.2.1") == PRIVATE and refusal("127.0.0.1") == LOOPBACK and refusal("fd00:2::5") == PRIVATE
    response = client_for(organizer).post(hooks_url(tournament), {"url": "http://192.168.1.20:8080/hook"},
                                          format="json")
    assert response.status_code == 201
    assert client_for(organizer).post(hooks_url(tournament), {"url": "http://192.168.2.1/"},
                                      format="json").status_code == 400
    # One receiver on this machine: allowed by its own /32, delivered to.
    receiver = receivers()
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    assert deliver(endpoint_create(tournament=tournament, url=receiver.url)).status == "succeeded"
    assert check_url(receiver.url).addresses == (ipaddress.ip_address("127.0.0.1"),)


def test_a_malformed_allowed_network_stops_the_start():
    env = {**os.environ, "WEBHOOK_ALLOWED_NETWORKS": "192.168.1.0/24,the club"}
    code = "import config.settings"
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         cwd=django_settings.BASE_DIR)
    assert run.returncode != 0 and "WEBHOOK_ALLOWED_NETWORKS" in run.stderr
    env["WEBHOOK_ALLOWED_NETWORKS"] = "192.168.1.0/24, 10.8.0.0/16"
    assert subprocess.run([sys.executable, "-c", code], env=env, cwd=django_settings.BASE_DIR).returncode == 0


# --- HTTPS: the name is the SNI and the certificate's name; the address is the checked one ------------------------

def _certificates(tmp_path: Path, name: str) -> tuple[Path, Path, Path]:
    """A throw-away authority and a server certificate it signs for ``name``: (authority, cert, key) files."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Manille test authority")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                       content_commitment=False, key_encipherment=False, data_encipherment=False,
                                       key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    cert = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    files = tmp_path / "ca.pem", tmp_path / "cert.pem", tmp_path / "key.pem"
    files[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    files[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    files[2].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return files


class TLSReceiver:
    """An HTTPS server on 127.0.0.1 that records each request's SNI name and Host header."""

    def __init__(self, cert: Path, key: Path):
        self.requests, self.names = [], []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver.requests.append(dict(self.headers))
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"tls ok")

            def log_message(self, *args):
                pass

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        context.sni_callback = lambda sock, name, ctx: receiver.names.append(name)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, args=(POLL_SECONDS,), daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_https_sends_the_name_as_sni_and_verifies_the_certificate_against_it(settings, dns, tournament, tmp_path,
                                                                             monkeypatch):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    authority, cert, key = _certificates(tmp_path, "hooks.example.test")
    monkeypatch.setenv("SSL_CERT_FILE", str(authority))  # the authorities ssl.create_default_context trusts
    server = TLSReceiver(cert, key)
    try:
        dns.answers["hooks.example.test"] = [["127.0.0.1"]]
        dns.answers["other.example.test"] = [["127.0.0.1"]]
        good = endpoint_create(tournament=tournament, url=f"https://hooks.example.test:{server.port}/hook")
        delivery = deliver(good)
        assert (delivery.status, delivery.response_body) == ("succeeded", "tls ok"), delivery.error
        assert server.names == ["hooks.example.test"]
        assert server.requests[0]["Host"] == f"hooks.example.test:{server.port}"
        # Same address, a name the certificate is not for: the handshake fails, nothing is posted.
        wrong = endpoint_create(tournament=tournament, url=f"https://other.example.test:{server.port}/hook")
        delivery = deliver(wrong)
        assert delivery.status != "succeeded" and "CERTIFICATE_VERIFY_FAILED" in delivery.error
        assert len(server.requests) == 1
        # And the authority matters: without it the certificate is not trusted.
        monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "none.pem"))
        monkeypatch.setenv("SSL_CERT_DIR", str(tmp_path))
        assert "CERTIFICATE_VERIFY_FAILED" in deliver(good).error
    finally:
        server.close()
