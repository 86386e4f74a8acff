// scopa-solver board: draws what the JSON API (/api/...) answers; every rule and search runs on
// the server, through the package's own API. No external scripts.
"use strict";

const $ = (sel) => document.querySelector(sel);
const $$ = (sel) => Array.from(document.querySelectorAll(sel));
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));

let INFO = {suits: [], ranks: []};          // from /api/info: suit names and colours, ranks, limits
const state = {
  base: null,        // the notation of the position being analysed
  viewPlayer: null,  // null: every card; 0 or 1: that player's view
  pv: null,          // {steps, pv, index}
  game: null,        // the game against a bot (the API's answer)
  review: null,      // the last review (the API's answer)
  played: null,      // a reviewed decision's played move, marked in the move table
  board: null,       // the board of `base` (the API's answer)
  editing: false,    // the Edit tab is open: the board area shows the editor
};

// -- requests: one spinner, one Cancel for all -------------------------------------------------

const running = new Set();
let busySince = 0, busyTimer = null;

class Cancelled extends Error {}

function updateBusy(label) {
  const box = $("#status");
  if (running.size === 0) { box.hidden = true; clearInterval(busyTimer); busyTimer = null; return; }
  if (label) $("#status-text").dataset.label = label;
  if (!busyTimer) {
    busySince = performance.now();
    busyTimer = setInterval(() => {
      const s = ((performance.now() - busySince) / 1000).toFixed(1);
      $("#status-text").textContent = `${$("#status-text").dataset.label || "working"}… ${s} s`;
    }, 100);
  }
  $("#status-text").textContent = `${$("#status-text").dataset.label || "working"}…`;
  box.hidden = false;
}

async function api(path, body, label, quiet = false) {
  const ctl = new AbortController();
  if (!quiet) { running.add(ctl); updateBusy(label); }
  try {
    const r = await fetch(`/api/${path}`, body === null ? {signal: ctl.signal}
      : {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body || {}), signal: ctl.signal});
    const data = await r.json().catch(() => ({error: `the server answered ${r.status}`}));
    if (ctl.signal.aborted) throw new Cancelled("cancelled");   // cancelled while the answer was read
    if (!r.ok) throw new Error(data.error || `the server answered ${r.status}`);
    return data;
  } catch (e) {
    if (e.name === "AbortError") throw new Cancelled("cancelled");
    throw e;
  } finally {
    if (!quiet) { running.delete(ctl); updateBusy(); }
  }
}

function cancelAll() { for (const ctl of running) ctl.abort(); }

function showError(msg) { const e = $("#error"); e.textContent = msg; e.hidden = !msg; }
function showNote(msg) { const e = $("#note"); e.textContent = msg; e.hidden = !msg; }

// Run an action; its errors become the message line (a cancel is only noted).
async function guard(fn) {
  showError("");
  try { return await fn(); } catch (e) {
    if (e instanceof Cancelled) showNote("cancelled"); else showError(e.message || String(e));
  }
}

// -- cards ---------------------------------------------------------------------------------------

function suitInfo(letter) { return INFO.suits.find((s) => s.letter === letter) || {name: letter, colour: "#000"}; }
function rankInfo(letter) { return INFO.ranks.find((r) => r.letter === letter) || {name: letter}; }

function cardSVG(card, size = 1, extra = "") {
  const w = Math.round(64 * size), h = Math.round(96 * size);
  const rank = card[0], suit = card[1], s = suitInfo(suit), colour = s.colour;
  const title = `${rankInfo(rank).name} di ${s.name}`;
  if (size < 0.6) {   // a small card: rank, suit letter and the suit's shape
    return `<svg class="card ${extra}" data-card="${esc(card)}" width="${w}" height="${h}" viewBox="0 0 64 96" role="img" aria-label="${esc(title)}">
      <title>${esc(title)}</title>
      <rect x="1.5" y="1.5" width="61" height="93" rx="7" fill="#fffdf7" stroke="${colour}" stroke-width="3"/>
      <text x="32" y="38" text-anchor="middle" font-size="34" font-weight="700" fill="${colour}">${esc(rank)}</text>
      <use href="#suit-${esc(suit)}" x="12" y="46" width="40" height="40"/></svg>`;
  }
  return `<svg class="card ${extra}" data-card="${esc(card)}" width="${w}" height="${h}" viewBox="0 0 64 96" role="img" aria-label="${esc(title)}">
    <title>${esc(title)}</title>
    <rect x="1" y="1" width="62" height="94" rx="6" fill="#fffdf7" stroke="${colour}" stroke-width="2"/>
    <text x="6" y="20" font-size="18" font-weight="700" fill="${colour}">${esc(rank)}</text>
    <text x="6" y="33" font-size="11" font-weight="700" fill="${colour}">${esc(suit.toUpperCase())}</text>
    <use href="#suit-${esc(suit)}" x="14" y="28" width="38" height="38"/>
    <text x="58" y="88" font-size="18" font-weight="700" fill="${colour}" text-anchor="end">${esc(rank)}</text>
    <text x="58" y="75" font-size="11" font-weight="700" fill="${colour}" text-anchor="end">${esc(suit.toUpperCase())}</text>
  </svg>`;
}

