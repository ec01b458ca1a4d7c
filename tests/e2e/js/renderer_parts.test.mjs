// node --test entry: each case of <PARTS_CASES>_cases.mjs becomes a node test.
// PARTS_FIXTURE names the JSON file of static info and samples written by pytest.
import { readFileSync } from "node:fs";
import { test } from "node:test";

const { cases } = await import(`./${process.env.PARTS_CASES}_cases.mjs`);
const fixture = JSON.parse(readFileSync(process.env.PARTS_FIXTURE, "utf8"));
for (const [name, fn] of cases) test(name, () => fn(fixture));
