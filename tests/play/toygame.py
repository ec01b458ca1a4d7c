"""A tiny game that exercises every server path: dice, a hidden card, a prompt.

Seats p1..pN race to ``target``.  On your turn you ``roll`` a die (move that
far) or, once per game, ``swap`` your face-down card for the top of the deck.
A roll of 6 asks every *other* seat at once to ``cheer`` or ``boo`` (a
simultaneous prompt; default: cheer).  At the end the cards are revealed and
position + card value decides the winner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from backend.engine.core import (
    Event,
    IllegalAction,
    InvalidOptions,
    Outcome,
    SeatInfo,
    Transition,
    check_action_shape,
)
from backend.engine.rng import Rng

COLOURS = ["amber", "cobalt", "jade", "ruby", "onyx", "pearl"]
DECK = [f"card-{c}-{v}" for c in COLOURS for v in (1, 2, 3)]


def card_value(card: str) -> int:
    return int(card.rsplit("-", 1)[1])


class ToyGame:
    name = "toy"
    title = "Toy race"
    rules_version = 1

    def normalize_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        players = options.get("players", 2)
        target = options.get("target", 15)
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise InvalidOptions("bad_players", "A toy race needs 2 to 4 players.")
        if not isinstance(target, int) or not 3 <= target <= 200:
            raise InvalidOptions("bad_target", "The target must be between 3 and 200.")
        unknown = set(options) - {"players", "target"}
        if unknown:
            raise InvalidOptions("unknown_option", f"Unknown option {sorted(unknown)[0]!r}.")
        return {"players": players, "target": target}

    def seats(self, options: Mapping[str, Any]) -> list[SeatInfo]:
        return [SeatInfo(f"p{i + 1}", f"Player {i + 1}") for i in range(options["players"])]

    def static_info(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"track_length": options["target"], "colours": COLOURS}

    def options_schema(self) -> dict[str, Any]:
        return {"players": {"type": "integer", "minimum": 2, "maximum": 4}, "target": {"type": "integer"}}

    def initial_state(self, seed: bytes, options: Mapping[str, Any]) -> dict[str, Any]:
        rng = Rng(seed)
        deck = rng.shuffled(DECK)
        seats = [s.seat for s in self.seats(options)]
        cards = {s: deck.pop() for s in seats}
        return {
            "seed": seed.hex(),
            "rng": rng.counter,
            "seats": seats,
            "target": options["target"],
            "pos": {s: 0 for s in seats},
            "cards": cards,
            "swapped": [],
            "deck": deck,
            "turn": 0,
            "pending": [],
            "cheers": 0,
            "boos": 0,
            "last_roll": None,
            "over": False,
        }

    def initial_transition(self, seed: bytes, options: Mapping[str, Any]) -> Transition[dict[str, Any]]:
        return Transition(self.initial_state(seed, options), (Event("dealt", {"cards": len(self.seats(options))}),))

    def to_act(self, state: dict[str, Any]) -> frozenset[str]:
        if state["over"]:
            return frozenset()
        if state["pending"]:
            return frozenset(state["pending"])
        return frozenset({state["seats"][state["turn"]]})

    def prompt_seats(self, state: dict[str, Any]) -> frozenset[str]:
        return frozenset(state["pending"])

    def legal_actions(self, state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
        if seat not in self.to_act(state):
            return []
        if state["pending"]:
            return [{"type": "cheer"}, {"type": "boo"}]
        out = [{"type": "roll"}]
        if seat not in state["swapped"] and state["deck"]:
            out.append({"type": "swap"})
        return out

    def validate(self, state: dict[str, Any], seat: str, action: Any) -> None:
        action = check_action_shape(action)
        if state["over"]:
            raise IllegalAction("game_over", "The race is over.")
        if seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", "It is not your turn (wait for your turn or a prompt).")
        if action not in self.legal_actions(state, seat):
            if state["pending"]:
                raise IllegalAction("answer_prompt", "A six was rolled: answer with cheer or boo.")
            if action.get("type") == "swap":
                raise IllegalAction("swap_used", "You may swap your card only once per race.")
            raise IllegalAction("not_allowed", "On your turn you may roll, or swap your card once.")

    def apply(self, state: dict[str, Any], seat: str, action: dict[str, Any]) -> Transition[dict[str, Any]]:
        self.validate(state, seat, action)
        s = {
            **state,
            "pos": dict(state["pos"]),
            "cards": dict(state["cards"]),
            "deck": list(state["deck"]),
            "pending": list(state["pending"]),
            "swapped": list(state["swapped"]),
        }
        events: list[Event] = []
        kind = action["type"]
        if kind in ("cheer", "boo"):
            s["pending"].remove(seat)
            s["cheers" if kind == "cheer" else "boos"] += 1
            events.append(Event(kind, {"seat": seat}))
            if not s["pending"]:
                s["turn"] = (s["turn"] + 1) % len(s["seats"])
        elif kind == "swap":
            new = s["deck"].pop()
            s["deck"].insert(0, s["cards"][seat])
            s["cards"][seat] = new
            s["swapped"].append(seat)
            events.append(Event("swapped", {"seat": seat}))
            events.append(Event("your_card", {"card": new}, to=frozenset({seat})))
            s["turn"] = (s["turn"] + 1) % len(s["seats"])
        else:
            rng = Rng(s["seed"], s["rng"])
            die = rng.d6()
            s["rng"] = rng.counter
            s["last_roll"] = die
            s["pos"][seat] += die
            events.append(Event("rolled", {"seat": seat, "die": die}))
            if s["pos"][seat] >= s["target"]:
                s["over"] = True
                events.append(Event("revealed", {"cards": dict(s["cards"])}))
            elif die == 6:
                s["pending"] = [x for x in s["seats"] if x != seat]
            else:
                s["turn"] = (s["turn"] + 1) % len(s["seats"])
        return Transition(s, tuple(events))

    def default_action(self, state: dict[str, Any], seat: str) -> dict[str, Any] | None:
        if seat not in self.to_act(state):
            return None
        return {"type": "cheer"} if state["pending"] else {"type": "roll"}

    def view(self, state: dict[str, Any], seat: str | None, *, reveal: bool = False) -> dict[str, Any]:
        show_all = reveal or state["over"]
        return {
            "pos": dict(state["pos"]),
            "turn": state["seats"][state["turn"]],
            "pending": list(state["pending"]),
            "cheers": state["cheers"],
            "boos": state["boos"],
            "last_roll": state["last_roll"],
            "over": state["over"],
            "deck_count": len(state["deck"]),
            "cards": {
                s: (c if show_all or s == seat else "hidden") for s, c in sorted(state["cards"].items())
            },
            **({"deck": list(state["deck"])} if reveal else {}),
        }

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        if not state["over"]:
            return None
        score = {s: state["pos"][s] + card_value(state["cards"][s]) for s in state["seats"]}
        best = max(score.values())
        winners = frozenset(s for s, v in score.items() if v == best)
        return Outcome("race_won", winners, f"Best position plus card: {best}.")

    def encode_state(self, state: dict[str, Any]) -> dict[str, Any]:
        return state

    def decode_state(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return dict(data)

    def sim_options(self, rng: Any, players: int | None, overrides: Mapping[str, Any]) -> dict[str, Any]:
        return {"players": players or 2 + rng.below(3), **overrides}

    def redact_action(
        self, options: Mapping[str, Any], actor: str, action: dict[str, Any], viewers: frozenset[str]
    ) -> dict[str, Any]:
        return action  # roll, swap, cheer, boo: no action names a card

    def secrets(self, state: dict[str, Any], seat: str | None) -> set[str]:
        if state["over"]:
            return set()  # everything is revealed at the end
        hidden = {c for s, c in state["cards"].items() if s != seat}
        return hidden | set(state["deck"])


GAME = ToyGame()
