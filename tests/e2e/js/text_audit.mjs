// Records every text a canvas draws, with its size and its contrast against what lies under it
// (WCAG ratio of the text's colour, laid over the pixels it covers, against those pixels).
// Browser only: it wraps CanvasRenderingContext2D.prototype.fillText while installed.
import { contrast, over, parseColor } from "../../../frontend/js/games/color.js";

const GRID = [0.15, 0.5, 0.85];

/** The median [r, g, b] of the pixels under the text's box (device pixels through the transform). */
function backdrop(ctx, text, x, y) {
  const m = ctx.measureText(text);
  const left = x - m.actualBoundingBoxLeft;
  const right = x + m.actualBoundingBoxRight;
  const top = y - m.actualBoundingBoxAscent;
  const bottom = y + m.actualBoundingBoxDescent;
  const t = ctx.getTransform();
  const samples = [];
  for (const fx of GRID) {
    for (const fy of GRID) {
      const px = left + (right - left) * fx;
      const py = top + (bottom - top) * fy;
      const dx = Math.round(t.a * px + t.c * py + t.e);
      const dy = Math.round(t.b * px + t.d * py + t.f);
      if (dx < 0 || dy < 0 || dx >= ctx.canvas.width || dy >= ctx.canvas.height) continue;
      const d = ctx.getImageData(dx, dy, 1, 1).data;
      // An untouched (transparent) pixel shows the page behind the canvas.
      samples.push(d[3] === 0 ? [14, 17, 22] : [d[0], d[1], d[2]]);
    }
  }
  if (!samples.length) return null;
  const lum = (c) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  samples.sort((a, b) => lum(a) - lum(b));
  return samples[Math.floor(samples.length / 2)];
}

/** Start recording; returns {texts, stop()}: texts are {text, px, ratio, fg, bg}. */
export function auditTexts() {
  const proto = CanvasRenderingContext2D.prototype;
  const original = proto.fillText;
  const texts = [];
  proto.fillText = function fillText(text, x, y, ...rest) {
    const s = String(text);
    const fg = typeof this.fillStyle === "string" ? parseColor(this.fillStyle) : null;
    const bg = /[\p{L}\p{N}?]/u.test(s) && fg ? backdrop(this, s, x, y) : null;
    if (bg) {
      const px = parseFloat(/(\d+(?:\.\d+)?)px/.exec(this.font)?.[1] || "0");
      const seen = over([fg[0], fg[1], fg[2], fg[3] * this.globalAlpha], bg);
      texts.push({ text: s, px, ratio: contrast(seen, bg), fg: this.fillStyle, bg: `rgb(${bg.join(",")})` });
    }
    return original.call(this, text, x, y, ...rest);
  };
  return { texts, stop: () => (proto.fillText = original) };
}
