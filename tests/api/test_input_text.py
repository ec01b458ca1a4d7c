"""Text is checked once, where it enters: one line, NFC, bounded, no control characters.

Issue 9, defect 5: a NUL in a player name or a table title was a 500 on PostgreSQL (its text
type cannot hold NUL) and the keep-alive connection was dropped, while SQLite stored the same
name.  Now every database answers 422 ``invalid_request`` (backend/textcheck.py), and so do
the WebSocket's chat lines and action ids (``bad_message``).
"""

from __future__ import annotations

import http.client
import json
import re
import unicodedata
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from backend.app import create_app
from backend.config import Settings
from backend.play.protocol import Act, BadMessage, Chat, parse_client
from backend.store.migrate import upgrade
from backend.textcheck import ACTION_ID_PATTERN

from ..server_fixtures import ROOT, ServerProcess

NOT_TEXT = ["\x00", "\t", "\n", "\r", "\x1b", "\x1f", "\x7f", "\x85", "\x9f", "\u2028", "\u2029", "\u202e",
            "\u2066"]  # fmt: skip


@pytest.fixture
def client(database_url: str) -> TestClient:
    upgrade(database_url)
    with TestClient(create_app(Settings(database_url=database_url))) as c:
        yield c


def player(client: TestClient, name: str = "Ada") -> dict[str, str]:
    reply = client.post("/api/players", json={"name": name})
    assert reply.status_code == 201, reply.text
    return {"Authorization": f"Bearer {reply.json()['player_token']}"}


def assert_invalid(reply) -> None:
    assert reply.status_code == 422, reply.text
    body = reply.json()
    assert body["code"] == "invalid_request" and body["message"], body


def test_a_nul_in_a_name_title_seat_or_table_id_is_refused_on_every_database(client: TestClient) -> None:
    assert_invalid(client.post("/api/players", json={"name": "Ada\x00"}))
    auth = player(client)
    assert_invalid(client.post("/api/tables", json={"game": "toy", "title": "Friday\x00"}, headers=auth))
    assert_invalid(client.post("/api/tables", json={"game": "to\x00y"}, headers=auth))
    tid = client.post("/api/tables", json={"game": "toy"}, headers=auth).json()["id"]
    assert_invalid(client.post(f"/api/tables/{tid}/join", json={"seat": "p1\x00"}, headers=auth))
    assert_invalid(client.post(f"/api/tables/{tid}/leave", json={"seat": "\x00"}, headers=auth))
    for path in ("/api/tables/a%00b", "/api/tables/a%00b/export", "/api/tables/%00/replay"):
        reply = client.get(path)
        assert reply.status_code == 404 and reply.json()["code"] == "not_found", reply.text
    # Nothing was stored half-way: the one table and the two players are all there is.
    assert [t["id"] for t in client.get("/api/tables").json()] == [tid]


@pytest.mark.parametrize("bad", NOT_TEXT)
def test_control_and_direction_characters_are_refused(tmp_path: Path, bad: str) -> None:
    url = f"sqlite:///{tmp_path / 'api.db'}"
    upgrade(url)
    with TestClient(create_app(Settings(database_url=url))) as client:
        assert_invalid(client.post("/api/players", json={"name": f"Ada{bad}Lovelace"}))
        assert_invalid(client.post("/api/players", json={"name": f"Ada{bad}"}))
        auth = player(client)
        assert_invalid(client.post("/api/tables", json={"game": "toy", "title": f"{bad}Friday"}, headers=auth))


def test_names_and_titles_are_nfc_trimmed_and_bounded(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'api.db'}"
    upgrade(url)
    with TestClient(create_app(Settings(database_url=url))) as client:
        decomposed = "Zoe\u0308"
        assert client.post("/api/players", json={"name": f"  {decomposed} "}).json()["name"] == "Zoë"
        for fine in ("👩‍🚀 Ada", "Ωμέγα", "عليّ", "李小龍", "a" * 64):
            reply = client.post("/api/players", json={"name": fine})
            assert reply.status_code == 201 and reply.json()["name"] == fine, reply.text
        assert_invalid(client.post("/api/players", json={"name": "a" * 65}))
        assert_invalid(client.post("/api/players", json={"name": " \u3000 "}))
        auth = player(client)
        made = client.post("/api/tables", json={"game": "toy", "title": " Cafe\u0301 "}, headers=auth).json()
        assert made["title"] == "Café"
        blank = client.post("/api/tables", json={"game": "toy", "title": "  "}, headers=auth).json()
        assert blank["title"] == "Toy race"
        assert_invalid(client.post("/api/tables", json={"game": "toy", "title": "t" * 129}, headers=auth))


