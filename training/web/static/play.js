// smuggle serve: one seat of a table (/play/TABLE/SEAT#token=T), or an all-bot table (/watch/TABLE).
// The seat's token comes from the link's fragment (never sent to the server in the URL) and is
// kept in this browser, so a closed tab or a reload resumes the seat.
"use strict";

const parts = location.pathname.split("/").filter(Boolean);
const WATCH = parts[0] === "watch";
const TABLE = parts[1];
const SEAT = WATCH ? null : Number.parseInt(parts[2], 10);
const KEY = `smuggle:${TABLE}:${SEAT}`;
const state = { view: null, revision: -1, token: null, busy: false, sideFor: null, clockSkew: 0, declare: null, timer: null };

function readToken() {
  const match = location.hash.match(/token=([A-Za-z0-9_-]+)/);
  if (match) {
    localStorage.setItem(`${KEY}:token`, match[1]);
    return match[1];
  }
  return localStorage.getItem(`${KEY}:token`);
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message || "";
  box.classList.toggle("hidden", !message);
}

function seatHeaders() { return { "X-Seat-Token": state.token || "" }; }
function seatPath(what) { return `/api/tables/${TABLE}/seats/${SEAT}/${what}`; }

async function fetchView(wait) {
  const after = wait ? `?after=${state.revision}&wait=${wait}` : "";
  if (WATCH) return api(`/api/tables/${TABLE}/watch${after}`);
  return api(seatPath("view") + after, { headers: seatHeaders() });
}

async function join(name) {
  const result = await api(seatPath("join"), { method: "POST", headers: seatHeaders(), body: { name } });
  localStorage.setItem(`${KEY}:name`, result.name);
  localStorage.setItem("smuggle:name", result.name);
  document.getElementById("join").classList.add("hidden");
  return result;
}

async function act(action) {
  if (state.busy) return;
  state.busy = true;
  document.querySelectorAll("#decision button").forEach((b) => { b.disabled = true; });
  try {
    const view = await api(seatPath("act"), { method: "POST", headers: seatHeaders(), body: { action, revision: state.revision } });
    showError("");
    render(view);
  } catch (error) {
    showError(`Not played: ${error.message}`);
    render(await fetchView(0), true);
  } finally {
    state.busy = false;
  }
}

// ----- decisions ----------------------------------------------------------------------------------
function actionButton(action, cls) {
  return el("button", { class: cls || "", "data-action": action.id, onclick: () => act(action.id) }, action.text);
}

function timerLine(view) {
  const line = el("div", { class: "timer", id: "timer" });
  const tick = () => {
    const seconds = Math.max(0, Math.round(Date.now() / 1000 - state.clockSkew - view.asked_at));
    line.textContent = `Asked ${seconds} s ago. The game waits for your answer.`;
  };
  tick();
  clearInterval(state.timer);
  state.timer = setInterval(tick, 1000);
  return line;
}

function declareForm(decision) {
  const counts = decision.items.map(() => 0);
  const byKey = new Map(decision.options.map((o) => [o.counts.join(","), o.id]));
  const go = el("button", { class: "primary", id: "declare-go" });
  const numbers = [];
  const update = () => {
    const id = byKey.get(counts.join(","));
    const names = decision.items.map((item, i) => (counts[i] ? `${item.name}${counts[i] > 1 ? " x" + counts[i] : ""}` : null)).filter(Boolean);
    go.textContent = `Declare ${names.join(", ") || "nothing"}`;
    go.disabled = id === undefined;
    go.onclick = () => act(id);
    go.setAttribute("data-action", id === undefined ? "" : id);
    numbers.forEach((n, i) => { n.textContent = counts[i]; });
  };
  const counters = decision.items.map((item, i) => {
    const n = el("span", { class: "n", text: "0" });
    numbers.push(n);
    const total = () => counts.reduce((a, b) => a + b, 0);
    return el("span", { class: "counter", "data-item": item.name },
      el("span", { text: item.name }), el("span", { class: "muted", text: `duty £${item.duty}` }),
      el("button", { class: "plus", onclick: () => { if (total() < decision.max) { counts[i] += 1; update(); } } }, "+"), n,
      el("button", { class: "minus", onclick: () => { if (counts[i] > 0) { counts[i] -= 1; update(); } } }, "−"));
  });
  update();
  return el("div", {},
    el("div", { class: "question", text: `Declare your hand: up to ${decision.max} goods (truthfully or not)` }),
    el("div", {}, counters),
    el("div", { class: "buttons" }, go,
      decision.bag !== null ? actionButton({ id: decision.bag, text: "Claim the Diplomatic Bag" }) : null));
}

function bidForm(decision) {
  const amounts = decision.bids.map((b) => b.amount);
  const input = el("input", { type: "number", id: "bid", min: Math.min(...amounts), max: Math.max(...amounts), step: decision.step, value: Math.min(...amounts) });
  const go = el("button", { class: "primary", id: "bid-go" }, "Place sealed bid");
  go.onclick = () => {
    const bid = decision.bids.find((b) => b.amount === Number(input.value));
    if (!bid) { showError(`A bid must be one of ${amounts.join(", ")}.`); return; }
    act(bid.id);
  };
  const others = decision.actions.filter((a) => !decision.bids.some((b) => b.id === a.id));
  return el("div", {},
    el("div", { class: "question", text: "Your sealed bid (credits); nobody sees it until all have bid" }),
    el("div", { class: "buttons" }, input, go, others.map((a) => actionButton(a))));
}