function backSVG(size = 1, label = "") {
  const w = Math.round(64 * size), h = Math.round(96 * size);
  return `<svg class="card back" width="${w}" height="${h}" viewBox="0 0 64 96" role="img" aria-label="hidden card">
    <rect x="1" y="1" width="62" height="94" rx="6" fill="url(#card-back)" stroke="#e5e7eb" stroke-width="2"/>
    ${label ? `<rect x="12" y="36" width="40" height="24" rx="4" fill="#fff"/><text x="32" y="54" text-anchor="middle" font-size="16" font-weight="700" fill="#1e3a8a">${esc(label)}</text>` : ""}
  </svg>`;
}

// -- the board -----------------------------------------------------------------------------------

function pileHTML(b, p) {
  const s = b.score.players[p];
  const cards = b.piles[p];
  return `<div class="pile" id="pile${p}">
    <b>Pile ${p}: <span class="count">${cards.length}</span> card${cards.length === 1 ? "" : "s"}</b>
    <dl>
      <dt>coins</dt><dd class="coins">${s.coins}</dd>
      <dt>settebello</dt><dd class="settebello">${s.settebello ? "yes" : "no"}</dd>
      <dt>primiera</dt><dd class="primiera">${s.primiera === null ? "–" : s.primiera}</dd>
      <dt>scopas</dt><dd class="scopas">${b.scopas[p]}</dd>
      <dt>points so far</dt><dd class="points">${s.points}</dd>
    </dl>
    <div class="cards small">${cards.map((c) => cardSVG(c, 0.28)).join("")}</div>
  </div>`;
}

function seatHTML(b, p, clickable) {
  const hand = b.hands[p];
  const who = [`Player ${p}`];
  if (b.dealer === p) who.push("dealer");
  if (b.kind === "view" && b.player === p) who.push("you");
  const cards = hand.hidden ? Array.from({length: hand.hidden}, () => backSVG()).join("")
    : hand.cards.map((c) => cardSVG(c, 1, clickable ? "clickable" : "")).join("");
  return `<div class="seat ${b.to_move === p ? "to-move" : ""}" id="seat${p}">
    <div><h3>${esc(who.join(" · "))}</h3><div class="cards" id="hand${p}">${cards || '<span class="board-note">no cards</span>'}</div></div>
    ${pileHTML(b, p)}
  </div>`;
}

function drawBoard(b, note = "", clickSeat = null) {
  $("#board").classList.toggle("wide", b.players > 2);
  if (b.players > 2) return drawRing(b, note);
  const total = b.score.total;
  const over = b.over ? `<div class="over" id="round-over">Round over: player 0 <b>${total[0]}</b>, player 1 <b>${total[1]}</b>` +
    ` (margin ${total[0] - total[1] >= 0 ? "+" : ""}${total[0] - total[1]} for player 0)</div>` : "";
  $("#board").innerHTML = `
    ${seatHTML(b, 1, clickSeat === 1)}
    <div class="middle">
      <div><h3>Table</h3><div class="cards" id="table">${b.table.map((c) => cardSVG(c)).join("") || '<span class="board-note">empty table</span>'}</div></div>
      <div class="stock" id="stock">${b.stock ? backSVG(0.6, b.stock) : ""}<span>stock: <b class="count">${b.stock}</b> card${b.stock === 1 ? "" : "s"}</span></div>
    </div>
    ${seatHTML(b, 0, clickSeat === 0)}
    ${over}
    <p class="board-note mono" id="board-notation">${esc(b.notation)}</p>
    ${note ? `<p class="board-note" id="board-step">${esc(note)}</p>` : ""}`;
}


// -- the family: every seat around the table ------------------------------------------------------

const SEAT_NAMES = {3: ["S", "E", "W"], 4: ["S", "E", "N", "W"], 6: ["S", "SE", "NE", "N", "NW", "SW"]};

function seatName(b, p) {
  const where = (SEAT_NAMES[b.players] || [])[p];
  return `Seat ${p}${where ? ` (${where})` : ""}`;
}

function sideName(b, side) {
  const seats = b.sides.map((s, p) => s === side ? p : null).filter((p) => p !== null);
  return seats.length > 1 ? `side ${side} (${seats.join("+")})` : `side ${side} (seat ${seats[0]})`;
}

function ringSeatHTML(b, p) {
  const hand = b.hands[p], pile = b.piles[p], side = b.sides[p];
  const who = [seatName(b, p)];
  if (new Set(b.sides).size < b.players) who.push(`side ${side}`);
  if (b.dealer === p) who.push("dealer");
  const cards = hand.hidden ? Array.from({length: hand.hidden}, () => backSVG(0.5)).join("")
    : hand.cards.map((c) => cardSVG(c, 0.5)).join("");
  return `<div class="fseat ${b.to_move === p ? "to-move" : ""}" id="seat${p}" style="grid-area: s${p}">
    <h3 class="side${side}">${esc(who.join(" · "))}</h3>
    <div class="cards" id="hand${p}">${cards || '<span class="board-note">no cards</span>'}</div>
    <div class="fpile" id="pile${p}">pile: <b class="count">${pile.length}</b> card${pile.length === 1 ? "" : "s"},
      scopas <b class="scopas">${b.scopas[p]}</b>
      <div class="cards small">${pile.map((c) => cardSVG(c, 0.28)).join("")}</div></div>
  </div>`;
}