def test_the_connection_survives_a_refused_name(database_url: str) -> None:
    """The 500 also dropped the keep-alive connection; a 422 keeps it."""
    with ServerProcess(database_url) as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            first = None
            for name, status in (("Ada\x00", 422), ("Ada", 201), ("\x00", 422), ("Bob", 201)):
                conn.request("POST", "/api/players", json.dumps({"name": name}),
                             {"Content-Type": "application/json"})  # fmt: skip
                reply = conn.getresponse()
                body = json.loads(reply.read())
                assert reply.status == status, body
                assert not reply.will_close, "the server closed the keep-alive connection"
                first = first or conn.sock
                assert conn.sock is first, "the requests did not share one connection"
        finally:
            conn.close()


@pytest.mark.parametrize("bad", NOT_TEXT)
def test_chat_is_one_line_of_text(bad: str) -> None:
    with pytest.raises(BadMessage) as e:
        parse_client(json.dumps({"type": "chat", "text": f"hello{bad}there"}))
    assert e.value.code == "bad_message" and "text" in e.value.message


def test_chat_is_nfc_trimmed_and_at_most_500_characters() -> None:
    msg = parse_client(json.dumps({"type": "chat", "text": "  Cafe\u0301 🐉 "}))
    assert isinstance(msg, Chat) and msg.text == "Café 🐉"
    assert isinstance(parse_client(json.dumps({"type": "chat", "text": "x" * 500})), Chat)
    for text in ("x" * 501, "   ", ""):
        with pytest.raises(BadMessage):
            parse_client(json.dumps({"type": "chat", "text": text}))


@pytest.mark.parametrize(
    "action_id",
    ["auto:3:p1", "auto:", "a:b", "a b", "a/b", "ä", "a\x00", "", "x" * 65, "🐉", "a\n"],
)
def test_client_action_ids_are_short_tokens_without_a_colon(action_id: str) -> None:
    with pytest.raises(BadMessage) as e:
        parse_client(json.dumps({"type": "act", "seq": 0, "action_id": action_id, "action": {"type": "roll"}}))
    assert e.value.code == "bad_message" and "action_id" in e.value.message


def test_the_browsers_action_ids_are_valid() -> None:
    """frontend/js/connection.js mints `a${Date.now() base 36}-${two random uint32 base 36}-${n}`;
    the longest such id still fits the character set and the 64 characters."""
    source = (ROOT / "frontend" / "js" / "connection.js").read_text()
    assert (
        "`a${Date.now().toString(36)}-${random[0].toString(36)}${random[1].toString(36)}-${actionCounter}`"
        in source
    ), "connection.js mints action ids differently now: check them against ACTION_ID_PATTERN"

    def base36(n: int) -> str:
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"
        out = ""
        while True:
            n, d = divmod(n, 36)
            out = digits[d] + out
            if not n:
                return out

    year_3000_ms = 32503680000000
    longest = f"a{base36(year_3000_ms)}-{base36(2**32 - 1)}{base36(2**32 - 1)}-{2**53}"
    for action_id in (longest, "a0-00-1", "f12", "race-p1", "in-flight", "x.y_z"):
        assert re.fullmatch(ACTION_ID_PATTERN, action_id), action_id
        msg = parse_client(json.dumps({"type": "act", "seq": 1, "action_id": action_id, "action": {"type": "x"}}))
        assert isinstance(msg, Act) and msg.action_id == action_id


def test_the_text_rules_are_documented() -> None:
    doc = (ROOT / "docs" / "protocol.md").read_text()
    assert ACTION_ID_PATTERN.strip("^$") in doc
    assert unicodedata.normalize("NFC", doc) == doc
    assert "NFC" in doc and "U+0000" in doc
