// smuggle serve: one seat of a table (/play/TABLE/SEAT#token=T), or an all-bot table (/watch/TABLE).
// The seat's token comes from the link's fragment (never sent to the server in the URL) and is
// kept in this browser, so a closed tab or a reload resumes the seat.
//
// A view's `revision` is the game's position (decisions played); its `version` counts every change
// of the table (moves, joins, the end). The page waits on the version (long polling) and answers a
// decision with the revision it was shown at, so a move is made at most once, on the position the
// person saw: a second click, or a click on a button of a view already replaced, does nothing.
"use strict";

const parts = location.pathname.split("/").filter(Boolean);
const WATCH = parts[0] === "watch";
const TABLE = parts[1];
const SEAT = WATCH ? null : Number.parseInt(parts[2], 10);
const KEY = `smuggle:${TABLE}:${SEAT}`;
// A decision drawn within this many ms of the person's last click waits until then before it
// takes clicks: the second click of a double click never answers a question not yet seen.
const CLICK_GUARD_MS = 250;
const state = {
  view: null, version: -1, token: null, acting: false, lastClick: 0, readyAt: 0, sideFor: null, clockSkew: 0, timer: null,
};

function readToken() {
  const match = location.hash.match(/token=([A-Za-z0-9_-]+)/);
  if (match) {
    localStorage.setItem(`${KEY}:token`, match[1]);
    return match[1];
  }
  return localStorage.getItem(`${KEY}:token`);
}

function seatHeaders() { return { "X-Seat-Token": state.token || "" }; }
function seatPath(what) { return `/api/tables/${TABLE}/seats/${SEAT}/${what}`; }

// The log only grows, and its entries never change: the page asks for the entries after those it
// holds (log_from) and keeps the rest, so a long game's answers stay small.
function logFrom() { return state.view ? state.view.log.length : 0; }

function withLog(view) {
  const shown = state.view;
  if (!view.log_from || !shown) return view; // the whole log
  if (view.log_from > shown.log.length) throw new ApiError(0, "the log arrived out of order"); // never: asked for what is held
  view.log = shown.log.slice(0, view.log_from).concat(view.log);
  view.outcomes = shown.outcomes.filter((o) => o.n < view.log_from).concat(view.outcomes);
  view.log_from = 0;
  return view;
}

async function fetchView(wait) {
  const query = `?log_from=${logFrom()}` + (wait ? `&after=${state.version}&wait=${wait}` : "");
  if (WATCH) return withLog(await api(`/api/tables/${TABLE}/watch${query}`));
  return withLog(await api(seatPath("view") + query, { headers: seatHeaders() }));
}

async function join(name) {
  const result = await api(seatPath("join"), { method: "POST", headers: seatHeaders(), body: { name } });
  localStorage.setItem(`${KEY}:name`, result.name);
  localStorage.setItem("smuggle:name", result.name);
  document.getElementById("join").classList.add("hidden");
  return result;
}

// ----- acting -------------------------------------------------------------------------------------
async function act(action, revision) {
  // Only a click on the decision now shown counts, once: while a move is on its way, or once the
  // view has moved on, a click (a double click's second, a stale button) does nothing.
  const shown = state.view;
  if (state.acting || !shown || shown.revision !== revision || !shown.decision || shown.table_status !== "playing") return;
  if (performance.now() < state.readyAt) return; // the double click that asked the last question
  state.acting = true;
  state.lastClick = performance.now();
  document.querySelectorAll("#decision button, #decision input").forEach((b) => { b.disabled = true; });
  try {
    const view = withLog(await api(seatPath("act") + `?log_from=${logFrom()}`, { method: "POST", headers: seatHeaders(), body: { action, revision } }));
    showError(""); // a repeat the server recognised ("repeated") is a success too
    render(view, true);
  } catch (error) {
    const moved = error instanceof ApiError && error.status === 409;
    showError(moved ? `Not played: the game moved on before your answer arrived (${error.message}).` : `Not played: ${error.message}`);
    try { render(await fetchView(0), true); } catch (e) { /* the poll loop will catch up */ }
  } finally {
    state.acting = false;
  }
}

