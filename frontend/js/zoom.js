// Zooming the board on a small screen: pinch with two fingers, drag with one, or the + / −
// buttons. The zoom is real, not a CSS scale: the board's stage grows and the renderer redraws
// the canvas at the new size (ui.availableBoardHeight reads the zoom), so cells stay sharp and
// clicks keep meaning the cell under the finger. The board's box keeps its height, so the
// action bar under it does not move.

export const MIN_ZOOM = 1;
export const MAX_ZOOM = 4;
const STEP = 1.5;
const DRAG_SLOP = 6; // CSS px a finger may wander and still tap
const CLICK_AFTER_MS = 400; // a click this soon after a drag or a pinch belongs to the gesture

const clamp = (z) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z));

export class BoardZoom {
  /**
   * @param {HTMLElement} wrap the board's box (it scrolls when zoomed)
   * @param {HTMLElement} stage the canvas' parent, as wide as the zoom says
   * @param {() => void} redraw refit the renderer now
   */
  constructor(wrap, stage, redraw) {
    this.wrap = wrap;
    this.stage = stage;
    this.redraw = redraw;
    this.zoom = 1;
    this.pointers = new Map(); // pointerId -> {x, y}
    this.pinch = null; // {d0, z0, mx, my}
    this.drag = null; // {x, y, left, top, moved}
    this.gestureEnded = -Infinity;
    this.wrap.dataset.zoom = "1";
    stage.addEventListener("pointerdown", (e) => this.down(e));
    stage.addEventListener("pointermove", (e) => this.move(e));
    for (const type of ["pointerup", "pointercancel"]) stage.addEventListener(type, (e) => this.up(e));
    // A drag or a pinch is not a click on the cell where it ended.
    stage.addEventListener(
      "click",
      (e) => {
        if (performance.now() - this.gestureEnded > CLICK_AFTER_MS) return;
        this.gestureEnded = -Infinity;
        e.stopPropagation();
        e.preventDefault();
      },
      true,
    );
    this.applyTouchAction();
  }

  /** At zoom 1 a vertical drag scrolls the page; zoomed in, every finger on the board is ours. */
  applyTouchAction() {
    this.stage.style.touchAction = this.zoom > 1 ? "none" : "pan-y";
  }

  /** Zoom to `z`, keeping the board point under (clientX, clientY) where it is (the box's centre by default). */
  set(z, clientX = null, clientY = null) {
    const next = clamp(z);
    if (Math.abs(next - this.zoom) < 0.01) return;
    const box = this.wrap.getBoundingClientRect();
    const fx = (clientX ?? box.left + box.width / 2) - box.left;
    const fy = (clientY ?? box.top + box.height / 2) - box.top;
    const px = (this.wrap.scrollLeft + fx) / this.zoom; // the board point under the focus, at zoom 1
    const py = (this.wrap.scrollTop + fy) / this.zoom;
    if (this.zoom === 1) this.baseHeight = this.wrap.offsetHeight; // the box keeps this height while zoomed
    this.zoom = next;
    this.wrap.dataset.zoom = String(next);
    this.wrap.classList.toggle("zoomed", next > 1);
    this.wrap.style.height = next > 1 ? `${this.baseHeight}px` : "";
    this.stage.style.width = next > 1 ? `${next * 100}%` : "";
    this.applyTouchAction();
    this.redraw();
    this.wrap.scrollLeft = px * next - fx;
    this.wrap.scrollTop = py * next - fy;
    this.wrap.dispatchEvent(new CustomEvent("zoom", { detail: { zoom: next } }));
  }

  zoomIn() {
    this.set(this.zoom * STEP);
  }

  zoomOut() {
    this.set(this.zoom / STEP);
  }

  reset() {
    this.set(1);
  }

  down(e) {
    if (e.pointerType === "mouse") return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      this.pinch = { d0: Math.hypot(a.x - b.x, a.y - b.y) || 1, z0: this.zoom, mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
      this.drag = null;
    } else if (this.pointers.size === 1 && this.zoom > 1) {
      this.drag = { x: e.clientX, y: e.clientY, left: this.wrap.scrollLeft, top: this.wrap.scrollTop, moved: false };
    }
  }

  move(e) {
    if (!this.pointers.has(e.pointerId)) return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (this.pinch && this.pointers.size >= 2) {
      const [a, b] = [...this.pointers.values()];
      const scale = Math.hypot(a.x - b.x, a.y - b.y) / this.pinch.d0;
      // Until the fingers lift, a CSS scale previews the zoom; the board is redrawn once, at the end.
      const origin = this.stageOrigin(this.pinch.mx, this.pinch.my);
      this.stage.style.transformOrigin = `${origin.x}px ${origin.y}px`;
      this.stage.style.transform = `scale(${clamp(this.pinch.z0 * scale) / this.zoom})`;
      this.pinch.scale = scale;
      e.preventDefault();
    } else if (this.drag) {
      const dx = e.clientX - this.drag.x;
      const dy = e.clientY - this.drag.y;
      if (Math.hypot(dx, dy) > DRAG_SLOP) this.drag.moved = true;
      if (this.drag.moved) {
        this.wrap.scrollLeft = this.drag.left - dx;
        this.wrap.scrollTop = this.drag.top - dy;
        e.preventDefault();
      }
    }
  }

  up(e) {
    if (!this.pointers.has(e.pointerId)) return;
    this.pointers.delete(e.pointerId);
    if (this.pinch) {
      const { z0, scale = 1, mx, my } = this.pinch;
      this.pinch = null;
      this.stage.style.transform = "";
      this.gestureEnded = performance.now();
      this.set(z0 * scale, mx, my);
      return;
    }
    if (this.drag) {
      if (this.drag.moved) this.gestureEnded = performance.now();
      this.drag = null;
    }
  }

  /** A client point in the stage's own (unscaled) coordinates. */
  stageOrigin(clientX, clientY) {
    const box = this.stage.getBoundingClientRect();
    return { x: clientX - box.left, y: clientY - box.top };
  }
}
