// smuggle serve: the replay viewer (/replay/GAME). Step forward and back through a stored game,
// as any seat saw it or in full (every card, each declaration marked true or false, each search
// caught or not).
"use strict";

const GAME = Number.parseInt(location.pathname.split("/").filter(Boolean)[1], 10);
const rv = { step: null, steps: 0, viewer: new URLSearchParams(location.search).get("view") || "full", timer: null, env: null };

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message || "";
  box.classList.toggle("hidden", !message);
}

async function load(step) {
  const query = new URLSearchParams({ view: rv.viewer });
  if (step !== null && step !== undefined) query.set("step", step);
  let view;
  try {
    view = await api(`/api/games/${GAME}?${query}`);
  } catch (error) {
    showError(error.message);
    return;
  }
  showError("");
  rv.step = view.step;
  rv.steps = view.steps;
  const labels = view.players.map((p) => p.label);
  const slider = document.getElementById("slider");
  slider.max = view.steps;
  slider.value = view.step;
  document.getElementById("step").textContent = `step ${view.step} of ${view.steps}`;
  document.getElementById("title").textContent = `${GAME_NAMES[view.env_id] || view.env_id} · stored game ${GAME}`;
  document.getElementById("status").textContent = rv.viewer === "full" ? "full view" : `as P${rv.viewer} ${labels[rv.viewer]} saw it`;
  const select = document.getElementById("viewer");
  if (!select.options.length) {
    select.append(el("option", { value: "full", text: "full (every card)" }));
    labels.forEach((label, p) => select.append(el("option", { value: p, text: `P${p} ${label}` })));
    select.value = rv.viewer;
  }
  const last = view.log.length ? view.log[view.log.length - 1] : null;
  const result = resultLine(view);
  document.getElementById("table").replaceChildren(
    el("div", { class: "felt" }, drawPlayers(view, rv.viewer === "full" ? null : Number(rv.viewer)), drawZones(view.zones),
      last ? el("p", { id: "last-action" }, `Last: P${last.seat} ${labels[last.seat]}: ${last.text}`, markBadge(last.mark)) : null,
      result && view.step === view.steps ? el("p", { class: "mine-banner", text: result }) : null),
    el("h2", { text: "What happened" }), drawLog(view.log, labels),
    el("details", { open: true }, el("summary", { text: "The table, as the game describes it" }), el("pre", { id: "table-text", text: view.table_text })));
  if (rv.env !== view.env_id) {
    rv.env = view.env_id;
    drawRules(document.getElementById("side"), view.env_id).catch((e) => showError(e.message));
  }
}

function go(step) { load(Math.max(0, Math.min(rv.steps, step))); }

document.getElementById("first").onclick = () => go(0);
document.getElementById("back").onclick = () => go(rv.step - 1);
document.getElementById("forward").onclick = () => go(rv.step + 1);
document.getElementById("last").onclick = () => go(rv.steps);
document.getElementById("slider").oninput = (event) => go(Number(event.target.value));
document.getElementById("viewer").onchange = (event) => { rv.viewer = event.target.value; load(rv.step); };
document.getElementById("play").onclick = (event) => {
  if (rv.timer) { clearInterval(rv.timer); rv.timer = null; event.target.textContent = "play"; return; }
  event.target.textContent = "pause";
  rv.timer = setInterval(() => { if (rv.step >= rv.steps) { clearInterval(rv.timer); rv.timer = null; event.target.textContent = "play"; } else go(rv.step + 1); }, 700);
};
document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
  if (event.key === "ArrowRight") go(rv.step + 1);
  if (event.key === "ArrowLeft") go(rv.step - 1);
});

load(new URLSearchParams(location.search).get("step") ?? 0);
