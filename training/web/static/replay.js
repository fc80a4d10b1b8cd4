// smuggle serve: the replay viewer (/replay/GAME). Step forward and back through a stored game,
// as any seat saw it or in full (every card, each declaration marked true or false, each search
// caught or not). People are named as people and bots as at the table (seatWho in common.js).
"use strict";

const GAME = Number.parseInt(location.pathname.split("/").filter(Boolean)[1], 10);
const rv = { step: null, steps: 0, viewer: new URLSearchParams(location.search).get("view") || "full", timer: null, env: null, loading: 0 };

function viewerOptions(view) {
  const select = document.getElementById("viewer");
  if (select.options.length) return;
  select.append(el("option", { value: "full", text: "full (every card)" }));
  view.players.forEach((p) => {
    const who = playerWho(p);
    select.append(el("option", { value: p.seat, text: `P${p.seat} ${who.label} (${kindWord(who.kind)})` }));
  });
  select.value = rv.viewer;
}

// The full view titles each seat's cards with its stored label ("P3 rule#4: hand"): retitled as
// the seat is named everywhere else ("P3 rule: hand").
function zonesAsNamed(view) {
  const renames = view.players.map((p) => [`P${p.seat} ${p.label}: `, `P${p.seat} ${playerWho(p).label}: `]).filter(([a, b]) => a !== b);
  return view.zones.map((zone) => {
    const rename = renames.find(([stored]) => zone.title.startsWith(stored));
    return rename ? { ...zone, title: rename[1] + zone.title.slice(rename[0].length) } : zone;
  });
}

async function load(step) {
  const query = new URLSearchParams({ view: rv.viewer });
  if (step !== null && step !== undefined) query.set("step", step);
  const ticket = ++rv.loading; // only the latest request is drawn (fast stepping)
  let view;
  try {
    view = await api(`/api/games/${GAME}?${query}`);
  } catch (error) {
    showError(error.message);
    return;
  }
  if (ticket !== rv.loading) return;
  showError("");
  rv.step = view.step;
  rv.steps = view.steps;
  const labels = labelsOf(view);
  const slider = document.getElementById("slider");
  slider.max = view.steps;
  slider.value = view.step;
  document.getElementById("step").textContent = `step ${view.step} of ${view.steps}`;
  GAME_NAMES[view.env_id] = view.game_name;
  document.getElementById("title").textContent = `${GAME_NAMES[view.env_id] || view.env_id} · stored game ${GAME}`;
  document.getElementById("status").textContent = rv.viewer === "full" ? "full view" : `as P${rv.viewer} ${labels[rv.viewer]} saw it`;
  viewerOptions(view);
  const result = resultLine(view);
  fill(document.getElementById("table"),
    el("div", { class: "felt" }, drawPlayers(view, rv.viewer === "full" ? null : Number(rv.viewer)), scoreNote(view),
      result && view.step === view.steps ? el("p", { class: "banner", id: "result", text: result }) : null,
      drawLatest(view), drawZones(zonesAsNamed(view)), drawRecent(view)),
    el("h2", { text: "What happened" }), drawLog(view),
    el("details", { open: true }, el("summary", { text: "The table, as the game describes it" }), el("pre", { id: "table-text", text: view.table_text })));
  document.body.dataset.step = view.step;
  if (rv.env !== view.env_id) {
    rv.env = view.env_id;
    drawRules(document.getElementById("side"), view.env_id).catch((e) => showError(e.message));
  }
}

function go(step) { load(Math.max(0, Math.min(rv.steps, step))); }

function stopPlaying() {
  clearInterval(rv.timer);
  rv.timer = null;
  document.getElementById("play").textContent = "play";
}

document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("back").addEventListener("click", () => go(rv.step - 1));
document.getElementById("forward").addEventListener("click", () => go(rv.step + 1));
document.getElementById("last").addEventListener("click", () => go(rv.steps));
document.getElementById("slider").addEventListener("input", (event) => go(Number(event.target.value)));
document.getElementById("viewer").addEventListener("change", (event) => { rv.viewer = event.target.value; load(rv.step); });
document.getElementById("play").addEventListener("click", (event) => {
  if (rv.timer) { stopPlaying(); return; }
  event.target.textContent = "pause";
  rv.timer = setInterval(() => { if (rv.step >= rv.steps) stopPlaying(); else go(rv.step + 1); }, 700);
});
document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
  if (event.key === "ArrowRight") go(rv.step + 1);
  if (event.key === "ArrowLeft") go(rv.step - 1);
});

load(new URLSearchParams(location.search).get("step") ?? 0);
