// node --test entry for tests/play/test_patches.py: the browser client's view patches.
// PATCH_CASES names a JSON file written by pytest: {"pairs": [{base, patch, hash, doc}],
// "stream": {welcome, updates: [{frame, doc}]}} from real games (a doc is {v: view, l: legal,
// t: to_act}), each hash computed by backend/play/patch.py.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { applyPatch, canonicalJson, viewHash } from "../../frontend/js/viewpatch.js";

const fixture = JSON.parse(readFileSync(process.env.PATCH_CASES, "utf8"));

test("every patch applies to its base, leaves the base as it was, and hashes as the server's", () => {
  for (const pair of fixture.pairs) {
    const before = canonicalJson(pair.base);
    const out = applyPatch(pair.base, pair.patch);
    assert.equal(canonicalJson(pair.base), before);
    assert.equal(canonicalJson(out), canonicalJson(pair.doc));
    assert.equal(viewHash(out), pair.hash);
  }
});

test("a patch that does not fit is refused", () => {
  assert.throws(() => applyPatch({ a: 1 }, [["/b/c", 2]]));
  assert.throws(() => applyPatch({ a: [] }, [["/a/0"]]));
  assert.throws(() => applyPatch({ a: [1] }, [["/a/01", 2]]));
  assert.throws(() => applyPatch({ a: [1] }, [["/a/2", 2]]));
  assert.throws(() => applyPatch({ a: 1 }, [["/a", 1, 2]]));
  assert.throws(() => applyPatch({ a: 1 }, [{ op: "replace", path: "/a", value: 2 }]));
  assert.throws(() => applyPatch({ a: 1 }, [[""]]));
  const doc = { "a/b": { "~": 1 }, c: [1] };
  assert.deepEqual(applyPatch(doc, [["/a~1b/~0", 2], ["/c/1", 3]]), { "a/b": { "~": 2 }, c: [1, 3] });
  assert.deepEqual(doc, { "a/b": { "~": 1 }, c: [1] });
});

// A stand-in for the browser's WebSocket: frames in by hand, frames out recorded.
class FakeSocket {
  static OPEN = 1;
  static sockets = [];
  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.OPEN;
    this.sent = [];
    FakeSocket.sockets.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 3;
  }
  receive(msg) {
    this.onmessage({ data: JSON.stringify(msg) });
  }
}
globalThis.WebSocket = FakeSocket;
globalThis.window = { addEventListener() {}, removeEventListener() {} };
const { TableConnection } = await import("../../frontend/js/connection.js");

function connected() {
  const conn = new TableConnection("t1", "token", { url: "ws://test/ws/tables/t1" });
  const views = [];
  conn.addEventListener("update", (e) => e.detail.view !== undefined && views.push(e.detail));
  conn.open();
  const ws = FakeSocket.sockets.at(-1);
  ws.onopen();
  return { conn, ws, views };
}

test("the client applies each patch, checks its hash and hands listeners whole views", () => {
  const { conn, ws, views } = connected();
  assert.equal(ws.sent[0].patches, true);
  const { welcome, updates } = fixture.stream;
  ws.receive(welcome);
  for (const update of updates) ws.receive(update.frame);
  assert.equal(conn.resyncs, 0);
  assert.equal(views.length, updates.length);
  updates.forEach((update, i) => {
    assert.equal(canonicalJson(views[i].view), canonicalJson(update.doc.v));
    assert.equal(canonicalJson(views[i].legal), canonicalJson(update.doc.l));
    assert.equal(canonicalJson(views[i].to_act), canonicalJson(update.doc.t));
  });
  assert.ok(updates.some((u) => u.frame.patch !== undefined), "the stream holds patches");
  conn.close();
});

test("a corrupted view is caught by the hash and resynced; updates wait for the welcome", () => {
  const { conn, ws, views } = connected();
  const { welcome, updates } = fixture.stream;
  const k = updates.findIndex((u) => u.frame.patch !== undefined && u.frame.patch.length > 0);
  ws.receive(welcome);
  for (const update of updates.slice(0, k)) ws.receive(update.frame);
  conn.doc = { ...conn.doc, v: { ...conn.doc.v, corrupted: true } };
  ws.receive(updates[k].frame);
  assert.equal(conn.resyncs, 1);
  assert.deepEqual(ws.sent.at(-1), { type: "resync", last_seq: updates[k].frame.seq - 1 });
  assert.equal(views.length, k, "the mismatched update is not handed on");
  if (updates[k + 1]) ws.receive(updates[k + 1].frame);
  assert.equal(views.length, k, "nor any update before the welcome");
  // The server's answer: a welcome at the current seq with a whole view.
  const upto = updates[Math.min(k + 1, updates.length - 1)];
  ws.receive({ ...welcome, seq: upto.frame.seq, view: upto.doc.v, legal: upto.doc.l, to_act: upto.doc.t, missed: [] });
  assert.equal(canonicalJson(conn.doc), canonicalJson(upto.doc));
  for (const update of updates.slice(k + 2)) ws.receive(update.frame);
  assert.equal(conn.resyncs, 1, "the patches after the welcome fit again");
  assert.equal(canonicalJson(conn.doc), canonicalJson(updates.at(-1).doc));
  conn.close();
});

test("a missing update is a gap: the client resyncs instead of patching past it", () => {
  const { conn, ws } = connected();
  const { welcome, updates } = fixture.stream;
  ws.receive(welcome);
  ws.receive(updates[1].frame);
  assert.equal(conn.resyncs, 1);
  assert.deepEqual(ws.sent.at(-1), { type: "resync", last_seq: welcome.seq });
  assert.equal(conn.lastSeq, welcome.seq);
  conn.close();
});
