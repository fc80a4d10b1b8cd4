"""Requests a hostile or careless client sends: another site's page, a rebinding DNS name,
bodies that are huge, deep or not JSON, numbers past SQLite's range, routes that do not exist.
Each gets a short 4xx in the API's JSON shape and changes nothing; every answer carries the
headers that keep the pages out of other sites' frames."""

from __future__ import annotations

import json

import pytest

from training.web.guard import CSP, host_name

from .conftest import make_table


def short_refusal(response, status):
    assert response.status_code == status, response.text[:300]
    message = response.json()["error"]
    assert "\n" not in message and len(message) <= 240
    return message


TABLE = {"env_id": "smuggle_v0", "seats": ["human", "rule", "rule"], "seed": 1, "bot_delay": 0}


def test_another_sites_page_cannot_make_tables(client):
    text = client.post(
        "/api/tables", content=json.dumps(TABLE), headers={"Content-Type": "text/plain", "Origin": "http://evil.test"}
    )
    short_refusal(text, 403)
    plain = client.post("/api/tables", content=json.dumps(TABLE), headers={"Content-Type": "text/plain"})
    assert "application/json" in short_refusal(plain, 415)
    form = client.post("/api/tables", data={"env_id": "smuggle_v0"})
    short_refusal(form, 415)
    cross = client.post("/api/tables", json=TABLE, headers={"Origin": "http://evil.test"})
    short_refusal(cross, 403)
    null = client.post("/api/tables", json=TABLE, headers={"Origin": "null"})
    short_refusal(null, 403)
    fetch = client.get("/api/games", headers={"Sec-Fetch-Site": "cross-site"})
    short_refusal(fetch, 403)
    assert client.get("/api/tables").json()["tables"] == []  # none was made
    same = client.post("/api/tables", json=TABLE, headers={"Origin": "http://localhost"})
    assert same.status_code == 201  # the server's own page


def test_a_rebinding_host_name_is_refused(client):
    for host in ("evil.test", "evil.test:8000", "127.0.0.1.evil.test", ""):
        response = client.get("/api/games", headers={"Host": host})
        assert "Host" in short_refusal(response, 400)
        assert client.post("/api/tables", json=TABLE, headers={"Host": host}).status_code == 400
    for host in ("localhost:8000", "127.0.0.1", "[::1]:9", "LOCALHOST"):
        assert client.get("/api/games", headers={"Host": host}).status_code == 200, host
    assert client.get("/api/tables").json()["tables"] == []


def test_host_names_are_read_like_browsers_write_them():
    assert host_name("[::1]:8000") == "::1"
    assert host_name("Lab-PC:80") == "lab-pc"
    assert host_name("::1") == "::1"
    assert host_name("[broken") == ""


def test_every_answer_carries_the_security_headers(client):
    for path in ("/", "/play/x/0", "/replay/1", "/static/play.js", "/api/envs", "/api/nothing", "/api/games/1"):
        response = client.get(path)
        assert response.headers["content-security-policy"] == CSP, path
        assert "frame-ancestors 'none'" in CSP and "script-src 'self'" in CSP
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["referrer-policy"] == "no-referrer"
        assert response.headers["x-content-type-options"] == "nosniff"
    refused = client.get("/api/games", headers={"Host": "evil.test"})
    assert refused.headers["x-frame-options"] == "DENY"


def test_a_deeply_nested_body_is_a_400(client):
    deep = b"[" * 100_000 + b"]" * 100_000
    for path in ("/api/tables",):
        assert "JSON" in short_refusal(
            client.post(path, content=deep[:60_000], headers={"Content-Type": "application/json"}), 400
        )
    seats = make_table(client, "smuggle_v0", ["human", "rule", "rule"])
    seats.join(0, "Ann")
    nested = {"action": json.loads("[" * 500 + "]" * 500), "revision": 0}
    short_refusal(
        client.post(seats.path(0, "act"), content=json.dumps(nested), headers={**seats.headers(0), **JSON}), 400
    )
    too_deep = b'{"action": ' + b"[" * 30_000 + b"]" * 30_000 + b', "revision": 0}'
    short_refusal(client.post(seats.path(0, "act"), content=too_deep, headers={**seats.headers(0), **JSON}), 400)


JSON = {"Content-Type": "application/json"}