function sidesTableHTML(b) {
  const sc = b.score;
  const yes = (x) => x ? "yes" : "no";
  return `<table class="sides" id="side-score"><thead><tr><th>so far</th><th>cards</th><th>coins</th><th>7d</th>
      <th>primiera</th><th>scopas</th><th>points</th></tr></thead><tbody>
    ${sc.players.map((s, side) => `<tr class="side${side}" data-side="${side}"><td>${esc(sideName(b, side))}</td>
      <td class="cards-count">${s.cards}</td><td class="coins">${s.coins}</td><td>${yes(s.settebello)}</td>
      <td>${s.primiera === null ? "–" : s.primiera}</td><td class="scopas">${s.scopas}</td>
      <td class="points">${s.points}</td></tr>`).join("")}</tbody></table>`;
}

function drawRing(b, note) {
  const total = b.score.total;
  const over = b.over ? `<div class="over" id="round-over">Round over: ${total.map((t, side) =>
    `${esc(sideName(b, side))} <b>${t}</b>`).join(", ")}</div>` : "";
  $("#board").innerHTML = `
    <p class="board-note" id="game-name"><b>${esc(b.game)}</b>${b.rules.length ? ` · ${esc(b.rules.join(" "))}` : ""}</p>
    <div class="ring ring-${b.players}">
      ${b.hands.map((_, p) => ringSeatHTML(b, p)).join("")}
      <div class="center">
        <h3>Table</h3><div class="cards" id="table">${b.table.map((c) => cardSVG(c, 0.6)).join("") || '<span class="board-note">empty table</span>'}</div>
        <div class="stock" id="stock">${b.stock ? backSVG(0.4, b.stock) : ""}<span>stock: <b class="count">${b.stock}</b> card${b.stock === 1 ? "" : "s"}</span></div>
        ${sidesTableHTML(b)}
      </div>
    </div>
    ${over}
    <p class="board-note mono" id="board-notation">${esc(b.notation)}</p>
    ${note ? `<p class="board-note" id="board-step">${esc(note)}</p>` : ""}`;
}

// -- positions and analysis -----------------------------------------------------------------------

function setURL(notation) {
  const url = new URL(window.location.href);
  url.search = notation ? `?pos=${encodeURIComponent(notation)}` : "";
  window.history.replaceState(null, "", url);
}

function clearAnalysis() {
  $("#moves tbody").innerHTML = "";
  $("#moves-note").textContent = "";
  $("#pv-value").textContent = "";
  $("#pv-moves").innerHTML = "";
  $("#pv-step").textContent = "–";
  $("#tree").innerHTML = "";
  $("#suggest-table tbody").innerHTML = "";
  $("#suggest-info").textContent = "";
  state.pv = null;
}

// Show a position (notation) on the board and analyse it.
async function loadPosition(text, {analyse = true, played = null} = {}) {
  const b = await api("board", {position: text}, "reading");
  state.base = b.notation;
  state.board = b;
  state.viewPlayer = null;
  state.played = played;
  $("#notation").value = b.notation;
  setURL(b.notation);
  viewButtons(b.players);
  clearAnalysis();
  if (state.editing) switchTab("analysis");
  drawBoard(b);
  if (analyse && b.kind === "position" && !b.over) await runAnalysis();
  return b;
}

function valueText(m) {
  if (m.value !== null && m.value !== undefined) return (m.value > 0 ? "+" : "") + m.value;
  const lo = m.lower === null ? "−∞" : m.lower, hi = m.upper === null ? "+∞" : m.upper;
  return `${lo} … ${hi}`;
}

async function runAnalysis() {
  if (!state.base) throw new Error("no position on the board");
  const time_limit = Number($("#time-limit").value) || 5;
  const body = {position: state.base, time_limit, objective: $("#objective").value};
  const [a, s] = await Promise.all([api("analyze", body, "analysing"), api("solve", body, "solving")]);
  if (a.position !== state.base) return;   // a newer position was loaded meanwhile
  const family = state.board && state.board.players > 2;
  const who = family ? `seat ${a.to_move} (side ${a.side})` : `player ${a.to_move}`;
  $("#moves-note").textContent = !a.complete ? "a limit stopped the search: bounds shown"
    : a.objective === "maxn" ? `max^n: side ${a.side}'s points at the end, best first`
    : `exact values for ${who}, best first`;
  $("#moves tbody").innerHTML = a.moves.map((m) =>
    `<tr class="${m.best ? "best" : ""} ${state.played === m.move ? "played" : ""}" data-move="${esc(m.move)}">
      <td class="move mono">${esc(m.move)}</td><td class="value num">${esc(valueText(m))}</td><td></td></tr>`).join("");
  $$("#moves tbody tr").forEach((tr) => tr.addEventListener("click", () =>
    guard(() => playFromBase(tr.dataset.move))));
  state.pv = {steps: s.steps, pv: s.pv, index: 0};
  const mover = family ? `seat ${s.steps[0].to_move}` : `player ${s.steps[0].to_move}`;
  $("#pv-value").textContent = !s.complete ? `stopped (${s.stopped}) before the end`
    : `value ${s.value > 0 ? "+" : ""}${s.value} for ${mover}` + (s.points ? `; points by side ${s.points.join(" / ")}` : "");
  const first = s.steps[0].to_move;
  $("#pv-moves").innerHTML = s.pv.map((m, i) =>
    `<li data-index="${i + 1}" class="p${s.steps[i].to_move}">${i + 1}. ${esc(m)}</li>`).join("");
  $$("#pv-moves li").forEach((li) => li.addEventListener("click", () => pvGo(Number(li.dataset.index))));
  pvGo(0, first);
}