function yesNoForm(decision) {
  const text = (id) => decision.actions.find((a) => a.id === id).text;
  return el("div", {},
    el("div", { class: "question", text: decision.question }),
    el("div", { class: "buttons" },
      actionButton({ id: decision.yes, text: `Yes (${text(decision.yes)})` }, "yes primary"),
      actionButton({ id: decision.no, text: `No (${text(decision.no)})` }, "no")));
}

function choiceForm(decision) {
  const list = el("div", { class: "buttons" });
  const draw = (words) => list.replaceChildren(...decision.actions
    .filter((a) => words.every((w) => a.text.toLowerCase().includes(w))).map((a) => actionButton(a)));
  draw([]);
  const many = decision.actions.length > 24;
  const filter = many ? el("input", { type: "search", id: "filter", placeholder: `filter ${decision.actions.length} actions` }) : null;
  if (filter) filter.addEventListener("input", () => draw(filter.value.toLowerCase().split(/\s+/).filter(Boolean)));
  return el("div", {}, el("div", { class: "question", text: "Your move" }), filter, list);
}

function drawDecision(view) {
  const decision = view.decision;
  if (!decision) {
    if (view.status !== "playing" || view.table_status !== "playing") return null;
    const mover = view.players[view.to_move];
    clearInterval(state.timer);
    return el("div", { class: "decision waiting", id: "decision" }, `Waiting for P${mover.seat} ${mover.label}…`);
  }
  const form = decision.kind === "declare" ? declareForm(decision)
    : decision.kind === "bid" ? bidForm(decision)
      : decision.kind === "yesno" ? yesNoForm(decision) : choiceForm(decision);
  return el("div", { class: "decision", id: "decision", "data-kind": decision.kind },
    el("div", { class: "mine-banner", text: "Your turn" }), form, timerLine(view));
}

// ----- the page -------------------------------------------------------------------------------------
function render(view, force) {
  if (!force && state.view && view.revision === state.revision) return; // a long poll that timed out
  state.view = view;
  state.revision = view.revision;
  state.clockSkew = Date.now() / 1000 - view.server_time;
  document.body.dataset.revision = view.revision; // what the page shows (tests wait on it)
  const labels = view.players.map((p) => p.label);
  document.title = `${GAME_NAMES[view.env_id]}: ${WATCH ? "watching" : `seat ${SEAT}`}`;
  document.getElementById("title").textContent = `${GAME_NAMES[view.env_id] || view.env_id} · table ${view.table_id}`;
  document.getElementById("who").textContent = WATCH ? "watching: every card shown" : `you are P${SEAT} ${labels[SEAT]}`;
  const status = view.table_status === "playing" ? `decision ${view.version + 1}` : view.note || view.table_status;
  document.getElementById("status").textContent = status;
  const result = resultLine(view);
  const ended = view.table_status === "ended" ? el("p", { class: "error", text: `This table has ended: ${view.note}` }) : null;
  const replay = view.game_id ? el("p", {}, el("a", { href: `/replay/${view.game_id}`, id: "replay-link" }, "Open the replay (every card shown)")) : null;
  document.getElementById("table").replaceChildren(...[
    el("div", { class: "felt" }, drawPlayers(view, SEAT), drawZones(view.zones), drawDecision(view),
      result ? el("p", { id: "result", class: "mine-banner", text: result }) : null, ended),
    replay,
    el("h2", { text: "What happened" }), drawLog(view.log, labels),
    el("details", { open: true }, el("summary", { text: "The table, as the game describes it" }), el("pre", { id: "table-text", text: view.table_text }))].filter(Boolean));
  if (state.sideFor !== view.env_id) {
    state.sideFor = view.env_id;
    drawRules(document.getElementById("side"), view.env_id).catch((e) => showError(e.message));
  }
}

async function poll() {
  for (;;) {
    try {
      render(await fetchView(20));
      if (state.view.table_status !== "playing" && !WATCH) {
        // nothing more will change; one slow poll in case the page is left open
        await new Promise((r) => setTimeout(r, 5000));
      }
    } catch (error) {
      if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
        showError(error.message);
        return;
      }
      await new Promise((r) => setTimeout(r, 2000)); // the server restarting: try again
    }
  }
}

async function start() {
  if (!WATCH) {
    state.token = readToken();
    if (!state.token) { showError("This page needs the seat's link (it ends with #token=...)."); return; }
  }
  let view;
  try {
    view = await fetchView(0);
  } catch (error) {
    showError(error.message);
    return;
  }
  if (!WATCH) {
    const stored = localStorage.getItem(`${KEY}:name`);
    const mine = view.players[SEAT];
    if (mine.joined || stored) {
      await join(mine.joined ? mine.label : stored); // a reconnect: resume the seat
    } else {
      const box = document.getElementById("join");
      box.classList.remove("hidden");
      document.getElementById("name").value = localStorage.getItem("smuggle:name") || "";
      await new Promise((resolve) => {
        document.getElementById("join-form").addEventListener("submit", async (event) => {
          event.preventDefault();
          try {
            await join(document.getElementById("name").value);
            resolve();
          } catch (error) { showError(error.message); }
        });
      });
    }
    view = await fetchView(0);
  }
  render(view, true);
  poll();
}

start();
