// Short sounds for the moments a child waits for: a right claim and a win. Tones are made with
// the Web Audio API (no sound files to fetch). Each device remembers its choice; a player's page
// starts with sound on, a teacher's watching page with it off (a projector should not beep at the
// class unless the teacher wants it).
const STORAGE_PREFIX = "play-sound:";

const TUNES = {
  right: [[660, 0.09], [880, 0.14]],
  win: [[523, 0.12], [659, 0.12], [784, 0.12], [1047, 0.3]],
};

export class Sounds {
  constructor({ role, defaultOn }) {
    this.key = STORAGE_PREFIX + role;
    this.on = readChoice(this.key, defaultOn);
    this.played = []; // what was played, for tests and the curious
    this.audio = null;
  }

  toggle() {
    this.on = !this.on;
    try {
      localStorage.setItem(this.key, this.on ? "on" : "off");
    } catch {
      // A private window may refuse storage: the choice holds for this page.
    }
    return this.on;
  }

  play(name) {
    if (!this.on || !TUNES[name]) return;
    this.played.push(name);
    const AudioContext = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!AudioContext) return;
    try {
      this.audio = this.audio || new AudioContext();
      let start = this.audio.currentTime + 0.02;
      for (const [frequency, seconds] of TUNES[name]) {
        const oscillator = this.audio.createOscillator();
        const gain = this.audio.createGain();
        oscillator.type = "triangle";
        oscillator.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + seconds);
        oscillator.connect(gain).connect(this.audio.destination);
        oscillator.start(start);
        oscillator.stop(start + seconds + 0.02);
        start += seconds;
      }
    } catch (error) {
      console.warn("no sound", error);
    }
  }
}

function readChoice(key, defaultOn) {
  try {
    const stored = localStorage.getItem(key);
    return stored === null ? defaultOn : stored === "on";
  } catch {
    return defaultOn;
  }
}