def test_a_huge_body_is_a_413_and_a_huge_input_is_not_echoed(client):
    huge = json.dumps({**TABLE, "env_id": "x" * 1_000_000})
    short_refusal(client.post("/api/tables", content=huge, headers=JSON), 413)
    seats = make_table(client, "smuggle_v0", ["human", "rule", "rule"])
    seats.join(0, "Ann")
    big = {"action": "9" * 50_000, "revision": 0}
    message = short_refusal(client.post(seats.path(0, "act"), json=big, headers=seats.headers(0)), 422)
    assert len(message) < 150
    chunked = client.post(  # no Content-Length: counted while read
        "/api/tables", content=iter([b'{"env_id": "', b"x" * 70_000, b'"}']), headers=JSON
    )
    short_refusal(chunked, 413)


def test_numbers_past_sqlites_range_are_4xx(client):
    assert "no stored game" in short_refusal(client.get("/api/games/9223372036854775808"), 404)
    assert short_refusal(client.get("/api/games/" + "9" * 5000), 404)
    for seed in (2**63, 2**64 + 5, 10**100, -1):
        message = short_refusal(client.post("/api/tables", json={**TABLE, "seed": seed}), 422)
        assert "'seed'" in message
    ok = client.post("/api/tables", json={**TABLE, "seed": 2**63 - 1})
    assert ok.status_code == 201, ok.text
    assert short_refusal(client.get("/api/games/1?step=" + "9" * 5000), 422)


def test_a_long_table_id_or_query_is_not_echoed(client):
    message = short_refusal(client.get("/api/tables/" + "t" * 6000), 404)
    assert "t" * 30 not in message
    seats = make_table(client, "smuggle_v0", ["human", "rule", "rule"])
    message = short_refusal(client.get(seats.path(0, "view") + "?wait=" + "1" * 3000, headers=seats.headers(0)), 422)
    assert "1" * 50 not in message
    message = short_refusal(client.post("/api/tables", json={**TABLE, "y" * 5000: 1}), 422)
    assert "y" * 50 not in message


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/api/nothing", 404),
        ("GET", "/nothing", 404),
        ("GET", "/static/../app.py", 404),
        ("GET", "/static/nothing.js", 404),
        ("DELETE", "/api/tables", 405),
        ("PUT", "/api/games", 405),
        ("POST", "/api/games", 405),
    ],
)
def test_unknown_routes_answer_the_apis_json_shape(client, method, path, status):
    response = client.request(method, path, headers=JSON, content=b"{}")
    short_refusal(response, status)


def test_the_server_answers_to_its_own_names_only():
    import socket

    from training.web.server import host_names

    everywhere = host_names("0.0.0.0", ["Lab.Test"])
    assert {"localhost", "127.0.0.1", "::1", "lab.test", socket.gethostname().lower()} <= set(everywhere)
    one = host_names("192.0.2.7")
    assert "192.0.2.7" in one and socket.gethostname().lower() not in one and "evil.test" not in one


@pytest.mark.parametrize(
    "hosts",
    [
        [b"evil.example", b"localhost"],  # two Host headers: the last one used to win
        [b"localhost", b"localhost"],
        [b"localhost:1@evil.example"],  # user info
        [b"127.0.0.1:evil.example"],  # a port that is not a number
        [b"localhost:99999"],
        [b"localhost:0"],
        [b"localhost:"],
        [b"[::1]:x"],
        [b"localhost/evil"],
    ],
)
def test_a_host_that_is_not_one_name_and_port_is_refused(hosts):
    from training.web.guard import Guard

    scope = {"type": "http", "path": "/api/games", "method": "GET", "headers": [(b"host", h) for h in hosts]}
    refusal = Guard(app=None).refusal(scope)
    assert refusal is not None and refusal[0] == 400, hosts


def test_a_host_with_user_info_or_a_bad_port_is_refused_over_http(client):
    for host in ("localhost:1@evil.example", "127.0.0.1:evil.example", "localhost:65536"):
        assert "Host" in short_refusal(client.get("/api/games", headers={"Host": host}), 400)
        assert client.post("/api/tables", json=TABLE, headers={"Host": host}).status_code == 400
    assert client.get("/api/games", headers={"Host": "localhost:65535"}).status_code == 200
    assert client.get("/api/tables").json()["tables"] == []
