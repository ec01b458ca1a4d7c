// View patches (docs/protocol.md, "View patches"; the server side is backend/play/patch.py).
// An update may carry `patch`, operations in a compact form of RFC 6902 that turn the
// {v: view, l: legal, t: to_act} last received into this update's: [pointer, value] sets
// (replaces, adds a key, or appends at one past an array's end), [pointer] removes; RFC 6901
// pointers. `view_hash` is the first 12 hex digits of SHA-256 over the canonical JSON of the
// result: keys sorted, no spaces, UTF-8, strings and numbers as JSON.stringify writes them.
// The server spells the same text (integral floats without ".0"); a value it spells otherwise
// costs a resync, never a wrong view.

export class PatchError extends Error {}

function unescapeToken(token) {
  return token.includes("~") ? token.replaceAll("~1", "/").replaceAll("~0", "~") : token;
}

function arrayIndex(token) {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`bad array index ${token}`);
  return Number(token);
}

function setIn(node, tokens, at, remove, value) {
  const token = tokens[at];
  const last = at === tokens.length - 1;
  if (Array.isArray(node)) {
    const items = node.slice();
    const i = arrayIndex(token);
    const appending = last && !remove && i === items.length;
    if (i >= items.length && !appending) throw new PatchError(`index ${token} out of range`);
    if (!last) items[i] = setIn(items[i], tokens, at + 1, remove, value);
    else if (remove) items.splice(i, 1);
    else items[i] = value;
    return items;
  }
  if (node !== null && typeof node === "object") {
    const out = { ...node };
    const has = Object.prototype.hasOwnProperty.call(out, token);
    if (!last) {
      if (!has) throw new PatchError(`no key ${token}`);
      out[token] = setIn(out[token], tokens, at + 1, remove, value);
    } else if (remove) {
      if (!has) throw new PatchError(`no key ${token} to remove`);
      delete out[token];
    } else {
      out[token] = value;
    }
    return out;
  }
  throw new PatchError(`cannot step into ${typeof node} with ${token}`);
}

/** `doc` with `ops` applied, as a new value (containers along each path are copied, the
 * rest shared: `doc` itself, which the table may still hold, is never changed). */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError("a patch is a list of operations");
  for (const op of ops) {
    if (!Array.isArray(op) || (op.length !== 1 && op.length !== 2) || typeof op[0] !== "string") {
      throw new PatchError("not an operation");
    }
    const [path, value] = op;
    const remove = op.length === 1;
    if (path === "") {
      if (remove) throw new PatchError("cannot remove the whole document");
      doc = value;
    } else if (!path.startsWith("/")) {
      throw new PatchError(`bad pointer ${path}`);
    } else {
      doc = setIn(doc, path.slice(1).split("/").map(unescapeToken), 0, remove, value);
    }
  }
  return doc;
}

/** The canonical JSON of a value (see the head of this file). */
export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

// SHA-256 (FIPS 180-4), synchronous: crypto.subtle is async and absent on plain http origins.
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256Hex(text) {
  const data = new TextEncoder().encode(text);
  const blocks = Math.ceil((data.length + 9) / 64);
  const bytes = new Uint8Array(blocks * 64);
  bytes.set(data);
  bytes[data.length] = 0x80;
  const view = new DataView(bytes.buffer);
  view.setUint32(bytes.length - 8, Math.floor(data.length / 0x20000000));
  view.setUint32(bytes.length - 4, (data.length * 8) >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let b = 0; b < blocks; b += 1) {
    for (let i = 0; i < 16; i += 1) w[i] = view.getUint32(b * 64 + i * 4);
    for (let i = 16; i < 64; i += 1) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, bb, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i += 1) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & bb) ^ (a & c) ^ (bb & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = bb;
      bb = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a;
    h[1] += bb;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  return Array.from(h, (x) => x.toString(16).padStart(8, "0")).join("");
}

/** The check an update's `view_hash` is compared with. */
export function viewHash(doc) {
  return sha256Hex(canonicalJson(doc)).slice(0, 12);
}