function actionButton(action, revision, cls) {
  return el("button", { type: "button", class: cls || "", "data-action": action.id, onclick: () => act(action.id, revision) }, action.text);
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

// ----- decision forms ------------------------------------------------------------------------------
function declareForm(decision, revision) {
  const counts = decision.items.map(() => 0);
  const byKey = new Map(decision.options.map(([id, counts]) => [counts, id])); // counts: a digit a good
  const go = el("button", { type: "button", class: "primary", id: "declare-go" });
  go.addEventListener("click", () => {
    const id = byKey.get(counts.join(""));
    if (id !== undefined) act(id, revision);
  });
  const numbers = [];
  const update = () => {
    const id = byKey.get(counts.join(""));
    const names = decision.items.map((item, i) => (counts[i] ? `${item.name}${counts[i] > 1 ? " x" + counts[i] : ""}` : null)).filter(Boolean);
    go.textContent = `Declare ${names.join(", ") || "nothing"}`;
    go.dataset.action = id === undefined ? "" : id;
    go.disabled = id === undefined;
    numbers.forEach((n, i) => { n.textContent = counts[i]; });
  };
  const total = () => counts.reduce((a, b) => a + b, 0);
  const counters = decision.items.map((item, i) => {
    const n = el("span", { class: "n", text: "0" });
    numbers.push(n);
    return el("span", { class: "counter", "data-item": item.name },
      el("span", { text: item.name }), el("span", { class: "muted", text: `duty £${item.duty}` }),
      el("button", { type: "button", class: "plus", onclick: () => { if (total() < decision.max) { counts[i] += 1; update(); } } }, "+"), n,
      el("button", { type: "button", class: "minus", onclick: () => { if (counts[i] > 0) { counts[i] -= 1; update(); } } }, "−"));
  });
  update();
  return el("div", {},
    el("div", { class: "question", text: decision.question }),
    el("div", {}, counters),
    el("div", { class: "buttons" }, go,
      decision.bag !== null ? actionButton({ id: decision.bag, text: "Claim the Diplomatic Bag" }, revision) : null));
}

function auctionLine(decision, view) {
  const owner = decision.owner === null ? null : view.players[decision.owner];
  const what = decision.island ? "the supply island" : decision.ship !== null
    ? `ship ${decision.ship} (P${decision.owner} ${owner ? playerWho(owner).label : ""})` : "the chosen ship";
  return el("div", { class: "auction", id: "auction" },
    el("div", {}, el("b", { text: "Up for auction: " }), what, decision.cargo ? `: ${decision.cargo}` : ""));
}

function bidForm(decision, view) {
  const amounts = decision.bids.map((b) => b.amount);
  const low = Math.min(...amounts);
  const high = Math.max(...amounts);
  const input = el("input", { type: "number", id: "bid", min: low, max: high, step: decision.step, value: low });
  const go = el("button", { type: "button", class: "primary", id: "bid-go" }, "Place sealed bid");
  go.addEventListener("click", () => {
    const bid = decision.bids.find((b) => b.amount === Number(input.value));
    if (!bid) { showError(`A bid must be one of ${amounts.join(", ")}.`); return; }
    act(bid.id, view.revision);
  });
  const others = decision.actions.filter((a) => !decision.bids.some((b) => b.id === a.id));
  const credits = decision.credits === null || decision.credits === undefined ? "" : ` (you have ${decision.credits} credits)`;
  return el("div", {},
    el("div", { class: "question", text: "Your sealed bid (credits): nobody sees it until all have bid" }),
    auctionLine(decision, view),
    el("div", { class: "legal", id: "legal-bids", text: `Legal bids: ${low} to ${high} in steps of ${decision.step}${credits}.` }),
    el("div", { class: "buttons" }, input, go, others.map((a) => actionButton(a, view.revision))));
}

function yesNoForm(decision, revision) {
  const text = (id) => decision.actions.find((a) => a.id === id).text;
  return el("div", {},
    el("div", { class: "question", text: decision.question }),
    el("div", { class: "buttons" },
      actionButton({ id: decision.yes, text: `Yes (${text(decision.yes)})` }, revision, "yes primary"),
      actionButton({ id: decision.no, text: `No (${text(decision.no)})` }, revision, "no")));
}

function choiceForm(decision, revision) {
  const list = el("div", { class: "buttons" });
  const draw = (words) => list.replaceChildren(...decision.actions
    .filter((a) => words.every((w) => a.text.toLowerCase().includes(w))).map((a) => actionButton(a, revision)));
  draw([]);
  const many = decision.actions.length > 24;
  const filter = many ? el("input", { type: "search", id: "filter", placeholder: `filter ${decision.actions.length} actions` }) : null;
  if (filter) filter.addEventListener("input", () => draw(filter.value.toLowerCase().split(/\s+/).filter(Boolean)));
  return el("div", {}, el("div", { class: "question", text: decision.question }), filter, list);
}

// The engine's own words for the decision in progress (Import / Export): what the terminal shows.
function promptLine(prompt) {
  if (!prompt) return null;
  return el("div", { class: "prompt", id: "prompt" },
    el("span", { class: "muted", text: "The game asks: " }), `P${prompt.seat} to decide: ${prompt.text}`,
    prompt.power ? el("div", { class: "power" }, el("b", { text: `${prompt.card}: ` }), prompt.power) : null);
}

function drawDecision(view) {
  if (view.status !== "playing" || view.table_status !== "playing") return null; // over, or the table ended
  const decision = view.decision;
  if (!decision) {
    const mover = view.players[view.to_move];
    clearInterval(state.timer);
    return el("div", { class: "decision waiting", id: "decision" },
      el("div", { text: `Waiting for P${mover.seat} ${playerWho(mover).label}…` }), promptLine(view.prompt));
  }
  const revision = view.revision;
  const form = decision.kind === "declare" ? declareForm(decision, revision)
    : decision.kind === "bid" ? bidForm(decision, view)
      : decision.kind === "yesno" ? yesNoForm(decision, revision) : choiceForm(decision, revision);
  const box = el("div", { class: "decision", id: "decision", "data-kind": decision.kind, "data-revision": revision },
    el("div", { class: "mine-banner", text: "Your turn" }), promptLine(view.prompt), form, timerLine(view));
  guardClicks(box);
  return box;
}

// A decision that appears right after the person's own click takes clicks only once the double
// click window has passed (act() ignores them until then); `data-ready` says when it does (the
// browser tests wait on it).
function guardClicks(box) {
  const now = performance.now();
  state.readyAt = Math.max(now, state.lastClick + CLICK_GUARD_MS);
  if (state.readyAt <= now) { box.dataset.ready = "1"; return; }
  box.classList.add("settling");
  setTimeout(() => { box.classList.remove("settling"); box.dataset.ready = "1"; }, state.readyAt - now);
}

// ----- the page -------------------------------------------------------------------------------------
// The header names the game, the seat and the players from the first view, before the person
// has joined (the join form) as after.
function drawHeader(view) {
  const labels = labelsOf(view);
  GAME_NAMES[view.env_id] = view.game_name;
  const game = GAME_NAMES[view.env_id] || view.env_id;
  const seat = WATCH ? "watching" : `seat P${SEAT} of ${view.num_players}`;
  document.title = `${game}: ${seat}, table ${view.table_id}`;
  document.getElementById("title").textContent = `${game} · table ${view.table_id}`;
  const who = WATCH ? "watching: every card shown" : `you are P${SEAT} ${labels[SEAT]}`;
  const others = view.players.filter((p) => p.seat !== SEAT).map((p) => `P${p.seat} ${playerWho(p).label} (${kindWord(playerWho(p).kind)})`);
  document.getElementById("who").textContent = `${who} · ${WATCH ? "players" : "with"}: ${others.join(", ")}`;
}

// A table that has ended asks nobody: no seat is shown "to move".
function shownPlayers(view) {
  if (view.table_status === "playing") return view;
  return { ...view, to_move: null, players: view.players.map((p) => ({ ...p, to_move: false })) };
}

// The dock, kept in view at the bottom of the window (app.css): the seat's hand, and under it
// the decision, the wait, or at the end the result, where the decision was.
function drawDock(view, hand, decision) {
  const result = resultLine(view);
  const replay = view.game_id ? el("a", { href: `/replay/${view.game_id}`, id: "replay-link" }, "Open the replay (every card shown)") : null;
  let below = decision;
  if (result) {
    below = el("div", { class: "decision over", id: "over" }, el("p", { id: "result", class: "banner", text: result }), finalScores(view), replay);
  } else if (view.table_status === "ended") {
    below = el("div", { class: "decision over", id: "over" }, el("p", { class: "banner bad", text: `This table has ended: ${view.note}` }), replay);
  }
  return el("div", { class: "dock", id: "dock" }, hand.length ? drawZones(hand) : null, below);
}

function finalScores(view) {
  return el("p", { class: "final-scores", id: "final-scores" },
    view.players.map((p) => `P${p.seat} ${playerWho(p).label}: ${p.score_text ?? fmtScore(p.score)}`).join(" · "));
}

function render(view, force) {
  state.version = view.version;
  const shown = state.view;
  if (shown && view.revision < shown.revision) return; // an answer overtaken by a newer one
  if (!force && shown && view.version === shown.version && view.revision === shown.revision) return; // a long poll that timed out
  state.view = view;
  state.clockSkew = Date.now() / 1000 - view.server_time;
  document.body.dataset.revision = view.revision; // the position shown (tests wait on it)
  document.body.dataset.version = view.version;
  drawHeader(view);
  const status = view.table_status === "playing" ? `decision ${view.revision + 1}` : view.note || view.table_status;
  document.getElementById("status").textContent = status;
  // the same position (only a join or the like changed): the open form keeps what was typed in it
  const open = document.querySelector("#decision[data-kind]");
  const same = shown && shown.revision === view.revision && view.decision && open && Number(open.dataset.revision) === view.revision;
  const hand = view.zones.filter((z) => z.title === "Your hand");
  const piles = view.zones.filter((z) => z.title !== "Your hand");
  const decision = view.table_status === "playing" && !view.result ? (same ? open : drawDecision(view)) : null;
  if (!decision) clearInterval(state.timer);
  document.getElementById("table").replaceChildren(...[
    el("div", { class: "felt" }, drawPlayers(shownPlayers(view), SEAT), scoreNote(view),
      drawLatest(view), piles.length ? el("div", { class: "piles", id: "piles" }, drawZones(piles)) : null,
      drawDock(view, hand, decision), drawRecent(view)),
    el("h2", { text: "What happened" }), drawLog(view),
    el("details", { open: true }, el("summary", { text: "The table, as the game describes it" }), el("pre", { id: "table-text", text: view.table_text }))].filter(Boolean));
  drawSide(view.env_id);
}

function drawSide(envId) {
  if (state.sideFor === envId) return;
  state.sideFor = envId;
  drawRules(document.getElementById("side"), envId).catch((e) => showError(e.message));
}

async function poll() {
  for (;;) {
    try {
      render(await fetchView(20));
      if (state.view.table_status !== "playing" && !WATCH) {
        await sleep(5000); // nothing more will change; one slow poll in case the page is left open
      }
    } catch (error) {
      if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
        showError(error.message);
        return;
      }
      await sleep(2000); // the server restarting: try again
    }
  }
}

