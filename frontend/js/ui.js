// Small DOM helpers shared by the pages.

/** h("div.card#x", {onclick}, child...) — tag with optional .classes and #id. */
export function h(spec, attrs = {}, ...children) {
  const m = spec.match(/^([a-z0-9]+)?((?:[.#][\w-]+)*)$/i);
  const el = document.createElement((m && m[1]) || "div");
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === ".") el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
  }
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key === "value") el.value = value;
    else if (key === "checked") el.checked = Boolean(value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** el.append without the "null" text nodes DOM append makes of null/false children. */
export function append(el, ...children) {
  el.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/**
 * What `load()` answers, for a page about to draw itself in `root`; when it fails, the page
 * shows why instead ({title, note, links: [[href, text]]}) and this answers null.
 */
export async function loadOrExplain(root, load, { title, note = null, links }) {
  clear(root);
  try {
    return await load();
  } catch (err) {
    root.append(failureCard(title, err.message, note, links));
    return null;
  }
}

function failureCard(title, message, note, links) {
  return h(
    "section.card.waiting",
    {},
    h("h1", {}, title),
    h("p.error", {}, message),
    note ? h("p.muted", {}, note) : null,
    h("div.actions", {}, links.map(([href, text]) => h("a.button", { href }, text))),
  );
}

export function toast(text, kind = "info", ms = 4000) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h(`div.toast.toast-${kind}`, { role: kind === "error" ? "alert" : "status" }, text);
  box.append(item);
  setTimeout(() => item.classList.add("toast-out"), ms - 300);
  setTimeout(() => item.remove(), ms);
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API needs a secure context; fall back to a selected textarea.
    const area = h("textarea", { style: { position: "fixed", opacity: "0" } }, text);
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

/** "0:42" style countdown text for a Unix-seconds deadline. */
export function countdown(deadline) {
  if (!deadline) return "";
  const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  const m = Math.floor(left / 60);
  const s = left % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

export function titleCase(id) {
  return String(id)
    .replace(/_/g, " ")
    .replace(/\b\w/g, (c) => c.toUpperCase());
}

export function setTopbar(...children) {
  const bar = document.getElementById("topbar-extra");
  if (bar) append(clear(bar), ...children);
}

/** The one breakpoint of the small-screen layout (css/app.css uses the same width). */
export const SMALL_SCREEN = "(max-width: 760px)";

// On a small screen the board is the first thing under the turn banner and the action bar comes
// right after it: this much of the window stays free for the bar.
const ACTION_BAR_ROOM = 170;

/**
 * The height a board canvas may take: on a large screen from the board's top to the window's
 * bottom, less the hero panels under it; on a small screen the panels are in tabs and the
 * action bar must fit under the board. Times the board's zoom (zoom.js), so a zoomed board
 * is drawn bigger rather than scaled.
 */
export function availableBoardHeight(canvas, min = 260) {
  const wrap = canvas.closest(".board-wrap") || canvas.parentElement;
  const zoom = Number(wrap?.dataset.zoom || 1);
  const top = wrap ? wrap.getBoundingClientRect().top + window.scrollY : 120;
  const small = window.matchMedia(SMALL_SCREEN).matches;
  const panels = document.getElementById("hero-panels");
  const below = small ? ACTION_BAR_ROOM : panels && panels.offsetHeight ? panels.offsetHeight + 14 : 0;
  return Math.max(min, Math.floor(window.innerHeight - top - below - 16)) * zoom;
}
