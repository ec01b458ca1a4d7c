// Pointy-top axial hex layout, the same conventions as backend/engine/hexgrid.py:
// q grows eastward along a row, r grows southward; a hex of circumradius `size`
// centred at origin + size * (sqrt3*q + sqrt3/2*r, 1.5*r).

export const SQRT3 = Math.sqrt(3);

/** Round fractional axial coordinates to the nearest hex (cube rounding). */
export function hexRound(qf, rf) {
  const sf = -qf - rf;
  let q = Math.round(qf);
  let r = Math.round(rf);
  const s = Math.round(sf);
  const dq = Math.abs(q - qf);
  const dr = Math.abs(r - rf);
  const ds = Math.abs(s - sf);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  // Math.round(-0.4) is -0: normalise so {q:0} === {q:-0} comparisons never surprise.
  return { q: q + 0, r: r + 0 };
}

export class HexLayout {
  constructor(size, originX = 0, originY = 0) {
    this.size = size;
    this.originX = originX;
    this.originY = originY;
  }

  hexToPixel(q, r) {
    return {
      x: this.originX + this.size * (SQRT3 * q + (SQRT3 / 2) * r),
      y: this.originY + this.size * 1.5 * r,
    };
  }

  /** Fractional axial coordinates of a pixel. */
  pixelToFractional(x, y) {
    const px = (x - this.originX) / this.size;
    const py = (y - this.originY) / this.size;
    return { q: (SQRT3 / 3) * px - py / 3, r: (2 / 3) * py };
  }

  pixelToHex(x, y) {
    const f = this.pixelToFractional(x, y);
    return hexRound(f.q, f.r);
  }

  /** The six corners of a hex, clockwise from the top (pointy-top). */
  corners(q, r, inset = 0) {
    const c = this.hexToPixel(q, r);
    const radius = this.size - inset;
    const out = [];
    for (let i = 0; i < 6; i += 1) {
      const angle = (Math.PI / 180) * (60 * i - 90);
      out.push({ x: c.x + radius * Math.cos(angle), y: c.y + radius * Math.sin(angle) });
    }
    return out;
  }

  /** Hex width, flat side to flat side. */
  get width() {
    return SQRT3 * this.size;
  }
}

/** "odd-r" offset <-> axial, as in hexgrid.py (odd rows shifted half a hex right). */
export function axialToOffset(q, r) {
  return { col: q + (r - (r & 1)) / 2, row: r };
}

export function offsetToAxial(col, row) {
  return { q: col - (row - (row & 1)) / 2, r: row };
}

/** The bounding box of hexes of size 1 centred on their axial positions, or null for none. */
export function hexBounds(cells) {
  const unit = new HexLayout(1, 0, 0);
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const cell of cells) {
    const c = unit.hexToPixel(cell.q, cell.r);
    minX = Math.min(minX, c.x - SQRT3 / 2);
    maxX = Math.max(maxX, c.x + SQRT3 / 2);
    minY = Math.min(minY, c.y - 1);
    maxY = Math.max(maxY, c.y + 1);
  }
  return Number.isFinite(minX) ? { minX, minY, maxX, maxY } : null;
}

/** A layout whose hexes (`cells`, a list of {q, r}) fit a width × height box with a margin, centred. */
export function fitLayout(cells, width, height, margin = 8) {
  const b = hexBounds(cells);
  if (!b) return new HexLayout(20, width / 2, height / 2);
  const size = Math.max(
    4,
    Math.min((width - 2 * margin) / (b.maxX - b.minX), (height - 2 * margin) / (b.maxY - b.minY)),
  );
  const usedW = (b.maxX - b.minX) * size;
  const usedH = (b.maxY - b.minY) * size;
  const originX = (width - usedW) / 2 - b.minX * size;
  const originY = (height - usedH) / 2 - b.minY * size;
  return new HexLayout(size, originX, originY);
}