// Before the seat is taken: the game, the seat and who else sits at the table, and the rules.
function askName(view) {
  drawHeader(view);
  const box = document.getElementById("join");
  fill(document.getElementById("join-seat"), `${GAME_NAMES[view.env_id]}, table ${view.table_id}: you take seat P${SEAT} of ${view.num_players}.`);
  fill(document.getElementById("table"), el("div", { class: "felt" }, drawPlayers(view, SEAT)));
  drawSide(view.env_id);
  box.classList.remove("hidden");
  document.getElementById("name").value = localStorage.getItem("smuggle:name") || "";
  return new Promise((resolve) => {
    document.getElementById("join-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await join(document.getElementById("name").value);
        resolve();
      } catch (error) { showError(error.message); }
    });
  });
}

async function start() {
  if (!WATCH) {
    state.token = readToken();
    if (!state.token) { showError("This page needs the seat's link (it ends with #token=...)."); return; }
  }
  let view;
  try {
    view = await fetchView(0);
    if (!WATCH) {
      const stored = localStorage.getItem(`${KEY}:name`);
      const mine = view.players[SEAT];
      if (mine.joined || stored) await join(mine.joined ? mine.label : stored); // a reconnect: resume the seat
      else await askName(view);
      view = await fetchView(0);
    }
  } catch (error) {
    showError(error.message);
    return;
  }
  render(view, true);
  poll();
}

start();
