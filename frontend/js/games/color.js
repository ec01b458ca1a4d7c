// Colour arithmetic for legible boards: WCAG 2 relative luminance and contrast ratio, and the
// ink (near-black or white) that reads best on a fill. Every text the renderers draw on the
// canvas or colour inline must reach 4.5:1 (WCAG AA); these are the numbers that decide it.
// Pure (no DOM), so node tests it: tests/e2e/js/color_cases.mjs.

/** WCAG AA for normal text. */
export const AA = 4.5;

// The two inks text may take on a coloured fill (tokens, badges, chips). Pure black, because
// on the mid-tones where black and white read about equally only pure black reaches 4.5:1.
export const DARK_INK = "#000000";
export const LIGHT_INK = "#ffffff";

/** [r, g, b, a] (0-255, alpha 0-1) of "#rgb", "#rrggbb", "rgb(...)" or "rgba(...)", else null. */
export function parseColor(text) {
  const s = String(text || "").trim();
  let m = /^#([0-9a-f]{3})$/i.exec(s);
  if (m) return [...m[1]].map((c) => parseInt(c + c, 16)).concat(1);
  m = /^#([0-9a-f]{6})$/i.exec(s);
  if (m) {
    const n = parseInt(m[1], 16);
    return [n >> 16, (n >> 8) & 255, n & 255, 1];
  }
  m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/i.exec(s);
  if (m) {
    const alpha = m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    return [Number(m[1]), Number(m[2]), Number(m[3]), alpha];
  }
  return null;
}

/** A colour with alpha laid over an opaque background: the [r, g, b] the eye sees. */
export function over(color, background) {
  const [r, g, b, a] = color;
  const [br, bg, bb] = background;
  return [r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a)];
}

function channel(v) {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of [r, g, b] or of a colour string. */
export function luminance(color) {
  const rgb = typeof color === "string" ? parseColor(color) : color;
  if (!rgb) return 0;
  return 0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2]);
}

/** WCAG contrast ratio (1-21) of two opaque colours (strings or [r, g, b]). */
export function contrast(a, b) {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Near-black or white, whichever contrasts more with an opaque fill (white if unreadable). */
export function inkOn(fill) {
  const rgb = parseColor(fill);
  if (!rgb) return LIGHT_INK;
  return contrast(rgb, DARK_INK) >= contrast(rgb, LIGHT_INK) ? DARK_INK : LIGHT_INK;
}

/** "#rrggbb" of a hue (degrees), saturation and lightness (0-1): tokens' fallback colours, in a form inkOn reads. */
export function hslHex(hue, sat, light) {
  const k = (n) => (n + hue / 30) % 12;
  const a = sat * Math.min(light, 1 - light);
  const f = (n) => light - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return `#${[f(0), f(8), f(4)].map((v) => Math.round(v * 255).toString(16).padStart(2, "0")).join("")}`;
}