function pvGo(index) {
  const pv = state.pv;
  if (!pv) return;
  pv.index = Math.max(0, Math.min(pv.steps.length - 1, index));
  const n = pv.steps.length - 1;
  $("#pv-step").textContent = `${pv.index} / ${n}`;
  $$("#pv-moves li").forEach((li) => li.classList.toggle("current", Number(li.dataset.index) === pv.index));
  const note = pv.index === 0 ? "" : `principal variation, after move ${pv.index} of ${n}: ${pv.pv[pv.index - 1]}`;
  if (!state.editing) drawBoard(pv.steps[pv.index], note);
}

async function playFromBase(move) {
  await loadPosition(state.base, {analyse: false});
  const b = await api("board", {position: state.base, moves: [move]}, "playing");
  await loadPosition(b.notation);
}

async function drawTree() {
  if (!state.base) throw new Error("no position on the board");
  const t = await api("tree", {position: state.base}, "drawing the tree");
  $("#tree").innerHTML = t.svg;
}

// -- hidden cards --------------------------------------------------------------------------------

async function showView(player) {
  if (!state.base) throw new Error("no position on the board");
  state.viewPlayer = player === "" ? null : Number(player);
  $$(".view-btn").forEach((x) => x.classList.toggle("active", x.dataset.player === player));
  const body = {position: state.base};
  if (state.viewPlayer !== null) body.player = state.viewPlayer;
  const b = await api("board", body, "reading");
  drawBoard(b, state.viewPlayer === null ? "" : `player ${state.viewPlayer}'s view`);
}

// One view button a seat: what that seat sees (every other hand face down, partner's too).
function viewButtons(players) {
  const who = (p) => players === 2 ? `Player ${p}'s view` : `Seat ${p}'s view`;
  $("#view-btns").innerHTML = `<button type="button" class="view-btn active" data-player="">Every card</button>` +
    Array.from({length: players}, (_, p) => `<button type="button" class="view-btn" data-player="${p}">${who(p)}</button>`).join("");
  $$(".view-btn").forEach((b) => b.addEventListener("click", () => guard(() => showView(b.dataset.player))));
}

async function runSuggest() {
  if (!state.base) throw new Error("no position on the board");
  const body = {position: state.base, worlds: Number($("#worlds").value), seed: Number($("#suggest-seed").value),
                time_limit: Number($("#suggest-time").value)};
  if (state.viewPlayer !== null) body.player = state.viewPlayer;
  const s = await api("suggest", body, "solving worlds");
  drawBoard(s.board, `player ${s.board.player}'s view`);
  state.viewPlayer = s.board.player;
  $$(".view-btn").forEach((x) => x.classList.toggle("active", x.dataset.player === String(s.board.player)));
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  $("#suggest-table tbody").innerHTML = s.moves.map((m, i) =>
    `<tr class="${i === 0 ? "best" : ""}" data-move="${esc(m.move)}"><td class="mono move">${esc(m.move)}</td>
      <td class="num mean">${m.mean >= 0 ? "+" : ""}${m.mean.toFixed(3)}</td>
      <td class="num stderr">${m.stderr === null ? "–" : m.stderr.toFixed(3)}</td>
      <td class="num optimal">${pct(m.optimal)}</td></tr>`).join("");
  const kind = s.exact ? "every world, exact" : `sampled, seed ${s.seed}`;
  $("#suggest-info").textContent = `${s.worlds.toLocaleString("en")} worlds solved (${kind}) of ` +
    `${Number(s.total_worlds).toLocaleString("en", {maximumSignificantDigits: 3})} consistent with the view; ` +
    `${s.seconds.toFixed(2)} s` + (s.stopped === "time" ? ", stopped by the time limit" : "") + "; " +
    (s.horizon === null || s.horizon === undefined
      ? `${Number(s.exact_worlds).toLocaleString("en")} searched to the end of the round`
      : `${Number(s.exact_worlds).toLocaleString("en")} searched to the end, the rest to a horizon of ${s.horizon} plays`);
}

// -- play ----------------------------------------------------------------------------------------

function drawGame(g) {
  state.game = g;
  const b = g.board;
  const mine = !g.over && b.to_move === g.seat;
  drawBoard(b, g.over ? "the round is over: every card shown" : `you are player ${g.seat}`, mine ? g.seat : null);
  $("#play-prompt").textContent = g.over ? "" : (mine ? "Your move: click a card or a move." : "The bot is thinking…");
  $("#play-moves").innerHTML = mine ? b.legal.map((m) => `<button type="button" class="play-move" data-move="${esc(m)}">${esc(m)}</button>`).join("") : "";
  $$("#play-moves .play-move").forEach((btn) => btn.addEventListener("click", () => guard(() => playMove(btn.dataset.move))));
  if (mine) {
    $$(`#hand${g.seat} svg.card`).forEach((svg) => svg.addEventListener("click", () => {
      const card = svg.dataset.card;
      const moves = b.legal.filter((m) => m.split("x")[0] === card);
      if (moves.length === 1) guard(() => playMove(moves[0]));
      else {
        $$(`#hand${g.seat} svg.card`).forEach((x) => x.classList.toggle("chosen", x === svg));
        $$("#play-moves .play-move").forEach((btn) => btn.hidden = btn.dataset.move.split("x")[0] !== card);
        $("#play-prompt").textContent = `${card} can take several ways: choose one.`;
      }
    }));
  }
  $("#play-log").innerHTML = g.log.map((e) =>
    `<li class="${e.name === "you" ? "you" : ""}">${esc(e.name)}: ${esc(e.move)}${e.scopa ? " (scopa!)" : ""}</li>`).join("");
  $("#play-after").hidden = !g.over;
  $("#play-result").textContent = g.over ? (() => {
    const t = g.score.total, side = b.sides[g.seat], me = t[side];
    const bot = Math.max(...t.filter((_, i) => i !== side));
    const them = t.length > 2 ? "the best bot" : "the bot";
    return `Round over: you ${me}, ${them} ${bot}. ${me > bot ? "You win!" : me < bot ? "The bot wins." : "A draw."}`;
  })() : "";
}

