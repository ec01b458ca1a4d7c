// Canvas plumbing both board renderers share: a backing store of CSS pixels × devicePixelRatio
// (sharp on high-DPI screens), a cleared frame drawn in CSS pixels, and the token shapes
// both boards draw (terrain tiles, panel boxes, round initials tokens, X marks).

import { inkOn } from "./color.js";

export { inkOn };

const FONT = "system-ui, sans-serif";

/** Size the canvas to w × h CSS pixels, devicePixelRatio device pixels each; returns the ratio. */
export function sizeCanvas(canvas, w, h) {
  const dpr = window.devicePixelRatio || 1;
  canvas.style.width = `${w}px`;
  canvas.style.height = `${h}px`;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  return dpr;
}

/**
 * The canvas' 2D context, cleared, scaled to draw in CSS pixels, with a rounded backdrop of
 * `fill` (a colour, or a function of the context that makes a gradient). Null without a context.
 */
export function beginFrame(canvas, dpr, w, h, fill) {
  const ctx = canvas.getContext("2d");
  if (!ctx) return null;
  ctx.setTransform(dpr || 1, 0, 0, dpr || 1, 0, 0);
  ctx.clearRect(0, 0, w, h);
  ctx.fillStyle = typeof fill === "function" ? fill(ctx) : fill;
  ctx.beginPath();
  ctx.roundRect(0, 0, w, h, 10);
  ctx.fill();
  return ctx;
}

/**
 * A board tile: the path `trace()` makes, filled with style.fill, then clipped to it while
 * `pattern()` draws in style.ink (strokes and fills), so a pattern never spills over.
 */
export function paintTile(ctx, trace, style, lineWidth, pattern) {
  ctx.save();
  trace();
  ctx.fillStyle = style.fill;
  ctx.fill();
  ctx.clip();
  ctx.strokeStyle = style.ink;
  ctx.fillStyle = style.ink;
  ctx.lineWidth = lineWidth;
  ctx.lineCap = "round";
  pattern();
  ctx.restore();
}

/** A framed box (side panels drawn on the canvas): rect r = {x, y, w, h}, rounded, filled and stroked. */
export function panelBox(ctx, r, fill, stroke, lineWidth) {
  ctx.fillStyle = fill;
  ctx.strokeStyle = stroke;
  ctx.lineWidth = lineWidth;
  ctx.beginPath();
  ctx.roundRect(r.x, r.y, r.w, r.h, 8);
  ctx.fill();
  ctx.stroke();
}


/** A round token: a shadowed disc with a rim and, optionally, short text (initials, `px` high) on it. */
export function roundToken(ctx, x, y, r, { fill, rim = "#fff", rimWidth = Math.max(1.2, r * 0.16), text = "", px = r * 0.92, shadow = 0.55, blur = 3 }) {
  ctx.save();
  ctx.shadowColor = `rgba(0,0,0,${shadow})`;
  ctx.shadowBlur = blur;
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.shadowBlur = 0;
  ctx.lineWidth = rimWidth;
  ctx.strokeStyle = rim;
  ctx.stroke();
  if (text) {
    ctx.fillStyle = inkOn(fill);
    ctx.font = `800 ${px}px ${FONT}`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(text, x, y + r * 0.05);
  }
  ctx.restore();
}

/** An X of half-size r centred at (x, y), stroked with the current style. */
export function xMark(ctx, x, y, r) {
  ctx.beginPath();
  ctx.moveTo(x - r, y - r);
  ctx.lineTo(x + r, y + r);
  ctx.moveTo(x + r, y - r);
  ctx.lineTo(x - r, y + r);
  ctx.stroke();
}
