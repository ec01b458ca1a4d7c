"""The details of the server's answers that docs/protocol.md pins down, checked against what the
WebSocket fuzzer knows of the table (tests/play/test_ws_fuzz.py)."""

from __future__ import annotations

from typing import Any

from .ws_fuzz_cases import (
    CODE,
    DOCUMENTED_ERRORS,
    FAILURE_CODES,
    REMEMBERED_IDS,
    WATCH_ERRORS,
    Case,
    Model,
    Peer,
    readings,
)


def check_answer(case: Case, answer: dict[str, Any], peer: Peer, model: Model) -> None:
    """The details of an answer that docs/protocol.md pins down."""
    kind = answer["type"]
    where = case.note
    if kind == "error":
        assert answer["code"] in DOCUMENTED_ERRORS | WATCH_ERRORS, f"{where}: undocumented error {answer}"
        assert isinstance(answer.get("message"), str) and answer["message"], f"{where}: {answer}"
        if answer["code"] in WATCH_ERRORS:  # a rule of the table (T9): it cites it
            rule = answer.get("rule")
            assert isinstance(rule, dict) and all(
                isinstance(rule.get(k), str) for k in ("ref", "title", "section")
            ), f"{where}: a refusal to watch without its rule: {answer}"
        else:  # an error of the connection itself has no rule key
            assert "rule" not in answer, f"{where}: {answer}"
        return
    plain = readings(case.message)
    exact = len(plain) == 1 and isinstance(plain[0], dict)
    msg = plain[0] if exact else None
    if kind == "rejected":
        code = answer["code"]
        assert code not in FAILURE_CODES, f"{where}: the server failed on it: {answer}"
        assert CODE.fullmatch(code) and answer["message"], f"{where}: {answer}"
        assert answer["seq"] == model.seq, f"{where}: rejected at {answer['seq']}, table at {model.seq}"
        if msg is not None:
            assert answer["action_id"] == msg["action_id"], f"{where}: action id not echoed: {answer}"
            prior = model.ids.get(msg["action_id"])
            if prior is not None and prior[0] <= model.seq - REMEMBERED_IDS:
                prior = None  # forgotten: answered as a new action (its seq is long past)
            if peer.seat is None:
                assert code == "not_a_seat", f"{where}: {answer}"
            elif prior is not None and prior[1] != peer.seat:
                assert code == "duplicate_action_id", f"{where}: {answer}"
            elif prior is None and type(msg["seq"]) is int and msg["seq"] != model.seq:
                assert code == "stale", f"{where}: {answer}"
        return
    if kind == "ack":
        prior = model.ids.get(answer["action_id"])
        if prior is not None:
            assert answer["seq"] == prior[0], f"{where}: a retried id acknowledged at a new seq: {answer}"
        else:
            assert answer["seq"] == model.seq + 1, f"{where}: acknowledged as {answer['seq']} at {model.seq}"
            model.seq += 1
            model.ids[answer["action_id"]] = (answer["seq"], peer.seat or "")
            model.acked.append(answer["action_id"])
        return
    if kind == "history":
        seqs = [e["seq"] for e in answer["entries"]]
        assert all(e["type"] == "update" for e in answer["entries"]), f"{where}: {answer}"
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))) if seqs else True, f"{where}: {seqs}"
        # A page that reaches the start begins with seq 0, the setup (docs/protocol.md v1.5).
        assert answer["complete"] == (not seqs or seqs[0] in (0, 1)), (
            f"{where}: complete={answer['complete']}"
        )
        if msg is not None and all(
            msg.get(k) is None or type(msg.get(k)) is int for k in ("before", "limit")
        ):
            # The newest updates before ``before`` (all up to now without it), at most ``limit``.
            top = model.seq if msg.get("before") is None else min(msg["before"] - 1, model.seq)
            limit = 500 if msg.get("limit") is None else msg["limit"]
            first = top - limit + 1
            want = list(range(max(1, first), top + 1))
            if first <= 1:  # the page reaches the start: seq 0, the setup, comes first
                want = [0, *want]
            assert seqs == want, f"{where}: {seqs} up to {top}"
        return
    if kind == "welcome":
        # Whole, also to a connection that takes patches (and after its resync).
        assert {"view", "legal", "to_act", "missed"} <= answer.keys() and "patch" not in answer, (
            f"{where}: {answer}"
        )
        # The sides the frame may read as asking to watch with (a repeated key: first or last).
        watches = {
            p["watch"]
            for p in plain
            if isinstance(p, dict) and p.get("type") == "hello" and isinstance(p.get("watch"), str)
        }
        if "delayed" in answer or (msg is not None and watches):
            side = answer.get("delayed", {}).get("side")
            assert side in watches, f"{where}: welcomed as watching {side!r}, asked {watches}: {answer}"
            check_side_welcome(where, answer, side, model, msg.get("last_seq") if msg is not None else None)
            peer.hello_done, peer.side = True, side
            return
        assert "delayed" not in answer, f"{where}: a live welcome says it is delayed: {answer['delayed']}"
        assert answer["seq"] == model.seq, f"{where}: welcome at {answer['seq']}, table at {model.seq}"
        if msg is not None:
            # A resync's welcome is to the seat the connection said hello as.
            seat = peer.seat if msg.get("type") == "resync" else model.seat_of(msg.get("seat_token"))
            assert answer["seat"] == seat, f"{where}: welcomed as {answer['seat']}, not {seat}"
            last = msg.get("last_seq")
            if isinstance(last, int) and not isinstance(last, bool) and last < model.seq:
                got = [m["seq"] for m in answer["missed"]]
                assert got == list(range(last + 1, model.seq + 1)), f"{where}: missed {got}"
        peer.hello_done, peer.seat = True, answer["seat"]


def check_side_welcome(
    where: str, answer: dict[str, Any], side: str, model: Model, last_seq: Any = None
) -> None:
    """docs/protocol.md, Watching from a side: the welcome to a side spectator (``last_seq``:
    what its hello or resync said, when that was read as one integer)."""
    delayed = answer.get("delayed")
    assert isinstance(delayed, dict), f"{where}: a side welcome without delayed: {answer}"
    assert delayed["side"] == side and delayed["seq_live"] == model.seq, f"{where}: {delayed}"
    assert answer["seat"] is None and answer["legal"] == [] and answer["deadline"] is None, (
        f"{where}: {answer}"
    )
    released = answer["seq"]
    assert released is None or 0 <= released <= model.seq, f"{where}: released {released} at {model.seq}"
    assert (released is None) == (answer["view"] is None) == (delayed["round"] is None), f"{where}: {answer}"
    # While the table plays round r it shows the start of round r - N; nothing before N + 1.
    rounds, live = delayed["rounds"], delayed["round_live"]
    if not delayed["over"]:
        assert delayed["round"] == (live - rounds if live > rounds else None), f"{where}: {delayed}"
    # The released updates after last_seq, none beyond the released step whatever it says.
    got = [m["seq"] for m in answer["missed"]]
    assert all(seq <= (released if released is not None else -1) for seq in got), (
        f"{where}: missed {got} past the released {released}"
    )
    if type(last_seq) is int and released is not None and last_seq < released:
        assert got == list(range(last_seq + 1, released + 1)), f"{where}: missed {got} up to {released}"


