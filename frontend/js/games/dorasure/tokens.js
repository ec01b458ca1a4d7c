// Dorasure's hero tokens, drawn over the map from the view: each hero's colour and initials,
// a ring for the hero on turn, grey under a cross for the dead; tokens spread when heroes share
// a space.
import { roundToken, xMark } from "../canvas.js";
import { hslHex } from "../color.js";
import { heroesOf, heroPos } from "./layout.js";

const HERO_COLORS = {
  ninja: "#2b2d42",
  gladiator: "#c0392b",
  samurai: "#8e44ad",
  hunter: "#27ae60",
  werewolf: "#7f5539",
  shaman: "#16a085",
  minstrel: "#e67e22",
  magician: "#2980b9",
  prince: "#d4ac0d",
  paladin: "#ecf0f1",
  vampire: "#641e16",
  grand_master: "#34495e",
};

const DEAD_FILL = "#5b5f66";

export function heroColor(id, index) {
  return HERO_COLORS[id] || hslHex((index * 67) % 360, 0.55, 0.45);
}

/** The colour of a hero's token (a hero without its own colour takes one by its turn order). */
export function heroTokenColor(view, heroId) {
  const heroes = heroesOf(view || {});
  const hero = heroes.find((x) => x.id === heroId);
  return heroColor(heroId, hero ? hero.index : 0);
}

/** Every hero's token where the board puts it (scene: see DorasureRenderer.scene). */
export function drawHeroes(ctx, { board, layout, view, names }) {
  const positions = board.tokenPositions(layout, view);
  const heroes = heroesOf(view);
  const size = layout.size;
  const current = view.current || view.turn?.hero || null;
  for (const hero of heroes) {
    const p = positions.get(hero.id);
    if (!p) continue;
    const sharing = heroes.filter((o) => heroPos(o) === heroPos(hero)).length;
    const radius = size * (sharing > 1 ? 0.27 : 0.36);
    // A dead hero is a grey token under a red cross, never ringed as the hero on turn.
    const color = hero.dead ? DEAD_FILL : heroColor(hero.id, hero.index);
    ctx.save();
    if (hero.id === current && !hero.dead) {
      ctx.beginPath();
      ctx.arc(p.x, p.y, radius + size * 0.1, 0, 2 * Math.PI);
      ctx.fillStyle = "rgba(255, 230, 90, 0.9)";
      ctx.fill();
    }
    roundToken(ctx, p.x, p.y, radius, { fill: color, rimWidth: Math.max(1.5, size * 0.06), text: names.heroName(hero.id).slice(0, 2), shadow: 0.5 });
    if (hero.dead) {
      ctx.strokeStyle = "#ff5a4a";
      ctx.lineWidth = Math.max(2.5, size * 0.1);
      xMark(ctx, p.x, p.y, radius * 1.05);
    }
    ctx.restore();
  }
}
