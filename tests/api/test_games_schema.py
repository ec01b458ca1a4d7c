"""GET /api/games tells a lobby how to offer each game's options."""

from __future__ import annotations

from tests.api.test_lobby import client  # noqa: F401  (fixture)


def test_dorasure_offers_a_hero_picker_and_the_fang_switch(client):  # noqa: F811
    games = {g["name"]: g for g in client.get("/api/games").json()}
    props = games["dorasure"]["options_schema"]["properties"]
    assert "grand_master" in props["heroes"]["items"]["enum"]
    assert props["heroes"]["x-labels"]["ninja"] == "Ninja"
    assert len(props["heroes"]["items"]["enum"]) == 12
    assert props["fang"]["type"] == "boolean"
    # The schema's own default is a table the game accepts.
    defaults = {k: v["default"] for k, v in props.items()}
    reply = client.post("/api/players", json={"name": "Ada"})
    auth = {"Authorization": f"Bearer {reply.json()['player_token']}"}
    made = client.post("/api/tables", json={"game": "dorasure", "options": defaults}, headers=auth)
    assert made.status_code in (200, 201), made.text
    assert [s["seat"] for s in made.json()["seats"]] == ["ninja", "hunter"]