async function newGame() {
  const g = await api("play/new", {bot: $("#bot").value, seat: Number($("#seat").value),
                                   seed: Number($("#play-seed").value), rules: $("#play-game").value}, "dealing");
  drawGame(g);
}

async function playMove(move) {
  const g = await api("play/move", {record: state.game.record, move}, "the bot is thinking");
  drawGame(g);
}

function downloadRecord() {
  if (!state.game) return;
  const blob = new Blob([state.game.record], {type: "application/json"});
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "scopa-game.json";
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// -- review --------------------------------------------------------------------------------------

async function runReview() {
  const text = $("#record-text").value;
  if (!text.trim()) throw new Error("paste a game record or choose a file first");
  const r = await api("review", {record: text, round: Number($("#review-round").value) || 1,
                                 worlds: Number($("#review-worlds").value)}, "reviewing");
  state.review = r;
  const sel = $("#review-round");
  sel.innerHTML = Array.from({length: r.round_count}, (_, i) =>
    `<option value="${i + 1}" ${i + 1 === r.round ? "selected" : ""}>${i + 1}</option>`).join("");
  const score = r.rounds[r.round - 1].score;
  const names = r.rounds[r.round - 1].sides || r.rounds[r.round - 1].players;   // the family scores by side
  const pct = (x) => `${Math.round(100 * x)}%`;
  const seats = r.players.length > 2 && r.seat_summary;   // one row a seat, named by its player
  const summary = seats ? r.seat_summary.map((s, p) => ({...s, name: `${s.name}: ${r.players[p]}`})) : r.summary;
  $("#review-summary").innerHTML = `<p>Round ${r.round} of ${r.round_count}: ${names.map((n, i) =>
      `${esc(n)} ${score ? score[i] : "?"}`).join(", ")}. Fair review: PIMC with ${r.worlds} worlds a decision, seed ${r.seed};
      ${r.seconds.toFixed(1)} s.</p>
    <table class="grid"><thead><tr><th>player</th><th class="num">decisions</th><th class="num">points lost</th>
      <th class="num">best moves</th><th class="num">? mistakes</th><th class="num">?? blunders</th></tr></thead><tbody>
    ${summary.map((s) => `<tr><td>${esc(s.name)}</td><td class="num">${s.decisions}</td><td class="num">${s.loss}</td>
      <td class="num">${pct(s.accuracy)}</td><td class="num">${s.mistakes}</td><td class="num">${s.blunders}</td></tr>`).join("")}
    </tbody></table>`;
  $("#review-table tbody").innerHTML = r.decisions.map((d, i) => {
    const h = d.hindsight, f = d.fair;
    const cls = d.mark === "??" ? "blunder" : d.mark === "?" ? "mistake" : "";
    // a decision the hindsight search could not settle in the review's budget says so (the reason on hover)
    const best = d.forced ? "(forced)" : !h.judged ? "not judged" : (h.best.includes(d.played) ? d.played : h.best[0]);
    const fair = !f || d.forced ? "" : (f.loss < 0.005 ? d.played : f.best);
    return `<tr class="decision ${cls}" data-index="${i}">
      <td class="num">${d.move}</td><td>${esc(d.name)}</td>
      <td class="mono played">${esc(d.played)} <span class="mark">${esc(d.mark)}</span></td>
      <td class="mono" ${h.judged || d.forced ? "" : `title="${esc(h.reason || "")}"`}>${esc(best)}</td><td class="num">${h.best_value === null ? "" : (h.best_value > 0 ? "+" : "") + h.best_value}</td>
      <td class="num lost">${d.forced ? "" : h.loss || "–"}</td>
      <td class="mono">${esc(fair)}</td><td class="num">${!f || d.forced || f.loss === null ? "" : f.loss < 0.005 ? "–" : f.loss.toFixed(2)}</td></tr>`;
  }).join("");
  $$("#review-table tbody tr").forEach((tr) => tr.addEventListener("click", () => guard(async () => {
    $$("#review-table tbody tr").forEach((x) => x.classList.toggle("selected", x === tr));
    const d = r.decisions[Number(tr.dataset.index)];
    await loadPosition(d.position, {played: d.played});
    showNote(`round ${d.round}, move ${d.move}: ${d.name} played ${d.played}${d.mark ? " " + d.mark : ""}`);
  })));
}


// -- the editor: a position built by putting cards into places --------------------------------------

const ed = {players: 2, places: {}, dealer: 1, toMove: "", last: "", scopas: [0, 0], selected: null,
            asked: 0, notation: null};

function edPlaceNames() {
  const n = ed.players;
  return [...Array.from({length: n}, (_, p) => `hand${p}`), "table",
          ...Array.from({length: n}, (_, p) => `pile${p}`), "stock"];
}

function edLabel(name) {
  if (name === "table") return "Table";
  if (name === "stock") return "Stock (deal order: the next deal first)";
  const kind = name.startsWith("hand") ? "Hand" : "Pile", p = Number(name.slice(4));
  const where = (SEAT_NAMES[ed.players] || [])[p];
  return `${kind} ${p}${where ? ` (${where})` : ""}`;
}

function edReset(players) {
  ed.players = players;
  const old = ed.places;
  ed.places = {};
  for (const name of edPlaceNames()) ed.places[name] = old[name] || [];
  ed.scopas = Array.from({length: players}, (_, p) => ed.scopas[p] || 0);
  if (ed.dealer >= players) ed.dealer = players - 1;
  if (ed.toMove !== "" && Number(ed.toMove) >= players) ed.toMove = "";
  if (ed.last !== "" && Number(ed.last) >= players) ed.last = "";
}

function edWhere(card) {
  return Object.keys(ed.places).find((name) => ed.places[name].includes(card)) || null;
}

function edMove(card, place) {
  for (const name of Object.keys(ed.places)) ed.places[name] = ed.places[name].filter((c) => c !== card);
  if (place) ed.places[place].push(card);
  ed.selected = null;
  edChanged();
}

function edButton(card, size, extra = "") {
  return `<button type="button" class="ed-card ${extra} ${ed.selected === card ? "selected" : ""}" draggable="true"
    data-card="${esc(card)}" aria-pressed="${ed.selected === card}">${cardSVG(card, size)}</button>`;
}

function allCards() {
  return INFO.suits.flatMap((s) => INFO.ranks.map((r) => r.letter + s.letter));
}

function drawEditor() {
  const placed = new Set(Object.values(ed.places).flat());
  const small = ed.players > 2 ? 0.45 : 0.5;
  const zone = (name) => {
    const cards = ed.places[name].map((c, i) => name === "stock"
      ? `<span class="stock-order">${edButton(c, 0.45)}<span class="nth">${i + 1}</span></span>` : edButton(c, small)).join("");
    const wide = ["table", "stock"].includes(name) ? "wide" : "";
    return `<div class="place ${wide}" id="place-${name}" data-place="${name}" role="button" tabindex="0"
        aria-label="put the chosen card: ${esc(edLabel(name))}">
      <h4>${esc(edLabel(name))} · <span class="n">${ed.places[name].length}</span></h4>
      <div class="cards">${cards}</div></div>`;
  };
  $("#board").classList.toggle("wide", ed.players > 2);
  $("#board").innerHTML = `
    <h3>Cards <small>(${40 - placed.size} unplaced)</small></h3>
    <div id="palette" data-place="" role="group" aria-label="the 40 cards">
      ${allCards().map((c) => edButton(c, 0.5, placed.has(c) ? "placed" : "")).join("")}
    </div>
    <div class="row"><div class="place" id="place-none" data-place="" role="button" tabindex="0"
      aria-label="take the chosen card back">Unplaced: put the chosen card back</div></div>
    <div class="places">
      ${Array.from({length: ed.players}, (_, p) => zone(`hand${p}`) + zone(`pile${p}`)).join("")}
      ${zone("table")}${zone("stock")}
    </div>`;
  $$("#board .ed-card").forEach((btn) => {
    btn.addEventListener("click", (ev) => {
      ev.stopPropagation();
      const card = btn.dataset.card;
      const where = btn.closest("[data-place]").id;
      ed.selected = ed.selected === card ? null : card;
      drawEditor();
      const again = document.querySelector(`#${where} .ed-card[data-card="${card}"]`);
      if (again) again.focus();     // keyboard users stay where they were
    });
    btn.addEventListener("dragstart", (ev) => { ev.dataTransfer.setData("text/plain", btn.dataset.card); });
  });
  $$("#board [data-place]").forEach((zoneEl) => {
    const put = () => { if (ed.selected) edMove(ed.selected, zoneEl.dataset.place || null); };
    if (zoneEl.id !== "palette") {
      zoneEl.addEventListener("click", put);
      zoneEl.addEventListener("keydown", (ev) => {
        if (ev.target === zoneEl && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); put(); }
      });
    }
    zoneEl.addEventListener("dragover", (ev) => { ev.preventDefault(); zoneEl.classList.add("target"); });
    zoneEl.addEventListener("dragleave", () => zoneEl.classList.remove("target"));
    zoneEl.addEventListener("drop", (ev) => {
      ev.preventDefault();
      const card = ev.dataTransfer.getData("text/plain");
      if (card) edMove(card, zoneEl.dataset.place || null);
    });
  });
}

