// The options form of the lobby, drawn from a game's `options_schema` (GET /api/games): check
// boxes for a list of choices, selects, numbers, switches, the seat split of heroes, or a JSON
// box for a game without a schema. The schema is the one source of what is allowed: the limits
// a label states and the form's own check both come from it.
import { clear, h, titleCase } from "./ui.js";

/**
 * A game that publishes no schema but whose defaults share heroes among seats
 * (`heroes: [...]`, `split: [[...], ...]`, as Dorn's do) still gets a form: the seat
 * split of its heroes. Picking other heroes needs the game's schema (or the JSON box).
 */
function splitSchemaFromDefaults(defaults) {
  const d = defaults || {};
  if (!Array.isArray(d.heroes) || !Array.isArray(d.split) || !d.split.every(Array.isArray)) return null;
  return {
    heroes: { type: "array", title: "Heroes", items: { enum: d.heroes }, minItems: d.heroes.length, maxItems: d.heroes.length, default: d.heroes },
    split: {
      type: "array",
      title: "Hero seats",
      description: "One person may take several hero seats (hot-seat); each seat plays its heroes.",
      "x-widget": "seat-split",
      "x-of": "heroes",
      items: { type: "array", items: { enum: d.heroes } },
      default: d.split,
    },
  };
}

/** Share the chosen heroes among 1..N seats: a seat count and one seat picker per hero. */
function seatSplitField(key, prop, initial, heroesNow, labels) {
  const maxSeats = prop.maxItems || 5;
  let groups = Array.isArray(initial) && initial.length ? initial.map((g) => [...g]) : [heroesNow()];
  const seatOf = new Map();
  groups.forEach((g, i) => g.forEach((hero) => seatOf.set(hero, i)));
  const count = h(
    "select#hero-seat-count",
    { dataset: { option: `${key}-count` } },
    Array.from({ length: maxSeats }, (_, i) => h("option", { value: String(i + 1), selected: i + 1 === groups.length }, `${i + 1} hero seat${i ? "s" : ""}`)),
  );
  const rows = h("div.split-rows");
  const render = () => {
    const n = Number(count.value);
    clear(rows);
    heroesNow().forEach((hero, i) => {
      if (!seatOf.has(hero) || seatOf.get(hero) >= n) seatOf.set(hero, i % n);
      const pick = h(
        "select.split-seat",
        { dataset: { hero }, onchange: (e) => seatOf.set(hero, Number(e.target.value)) },
        Array.from({ length: n }, (_, s) => h("option", { value: String(s), selected: seatOf.get(hero) === s }, `Seat ${s + 1}`)),
      );
      rows.append(h("label.split-row", {}, h("span", {}, labels[hero] || titleCase(hero)), pick));
    });
  };
  count.addEventListener("change", () => {
    // A new seat count deals the heroes out again, round-robin.
    seatOf.clear();
    render();
  });
  render();
  const el = h(
    "fieldset.field.seat-split",
    { dataset: { option: key } },
    h("legend", {}, prop.title || titleCase(key)),
    count,
    rows,
    prop.description ? h("small.help", {}, prop.description) : null,
  );
  return {
    el,
    render,
    read() {
      const n = Number(count.value);
      groups = Array.from({ length: n }, () => []);
      for (const hero of heroesNow()) groups[seatOf.get(hero) ?? 0].push(hero);
      return [key, groups];
    },
  };
}

/** "1 to 11", "exactly 5", "at least 2", "at most 3", or "" from a schema's bounds. */
export function countLimits(min, max) {
  if (min !== undefined && min === max) return `exactly ${min}`;
  if (min !== undefined && max !== undefined) return `${min} to ${max}`;
  if (min !== undefined) return `at least ${min}`;
  if (max !== undefined) return `at most ${max}`;
  return "";
}

/** Options typed as JSON, or an error the create form shows. */
function parseOptions(text) {
  try {
    return JSON.parse(text || "{}");
  } catch {
    throw new Error("The options are not valid JSON.");
  }
}

