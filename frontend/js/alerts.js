// Telling a player it is their turn: the screen reader's live region (always), and when the tab
// is in the background a flashing title, plus, once the player turned "Alerts" on, a short
// sound and a browser notification if the browser allows them. Nothing here leaves the page:
// the sound is synthesised, the notification is the browser's own.
import { h } from "./ui.js";

const ALERTS_KEY = "dragontable.alerts";
const FLASH_MS = 1000;

/** A polite live region: what is said there is read out without moving the reader's focus. */
export class Announcer {
  constructor() {
    this.el = document.getElementById("announcer") || document.body.appendChild(h("div#announcer.sr-only", { role: "status", "aria-live": "polite", "aria-atomic": "true" }));
    this.last = "";
  }

  say(text) {
    if (!text || text === this.last) return;
    this.last = text;
    // A new text node each time, so screen readers notice even a repeated sentence.
    this.el.textContent = "";
    setTimeout(() => (this.el.textContent = text), 30); // (a timer, not a frame: frames stop in a background tab)
  }
}

export class TurnAlerts {
  constructor() {
    this.baseTitle = document.title;
    this.flashing = null;
    this.audio = null;
    this.enabled = localStorage.getItem(ALERTS_KEY) === "on";
    const stop = () => !document.hidden && this.stopFlash();
    document.addEventListener("visibilitychange", stop);
    window.addEventListener("focus", stop);
  }

  /** The top bar's switch. Turning it on is a click: the moment a browser lets a page ask for notifications and sound. */
  button() {
    const b = h("button#alerts-toggle.ghost.small", { type: "button", "aria-pressed": String(this.enabled), title: "A sound and a notification when it is your turn while this tab is in the background" });
    const label = () => {
      b.textContent = this.enabled ? "Alerts on" : "Alerts off";
      b.setAttribute("aria-pressed", String(this.enabled));
    };
    b.addEventListener("click", async () => {
      this.enabled = !this.enabled;
      localStorage.setItem(ALERTS_KEY, this.enabled ? "on" : "off");
      label();
      if (this.enabled) {
        this.unlockSound();
        if ("Notification" in window && Notification.permission === "default") {
          try {
            await Notification.requestPermission();
          } catch {
            // an old browser without the promise form: no notifications, the title still flashes
          }
        }
      }
    });
    label();
    return b;
  }

  get background() {
    return document.hidden || !document.hasFocus();
  }

  /** It just became this player's turn (`what` says whose and what). */
  yourTurn(what) {
    if (!this.background) return;
    this.flash();
    if (!this.enabled) return;
    this.beep();
    this.notify(what);
  }

  flash() {
    this.stopFlash();
    let on = false;
    const alert = `● Your turn — ${this.baseTitle}`;
    document.title = alert;
    this.flashing = setInterval(() => {
      on = !on;
      document.title = on ? this.baseTitle : alert;
    }, FLASH_MS);
  }

  stopFlash() {
    if (!this.flashing) return;
    clearInterval(this.flashing);
    this.flashing = null;
    document.title = this.baseTitle;
  }

  unlockSound() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      if (!this.audio) this.audio = new Ctx();
      if (this.audio.state === "suspended") this.audio.resume().catch(() => {});
    } catch {
      this.audio = null; // no audio device: no sound, the title and the notification remain
    }
  }

  /** Two short rising tones. */
  beep() {
    this.unlockSound();
    const ctx = this.audio;
    if (!ctx) return;
    const now = ctx.currentTime;
    [660, 880].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.18 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.18 + 0.16);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + i * 0.18);
      osc.stop(now + i * 0.18 + 0.17);
    });
  }

  notify(what) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    try {
      const n = new Notification(`Your turn — ${this.baseTitle}`, { body: what, tag: "dragontable-turn" });
      n.onclick = () => {
        window.focus();
        n.close();
      };
    } catch {
      // some browsers only notify from a service worker: the flashing title remains
    }
  }
}