function edOptions(sel, items, value) {
  sel.innerHTML = items.map(([v, label]) => `<option value="${v}" ${String(v) === String(value) ? "selected" : ""}>${esc(label)}</option>`).join("");
}

function edForm() {
  const seats = Array.from({length: ed.players}, (_, p) => [p, `seat ${p}`]);
  $("#ed-players").value = String(ed.players);
  $("#ed-partnerships").closest("label").hidden = ed.players < 4;    // 2 or 3 players: every player a side
  edOptions($("#ed-dealer"), seats, ed.dealer);
  edOptions($("#ed-to-move"), [["", "as the hands say"], ...seats], ed.toMove);
  edOptions($("#ed-last"), [["", "nobody yet"], ...seats], ed.last);
  $("#ed-scopas").innerHTML = ed.scopas.map((x, p) =>
    `<label>Scopas ${p} <input type="number" class="ed-scopa" data-seat="${p}" min="0" max="20" value="${x}"></label>`).join("");
  $$(".ed-scopa").forEach((inp) => inp.addEventListener("input", () => {
    ed.scopas[Number(inp.dataset.seat)] = Number(inp.value) || 0;
    edChanged(false);
  }));
}

function edRules() {
  const tokens = [];
  if (ed.players !== 2) tokens.push(`players=${ed.players}`);
  if ($("#ed-game").value !== "scopa") tokens.push(`game=${$("#ed-game").value}`);
  if ($("#ed-capture").value !== "standard") tokens.push("capture=fifteen");
  if (!$("#ed-partnerships").checked && ed.players >= 4) tokens.push("partnerships=0");
  return [...tokens, ...$("#ed-extra").value.split(/\s+/).filter(Boolean)].join(" ");
}