/** A form for one JSON-schema-ish options object; returns {el, read()}. */
export function optionsForm(schema, defaults) {
  // A JSON schema ({type: "object", properties}) or directly a map of option -> property schema.
  let props = (schema && (schema.properties || (schema.type === "object" ? {} : schema))) || {};
  const synthesized = !Object.keys(props).length && splitSchemaFromDefaults(defaults);
  if (synthesized) props = synthesized;
  const readers = [];
  const fields = [];
  const byKey = {};
  const splits = [];
  for (const [key, prop] of Object.entries(props)) {
    if (prop["x-widget"] === "seat-split") {
      const of = prop["x-of"] || "heroes";
      const labels = (props[of] && ((props[of].items && props[of].items["x-labels"]) || props[of]["x-labels"])) || {};
      const heroesNow = () => (byKey[of] ? byKey[of]()[1] : (defaults && defaults[of]) || []);
      const field = seatSplitField(key, prop, defaults && key in defaults ? defaults[key] : prop.default, heroesNow, labels);
      splits.push(field);
      fields.push(field.el);
      readers.push(() => field.read());
      continue;
    }
    const label = prop.title || titleCase(key);
    const initial = defaults && key in defaults ? defaults[key] : prop.default;
    const help = prop.description ? h("small.help", {}, prop.description) : null;
    const itemEnum = prop.items && (prop.items.enum || (prop.items.anyOf || []).map((x) => x.const));
    if (prop.type === "array" && itemEnum && itemEnum.length) {
      const names = (prop.items && prop.items["x-labels"]) || prop["x-labels"] || {};
      const chosen = new Set(Array.isArray(initial) ? initial : []);
      const boxes = itemEnum.map((value) =>
        h(
          "label.chip",
          {},
          h("input", { type: "checkbox", value, checked: chosen.has(value), dataset: { option: key } }),
          h("span", {}, names[value] || titleCase(value)),
        ),
      );
      const limits = countLimits(prop.minItems, prop.maxItems);
      const count = h("span.option-count.muted", { "aria-live": "polite" });
      const chosenNow = () => boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => i.value);
      const showCount = () => (count.textContent = ` · ${chosenNow().length} chosen`);
      fields.push(
        h(
          "fieldset.field",
          { dataset: { option: key } },
          h("legend", {}, label, limits ? h("span.muted.option-limits", {}, ` (${limits})`) : null, count),
          h("div.chips", {}, boxes),
          help,
        ),
      );
      byKey[key] = () => [key, chosenNow()];
      readers.push(() => {
        const value = chosenNow();
        // The form refuses what the schema refuses, in the same numbers the label shows.
        if ((prop.minItems !== undefined && value.length < prop.minItems) || (prop.maxItems !== undefined && value.length > prop.maxItems)) {
          throw new Error(`${label}: choose ${limits}.`);
        }
        return [key, value];
      });
      showCount();
      for (const b of boxes) b.querySelector("input").addEventListener("change", showCount);
      // A seat split of these heroes follows the checkboxes.
      for (const b of boxes) b.querySelector("input").addEventListener("change", () => splits.forEach((f) => f.render()));
    } else if (prop.enum || prop.anyOf) {
      const values = prop.enum || prop.anyOf.map((x) => x.const);
      const select = h(
        "select",
        { dataset: { option: key } },
        values.map((v) => h("option", { value: JSON.stringify(v), selected: v === initial }, titleCase(v))),
      );
      fields.push(h("label.field", {}, h("span", {}, label), select, help));
      readers.push(() => [key, JSON.parse(select.value)]);
    } else if (prop.type === "boolean") {
      const box = h("input", { type: "checkbox", checked: Boolean(initial), dataset: { option: key } });
      fields.push(h("label.field.field-inline", {}, box, h("span", {}, label), help));
      readers.push(() => [key, box.checked]);
    } else if (prop.type === "integer" || prop.type === "number") {
      const input = h("input", {
        type: "number",
        value: initial ?? "",
        min: prop.minimum,
        max: prop.maximum,
        step: prop.type === "integer" ? 1 : "any",
        dataset: { option: key },
      });
      fields.push(h("label.field", {}, h("span", {}, label), input, help));
      readers.push(() => [key, input.value === "" ? null : Number(input.value)]);
    } else if (prop.type === "string") {
      const input = h("input", { type: "text", value: initial ?? "", dataset: { option: key } });
      fields.push(h("label.field", {}, h("span", {}, label), input, help));
      readers.push(() => [key, input.value]);
    }
  }
  if (!fields.length) {
    // The game publishes no schema: offer its options as JSON, starting from its defaults.
    const area = h("textarea#options-json.options-json", { rows: 4, spellcheck: "false" }, JSON.stringify(defaults || {}, null, 1));
    return {
      el: h("label.field", {}, h("span", {}, "Options (JSON)"), area),
      read: () => parseOptions(area.value),
    };
  }
  const readForm = () => {
    const out = { ...(defaults || {}) };
    for (const read of readers) {
      const [key, value] = read();
      if (value === null) delete out[key];
      else out[key] = value;
    }
    return out;
  };
  if (synthesized) {
    // Without the game's schema, other heroes can still be chosen as JSON.
    const area = h("textarea#options-json.options-json", { rows: 5, spellcheck: "false" });
    const more = h(
      "details#options-advanced.options-advanced",
      {
        ontoggle: () => {
          if (!more.open) return;
          try {
            area.value = JSON.stringify(readForm(), null, 1);
          } catch {
            area.value = JSON.stringify(defaults || {}, null, 1); // the form does not hold a valid choice yet
          }
        },
      },
      h("summary", {}, "Other heroes or options (JSON)"),
      area,
    );
    return {
      el: h("div.options", {}, fields, more),
      read: () => (more.open ? parseOptions(area.value) : readForm()),
    };
  }
  return { el: h("div.options", {}, fields), read: readForm };
}
