// node --test entry: each case of hexlayout_cases.mjs becomes a node test.
// HEXGRID_REFERENCE names the JSON file of reference points written by pytest.
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { cases } from "./hexlayout_cases.mjs";

const fixture = JSON.parse(readFileSync(process.env.HEXGRID_REFERENCE, "utf8"));
for (const [name, fn] of cases) test(name, () => fn(fixture));