function edBody() {
  const n = ed.players, seat = (x) => x === "" ? null : Number(x);
  return {hands: Array.from({length: n}, (_, p) => ed.places[`hand${p}`]), table: ed.places.table,
          piles: Array.from({length: n}, (_, p) => ed.places[`pile${p}`]), stock: ed.places.stock,
          scopas: ed.scopas, dealer: ed.dealer, to_move: seat(ed.toMove), last_capturer: seat(ed.last),
          rules: edRules()};
}

// Every change: redraw, then ask the server whether the places make a position (the latest answer wins).
async function edChanged(redraw = true) {
  if (redraw && state.editing) drawEditor();
  const asked = ++ed.asked;
  let b = null, error = null;
  try { b = await api("compose", edBody(), "checking", true); } catch (e) { error = e.message || String(e); }
  if (asked !== ed.asked) return;
  ed.notation = b ? b.notation : null;
  $("#ed-analyze").disabled = !b;
  $("#ed-notation").textContent = b ? b.notation : "";
  const msg = $("#ed-message");
  msg.className = b ? "ok" : "bad";
  msg.textContent = b ? (b.over ? "a valid position: the round is over"
    : `a valid position of ${b.game}: seat ${b.to_move} to move, ${b.legal.length} legal move${b.legal.length === 1 ? "" : "s"}`)
    : error;
}

function edFromBoard(b) {
  if (!b || b.kind !== "position") return;
  const n = b.players;
  ed.players = n;
  ed.places = {table: [...b.table], stock: [...(b.stock_cards || [])]};
  for (let p = 0; p < n; p++) { ed.places[`hand${p}`] = [...b.hands[p].cards]; ed.places[`pile${p}`] = [...b.piles[p]]; }
  ed.scopas = [...b.scopas];
  ed.dealer = b.dealer;
  ed.toMove = "";
  ed.last = b.last_capturer === null ? "" : String(b.last_capturer);
  const known = new Set(["players", "game", "capture", "partnerships"]);
  const opt = Object.fromEntries(b.rules.map((t) => t.split("=")).map(([k, v]) => [k, v]));
  $("#ed-game").value = opt.game || "scopa";
  $("#ed-capture").value = opt.capture || "standard";
  $("#ed-partnerships").checked = opt.partnerships !== "0";
  $("#ed-extra").value = b.rules.filter((t) => !known.has(t.split("=")[0])).join(" ");
  edForm();
  edChanged();
}

function edClear() {
  edReset(ed.players);
  for (const name of Object.keys(ed.places)) ed.places[name] = [];
  ed.scopas = ed.scopas.map(() => 0);
  ed.toMove = ""; ed.last = ""; ed.selected = null;
  edForm();
  edChanged();
}

async function edDeal() {
  const seed = $("#seed").value === "" ? null : Number($("#seed").value);
  const b = await api("deal", {seed, rules: edRules()}, "dealing");
  edFromBoard(b);
}

// Keys for a chosen card: a seat's digit puts it in that hand (Shift+digit: that pile), T on the
// table, S in the stock, U or Delete back to the palette, Esc lets go of it.
function edKey(ev) {
  const digit = /^Digit([0-9])$/.exec(ev.code), key = ev.key.toLowerCase();
  let place;
  if (digit && Number(digit[1]) < ed.players) place = `${ev.shiftKey ? "pile" : "hand"}${digit[1]}`;
  else if (key === "t") place = "table";
  else if (key === "s") place = "stock";
  else if (key === "u" || key === "delete") place = null;
  else if (key === "escape") { ed.selected = null; drawEditor(); return true; }
  else return false;
  const card = ed.selected;
  edMove(card, place);
  const again = document.querySelector(`#palette .ed-card[data-card="${card}"]`);
  if (again) again.focus();      // back on the palette, for the next card
  return true;
}

