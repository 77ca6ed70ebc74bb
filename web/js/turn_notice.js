// The seat's turn, noticed away from the table: the tab's title, a short sound (off unless the player turns
// it on, remembered on this browser), a system notification while the tab is hidden (once the player has
// allowed it, from a button), and a vibration on a phone.
import { h } from "./dom.js";

/** localStorage key: "on" when the player wants a sound at their turn (off by default). */
const SOUND = "barbu.turn-sound";
/** The tab's title while it is the player's turn. */
export const TURN_TITLE = "● Your turn — Barbu";

let audio = null; // one AudioContext, made on the player's gesture (a browser starts none without one)

/** Whether the player turned the turn sound on (this browser). */
export function soundOn() {
  return localStorage.getItem(SOUND) === "on";
}

function ensureAudio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!audio) audio = new Context();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

// A browser lets sound start only after a gesture on the page: the first key or press after a reload
// wakes the context up (made then if the setting is on).
for (const kind of ["pointerdown", "keydown"]) {
  addEventListener(kind, () => { if (soundOn()) ensureAudio(); }, { capture: true, passive: true });
}

/** Two short rising tones (about 0.3 s), made by the Web Audio API: no sound file is fetched. */
export function playTurnSound() {
  const context = ensureAudio();
  if (!context) return;
  const start = context.currentTime + 0.01;
  [660, 880].forEach((pitch, i) => {
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.type = "sine";
    tone.frequency.value = pitch;
    const at = start + i * 0.16;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.14);
    tone.connect(gain).connect(context.destination);
    tone.start(at);
    tone.stop(at + 0.15);
  });
}

/**
 * It has just become the player's turn at table `tableName`, `doing` what ("to play"): a sound if they
 * asked for one, a vibration where the device has it, and a system notification while the tab is hidden
 * (permission given); a click on it brings the tab back.
 */
export function noticeTurn(tableName, doing) {
  if (soundOn()) playTurnSound();
  if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
  if (document.visibilityState === "hidden" && "Notification" in window && Notification.permission === "granted") {
    const note = new Notification("Your turn — Barbu", { body: `“${tableName}”: your turn ${doing}.`, tag: "barbu-turn", renotify: true });
    note.addEventListener("click", () => { window.focus(); note.close(); });
  }
}

/**
 * The turn alerts' settings for a seated player (`kept`: the table screen's Kept, so a redraw keeps the
 * box): "Sound at my turn" (remembered here), and while the browser has not been asked yet, a button asking
 * it to allow notifications; once answered, what it answered. `redraw` draws the table again.
 */
export function turnSettings(kept, redraw) {
  const sound = kept.el("turn-sound", "input", { type: "checkbox", "data-focus": "turn-sound", on: { change: (event) => {
    localStorage.setItem(SOUND, event.target.checked ? "on" : "off");
    if (event.target.checked) playTurnSound(); // heard at once: the player knows what it sounds like
  } } });
  sound.checked = soundOn();
  let notify = null;
  if (!("Notification" in window)) notify = h("small", { class: "muted" }, "This browser shows no notifications.");
  else if (Notification.permission === "default") {
    notify = kept.button("turn-notify", "Notify me at my turn when this tab is hidden", async () => {
      await Notification.requestPermission();
      redraw();
    });
  } else {
    notify = h("small", { class: "muted" }, Notification.permission === "granted"
      ? "A notification tells you of your turn while this tab is hidden."
      : "Notifications are blocked for this page in the browser's settings.");
  }
  return kept.el("turn-alerts", "section", { class: "turn-alerts", "aria-label": "turn alerts" },
    h("label", { class: "check" }, sound, "Sound at my turn"), notify);
}
