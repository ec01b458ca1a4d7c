// The few assertions the case files need, with no node-only import, so the same cases run
// under `node --test` and inside Chromium.
export const assert = {
  ok(value, message = "expected a true value") {
    if (!value) throw new Error(message);
  },
  equal(actual, expected, message = "") {
    if (actual !== expected) throw new Error(`${message} ${JSON.stringify(actual)} !== ${JSON.stringify(expected)}`.trim());
  },
  deepEqual(actual, expected, message = "") {
    const a = JSON.stringify(actual);
    const b = JSON.stringify(expected);
    if (a !== b) throw new Error(`${message} ${a} != ${b}`.trim());
  },
};