function edWire() {
  edReset(2);
  edForm();
  $("#ed-players").addEventListener("change", () => {
    edReset(Number($("#ed-players").value));
    if (ed.players === 4 && $("#ed-game").value === "scopa") $("#ed-partnerships").checked = true;
    edForm();
    edChanged();
  });
  for (const id of ["#ed-game", "#ed-capture", "#ed-partnerships"]) $(id).addEventListener("change", () => edChanged(false));
  $("#ed-extra").addEventListener("input", () => edChanged(false));
  $("#ed-dealer").addEventListener("change", () => { ed.dealer = Number($("#ed-dealer").value); edChanged(false); });
  $("#ed-to-move").addEventListener("change", () => { ed.toMove = $("#ed-to-move").value; edChanged(false); });
  $("#ed-last").addEventListener("change", () => { ed.last = $("#ed-last").value; edChanged(false); });
  $("#ed-from-board").addEventListener("click", () => edFromBoard(state.board));
  $("#ed-clear").addEventListener("click", edClear);
  $("#ed-deal").addEventListener("click", () => guard(edDeal));
  $("#ed-analyze").addEventListener("click", () => guard(async () => {
    if (!ed.notation) throw new Error("the places do not make a position yet");
    await loadPosition(ed.notation);
  }));
}

// -- wiring --------------------------------------------------------------------------------------

function switchTab(name) {
  $$("#tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === name));
  $$(".tab").forEach((t) => t.hidden = t.id !== `tab-${name}`);
  const was = state.editing;
  state.editing = name === "edit";
  if (state.editing && !was) {
    if (!Object.values(ed.places).some((x) => x.length) && state.board) edFromBoard(state.board);
    drawEditor();
    edChanged(false);
  } else if (was && !state.editing) {
    if (state.board) drawBoard(state.board); else $("#board").innerHTML = '<p class="empty">Paste a position, deal one from a seed, or start a game.</p>';
  }
}

function isTyping() {
  const el = document.activeElement;
  return el && ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
}

async function start() {
  INFO = await api("info", null, "starting").catch(() => INFO);
  edWire();
  $("#position-form").addEventListener("submit", (ev) => { ev.preventDefault(); guard(() => loadPosition($("#notation").value)); });
  $("#deal-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    guard(async () => {
      const seed = $("#seed").value === "" ? null : Number($("#seed").value);
      const b = await api("deal", {seed, rules: $("#deal-game").value}, "dealing");
      await loadPosition(b.notation);
      showNote(`dealt from seed ${b.seed}`);
    });
  });
  $("#link-btn").addEventListener("click", () => guard(async () => {
    if (!state.base) throw new Error("no position on the board");
    setURL(state.base);
    try { await navigator.clipboard.writeText(window.location.href); showNote("link copied"); }
    catch (e) { showNote(`link: ${window.location.href}`); }
  }));
  $("#cancel-btn").addEventListener("click", cancelAll);
  $$("#tabs button").forEach((b) => b.addEventListener("click", () => switchTab(b.dataset.tab)));
  $("#analyze-btn").addEventListener("click", () => guard(async () => { await loadPosition(state.base || $("#notation").value, {analyse: false}); await runAnalysis(); }));
  $("#pv-first").addEventListener("click", () => pvGo(0));
  $("#pv-prev").addEventListener("click", () => pvGo((state.pv ? state.pv.index : 0) - 1));
  $("#pv-next").addEventListener("click", () => pvGo((state.pv ? state.pv.index : 0) + 1));
  $("#pv-last").addEventListener("click", () => pvGo(state.pv ? state.pv.steps.length - 1 : 0));
  document.addEventListener("keydown", (ev) => {
    if (state.editing && ed.selected && !isTyping() && edKey(ev)) { ev.preventDefault(); return; }
    if (isTyping() || !state.pv || state.editing) return;
    const moves = {ArrowLeft: -1, ArrowRight: 1};
    if (ev.key in moves) { pvGo(state.pv.index + moves[ev.key]); ev.preventDefault(); }
    else if (ev.key === "Home") { pvGo(0); ev.preventDefault(); }
    else if (ev.key === "End") { pvGo(state.pv.steps.length - 1); ev.preventDefault(); }
  });
  $("#tree-btn").addEventListener("click", () => guard(drawTree));
  viewButtons(2);
  $("#suggest-btn").addEventListener("click", () => guard(runSuggest));
  $("#new-game-btn").addEventListener("click", () => guard(newGame));
  $("#play-game").innerHTML = $("#deal-game").innerHTML;
  $("#play-game").addEventListener("change", () => {
    const m = /players=(\d)/.exec($("#play-game").value), n = m ? Number(m[1]) : 2;
    $("#seat").innerHTML = n === 2 ? '<option value="0">player 0</option><option value="1">player 1 (dealer)</option>'
      : Array.from({length: n}, (_, p) => `<option value="${p}">seat ${p}${p === n - 1 ? " (dealer)" : ""}</option>`).join("");
  });
  $("#download-btn").addEventListener("click", downloadRecord);
  $("#review-game-btn").addEventListener("click", () => guard(async () => {
    $("#record-text").value = state.game.record;
    $("#review-round").innerHTML = '<option value="1">1</option>';
    switchTab("review");
    await runReview();
  }));
  $("#record-file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (file) $("#record-text").value = await file.text();
    $("#review-round").innerHTML = '<option value="1">1</option>';
  });
  $("#review-round").addEventListener("change", () => guard(runReview));
  $("#review-btn").addEventListener("click", () => guard(runReview));

  const pos = new URLSearchParams(window.location.search).get("pos");
  if (pos) await guard(() => loadPosition(pos));
  document.body.dataset.ready = "1";
}

start();
