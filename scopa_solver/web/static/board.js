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

async function api(path, body, label, quiet = false, ctl = new AbortController()) {
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

// The last moves (a list of {move, seat}): shown under the table, the card played and the cards it
// took, and marked where they are now (the table for a card laid down, else the taker's pile).
function lastMovesHTML(b, last) {
  if (!last || !last.length) return "";
  return `<div class="last-moves" id="last-move">${last.map(({move, seat}) => {
    const [card, taken] = moveCards(move);
    const who = b.players === 2 ? `Player ${seat}` : seatName(b, seat);
    return `<div class="last" data-move="${esc(move)}"><span>${esc(who)} played</span>${cardSVG(card, 0.42, "played")}` +
      (taken.length ? `<span>took</span>${taken.map((c) => cardSVG(c, 0.42, "taken")).join("")}` : "<span>on the table</span>") + "</div>";
  }).join("")}</div>`;
}

function markLast(last) {
  for (const {move} of last || []) {
    const [card, taken] = moveCards(move);
    $$(`#table svg.card[data-card="${card}"]`).forEach((x) => x.classList.add("played"));
    for (const c of [card, ...taken]) $$(`#board .pile svg.card[data-card="${c}"], #board .fpile svg.card[data-card="${c}"]`).forEach((x) => x.classList.add("taken"));
  }
}

function drawBoard(b, note = "", clickSeat = null, last = null) {
  $("#board").classList.toggle("wide", b.players > 2);
  state.shown = b;
  if (b.players > 2) { drawRing(b, note, last); markLast(last); return; }
  const total = b.score.total;
  const over = b.over ? `<div class="over" id="round-over">Round over: player 0 <b>${total[0]}</b>, player 1 <b>${total[1]}</b>` +
    ` (margin ${total[0] - total[1] >= 0 ? "+" : ""}${total[0] - total[1]} for player 0)</div>` : "";
  $("#board").innerHTML = `
    ${seatHTML(b, 1, clickSeat === 1)}
    <div class="middle">
      <div><h3>Table</h3><div class="cards" id="table">${b.table.map((c) => cardSVG(c)).join("") || '<span class="board-note">empty table</span>'}</div></div>
      <div class="stock" id="stock">${b.stock ? backSVG(0.6, b.stock) : ""}<span>stock: <b class="count">${b.stock}</b> card${b.stock === 1 ? "" : "s"}</span></div>
      ${lastMovesHTML(b, last)}
    </div>
    ${seatHTML(b, 0, clickSeat === 0)}
    ${over}
    <p class="board-note mono" id="board-notation">${esc(b.notation)}</p>
    ${note ? `<p class="board-note" id="board-step">${esc(note)}</p>` : ""}`;
  markLast(last);
}


// -- the family: every seat around the table ------------------------------------------------------

const SEAT_NAMES = {3: ["S", "E", "W"], 4: ["S", "E", "N", "W"], 6: ["S", "SE", "NE", "N", "NW", "SW"]};

function seatName(b, p) {
  const where = (SEAT_NAMES[b.players] || [])[p];
  return `Seat ${p}${where ? ` (${where})` : ""}`;
}

// A seat in a sentence: "player N" in the two-player game, "Seat N" in the family's (as its seats are headed).
function seatWord(b, p) { return b.players === 2 ? `player ${p}` : `Seat ${p}`; }

// The note under a view's board: "player 0's view", "Seat 2's view".
function viewNote(b, p) { return `${seatWord(b, p)}'s view`; }

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

function drawRing(b, note, last) {
  const total = b.score.total;
  const over = b.over ? `<div class="over" id="round-over">Round over: ${total.map((t, side) =>
    `${esc(sideName(b, side))} <b>${t}</b>`).join(", ")}</div>` : "";
  $("#board").innerHTML = `
    <p class="board-note" id="game-name"><b>${esc(b.game)}</b>${b.rules.length ? ` · ${esc(b.rules.join(" "))}` : ""}</p>
    <div class="ring ring-${b.players}">
      ${b.hands.map((_, p) => ringSeatHTML(b, p)).join("")}
      <div class="center">
        <h3>Table</h3><div class="cards" id="table">${b.table.map((c) => cardSVG(c, 0.7)).join("") || '<span class="board-note">empty table</span>'}</div>
        <div class="stock" id="stock">${b.stock ? backSVG(0.4, b.stock) : ""}<span>stock: <b class="count">${b.stock}</b> card${b.stock === 1 ? "" : "s"}</span></div>
        ${lastMovesHTML(b, last)}
        ${sidesTableHTML(b)}
      </div>
    </div>
    ${over}
    <p class="board-note mono" id="board-notation">${esc(b.notation)}</p>
    ${note ? `<p class="board-note" id="board-step">${esc(note)}</p>` : ""}`;
}

// -- positions, the move list and its variations -------------------------------------------------
// The board keeps a tree of moves from the position loaded (the root): every move played or
// clicked is a node; a different move from an earlier point starts a variation. The address
// holds the root and the line to the current node (?pos=...&line=m1_m2_...), one history entry
// a step, so the browser's Back steps back. In a player's view the address holds the view
// alone (?pos=VIEW, what the player may know: reloading it opens the same view); with
// hindsight ticked, the whole position, its line and the view (&view=P). The history's entries
// name their root by a key of the page's own, never by its notation.

const hist = {root: null, cur: null, seed: null, pending: null};

function node(parent, move, b) {
  const n = {parent, move, board: b, notation: b.notation, children: []};
  if (!parent) n.key = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  if (parent) parent.children.push(n);
  return n;
}

function pathOf(n) { const moves = []; for (; n && n.parent; n = n.parent) moves.unshift(n.move); return moves; }

function urlOf(n) {
  const q = new URLSearchParams();
  if (fairView() && lens.board) q.set("pos", lens.board.notation);   // no line, no seed: they tell the deal
  else {
    q.set("pos", hist.root.notation);
    const line = pathOf(n);
    if (line.length) q.set("line", line.join("_"));
    if (hist.seed !== null) q.set("seed", String(hist.seed));
    if (state.viewPlayer !== null && n.board.kind === "position") q.set("view", String(state.viewPlayer));
  }
  const ms = matchScore();
  if (ms) q.set("match", $("#an-match").value.trim());
  if (ms && ms.target) q.set("target", String(ms.target));
  return `${window.location.pathname}?${q.toString()}`;
}

// The browser's history follows the line: each of the board's entries keeps the lines of the
// board's entries under it (`lines`, the first entry's first), so that going to an earlier point
// of the line steps the history back to it instead of pushing an entry over a later one, and
// Back keeps going back (Forward then walks the line forward again).
const lineKey = (n) => pathOf(n).join("_");
const leadsTo = (a, b) => a === "" || a === b || b.startsWith(a + "_");     // line a is b or b's start

function entryLines() {
  const st = window.history.state;
  return st && st.board && hist.root && st.root === hist.root.key && Array.isArray(st.lines) ? st.lines : null;
}

// Going to `n` by stepping the history back, when an entry under this one leads to it; true if so
// (the popstate that follows shows `n`, pushing what is left of its line).
function historyBackTo(n) {
  const lines = entryLines(), line = lineKey(n);
  if (!lines) return false;
  const top = lines.length - 1;
  if (leadsTo(lines[top], line)) return false;          // n is here or further on: push
  for (let j = top - 1; j >= 0; j--) {
    if (!leadsTo(lines[j], line)) continue;
    hist.pending = lines[j] === line ? null : n;
    window.history.go(j - top);
    return true;
  }
  return false;
}

function setURL(push) {
  const url = urlOf(hist.cur), line = lineKey(hist.cur), lines = entryLines() || [];
  if (url === window.location.pathname + window.location.search && lines.length) return;
  const st = {board: 1, root: hist.root.key, lines: push ? [...lines, line] : [...lines.slice(0, -1), line],
              view: fairView() ? "fair" : state.viewPlayer === null ? "" : "hindsight"};
  if (push) window.history.pushState(st, "", url); else window.history.replaceState(st, "", url);
  seedBox();
}

// The header's seed deals the position shown again: in a view it would tell the hidden cards, so
// the seed of that deal is blanked there, and put back with every card (or hindsight).
function seedBox() {
  const box = $("#seed"), hid = box.dataset.hid;
  if (fairView() && hist.seed !== null && box.value === String(hist.seed)) {
    box.dataset.hid = box.value;
    box.value = "";
    box.placeholder = "hidden";
    box.title = "the seed of this deal is hidden in a player's view";
  } else if (!fairView() && hid !== undefined) {
    if (box.value === "") box.value = hid;
    delete box.dataset.hid;
    box.placeholder = box.title = "";
  }
}

// The address follows a change of view or of hindsight on the same node (no new entry).
function addressFollows() { if (hist.cur && hist.root) setURL(false); }

function clearAnalysis() {
  state.matchChance = null;
  $("#moves tbody").innerHTML = "";
  $("#match-note").textContent = "";
  $("#match-note").hidden = true;
  $("#best-strip").innerHTML = "";
  $("#moves-note").textContent = "";
  $("#trust").textContent = "";
  $("#pv-value").textContent = "";
  $("#pv-moves").innerHTML = "";
  $("#tree").innerHTML = "";
  $("#tree-tools").hidden = true;
  stopSuggest();
  $("#suggest-table tbody").innerHTML = "";
  $("#suggest-info").textContent = "";
  $("#suggest-progress").textContent = "";
  state.pv = null;
  linesClear();
}

// The header follows the position shown: its game (when one of the menu's) and its seed.
function headerFollows(b) {
  const rules = b.rules.join(" ");
  if (Array.from($("#deal-game").options).some((o) => o.value === rules)) setGame(rules);
  if (hist.seed !== null) $("#seed").value = String(hist.seed);
}

// One game for the page: the header's Game menu and the Play tab's show the same choice
// (whichever was changed last, or the game of the position opened), and the Play tab's seats follow it.
function setGame(rules) {
  for (const id of ["#deal-game", "#play-game"]) $(id).value = rules;
  const m = /players=(\d)/.exec(rules), n = m ? Number(m[1]) : 2;
  if ($("#seat").options.length === n) return;       // keep the seat chosen
  $("#seat").innerHTML = n === 2 ? '<option value="0">player 0</option><option value="1">player 1 (dealer)</option>'
    : Array.from({length: n}, (_, p) => `<option value="${p}">Seat ${p}${p === n - 1 ? " (dealer)" : ""}</option>`).join("");
}

// Show a position (notation) on the board as a new root and analyse it; `line` (moves) is
// played from it, the board ending at its last move.
async function loadPosition(text, {analyse = true, played = null, line = [], seed = null, push = true,
                                    view = null, key = null, at = null, round = null} = {}) {
  const b = await api("board", {position: text}, "reading");
  const boards = await Promise.all(line.map((_, k) => api("board", {position: b.notation, moves: line.slice(0, k + 1)}, "reading")));
  hist.root = node(null, null, b);
  if (key) hist.root.key = key;       // reopened from its own history entry: the entries stay its
  hist.seed = seed;
  let n = hist.root;
  line.forEach((m, k) => { n = node(n, m, boards[k]); });
  if (round) n = annotateRound(round, at);     // a reviewed round: its marks and comments on the line
  state.played = played;
  $("#notation").value = b.notation;
  viewButtons(b.players);
  sideChoices(b);
  headerFollows(b);
  if (state.editing) switchTab("analysis");
  if (view !== null && !(view < b.players && b.kind === "position")) {      // a link's view no seat of this position has
    showNote(`no view of seat ${view} to open here: every card shown`);
    view = null;
  }
  await go(n, {push, analyse, view, hindsight: view !== null});   // a new position: every card (a link: its view, in hindsight)
  return b;
}

// Make `n` the current node: the board, the move list, the address and the analysis follow.
// A player's view set (`view`) carries on to it: its board is that player's view, asked before
// anything is drawn, so that no panel shows the whole position meanwhile.
async function go(n, {push = true, analyse = true, view = state.viewPlayer, hindsight = false} = {}) {
  if (!n) return;
  if (push && historyBackTo(n)) return;
  const keep = view !== null && n.board.kind === "position";
  const vb = keep ? await guard(() => api("board", {position: n.notation, player: view}, "reading")) : null;
  if (keep && !vb) return;    // the error shown, the board as it was
  hist.cur = n;
  if (n.gamePlayed !== undefined) state.played = n.gamePlayed;   // a reviewed round: the move played there
  state.base = n.notation;
  state.board = n.board;
  state.viewPlayer = keep ? view : n.board.kind === "view" ? n.board.player : null;
  lens.board = keep ? vb : n.board.kind === "view" ? n.board : null;       // before the address: it follows them
  $("#hindsight").checked = keep && hindsight;
  $$(".view-btn").forEach((x) => x.classList.toggle("active", x.dataset.player === (keep ? String(view) : "")));
  un.run++;
  $("#unseen").hidden = true;
  $("#notation").value = n.notation;
  clearAnalysis();
  const last = n.parent ? [{move: n.move, seat: n.parent.board.to_move}] : null;      // a move every seat saw
  if (!state.editing) drawBoard(vb || n.board, keep ? viewNote(vb, view) : "", null, last);
  drawHistory();
  setURL(push);
  if (keep) {                 // the view's panels (fair values, the list cut here)
    viewPanels(vb);
    if (fairView()) startFair();
    guard(drawUnseen);
    return;
  }
  if (analyse && n.board.kind === "position" && !n.board.over) startAnalysis();
  else { stopAnalysis(); evalBar(null); }
  lensFollows(n.board);
}

async function playLine(moves, boards = null) {
  let n = hist.cur;
  for (let k = 0; k < moves.length; k++) {
    let child = n.children.find((c) => c.move === moves[k]);
    if (!child) child = node(n, moves[k], boards ? boards[k] : await api("board", {position: n.notation, moves: [moves[k]]}, "playing"));
    n = child;
  }
  await go(n);
}

const playFromBase = (move) => playLine([move]);

function step(delta) {
  let n = hist.cur;
  if (!n) return;
  for (let k = 0; k < Math.abs(delta) && n; k++) n = delta < 0 ? (n.parent || n) : (n.children[0] || n);
  if (n !== hist.cur) go(n);
}

function lineEnd() { let n = hist.cur; while (n && n.children.length) n = n.children[0]; return n; }

// A move's card and the cards it takes: "7dx3s+4s" -> ["7d", ["3s", "4s"]].
function moveCards(move) {
  const [card, taken] = String(move).split("x");
  return [card, taken ? taken.split("+") : []];
}

function dealNumber(b) {   // which deal of the round the board is in (1 = the first)
  const per = b.players === 2 ? 6 : 3 * b.players;
  return Math.round((40 - (b.players === 2 ? 4 : 0) - b.stock) / per) || 1;
}

function drawHistory() {
  const seat = (b) => b.players === 2 ? `P${b.to_move}` : (SEAT_NAMES[b.players] || [])[b.to_move] || `S${b.to_move}`;
  const nodes = [];
  const item = (n, ply) => {
    nodes.push(n);
    const dealt = n.board.stock < n.parent.board.stock;
    return `<span class="hmove ${n === hist.cur ? "current" : ""}" data-node="${nodes.length - 1}" data-ply="${ply}" ` +
      `data-move="${esc(n.move)}" title="${esc(seat(n.parent.board))} played ${esc(n.move)}"><small>${ply}.</small> ${esc(n.move)}${noteHTML(n)}</span>` +
      commentHTML(n) +
      (dealt ? `<span class="deal-sep">deal ${dealNumber(n.board)}</span>` : "");
  };
  const line = (n, ply, html) => {      // n's main line with its variations, depth first
    let out = html;
    while (n.children.length) {
      const [main, ...rest] = n.children;
      out += item(main, ply + 1);
      for (const v of rest) out += `<span class="variation">(${line(v, ply + 1, item(v, ply + 1))})</span>`;
      n = main; ply++;
    }
    return out;
  };
  const html = hist.root ? line(hist.root, 0, "") : "";
  $("#history").innerHTML = html || '<span class="board-note">no moves yet: click a move of the analysis, or of the line</span>';
  $$("#history .hmove").forEach((el) => {
    const n = nodes[Number(el.dataset.node)];
    el.addEventListener("click", () => go(n));
    el.addEventListener("mouseenter", () => markMove(n.parent === hist.cur ? n.move : null, n.parent === hist.cur));
    el.addEventListener("mouseleave", () => markMove(null));
  });
  annotationsFollow();
  const cur = $("#history .hmove.current");
  if (cur) cur.scrollIntoView({block: "nearest"});
  const at = pathOf(hist.cur).length, end = pathOf(lineEnd()).length;
  $("#hist-step").textContent = `${at} / ${end}`;
}

// Marks a move of the current position on the board: its card in the hand, what it takes on the table.
function markMove(move, hover = true) {
  $$("#board svg.card.hover").forEach((x) => x.classList.remove("hover"));
  if (!move || !hover) return;
  const [card, taken] = moveCards(move);
  for (const c of [card, ...taken]) $$(`#board svg.card[data-card="${c}"]`).forEach((x) => x.classList.add("hover"));
}

// -- the analysis: depth-limited values at once, deeper and deeper until exact or stopped ---------
// One live analysis on the server a position (see startAnalysis); the page reads it, shows each
// depth as it lands and stops it when it moves on.

const known = new Map();           // notation|objective -> {a, s}: what each position reached
const an = {run: 0, ctl: null, started: 0, tick: null, live: null};

// 12345678 -> "12.3 M": an engine's node counts and speeds
function countText(n) {
  for (const [size, unit] of [[1e9, "G"], [1e6, "M"], [1e3, "k"]]) if (n >= size) return `${(n / size).toFixed(1)} ${unit}`;
  return `${Math.round(n)}`;
}

// The thinking line, like a chess engine's "info" line: the deepest depth done, the depth being
// searched, the nodes searched so far (counted live by the kernel, mid-depth too) and their
// speed, the time since the analysis started (ticking).
function searchedText(entry, tally) {
  const done = !entry.a ? "" : isExact(entry.a) ? "exact · " : `depth ${entry.a.horizon} · `;
  const next = tally.depth && !isExact(entry.a) ? `searching ${tally.depth} · ` : "";
  return `${done}${next}${countText(tally.nodes)} nodes · ${countText(tally.nps || 0)} n/s`;
}

function analysisLine(entry, tally) {
  const spent = (performance.now() - tally.start) / 1000;
  return `${entry.a ? "deepening" : "analysing"}… ${searchedText(entry, tally)} · ${spent.toFixed(0)} s`;
}

// `complete`: the values are proved (docs/search.md#what-a-result-proves); anything else is an estimate
const depthOf = (x) => !x ? -1 : x.complete ? Infinity : (x.horizon || 0);
const isExact = (x) => depthOf(x) === Infinity;

function stopAnalysis(note = "") {
  an.run++;
  clearInterval(an.tick);
  an.tick = null;
  if (an.ctl) an.ctl.abort();
  an.ctl = null;
  if (an.live) api("live/stop", {id: an.live}, "", true).catch(() => {});   // the server's search stops too
  an.live = null;
  $("#an-stop").hidden = true;
  $("#an-go").hidden = !state.base || !state.board || state.board.over || state.board.kind !== "position";
  if (note) $("#an-status").textContent = note;
}

const pause = (ms) => new Promise((done) => setTimeout(done, ms));

// One live analysis on the server (/api/live/*: the search deepens there in a thread of its own,
// python-chess's engine.analysis): started once, read every POLL_MS (its progress and latest
// depth), stopped by the Stop button, a new position or the time limit.
const POLL_MS = 300;

async function startAnalysis() {
  if (fairView()) return startFair();       // a view: the fair values, never the exact search
  stopAnalysis();
  const run = an.run, notation = state.base, objective = $("#objective").value;
  const key = `${notation}|${objective}`;
  const entry = known.get(key) || {a: null, s: null};
  known.set(key, entry);
  if (entry.a) showAnalysis(entry);
  if (isExact(entry.a) && isExact(entry.s)) {
    stopAnalysis("exact: searched to the end of the round");
    matchAnalysis(entry, notation, objective);
    return;
  }
  const stopAfter = Math.min(600, Number($("#time-limit").value) || 120);
  const tally = {start: performance.now(), nodes: 0, nps: 0, depth: null};
  $("#an-stop").hidden = false;
  $("#an-go").hidden = true;
  document.body.dataset.analysing = "1";
  const tick = () => { if (run === an.run) $("#an-status").textContent = analysisLine(entry, tally); };
  tick();
  an.tick = setInterval(tick, 500);
  matchAnalysis(entry, notation, objective);      // beside it, not waited for
  try {
    an.ctl = new AbortController();
    const started = await api("live/start", {position: notation, time_limit: stopAfter, objective}, "", true, an.ctl);
    if (run !== an.run) { api("live/stop", {id: started.id}, "", true).catch(() => {}); return; }
    an.live = started.id;
    let p = {done: false, analysis: null};
    while (run === an.run && !p.done) {
      await pause(POLL_MS);
      if (run !== an.run) return;
      p = await api("live/poll", {id: started.id}, "", true, an.ctl);
      if (run !== an.run) return;
      Object.assign(tally, {nodes: p.info.nodes, nps: p.info.nps, depth: p.info.depth});
      if (p.analysis) {
        if (depthOf(p.analysis.moves) >= depthOf(entry.a)) entry.a = p.analysis.moves;
        if (depthOf(p.analysis.line) >= depthOf(entry.s)) entry.s = p.analysis.line;
        showAnalysis(entry);
      }
      tick();
    }
    if (run !== an.run) return;
    an.live = null;
    const why = entry.a && entry.a.stopped;
    stopAnalysis(isExact(entry.a) ? `exact: searched to the end of the round (${countText(tally.nodes)} nodes)`
      : why === "time" ? `stopped after ${stopAfter} s (the limit): ${searchedText(entry, tally)}` : "");
  } catch (e) {
    if (run !== an.run || e instanceof Cancelled) return;
    stopAnalysis("stopped by an error");
    throw e;
  } finally {
    if (run === an.run || an.run > run) delete document.body.dataset.analysing;
  }
}

// -- the match objective (issue 42) -----------------------------------------------------------------
// With a match score in the analysis panel (every side's match points before this round, side 0
// first: typed, from the address's &match=, or set when a game of match play is opened here),
// a second request (/api/analyze with match_score) gives every move its chance to win the match,
// both sides playing to win it; the move table shows it beside the round's value and marks the
// moves where the two objectives disagree: a move that wins the match more often than the best
// margin's, and a best-margin move that wins it less often. The score stays with the panel as
// the line is stepped through (a round's positions share it).

function matchScore() {      // the panel's {match_score, target}, or null when none is set
  const text = $("#an-match").value.trim();
  if (!text) return null;
  const score = text.split(/\s*[-–:,/ ]\s*/).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  const target = $("#an-target").value.trim();      // the server names a target out of 2 to 61
  return target ? {match_score: score, target: /^\d+$/.test(target) ? Number(target) : target} : {match_score: score};
}

function setMatchScore(score, target = null) {
  $("#an-match").value = score ? score.join("-") : "";
  $("#an-target").value = Number.isInteger(target) && target >= 2 && target <= 61 ? String(target) : "";
}

const pct = (c) => `${(100 * c).toFixed(2)}%`;

async function matchAnalysis(entry, notation, objective) {
  const ms = matchScore(), note = $("#match-note");
  const b = state.board;
  if (!ms || objective !== "value" || !b || b.over || b.kind !== "position") {
    entry.m = null;
    note.hidden = !ms || !b || b.kind !== "position";
    note.textContent = ms && objective !== "value" ? "The match score is for the objective value (the round's margin) only." : "";
    if (state.base === notation) showAnalysis(entry);
    return;
  }
  const key = JSON.stringify(ms);
  if (entry.m && entry.m.key === key) { showAnalysis(entry); return; }
  note.hidden = false;
  note.textContent = "Searching the chance to win the match…";
  try {
    const limit = Math.min(30, Number($("#time-limit").value) || 10);
    const data = await api("analyze", {position: notation, time_limit: limit, ...ms}, "", true);
    entry.m = {key, data};
  } catch (e) {
    entry.m = null;
    if (state.base === notation && !(e instanceof Cancelled)) note.textContent = `Match score: ${e.message}`;
    return;
  }
  if (state.base !== notation || key !== JSON.stringify(matchScore())) return;     // moved on meanwhile
  showAnalysis(entry);
}

// The match's rows for the move table (move -> {text, about, mark, why}), null without them; and
// the note above the table: the chance of the best move and where the objectives disagree.
const list = (rows) => rows.map((x) => x.move).join(", ");

function matchRows(entry, a, mover) {
  const m = entry.m && entry.m.data, note = $("#match-note");
  state.matchChance = null;
  if (!m || m.position !== a.position || a.objective !== "value") return null;
  state.matchChance = {position: m.position, side: m.side, chance: m.chance};      // the eval bar's label too
  const chance = new Map(m.moves.map((x) => [x.move, x]));
  const score = m.match.score.join("–"), depth = isExact(m) ? "exact" : `estimates at depth ${m.horizon}`;
  const marginBest = a.moves.filter((x) => x.best), matchBest = m.moves.filter((x) => x.best);
  const isMatchBest = new Set(matchBest.map((x) => x.move)), isMarginBest = new Set(marginBest.map((x) => x.move));
  const disagree = marginBest.some((x) => !isMatchBest.has(x.move));
  const top = (rows) => rows.reduce((best, x) => (best === null || x.chance > best.chance ? x : best), null);
  const bestMargin = top(marginBest.map((x) => chance.get(x.move)).filter(Boolean)), bestMatch = matchBest[0];
  const rows = new Map();
  for (const x of a.moves) {
    const c = chance.get(x.move);
    if (!c || c.chance === null) continue;
    const row = {text: pct(c.chance), about: `${mover} wins the match ${pct(c.chance)} of the time after ${x.move}, both sides playing to win the match (${depth})`};
    if (disagree && isMatchBest.has(x.move) && !isMarginBest.has(x.move) && bestMargin)
      Object.assign(row, {mark: "for-match", why: `wins the match more often: ${pct(c.chance)} against ${pct(bestMargin.chance)} for ${bestMargin.move}, the best round margin (${valueText(a.moves.find((y) => y.move === bestMargin.move))}), though it makes a round margin of ${valueText(x)}`});
    else if (disagree && isMarginBest.has(x.move) && !isMatchBest.has(x.move) && bestMatch)
      Object.assign(row, {mark: "for-margin", why: `the best round margin (${valueText(x)}), but wins the match less often: ${pct(c.chance)} against ${pct(bestMatch.chance)} for ${bestMatch.move}`});
    rows.set(x.move, row);
  }
  note.hidden = false;
  note.textContent = `Match ${score} to ${m.match.target}: ${mover} wins it ${pct(m.chance)} of the time with best play (${depth}).` +
    (disagree ? ` The two objectives disagree here: ${list(matchBest)} ${matchBest.length > 1 ? "win" : "wins"} the match most often; ` +
      `${list(marginBest.filter((x) => !isMatchBest.has(x.move)))} ${marginBest.length > 1 ? "make" : "makes"} ` +
      `the best round margin (${valueText(marginBest[0])}) but ${marginBest.length > 1 ? "win" : "wins"} the match less often.`
      : " The best moves for the round are best for the match too.");
  return rows;
}

function signed(v) { return v === null || v === undefined ? "–" : (v > 0 ? "+" : "") + v; }

function valueText(m) {    // a depth always gives a value; bounds only if that ever fails, never −∞ … +∞
  if (m.value !== null && m.value !== undefined) return signed(m.value);
  if (m.lower !== null && m.upper !== null) return `${m.lower} … ${m.upper}`;
  if (m.lower !== null) return `≥ ${m.lower}`;
  if (m.upper !== null) return `≤ ${m.upper}`;
  return "…";
}

function provedText(m) {   // the bounds proved on an estimated value, if any
  if (m.lower === null || m.lower === undefined) return m.upper === null || m.upper === undefined ? "" : `; proved ≤ ${m.upper}`;
  return m.upper === null || m.upper === undefined ? `; proved ≥ ${m.lower}` : `; proved ${m.lower} … ${m.upper}`;
}

function whose(b, seat) {
  if (b.players === 2) return `player ${seat}`;
  return `${seatWord(b, seat)}, ${sideName(b, b.sides[seat])}`;
}

function trustText(a) {
  if (isExact(a)) return "Exact: every value is the result of perfect play by every seat to the end of the round.";
  return `Depth-limited: the search looked ${a.horizon} plays ahead (of ${a.plies_left} left) and scored the ` +
    "rest by a static guess from the cards taken so far (cards, coins, settebello, primiera, scopas). " +
    "Take the order of the moves as a hint; a value can be off by a point or more, and it changes as the search deepens. " +
    "Values marked ✓ are exact.";
}

function showAnalysis(entry) {
  const a = entry.a, s = entry.s, b = state.board;
  if (!a || a.position !== state.base || fairView()) return;
  const family = b.players > 2;
  const mover = whose(b, a.to_move);
  const depth = isExact(a) ? "exact" : `depth ${a.horizon} of ${a.plies_left} plays`;
  $("#moves-note").textContent = a.objective === "maxn"
    ? `max^n: ${family ? sideName(b, a.side) : mover}'s points at the end, best first · ${depth}`
    : `values for ${mover}, best first · ${depth}`;
  $("#value-head").textContent = a.objective === "maxn" ? `points of side ${a.side}` : `value for ${b.players === 2 ? `P${a.to_move}` : `side ${a.side}`}`;
  $("#value-head").title = valueMeaning(b, a.objective, a.objective === "maxn" || family ? sideName(b, a.side) : mover);
  $("#review-moves th.num").textContent = $("#value-head").textContent;
  $("#review-moves th.num").title = $("#value-head").title;
  $("#trust").textContent = trustText(a);
  $("#trust").className = isExact(a) ? "exact" : "estimate";
  const odds = matchRows(entry, a, mover);
  const rowsHTML = a.moves.map((m) => {
    const c = odds && odds.get(m.move);
    return `<tr class="${m.best ? "best" : ""} ${state.played === m.move ? "played" : ""} ${c && c.mark === "for-match" ? "match-best" : ""}" data-move="${esc(m.move)}">
      <td class="move mono">${esc(m.move)}</td><td class="value num" title="${esc(m.exact ? "exact" : `estimate, depth ${a.horizon}${provedText(m)}`)} for ${esc(mover)}">${esc(valueText(m))}</td>
      <td class="chance num" title="${esc(c ? c.about : "")}">${c ? esc(c.text) : ""}</td>
      <td class="exactness">${m.exact ? '<span class="ok" title="exact">✓</span>' : `<span class="est">≈ d${a.horizon}</span>`}</td><td class="badge">${c && c.mark ? `<span class="match-mark ${c.mark}" title="${esc(c.why)}">${c.mark === "for-match" ? "♛ for the match" : "round only"}</span>` : ""}</td></tr>`;
  }).join("");
  for (const tb of [$("#moves tbody"), $("#review-moves tbody")]) tb.innerHTML = rowsHTML;
  for (const t of [$("#moves"), $("#review-moves")]) t.classList.toggle("match", !!odds);
  $("#review-moves-note").textContent = $("#moves-note").textContent;
  $$("#moves tbody tr, #review-moves tbody tr").forEach((tr) => {
    tr.addEventListener("click", () => guard(() => playFromBase(tr.dataset.move)));
    tr.addEventListener("mouseenter", () => markMove(tr.dataset.move));
    tr.addEventListener("mouseleave", () => markMove(null));
  });
  evalBar(a);
  drawBestStrip(a, mover);
  if (s && s.position === state.base) showLine(s);
  markHindsight();
  linesFollow(a);
}

// At a phone's width the move table is far below the board: the best moves (up to three, as
// the table has them) are repeated right under the eval bar, on the first screen (CSS shows
// the strip at narrow widths only); a click plays the move, as a row of the table does.
function drawBestStrip(a, mover) {
  const best = a.moves.filter((m) => m.best).slice(0, 3);
  const strip = $("#best-strip");
  if (!best.length) { strip.innerHTML = ""; return; }
  strip.innerHTML = `<span>Best for ${esc(mover)}:</span>` + best.map((m) =>
    `<button type="button" class="best-move mono" data-move="${esc(m.move)}">${esc(m.move)} <b>${esc(valueText(m))}</b></button>`).join("") +
    '<a href="#moves">every move ↓</a>';
  $$("#best-strip .best-move").forEach((btn) => {
    btn.addEventListener("click", () => guard(() => playFromBase(btn.dataset.move)));
    btn.addEventListener("mouseenter", () => markMove(btn.dataset.move));
    btn.addEventListener("mouseleave", () => markMove(null));
  });
}

function showLine(s) {
  const b = state.board, family = b.players > 2;
  state.pv = {steps: s.steps, pv: s.pv};
  const first = s.steps[0].to_move;
  const depth = s.complete ? "exact, to the end" : `estimate, to depth ${s.horizon}${provedText(s)}`;
  $("#pv-value").textContent = s.value === null ? `stopped (${s.stopped}) before any value`
    : `${signed(s.value)} for ${whose(b, first)}, ${depth}` + (s.points ? `; points by side ${s.points.join(" / ")}` : "");
  $("#pv-moves").innerHTML = s.pv.map((m, i) =>
    `<li data-index="${i + 1}" class="p${family ? b.sides[s.steps[i].to_move] : s.steps[i].to_move}">${i + 1}. ${esc(m)}</li>`).join("");
  $$("#pv-moves li").forEach((li) => {
    const k = Number(li.dataset.index);
    li.addEventListener("click", () => guard(() => playLine(s.pv.slice(0, k), s.steps.slice(1, k + 1))));
    li.addEventListener("mouseenter", () => markMove(k === 1 ? s.pv[0] : null));
    li.addEventListener("mouseleave", () => markMove(null));
  });
}

// -- the evaluation bar: for the chosen side, whoever is to move -------------------------------------

function sideChoices(b) {
  const sides = [...new Set(b.sides)];
  const old = $("#eval-side").value;
  $("#eval-side").innerHTML = sides.map((s) => `<option value="${s}">${esc(b.players === 2 ? `player ${s}` : sideName(b, s))}</option>`).join("");
  if (sides.map(String).includes(old)) $("#eval-side").value = old;
  $("#tree-who").textContent = b.players === 2 ? "player 0 (side 0)" : "side 0 (Seat 0's side)";
}

function evalBar(a) {
  explainValue();
  if (!a) $("#best-strip").innerHTML = "";     // no analysis of the board shown (a game, a round over)
  if (fairView()) return fairEvalBar();
  const searched = a;
  a = barDepth(a);
  const side = Number($("#eval-side").value || 0), b = state.board;
  const fill = $("#eval-fill"), label = $("#eval-label");
  let v = null;
  if (a && a.value !== null && a.value !== undefined && b) {
    const two = new Set(b.sides).size === 2;
    if (a.objective === "maxn") v = a.side === side ? a.value : null;
    else if (a.side === side) v = a.value;
    else if (two) v = -a.value;       // a margin: the other side's is its opposite
  }
  if (v === null) {
    evalBarEmpty(a ? `no value for this side here (the analysis is for ${whose(b, a.to_move)})`
      : !b ? "no value: no position yet" : b.over ? "no value: the round is over" : "no value: not analysed");
    return;
  }
  $("#evalbar").classList.remove("novalue");
  const pct = a.objective === "maxn" ? Math.min(100, 100 * v / 11) : 50 + 50 * Math.tanh(v / 5);
  fill.style.width = `${pct.toFixed(1)}%`;
  const who = b.players === 2 ? `player ${side}` : sideName(b, side);
  const mc = state.matchChance, two = new Set(b.sides).size === 2;
  const odds = !mc || mc.position !== state.base || mc.chance === null || (mc.side !== side && !two) ? ""
    : ` · ${(100 * (mc.side === side ? mc.chance : 1 - mc.chance)).toFixed(2)}% to win the match`;
  label.textContent = `${signed(v)} for ${who} · ${isExact(a) ? "exact" : `estimate, depth ${a.horizon}`}` +
    (a !== searched ? ` (depth ${searched.horizon} searched: ${BAR_PARITY})` : "") + odds;
  $("#evalbar").dataset.value = String(v);
  $("#evalbar").classList.toggle("exact", isExact(a));
}

// What a value means, said on the board (the eval bar's legend, the move table's heading): the
// round's point margin for the side named (max^n: that side's own points), with best play.
function valueMeaning(b, objective, who) {
  if (objective === "maxn") return `points: the points ${who} ends the round with (max^n: every side plays for its own points)`;
  const others = b && new Set(b.sides).size > 2 ? "the best other side's, every other side playing against it"
    : "the other side's";
  return `value: the round's point margin for ${who}: its points at the round's end minus ${others}, with best play from here`;
}

function explainValue() {
  const b = state.board, objective = $("#objective").value, side = Number($("#eval-side").value || 0);
  const text = valueMeaning(b, objective, !b ? "the side named" : b.players === 2 ? `player ${side}` : sideName(b, side));
  $("#eval-legend").textContent = text;
  $("#eval-label").title = text;
}

// No value to show: the bar empty (not half full, which would read as an even position) and the label says why.
function evalBarEmpty(why) {
  $("#eval-fill").style.width = "0";
  $("#eval-label").textContent = why;
  $("#evalbar").dataset.value = "";
  $("#evalbar").classList.add("novalue");
  $("#evalbar").classList.remove("exact");
}

// The eval bar does not jump with the depth's parity. A depth-limited value leans towards the
// side that plays last before the horizon, so the bar shows only the depths whose last play is
// made by the same side as at the first depth (DEEPEN_STEP = 4 plays): with two sides that is
// every depth the search reaches (4, 8, 12, ...: each side has played as often), with three
// sides 4, 16, 28, ...; a depth of the other parity keeps the last one of the bar's (the move
// table shows every depth); exact values always.
const BAR_STEP = 4;
const BAR_PARITY = "the bar shows depths whose last play is by the same side";
const barHeld = new Map();     // notation|objective -> the deepest analysis of the bar's parity

function lastSide(b, a, plies) { return b.sides[(a.to_move + plies - 1) % b.players]; }

function barDepth(a) {
  const b = state.board;
  if (!a || !b || isExact(a) || !a.horizon || a.to_move === null || a.to_move === undefined) return a;
  const key = `${a.position}|${a.objective}`;
  if (lastSide(b, a, a.horizon) === lastSide(b, a, BAR_STEP)) { barHeld.set(key, a); return a; }
  const held = barHeld.get(key);
  return held && held.horizon < a.horizon ? held : a;
}

// -- several lines (python-chess's MultiPV), why the best beats each, ties ordered: /api/lines ------
// The best N moves, each with its own value and line; under each line after the first, why the
// first is better (their final scores by category, in words); moves of equal value put in a
// stated finer order (the side's points at each line's end), which the move table's stars show.
// From a player's view nothing is shown: a line would name hidden cards.

const ml = {run: 0, key: null, data: null, asking: null};

function linesClear(note = "") {
  ml.run++;
  ml.key = ml.data = ml.asking = null;
  $("#lines").innerHTML = "";
  $("#lines-ties").textContent = "";
  $("#fair-why").textContent = "";
  $("#lines-note").textContent = note;
  const b = state.board;
  $("#lines-btn").disabled = fairView() || !b || b.kind !== "position" || b.over;
}

async function showLines(quiet = false) {
  const b = state.board;
  if (fairView() || !state.base || !b || b.kind !== "position" || b.over) return;
  const notation = state.base, objective = $("#objective").value, count = Number($("#lines-count").value) || 3;
  const key = `${notation}|${objective}|${count}`;
  if (ml.key === key && ml.data) { drawLines(ml.data); return; }
  if (ml.asking === key) return;            // already asked (the table redraws while it searches)
  const run = ++ml.run;
  ml.asking = key;
  $("#lines-note").textContent = "searching…";
  try {
    const data = await api("lines", {position: notation, count, objective, time_limit: 10}, "lines", quiet);
    if (run !== ml.run || notation !== state.base) return;
    ml.key = key;
    ml.data = data;
    drawLines(data);
  } catch (e) {
    if (run === ml.run && !(e instanceof Cancelled)) $("#lines-note").textContent = e.message || String(e);
  } finally {
    if (run === ml.run) ml.asking = null;
  }
}

function drawLines(data) {
  const b = state.board;
  const depth = data.exact ? "exact, each to the end of the round" : `estimates, depth ${data.horizon}`;
  $("#lines-note").textContent = `for ${whose(b, data.to_move)} · ${depth}`;
  $("#lines-ties").textContent = data.ties ? `Ties: ${data.ties}.` : "";
  $("#lines").innerHTML = data.lines.map((l) => `<li data-move="${esc(l.move)}" class="${l.rank === 1 ? "first" : ""}">
    <div class="row"><b class="mono lmove">${esc(l.move)}</b><span class="lvalue num">${esc(signed(l.value))}</span>
      ${l.exact ? '<span class="ok" title="exact">✓</span>' : `<span class="est">≈ d${esc(l.horizon)}</span>`}
      ${l.points === null ? "" : `<small>ends with ${esc(l.points)} point${l.points === 1 ? "" : "s"}</small>`}</div>
    <div class="lpv mono">${l.pv.map((m, i) => `<span data-index="${i + 1}">${esc(m)}</span>`).join(" ")}</div>
    ${l.why ? `<div class="why">Against line 1: ${esc(l.why.text)}</div>` : ""}</li>`).join("");
  $$("#lines li").forEach((li, k) => {
    const line = data.lines[k];
    li.addEventListener("mouseenter", () => markMove(line.move));
    li.addEventListener("mouseleave", () => markMove(null));
    li.querySelectorAll(".lpv span").forEach((sp) => sp.addEventListener("click", () =>
      guard(() => playLine(line.pv.slice(0, Number(sp.dataset.index))))));
  });
  linesMarkTies(data);
}

// The move table's stars of equal best values carry the lines' order ("★ best 1", "★ best 2"...):
// exact, moves equal on the finer count too share a number ("★ best =" when every one does).
function linesMarkTies(data) {
  if (!data.ties || !data.lines.length) return;
  const top = data.lines[0].value, tied = data.lines.filter((l) => l.value === top);
  const finer = [...new Set(tied.map((l) => l.finer))];
  for (const l of tied) {
    const td = document.querySelector(`#moves tbody tr.best[data-move="${CSS.escape(l.move)}"] td.badge`);
    if (!td) continue;
    td.dataset.order = !data.exact ? String(l.rank) : finer.length === 1 ? "=" : String(finer.indexOf(l.finer) + 1);
    td.title = data.ties;
  }
}

// After the move table is drawn: re-mark the ties from lines already had; an exact analysis with
// several best moves asks for the lines at once (enough of them to order every tied move).
function linesFollow(a) {
  if (!a || a.position !== state.base || fairView()) return;
  if (ml.data && ml.data.position === a.position) { linesMarkTies(ml.data); return; }
  if (!isExact(a)) { depthTies(a); return; }
  const tied = a.moves.filter((m) => m.best).length;
  if (tied < 2 || !isExact(a)) return;
  const sel = $("#lines-count");
  if (Number(sel.value) < Math.min(5, tied)) sel.value = String(Math.min(5, tied));
  showLines(true);
}

// At a depth the search's finer evaluation (the cards and points taken by the horizon) tells
// equal values apart: the moves it ranks best keep the star ("★ best =" when several), the others
// of the same value say they are ranked lower; `ties` says it in words.
function depthTies(a) {
  $("#lines-ties").textContent = a.ties ? `Ties: ${a.ties}.` : "";
  const top = a.moves.filter((m) => m.order === 1).length;
  for (const m of a.moves) {
    if (!m.order) continue;
    const td = document.querySelector(`#moves tbody tr.best[data-move="${CSS.escape(m.move)}"] td.badge`);
    if (!td) continue;
    td.dataset.order = m.order === 2 ? "lower" : top > 1 ? "=" : "1";
    td.title = a.ties;
  }
}

function linesWire() {
  $("#lines-btn").addEventListener("click", () => guard(() => showLines()));
  $("#lines-count").addEventListener("change", () => { if (ml.data) guard(() => showLines()); });
}

async function drawTree() {
  if (!state.base) throw new Error("no position on the board");
  if (fairView()) return treeOff();
  const at = hist.cur;
  const t = await api("tree", {position: state.base}, "drawing the tree");
  $("#tree").innerHTML = t.svg;
  treeWire(at);
}

// -- the tree's view: zoom and pan, drawn at its own size (the labels readable), nodes that open --
// The tree is drawn at the renderer's size (its labels at 8 to 17 pt), not shrunk to the panel;
// − + and Fit zoom (Ctrl+wheel too), dragging pans, and clicking a node plays its line (each node's
// title is its path of moves from the root: "/m1/m2") from the position the tree was drawn for.

const treeView = {scale: 1, at: null, drag: null};

function treeNaturalSize() {
  const svg = $("#tree svg"), box = svg && svg.viewBox && svg.viewBox.baseVal;
  return box && box.width ? [box.width * 4 / 3, box.height * 4 / 3] : null;   // pt to px
}

function treeZoom(scale) {
  const svg = $("#tree svg"), size = treeNaturalSize(), box = $("#tree");
  if (!svg || !size) return;
  // keep the point at the middle of the view where it is
  const fx = (box.scrollLeft + box.clientWidth / 2) / Math.max(1, box.scrollWidth);
  const fy = (box.scrollTop + box.clientHeight / 2) / Math.max(1, box.scrollHeight);
  treeView.scale = Math.max(0.1, Math.min(4, scale));
  svg.style.width = `${(size[0] * treeView.scale).toFixed(1)}px`;
  svg.style.height = `${(size[1] * treeView.scale).toFixed(1)}px`;
  box.scrollLeft = fx * box.scrollWidth - box.clientWidth / 2;
  box.scrollTop = fy * box.scrollHeight - box.clientHeight / 2;
  $("#tree-zoom").textContent = `${Math.round(100 * treeView.scale)}%`;
}

function treeFit() {
  const size = treeNaturalSize(), box = $("#tree");
  if (size) treeZoom(Math.min(1, (box.clientWidth - 2) / size[0]));
}

function treeWire(at) {
  treeView.at = at;
  $("#tree-tools").hidden = !$("#tree svg");
  if (!$("#tree svg")) return;
  treeZoom(1);
  $$("#tree g.node").forEach((g) => {
    const title = g.querySelector("title"), path = title ? title.textContent : "";
    g.classList.add("opens");
    g.addEventListener("click", () => {
      if (treeView.drag && treeView.drag.moved) return;        // the end of a pan, not a click
      const moves = path.split("/").filter(Boolean), from = treeView.at;
      if (!from) return;
      guard(async () => {
        let n = from;          // the line from the node the tree was drawn at (as playLine does from the current one)
        for (const m of moves) n = n.children.find((c) => c.move === m) || node(n, m, await api("board", {position: n.notation, moves: [m]}, "playing"));
        await go(n);
      });
    });
  });
}

function treePanWire() {
  const box = $("#tree");
  box.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    treeView.drag = {x: ev.clientX, y: ev.clientY, left: box.scrollLeft, top: box.scrollTop, moved: false};
  });
  window.addEventListener("pointermove", (ev) => {
    const d = treeView.drag;
    if (!d) return;
    if (Math.abs(ev.clientX - d.x) + Math.abs(ev.clientY - d.y) > 4) { d.moved = true; box.classList.add("panning"); }
    if (d.moved) { box.scrollLeft = d.left - (ev.clientX - d.x); box.scrollTop = d.top - (ev.clientY - d.y); ev.preventDefault(); }
  });
  window.addEventListener("pointerup", () => {
    box.classList.remove("panning");
    setTimeout(() => { treeView.drag = null; }, 0);      // after the click that ends the drag
  });
  box.addEventListener("wheel", (ev) => {
    if (!ev.ctrlKey || !$("#tree svg")) return;
    ev.preventDefault();
    treeZoom(treeView.scale * (ev.deltaY < 0 ? 1.25 : 0.8));
  }, {passive: false});
  $("#tree-in").addEventListener("click", () => treeZoom(treeView.scale * 1.25));
  $("#tree-out").addEventListener("click", () => treeZoom(treeView.scale * 0.8));
  $("#tree-fit").addEventListener("click", treeFit);
  $("#tree-one").addEventListener("click", () => treeZoom(1));
}

// -- hidden cards --------------------------------------------------------------------------------

async function showView(player) {
  if (!state.base) throw new Error("no position on the board");
  state.viewPlayer = player === "" ? null : Number(player);
  $$(".view-btn").forEach((x) => x.classList.toggle("active", x.dataset.player === player));
  const body = {position: state.base};
  if (state.viewPlayer !== null) body.player = state.viewPlayer;
  const b = await api("board", body, "reading");
  drawBoard(b, state.viewPlayer === null ? "" : viewNote(b, state.viewPlayer));
  viewPanels(b);
  addressFollows();
  if (fairView()) startFair();
  await drawUnseen();
}

// One view button a seat: what that seat sees (every other hand face down, partner's too).
function viewButtons(players) {
  const who = (p) => players === 2 ? `Player ${p}'s view` : `Seat ${p}'s view`;
  $("#view-btns").innerHTML = `<button type="button" class="view-btn active" data-player="">Every card</button>` +
    Array.from({length: players}, (_, p) => `<button type="button" class="view-btn" data-player="${p}">${who(p)}</button>`).join("");
  $$(".view-btn").forEach((b) => b.addEventListener("click", () => guard(() => showView(b.dataset.player))));
}

// -- the unseen cards: what the view's player has not seen, and where it may be -------------------
// Asked of the server for the view alone (the position is sent, but only the player's view of it
// is read), so the panel never tells a hidden card.

const un = {run: 0};

function placeName(b, place) {
  if (place === "stock") return "Stock";
  const seat = Number(place.split(" ")[1]);
  return b.players === 2 ? `Player ${seat}` : seatName(b, seat);
}

async function drawUnseen() {
  const run = ++un.run, box = $("#unseen"), b = state.board;
  if (state.viewPlayer === null || !state.base || !b) { box.hidden = true; return; }
  $("#unseen-model-label").hidden = b.players !== 2;
  // the line from the position loaded, so that the model reads the opponent's plays of the deal
  const line = hist.cur && hist.cur.board === b ? pathOf(hist.cur) : [];
  const body = line.length ? {position: hist.root.notation, moves: line, player: state.viewPlayer}
    : {position: state.base, player: state.viewPlayer};
  if (b.players === 2 && $("#unseen-model").checked) Object.assign(body, {model: true, seed: Number($("#suggest-seed").value)});
  const u = await api("unseen", body, "placing the unseen cards");
  if (run !== un.run) return;
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  $("#unseen-count").textContent = `${u.unseen} cards, from ${viewNote(b, u.player)}`;
  const ranks = INFO.ranks.map((r) => r.letter);     // ace to king (an object's keys "2".."7" would come first)
  $("#unseen-ranks thead tr").innerHTML = ranks.map((r) => `<th class="num" title="${esc(rankInfo(r).name)}">${esc(r)}</th>`).join("");
  $("#unseen-ranks tbody tr").innerHTML = ranks.map((r) => `<td class="num" data-rank="${esc(r)}">${u.by_rank[r]}</td>`).join("");
  $("#unseen-suits").innerHTML = Object.entries(u.by_suit).map(([s, cards]) =>
    `<div class="suit-row" data-suit="${esc(s)}"><b>${esc(suitInfo(s).name)}</b><span class="count">${cards.length}</span>` +
    `<span class="cards small">${cards.map((c) => cardSVG(c, 0.28)).join("") || '<span class="board-note">none</span>'}</span></div>`).join("");
  $("#unseen-grid thead").innerHTML = `<tr><th>card</th>${u.places.map((p) =>
    `<th class="num" data-place="${esc(p.place)}">${esc(placeName(b, p.place))} <small>(${p.cards})</small></th>`).join("")}</tr>`;
  $("#unseen-grid tbody").innerHTML = Object.entries(u.odds).map(([c, row]) =>
    `<tr data-card="${esc(c)}"><td class="card-cell">${cardSVG(c, 0.22)}<span class="mono">${esc(c)}</span></td>` +
    row.map((p) => `<td class="odds" style="--p:${Number(p)}">${pct(p)}</td>`).join("") + "</tr>").join("");
  $("#unseen-info").textContent = `Chances: ${u.about}.`;
  box.hidden = false;
}

// -- the suggestion: in rounds of more and more worlds, each answer shown as it lands ------------
// Each round is one bounded request (its own time box); the same seed draws the same first worlds,
// so the last round is the answer one request for every world would give. The server keeps
// nothing: stopping is the page no longer asking (the last answer stays).

const FIRST_WORLDS = 10, GROWTH = 4;
const sg = {run: 0, ctl: null};

function stopSuggest(note = "") {
  sg.run++;
  if (sg.ctl) sg.ctl.abort();
  sg.ctl = null;
  $("#suggest-stop").hidden = true;
  if (note) $("#suggest-progress").textContent += ` (${note})`;
}

function showSuggestion(s, wanted) {
  if (!state.editing) drawBoard(s.board, viewNote(s.board, s.board.player));     // the editor keeps the board area
  const changed = state.viewPlayer !== s.board.player;
  state.viewPlayer = s.board.player;
  if (changed) { guard(drawUnseen); viewPanels(s.board); addressFollows(); }
  $$(".view-btn").forEach((x) => x.classList.toggle("active", x.dataset.player === String(s.board.player)));
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  $("#suggest-table tbody").innerHTML = s.moves.map((m, i) =>
    `<tr class="${i === 0 ? "best" : ""}" data-move="${esc(m.move)}"><td class="mono move">${esc(m.move)}</td>
      <td class="num mean">${m.mean >= 0 ? "+" : ""}${m.mean.toFixed(3)}</td>
      <td class="num stderr">${m.stderr === null ? "–" : m.stderr.toFixed(3)}</td>
      <td class="num optimal">${i === 0 ? '<span class="badge">★ best</span>' : ""}<span class="pct">${pct(m.optimal)}</span></td></tr>`).join("");
  const kind = s.exact ? "every world, exact" : `sampled, seed ${s.seed}`;
  $("#suggest-info").textContent = `${s.worlds.toLocaleString("en")} worlds solved (${kind}) of ` +
    `${worldsText(Number(s.total_worlds))} consistent with the view; ` +
    `${s.seconds.toFixed(2)} s` + (s.stopped === "time" ? ", stopped by the time limit" : "") + "; " +
    (s.horizon === null || s.horizon === undefined
      ? `${Number(s.exact_worlds).toLocaleString("en")} searched to the end of the round`
      : `${Number(s.exact_worlds).toLocaleString("en")} searched to the end, the rest to a horizon of ${s.horizon} plays`);
  const of = Math.min(wanted, Number(s.total_worlds));
  $("#suggest-progress").textContent = `${s.worlds.toLocaleString("en")} of ${of.toLocaleString("en")} worlds`;
  if (fairView()) showFairAnalysis(s);
}

async function runSuggest() {
  if (!state.base) throw new Error("no position on the board");
  stopSuggest();
  const run = sg.run, wanted = Number($("#worlds").value), limit = Number($("#suggest-time").value);
  const body = {position: state.base, seed: Number($("#suggest-seed").value)};
  if (state.viewPlayer !== null) body.player = state.viewPlayer;
  const t0 = performance.now();
  let worlds = Math.min(FIRST_WORLDS, wanted), shown = 0, last = null;
  $("#fair-why").textContent = "";
  $("#suggest-stop").hidden = false;
  $("#suggest-progress").textContent = `0 of ${wanted.toLocaleString("en")} worlds`;
  try {
    for (;;) {
      const left = limit - (performance.now() - t0) / 1000;
      if (shown && left < 0.1) { stopSuggest("the time limit"); return; }
      sg.ctl = new AbortController();
      const s = await api("suggest", {...body, worlds, time_limit: Math.max(0.1, left)}, "solving worlds", false, sg.ctl);
      if (run !== sg.run) return;
      if (s.worlds >= shown) { showSuggestion(s, wanted); shown = s.worlds; last = s; }
      // done: every world asked for, every world there is, or the time limit cut this round
      if (worlds >= wanted || s.exact || s.stopped) break;
      worlds = Math.min(wanted, worlds * GROWTH);
    }
    stopSuggest();
    const done = sg.run;        // a new suggestion (another position, view or click) makes this why stale
    if (last && fairView() && last.moves.length > 1) guard(() => fairWhy(body, last, done));
  } catch (e) {
    if (run !== sg.run) return;
    stopSuggest(e instanceof Cancelled ? "stopped" : "stopped by an error");
    throw e;
  }
}

// -- a player's view: every analysis panel speaks from it ------------------------------------------
// With a view set, the exact analysis would give values no player can know and a line and a tree
// that name the hidden cards. The panels show the fair values instead: each move's mean over the
// view's worlds (the suggestion above, in rounds of more worlds), the player's own moves only, no
// line, no tree. The hindsight box brings back the exact analysis, labelled 'all cards shown'.

const lens = {board: null, last: null};   // the view's board; the last suggestion shown from it

// A game against a bot takes the board: the view (and its suggestion, which would redraw it) ends.
function lensOff() {
  if (state.viewPlayer === null) return;
  stopSuggest();
  state.viewPlayer = null;
  lens.board = lens.last = null;
  seedBox();
  $("#lens").hidden = true;
  $("#tree-btn").disabled = false;
  $$(".view-btn").forEach((x) => x.classList.toggle("active", x.dataset.player === ""));
}

// The panels speak from a view: one is set and hindsight is not asked for.
function fairView() { return state.viewPlayer !== null && !$("#hindsight").checked; }

const viewName = seatWord;

// A node shown: a view's own board (a view's link) speaks from it; any other starts with every card.
function lensFollows(b) {
  $("#hindsight").checked = false;
  if (b.kind !== "view") { lens.board = null; $("#lens").hidden = true; $("#tree-btn").disabled = false; return; }
  state.viewPlayer = b.player;
  $$(".view-btn").forEach((x) => x.classList.toggle("active", x.dataset.player === String(b.player)));
  viewPanels(b);
  startFair();
  guard(drawUnseen);
}

// Set every analysis panel for the view now chosen (`vb`: its board), or back to every card.
function viewPanels(vb) {
  const v = state.viewPlayer, b = state.board;
  lens.last = null;
  linesClear(fairView() ? "not shown from a view: a line would name hidden cards" : "");
  $("#lens").hidden = v === null;
  if (v === null) {
    stopSuggest();          // its next round would set the view again
    lens.board = null;
    $("#tree-btn").disabled = false;
    if (state.base) $("#notation").value = state.base;
    if (hist.root) drawHistory();
    if (b && b.kind === "position" && !b.over) startAnalysis(); else { stopAnalysis(); evalBar(null); }
    return;
  }
  lens.board = vb;
  const hind = $("#hindsight");
  hind.disabled = !b || b.kind !== "position";      // a view alone has no hindsight to show
  if (hind.disabled) hind.checked = false;
  $("#lens-who").textContent = `${viewName(vb, v)}'s view:`;
  $("#lens-what").textContent = fairView() ? "fair values, no hidden card named" : "the exact analysis below shows every card";
  $("#notation").value = vb.notation;
  $("#tree").innerHTML = "";
  $("#moves tbody").innerHTML = "";
  $("#pv-moves").innerHTML = "";
  $("#pv-value").textContent = "";
  $("#trust").textContent = "";
  if (!fairView()) {          // hindsight: today's exact analysis, every panel labelled
    $("#tree-btn").disabled = false;
    drawHistory();
    $("#moves-note").textContent = "";
    startAnalysis();
    return;
  }
  stopAnalysis();
  $("#an-go").hidden = true;
  $("#an-status").textContent = "";
  $("#moves-note").textContent = `fair, from ${viewName(vb, v)}'s view`;
  $("#value-head").textContent = "fair value";
  $("#pv-value").textContent = `not shown from ${viewName(vb, v)}'s view: a line would name hidden cards; ` +
    "the table above values the player's own moves";
  treeOff();
  historyInView();
  fairEvalBar();
}

// The fair values of the view's moves: the suggestion's rounds, when the view's player is to move.
function startFair() {
  const b = lens.board, v = state.viewPlayer;
  if (!b || v === null) return;
  stopSuggest();            // another view's rounds would redraw theirs
  if (b.over) { $("#moves-note").textContent = "the round is over"; return; }
  if (b.to_move !== v) {
    $("#moves-note").textContent = `fair, from ${viewName(b, v)}'s view: no values, it is ` +
      `${viewName(b, b.to_move)}'s turn and their hand is hidden`;
    return;
  }
  $("#moves-note").textContent = `fair, from ${viewName(b, v)}'s view · solving worlds…`;
  guard(runSuggest);
}

function showFairAnalysis(s) {
  const b = s.board, v = b.player, who = viewName(b, v);
  lens.last = s;
  const kind = s.exact ? "every world, exact" : `sampled, seed ${s.seed}`;
  $("#moves-note").textContent = `fair, from ${who}'s view · ${s.worlds.toLocaleString("en")} of ` +
    `${worldsText(Number(s.total_worlds))} worlds (${kind})`;
  $("#value-head").textContent = `fair value for ${b.players === 2 ? `P${v}` : `side ${b.sides[v]}`}`;
  $("#moves tbody").innerHTML = s.moves.map((m, i) =>
    `<tr class="${i === 0 ? "best" : ""} fair" data-move="${esc(m.move)}"><td class="move mono">${esc(m.move)}</td>` +
    `<td class="value num" title="mean round margin for ${esc(who)} over the worlds">${m.mean >= 0 ? "+" : ""}${m.mean.toFixed(3)}</td>` +
    `<td class="chance num"></td><td class="exactness" title="standard error">${m.stderr === null ? "" : `± ${m.stderr.toFixed(3)}`}</td>` +
    `<td class="badge"></td></tr>`).join("");
  $("#moves").classList.remove("match");       // the match objective's chances: of the exact analysis only
  $("#match-note").hidden = true;
  $$("#moves tbody tr").forEach((tr) => {
    tr.addEventListener("click", () => guard(() => playFromBase(tr.dataset.move)));
    tr.addEventListener("mouseenter", () => markMove(tr.dataset.move));
    tr.addEventListener("mouseleave", () => markMove(null));
  });
  const solved = s.horizon === null || s.horizon === undefined ? "each world solved exactly"
    : `${Number(s.exact_worlds).toLocaleString("en")} of them solved exactly, the rest to a horizon of ${s.horizon} plays`;
  $("#trust").textContent = `Fair: each value is the move's mean round margin over the worlds consistent with ${who}'s ` +
    `view (the hidden cards dealt every way they can be), ${solved}; it assumes the player ` +
    "learns the hidden cards after this move, so it leans optimistic. Tick ‘all cards shown (hindsight)’ for the exact analysis.";
  $("#trust").className = "estimate";
  $("#an-status").textContent = $("#suggest-progress").textContent;
  fairEvalBar();
  fairTies(s);
}

// The fair why (`/api/suggest`'s `why`): the fair best against the fair second best, category by
// category over the view's worlds (the suggestion's seed), in words that name no hidden card.
async function fairWhy(body, s, run) {
  const w = await api("suggest", {...body, worlds: s.worlds, why: ""}, "explaining the fair best", true);
  if (run !== sg.run || !fairView() || !lens.last || lens.last.view !== w.view) return;
  $("#fair-why").textContent = `Why (fair): ${w.why.text}`;
}

// From a view the lines are not shown, but how the fair values' equal or close means were
// ordered is (`Suggestion.ties`: only the player's own moves are named).
function fairTies(s) { $("#lines-ties").textContent = s.ties ? `Fair values: ${s.ties}.` : ""; }

// The eval bar from the last fair values, for the chosen side (none yet: an empty bar).
function fairEvalBar() {
  const s = lens.last, side = Number($("#eval-side").value || 0);
  const fill = $("#eval-fill"), label = $("#eval-label");
  const current = s && state.shown && s.board.notation === state.shown.notation;
  let v = null;
  if (current && s.moves.length) {
    const b = s.board, own = b.sides[b.player];
    if (own === side) v = s.moves[0].mean;
    else if (new Set(b.sides).size === 2) v = -s.moves[0].mean;
  }
  if (v === null) {           // no value: the bar empty, as evalBar draws it, saying why
    evalBarEmpty(current ? `no fair value for this side (the view is ${viewName(s.board, s.board.player)}'s)`
      : "no fair value yet: solving worlds");
    return;
  }
  $("#evalbar").classList.remove("exact", "novalue");
  fill.style.width = `${(50 + 50 * Math.tanh(v / 5)).toFixed(1)}%`;
  const who = s.board.players === 2 ? `player ${side}` : sideName(s.board, side);
  label.textContent = `${v >= 0 ? "+" : ""}${v.toFixed(2)} for ${who} · fair, from ${viewName(s.board, s.board.player)}'s view ` +
    `(${s.worlds.toLocaleString("en")} worlds)`;
  $("#evalbar").dataset.value = String(v);
}

// A count of worlds: in full up to ten million, then as a power of ten (a first play has ~10^28).
function worldsText(n) {
  if (n < 1e7) return n.toLocaleString("en");
  const e = Math.floor(Math.log10(n));
  return `${(n / 10 ** e).toFixed(1)} × 10^${e}`;
}

function treeOff() {
  $("#tree-btn").disabled = true;
  $("#tree").innerHTML = `<p class="board-note" id="tree-off">The tree is off in a player's view: it would name hidden ` +
    "cards. Tick ‘all cards shown (hindsight)’ to draw it.</p>";
}

// The move list in a view: the moves played to this position (every player saw them), none after.
function historyInView() {
  const path = [];
  for (let n = hist.cur; n && n.parent; n = n.parent) path.unshift(n);
  const later = hist.cur && hist.cur.children.length;
  $("#history").innerHTML = path.map((n, i) =>
    `<span class="hmove ${n === hist.cur ? "current" : ""}" data-ply="${i + 1}"><small>${i + 1}.</small> ${esc(n.move)}</span>`).join("") +
    (later ? `<span class="board-note">later moves are not shown in a player's view</span>` : "");
  $$("#history .hmove").forEach((el, i) => el.addEventListener("click", () => go(path[i])));
}

// In hindsight every exact panel says so.
function markHindsight() {
  if (state.viewPlayer === null || fairView()) return;
  const tag = " · all cards shown (hindsight)";
  for (const id of ["#moves-note", "#pv-value", "#eval-label"]) {
    const e = $(id);
    if (e.textContent && !e.textContent.endsWith(tag)) e.textContent += tag;
  }
}

// -- play ----------------------------------------------------------------------------------------
// The bots' moves come one a request (/api/play/bot), each drawn as it lands, the seat thinking
// named and the human's input off meanwhile; a new game (or Cancel) ends the loop.

const play = {run: 0, ctl: null};

function thinker(b) {
  return b.players === 2 ? `Player ${b.to_move}` : seatName(b, b.to_move);
}

function drawGame(g) {
  state.game = g;
  stopAnalysis();          // the board is the game's now: no analysis, no evaluation of another position
  evalBar(null);
  const b = g.board;
  const mine = !g.over && b.to_move === g.seat;
  let since = g.log.length;       // the moves since yours (the bots'), shown on the board
  while (since > 0 && g.log[since - 1].name !== "you") since--;
  const last = (since < g.log.length ? g.log.slice(since) : g.log.slice(-1)).map((e) => ({move: e.move, seat: e.player}));
  drawBoard(b, g.over ? "the round is over: every card shown" : `you are ${b.players === 2 ? `player ${g.seat}` : seatName(b, g.seat)}`, mine ? g.seat : null, last);
  $("#play-prompt").textContent = g.over ? "" : (mine ? "Your move: click a card or a move." : `${thinker(b)} is thinking…`);
  $("#tab-play").dataset.thinking = mine || g.over ? "" : String(b.to_move);
  $("#play-resume").hidden = true;
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
  drawMatch(g);
}

// The bots move, one request each, until it is the human's turn (or the round is over).
async function botsPlay(g) {
  const run = ++play.run;
  try {
    while (!g.over && g.board.to_move !== g.seat) {
      $("#play-prompt").textContent = `${thinker(g.board)} is thinking…`;
      $("#tab-play").dataset.thinking = String(g.board.to_move);
      $("#play-resume").hidden = true;
      play.ctl = new AbortController();
      g = await api("play/bot", {record: g.record}, `${thinker(g.board)} is thinking`, false, play.ctl);
      if (run !== play.run) return;
      drawGame(g);
    }
  } catch (e) {
    if (run !== play.run) return;                        // a new game took over
    if (e instanceof Cancelled) {                        // stopped: the game waits for "Play on"
      $("#play-prompt").textContent = `Stopped while ${thinker(g.board)} was thinking.`;
      $("#tab-play").dataset.thinking = "";
      $("#play-resume").hidden = false;
    }
    throw e;
  }
}

async function newGame() {
  play.run++;
  if (play.ctl) play.ctl.abort();
  const g = await api("play/new", {bot: $("#bot").value, seat: Number($("#seat").value), bots: 0,
                                   seed: Number($("#play-seed").value), rules: $("#play-game").value,
                                   ...matchField()}, "dealing");
  drawGame(g);
  await botsPlay(g);
}

async function playMove(move) {
  const g = state.game, card = move.split("x")[0];
  // the card leaves the hand and the input goes off at once; the server's answer follows
  $$(`#hand${g.seat} svg.card[data-card="${card}"]`).forEach((svg) => svg.remove());
  $$(`#hand${g.seat} svg.card`).forEach((svg) => svg.replaceWith(svg.cloneNode(true)));   // no more clicks
  $("#play-moves").innerHTML = "";
  $("#play-prompt").textContent = `You play ${move}…`;
  $("#tab-play").dataset.thinking = "you";
  let after;
  try { after = await api("play/move", {record: g.record, move, bots: 0}, "playing"); } catch (e) { drawGame(g); throw e; }
  drawGame(after);
  await botsPlay(after);
}

// A game (finished, or so far) opened in the move list: its deal as the root, every move played
// as the line, on the Analysis tab, every card shown; step back through it as through any line.
async function openGame() {
  const g = state.game;
  if (!g) throw new Error("no game yet");
  switchTab("analysis");
  if (g.match) {      // the score before this round: the match objective's
    const before = g.over ? g.match.totals.map((t, side) => t - g.score.total[side]) : g.match.totals;
    setMatchScore(before, g.match.target);
  }
  await loadPosition(g.start, {line: g.log.map((e) => e.move)});
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

// -- match play and hints (issue 45) --------------------------------------------------------------
// A match (Match: to 11, 16, 21 or 31) is one record of kind "match": after each round "Next round"
// deals the next (the deal passing on) until a side reaches the target; the running score per
// side stays above the prompt. "Hint" (your turn only) asks the fair suggestion from your view
// (a short search) and marks the move; every hint is recorded as help in the game record.

function matchField() {
  const m = $("#play-match").value;
  return m ? {match: Number(m)} : {};
}

function drawMatch(g) {
  const m = g.match, b = g.board, mine = !g.over && b.to_move === g.seat;
  const box = $("#match-score");
  box.hidden = !m;
  if (m) {
    const you = m.your_side;
    const who = (side) => side === you ? `${m.sides[side]} (your side)`.replace(/^you \(your side\)$/, "you") : m.sides[side];
    const won = m.winner === null ? "" : m.winner === you
      ? ` <b class="match-won">You win the match ${m.totals[you]}–${Math.max(...m.totals.filter((_, i) => i !== you))}!</b>`
      : ` <b class="match-lost">${esc(m.sides[m.winner])} ${m.sides[m.winner].includes(" & ") ? "win" : "wins"} the match ${m.totals[m.winner]}–${Math.max(...m.totals.filter((_, i) => i !== m.winner))}.</b>`;
    box.innerHTML = `Match to ${m.target}, round ${m.round}: ` +
      m.totals.map((t, side) => `<span class="match-side" data-side="${side}">${esc(who(side))} <b>${t}</b></span>`).join(", ") +
      (m.chance === null || m.chance === undefined || m.winner !== null ? ""
        : ` · <span class="match-chance" title="the chance that your side wins the match from this score${g.over ? ", before the next round" : ", before this round"} (the match equity: measured rounds of strong play)">your chance to win the match <b>${(100 * m.chance).toFixed(1)}%</b></span>`) +
      (g.hints ? ` · <span class="hints-used">${g.hints} hint${g.hints === 1 ? "" : "s"} used</span>` : "") + won;
    box.dataset.winner = m.winner === null ? "" : String(m.winner);
  }
  $("#next-round-btn").hidden = !(m && m.next);
  $("#hint-btn").hidden = !mine;
  $("#hint-btn").disabled = false;
  if (!g.hint) $("#play-hint").textContent = "";
  if (g.over && m && m.winner === null) $("#play-result").textContent += " Deal the next round of the match.";
  if (g.over && m && m.winner !== null) $("#play-result").textContent += " The match is over.";
}

async function askHint() {
  const g = state.game;
  if (!g || g.over || g.board.to_move !== g.seat) return;
  $("#hint-btn").disabled = true;
  $("#play-hint").textContent = "Thinking of a hint…";
  let h;
  try { h = await api("play/hint", {record: g.record}, "thinking of a hint"); } catch (e) { drawGame(g); throw e; }
  drawGame(h);
  const x = h.hint, value = x.value === undefined || x.value === null ? "" : `, fair value ${x.value > 0 ? "+" : ""}${x.value.toFixed(2)} points`;
  $("#play-hint").textContent = `Hint: play ${x.suggested} (from your view${value}, over ${x.worlds} world${x.worlds === 1 ? "" : "s"}; recorded as help)`;
  $$("#play-moves .play-move").forEach((btn) => btn.classList.toggle("hinted", btn.dataset.move === x.suggested));
  $$(`#hand${h.seat} svg.card`).forEach((svg) => svg.classList.toggle("hinted", svg.dataset.card === x.suggested.split("x")[0]));
}

async function nextRound() {
  const g = state.game;
  if (!g || !g.match || !g.match.next) return;
  play.run++;
  const n = await api("play/next", {record: g.record, bots: 0}, "dealing");
  drawGame(n);
  await botsPlay(n);
}

function reviewHints(r) {
  const used = Object.entries(r.hints || {});
  if (!used.length) return;
  const p = document.createElement("p");
  p.id = "review-hints";
  p.textContent = "Hints asked for in play (recorded as help): " + used.map(([name, k]) => `${name} ${k}`).join(", ") + ".";
  $("#review-summary").prepend(p);
}

// -- review --------------------------------------------------------------------------------------

async function runReview() {
  const text = $("#record-text").value;
  if (!text.trim()) throw new Error("paste a game record or choose a file first");
  const r = await api("review", {record: text, round: Number($("#review-round").value) || 1,
                                 worlds: Number($("#review-worlds").value),
                                 ...($("#review-match").checked ? {match: true} : {})}, "reviewing");
  state.review = r;
  state.reviewIndex = undefined;
  const sel = $("#review-round");
  sel.innerHTML = Array.from({length: r.round_count}, (_, i) =>
    `<option value="${i + 1}" ${i + 1 === r.round ? "selected" : ""}>${i + 1}</option>`).join("");
  const score = r.rounds[r.round - 1].score;
  const names = r.rounds[r.round - 1].sides || r.rounds[r.round - 1].players;   // the family scores by side
  const pct = (x) => `${Math.round(100 * x)}%`;
  const seats = r.players.length > 2 && r.seat_summary;   // one row a seat, named by its player
  const summary = seats ? r.seat_summary.map((s, p) => ({...s, name: `Seat ${p}: ${r.players[p]}`})) : r.summary;
  const fixed = (x) => x === null || x === undefined ? "–" : x.toFixed(2);
  const plus = (x, digits) => (x > 0 ? "+" : x < 0 ? "−" : "") + Math.abs(x).toFixed(digits);
  const m = r.match, unit = m ? "percentage points of the chance to win the match" : "points";
  const before = m && r.decisions.length && r.decisions[0].match;
  const t = r.thresholds;
  $("#review-summary").innerHTML = `<p>Round ${r.round} of ${r.round_count}: ${names.map((n, i) =>
      `${esc(n)} ${score ? score[i] : "?"}`).join(", ")}. Fair review: PIMC with ${r.worlds} worlds a decision, seed ${r.seed};
      ${r.seconds.toFixed(1)} s. The marks follow the fair verdict, from the player's own view
      (<span class="mark">*</span>: by hindsight, where there is none); ${m
      ? `<b class="review-by-match">judged by the chance to win the match</b> from ${before ? before.score.join("–") : "the score"} before the round, to ${before ? before.target : "the target"}: the losses are ${unit}.`
      : "margin = skill + cards, where skill is the points the other side's decisions lost minus the side's own, and cards the rest."}</p>
    <div class="wide-table"><table class="grid"><thead><tr><th>player</th><th class="num">moves</th>
      <th class="num" title="${unit} lost from the player's view (PIMC)">fair lost</th>
      <th class="num" title="share of moves that were PIMC's choice">agree</th>
      <th class="num" title="inaccuracies: ${t.inaccuracy} ${unit} lost or more">?!</th><th class="num" title="mistakes: ${t.mistake} ${unit} or more">?</th>
      <th class="num" title="blunders: ${t.blunder} ${unit} or more">??</th>
      <th class="num" title="${unit} lost by hindsight, every card known">hindsight lost</th>
      <th class="num" title="share of hindsight-optimal moves">best</th>
      <th class="num">margin</th><th class="num" title="the other side's points lost minus the side's own">skill</th>
      <th class="num" title="margin minus skill">cards</th></tr></thead><tbody>
    ${summary.map((s) => `<tr class="player-summary"><td>${esc(s.name)}</td><td class="num">${s.decisions}</td>
      <td class="num">${fixed(s.fair_loss)}</td><td class="num">${s.agreement === null ? "–" : pct(s.agreement)}</td>
      <td class="num">${s.inaccuracies}</td><td class="num">${s.mistakes}</td><td class="num">${s.blunders}</td>
      <td class="num">${m ? fixed(s.loss) : s.loss}</td><td class="num">${pct(s.accuracy)}</td>
      ${s.split.rounds ? `<td class="num split-margin">${plus(s.split.margin, 0)}</td><td class="num split-skill">${plus(s.split.skill, 2)}</td>
      <td class="num split-cards">${plus(s.split.cards, 2)}</td>` : "<td></td><td></td><td></td>"}</tr>`).join("")}
    </tbody></table></div>`;
  $("#review-table tbody").innerHTML = r.decisions.map((d, i) => {
    const h = d.hindsight, f = d.fair;
    // a decision the hindsight search could not settle in the review's budget says so (the reason on hover)
    const best = d.forced ? "(forced)" : !h.judged ? "not judged" : (h.best.includes(d.played) ? d.played : h.best[0]);
    const fair = !f || d.forced ? "" : f.loss === null ? "n/a" : (f.loss < 0.005 ? d.played : f.best);
    return `<tr class="decision ${markClass(d.mark)}" data-index="${i}">
      <td class="num">${d.move}</td><td>${esc(d.name)}</td>
      <td class="mono played">${esc(d.played)} <span class="mark" ${d.verdict === "hindsight" ? 'title="by hindsight: no fair verdict"' : ""}>${esc(markText(d))}</span></td>
      <td class="mono" ${f && f.reason ? `title="${esc(f.reason)}"` : ""}>${esc(fair)}</td><td class="num">${!f || d.forced || f.loss === null ? "" : f.loss < 0.005 ? "–" : f.loss.toFixed(2)}</td>
      <td class="mono" ${h.judged || d.forced ? "" : `title="${esc(h.reason || "")}"`}>${esc(best)}</td><td class="num">${h.best_value === null ? "" : m ? `${(h.best_value / 100).toFixed(2)}%` : (h.best_value > 0 ? "+" : "") + h.best_value}</td>
      <td class="num lost">${d.forced ? "" : !h.loss ? "–" : m ? h.loss.toFixed(2) : h.loss} <span class="hmark">${esc(h.mark)}</span></td></tr>`;
  }).join("");
  $$("#review-table tbody tr").forEach((tr) => tr.addEventListener("click", () => guard(() => openDecision(Number(tr.dataset.index)))));
  reviewHints(r);
  drawReviewGraph(r);
  learnFollows(r);
}

// The round list follows the record as soon as it is loaded or pasted (not only once a review
// has run): one option a round of the record's JSON; text that is no record leaves it alone (the
// server's review says what is wrong with it).
function recordRounds() {
  let count;
  try {
    const rounds = JSON.parse($("#record-text").value).rounds;
    count = Array.isArray(rounds) ? Math.max(1, rounds.length) : null;
  } catch (e) { count = null; }
  if (count === null) return;
  const sel = $("#review-round");
  sel.innerHTML = Array.from({length: count}, (_, i) => `<option value="${i + 1}">${i + 1}</option>`).join("");
  sel.value = "1";
}

// A decision's mark (the fair verdict's; hindsight's, starred, where there is none) and its colour.
const markClass = (m) => m === "??" ? "blunder" : m === "?" ? "mistake" : m === "?!" ? "inaccuracy" : "";
const markText = (d) => d.mark + (d.mark && d.verdict === "hindsight" ? "*" : "");

// The evaluation over the round for side 0 (seat 0's side). With a fair review, the curve is the
// fair value of each move played (its mean over the worlds of its player's view: what the player
// could know) and hindsight's (every card known) a second, lighter curve; without one, hindsight's
// alone. Inaccuracies, mistakes and blunders are marked by the fair verdict (hindsight's where
// there is none), on the main curve. A decision not judged is a grey point on the axis.
function drawReviewGraph(r) {
  const ds = r.decisions, two = new Set(r.seat_sides).size === 2, m = r.match;
  // a match review's values are chances (1/10,000ths): drawn as side 0's chance minus 50%
  const forSide0 = m ? (d, v) => v === null || v === undefined ? null : d.side === 0 ? v / 100 - 50 : two ? 50 - v / 100 : null
    : (d, v) => v === null || v === undefined ? null : d.side === 0 ? v : two ? -v : null;
  const hind = ds.map((d) => forSide0(d, d.hindsight.played_value));
  const fair = ds.map((d) => forSide0(d, d.fair && !d.forced ? d.fair.played_mean : null));
  const isFair = fair.some((v) => v !== null);
  const main = isFair ? fair : hind;
  const W = 560, H = 150, pad = 22, n = Math.max(ds.length - 1, 1);
  const top = m ? 50 : Math.ceil(Math.max(4, ...[...hind, ...fair].filter((v) => v !== null).map(Math.abs)));
  const said = (v) => m ? `${(v + 50).toFixed(2)}%` : signed(Number(v.toFixed(2)));
  const x = (i) => pad + (W - 2 * pad) * i / n, y = (v) => H / 2 - (H / 2 - 12) * v / top;
  const pathOfValues = (vals) => {       // through the decisions not judged (forced moves...)
    let path = "", pen = false;
    vals.forEach((v, i) => { if (v !== null) { path += `${pen ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)} `; pen = true; } });
    return path.trim();
  };
  const num = (v) => v === null ? "" : String(Math.round(v * 100) / 100);
  const dots = ds.map((d, i) => {
    const v = main[i] === null ? 0 : main[i], cls = markClass(d.mark);
    const says = [fair[i] === null ? "" : `fair ${said(fair[i])}`,
                  hind[i] === null ? "" : `hindsight ${said(hind[i])}`].filter(Boolean).join(", ");
    return `<g class="gdec ${cls}" data-index="${i}" data-fair="${num(fair[i])}" data-hindsight="${num(hind[i])}" tabindex="-1">` +
      `<title>move ${d.move}: ${esc(d.name)} played ${esc(d.played)}${d.mark ? " " + markText(d) : ""}${says ? ` (${says} for side 0)` : ""}</title>
      <rect x="${(x(i) - (W - 2 * pad) / n / 2).toFixed(1)}" y="0" width="${((W - 2 * pad) / n).toFixed(1)}" height="${H}" class="hit"/>
      <circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="${cls ? 5 : 2.5}" class="${main[i] === null ? "nojudge" : ""}"/></g>`;
  }).join("");
  const who = two ? "side 0 (seat 0's side)" : "side 0, at its own decisions";
  const what = m ? "chance to win the match" : "value";
  const legend = isFair
    ? `<span class="key fair"></span> the fair ${what} of each move played for ${who}, from its player's view ` +
      `(what the player could know); <span class="key hindsight"></span> by hindsight, every card known;`
    : `the ${what} of each move played for ${who}, by hindsight (every card known: no fair review);`;
  $("#review-graph").innerHTML = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="evaluation over the round for side 0">
    <rect x="0" y="0" width="${W}" height="${H / 2}" class="up"/><rect x="0" y="${H / 2}" width="${W}" height="${H / 2}" class="down"/>
    <line x1="0" x2="${W}" y1="${H / 2}" y2="${H / 2}" class="zero"/>
    <text x="4" y="12" class="lab">${m ? "100% for side 0" : `+${top} for side 0`}</text><text x="4" y="${H - 4}" class="lab">${m ? "0%" : `−${top}`}</text>
    ${isFair ? `<path d="${pathOfValues(hind)}" class="curve hindsight"/>` : ""}
    <path d="${pathOfValues(main)}" class="curve ${isFair ? "fair" : "hindsight-only"}"/>${dots}<line id="graph-cursor" x1="-10" x2="-10" y1="0" y2="${H}"/></svg>
    <p class="board-note" id="graph-legend">${legend}
      <span class="dot inaccuracy"></span> an inaccuracy, <span class="dot mistake"></span> a mistake,
      <span class="dot blunder"></span> a blunder, by the fair verdict</p>`;
  $$("#review-graph .gdec").forEach((g) => g.addEventListener("click", () => guard(() => openDecision(Number(g.dataset.index)))));
}

// A decision opened: its position on the board, its analysis under the review (in view), the
// graph's cursor and the table's row on it.
async function openDecision(i) {
  const r = state.review, d = r && r.decisions[i];
  if (!d) return;
  state.reviewIndex = i;
  $$("#review-table tbody tr").forEach((x) => x.classList.toggle("selected", Number(x.dataset.index) === i));
  const row = $(`#review-table tbody tr[data-index="${i}"]`);
  const box = $("#review-scroll");       // the row in the middle of its box (the page stays put)
  if (row) box.scrollTop = row.offsetTop - box.clientHeight / 2;
  const g = $(`#review-graph .gdec[data-index="${i}"] circle`), cur = $("#graph-cursor");
  if (g && cur) { cur.setAttribute("x1", g.getAttribute("cx")); cur.setAttribute("x2", g.getAttribute("cx")); }
  $("#review-analysis").hidden = false;
  if (d.match) setMatchScore(d.match.score, d.match.target);     // a match review: its analysis under the match too
  await openInRound(r, i);
  showNote(`round ${d.round}, move ${d.move}: ${d.name} played ${d.played}${d.mark ? " " + markText(d) : ""}`);
}

function reviewStep(delta) {
  const n = state.review.decisions.length;
  const i = state.reviewIndex === undefined ? (delta > 0 ? 0 : n - 1) : Math.max(0, Math.min(n - 1, state.reviewIndex + delta));
  guard(() => openDecision(i));
}


// -- the editor: a position built by putting cards into places --------------------------------------

const ed = {players: 2, places: {}, dealer: 1, toMove: "", last: "", scopas: [0, 0], selected: null,
            asked: 0, notation: null, lens: null};

// -- the editor in a player's view ----------------------------------------------------------------
// The editor shows every card it holds. In a player's view (hindsight off) it shows what that
// player knows only: it starts from the view (the player's hand, the table, the piles; the hidden
// cards unplaced, to be put where the player guesses). Places from anywhere else (the whole
// board, a deal, an earlier view) are not shown there: the Edit tab says so and offers to start
// from the view, or to leave it. `ed.lens` is the player whose view the editor started from.

function edHidden() { return fairView() && ed.lens !== state.viewPlayer; }

function edLensNote() {
  const box = $("#ed-lens");
  if (!fairView()) { box.hidden = true; return; }
  const who = viewName(lens.board, state.viewPlayer);
  box.hidden = false;
  box.innerHTML = edHidden()
    ? `<span><b>${esc(who)}'s view:</b> the editor's places are not shown here: they may hold cards ` +
      `${esc(who)} cannot see.</span> <button type="button" id="ed-lens-start">Edit ${esc(who)}'s view</button>` +
      ` <small>(starts again from what ${esc(who)} knows)</small> <button type="button" id="ed-lens-leave">Leave the view</button>` +
      " <small>(every card)</small>"
    : `<span><b>Editing ${esc(who)}'s view:</b> the hidden cards start unplaced; put them where you guess.</span>`;
  if (!edHidden()) return;
  $("#ed-lens-start").addEventListener("click", () => { edFromBoard(lens.board); drawEditor(); });
  $("#ed-lens-leave").addEventListener("click", () => guard(async () => {
    await showView("");
    if (!state.editing) return;
    if (!Object.values(ed.places).some((x) => x.length) && state.board) edFromBoard(state.board);
    drawEditor();
    edChanged(false);
  }));
}

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
  if (!fairView()) ed.lens = null;        // places made with every card shown: not for a view
  edLensNote();
  if (edHidden()) {
    ed.asked++;                           // an answer on its way is not shown either
    $("#ed-notation").textContent = "";
    $("#ed-message").textContent = "";
    $("#ed-analyze").disabled = true;
    $("#board").innerHTML = `<p class="empty" id="ed-off">${esc(viewName(lens.board, state.viewPlayer))}'s view: ` +
      "the editor is not shown (see the Edit tab).</p>";
    return;
  }
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

// "The rest to...": every card not yet placed goes into the chosen place (a pile, typically,
// once the hands and the table are set), in the palette's order.
function edRest() {
  const place = $("#ed-rest-place").value;
  if (!ed.places[place]) return;
  const placed = new Set(Object.values(ed.places).flat());
  ed.places[place].push(...allCards().filter((c) => !placed.has(c)));
  ed.selected = null;
  edChanged();
}

function edRestChoices() {
  const sel = $("#ed-rest-place"), old = sel.value;
  const names = edPlaceNames();
  edOptions(sel, names.map((name) => [name, edLabel(name).split(" (deal")[0]]), names.includes(old) ? old : "pile0");
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
  edRestChoices();
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
  if (edHidden()) return;
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

// The places of a board; a view's (its hidden cards unplaced) starts the editor in that view.
function edFromBoard(b) {
  if (!b) return;
  ed.lens = b.kind === "view" ? b.player : null;
  const n = b.players;
  ed.players = n;
  ed.places = {table: [...b.table], stock: [...(b.stock_cards || [])]};
  for (let p = 0; p < n; p++) { ed.places[`hand${p}`] = [...b.hands[p].cards]; ed.places[`pile${p}`] = [...b.piles[p]]; }
  ed.scopas = [...b.scopas];
  ed.dealer = b.dealer;
  ed.toMove = b.kind === "view" ? String(b.to_move) : "";      // a view's hidden hands are empty
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
  $("#ed-from-board").addEventListener("click", () => edFromBoard(fairView() ? lens.board : state.board));
  $("#ed-clear").addEventListener("click", edClear);
  $("#ed-rest").addEventListener("click", edRest);
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
    if (!Object.values(ed.places).some((x) => x.length) && state.board) edFromBoard(fairView() ? lens.board : state.board);
    drawEditor();
    edChanged(false);
  } else if (was && !state.editing) {
    if (state.board) drawBoard(lens.board || state.board, lens.board ? viewNote(lens.board, state.viewPlayer) : ""); else $("#board").innerHTML = '<p class="empty">Paste a position, deal one from a seed, or start a game.</p>';
  }
}

// The node at the end of a line from the root, if the tree has it.
function nodeAt(line) {
  let n = hist.root;
  for (let k = 0; k < line.length && n; k++) n = n.children.find((c) => c.move === line[k]);
  return n;
}

// The address's position and line: an entry of this board's history (Back, Forward) steps
// within the tree, by its line (a view's address holds no line); another address loads its
// position (&view=P: in that player's view, hindsight ticked, as it was when written).
async function fromURL() {
  const lines = entryLines(), q = new URLSearchParams(window.location.search);
  const at = lines && nodeAt(lines[lines.length - 1].split("_").filter(Boolean));
  if (at) { if (state.editing) switchTab("analysis"); return go(at, {push: false}); }
  const pos = q.get("pos");
  if (!pos) return;
  if (q.get("match") !== null) setMatchScore(q.get("match").split("-"), q.get("target") === null ? null : Number(q.get("target")));
  const line = (q.get("line") || "").split("_").filter(Boolean);
  const seed = q.get("seed") === null ? null : Number(q.get("seed"));
  const view = /^\d$/.test(q.get("view") || "") ? Number(q.get("view")) : null;
  if (hist.root && pos === hist.root.notation) {
    const n = nodeAt(line);
    if (n) { if (state.editing) switchTab("analysis"); return go(n, {push: false}); }
  }
  const st = window.history.state;        // this entry's own root again (a reload): its entries stay the board's
  const key = st && st.board && st.view !== "fair" && !hist.root ? st.root : null;
  await loadPosition(pos, {line, seed, push: false, view, key});
}

// -- puzzles (docs/play.md#puzzles): a shipped puzzle of the header's game, drawn with its seed -----

const PUZZLE_GAMES = {"": "scopa", "players=3": "scopa-3", "players=4": "scopa-4", "players=6": "scopa-6",
  "players=4 game=scopone": "scopone", "players=4 game=scientifico": "scientifico", "capture=fifteen": "scopa-15"};
const pz = {data: null, queue: [], at: 0, found: 0};

// The puzzle's position on the board, not analysed (that would give the answer away), and a
// button for every legal move.
async function loadPuzzle() {
  const seed = $("#seed").value === "" ? null : Number($("#seed").value);
  const game = PUZZLE_GAMES[$("#deal-game").value];
  const d = await api("puzzle", {game: game === undefined ? null : game, seed}, "finding a puzzle");
  pz.queue = [];
  await showPuzzle(d, `Puzzle (${d.board.game}, seed ${d.seed})`);
}

// Puzzles from the reviewed game: the round's decisions of the chosen player where one move alone
// kept the exact value, asked one after another (the game's own move is told with the answer).
async function loadRecordPuzzles() {
  const text = $("#record-text").value, who = $("#learn-player").value;
  if (!text.trim()) throw new Error("paste a game record or choose a file first");
  const round = Number($("#review-round").value) || 1;
  const d = await api("puzzle/record", {record: text, round, player: who || null}, "finding puzzles in the game");
  if (!d.puzzles.length) {
    showNote(`no puzzle in round ${d.round}${who ? ` for ${who}` : ""}: no decision where one move alone kept the value`);
    return;
  }
  pz.queue = d.puzzles; pz.at = 0; pz.found = 0;
  await showQueued();
}

async function showQueued() {
  const d = pz.queue[pz.at];
  await showPuzzle(d, `Puzzle ${pz.at + 1} of ${pz.queue.length} from your game (${d.puzzle.where})`);
}

async function showPuzzle(d, title) {
  await loadPosition(d.puzzle.position, {analyse: false});     // no deal seed: the seed drew the puzzle
  pz.data = d;
  const p = d.puzzle, b = d.board;
  $("#puzzle-question").textContent = `${title}: ${seatWord(b, b.to_move)} to move. ` +
    `One move keeps ${signed(p.value)}, every other gets ${signed(p.second)} or less.` +
    (p.fair ? "" : ` All cards are shown: ${seatWord(b, b.to_move)} could not see the other hands${b.stock ? " and the stock" : ""}.`);
  $("#puzzle-next").hidden = true;
  $("#puzzle-moves").innerHTML = b.legal.map((m) => `<button type="button" class="mono" data-move="${esc(m)}">${esc(m)}</button>`).join("");
  $$("#puzzle-moves button").forEach((x) => x.addEventListener("click", () => guard(() => answerPuzzle(x.dataset.move))));
  $("#puzzle-answer").hidden = true;
  $("#puzzle").hidden = false;
}

// A move chosen: right or not, the answer and both lines; then the move is played on the board.
async function answerPuzzle(move) {
  const d = pz.data;
  if (!d) return;
  pz.data = null;
  const p = d.puzzle;
  const line = (moves, sweeps) => moves.map((m, k) => sweeps.includes(k) ? `${m} (scopa)` : m).join(" ");
  $$("#puzzle-moves button").forEach((x) => {
    x.disabled = true;
    x.classList.toggle("right", x.dataset.move === p.best);
    x.classList.toggle("wrong", x.dataset.move === move && move !== p.best);
  });
  const el = $("#puzzle-answer");
  const inGame = p.played ? ` In the game: ${p.played}${p.played === p.best ? ", the answer" : ""}.` : "";
  el.textContent = (move === p.best ? `Right: ${move} keeps ${signed(p.value)}.` : `Not the one: ${move}.`) +
    ` The answer: ${p.best} keeps ${signed(p.value)}; the next best, ${d.second_move}, gets ${signed(p.second)}.` +
    ` What decides it: ${p.tags.map((t) => t.replace("-", " ")).join(", ")}.` +
    ` Best line: ${line(d.best_line, d.scopas[0])}. After ${d.second_move}: ${line(d.second_line, d.scopas[1])}.` + inGame;
  el.hidden = false;
  if (pz.queue.length) {
    pz.found += move === p.best;
    const last = pz.at + 1 >= pz.queue.length;
    $("#puzzle-next").hidden = last;
    if (last) el.textContent += ` Found ${pz.found} of ${pz.queue.length}.`;
  }
  await playFromBase(move);
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
      await loadPosition(b.notation, {seed: b.seed});
      showNote(`dealt from seed ${b.seed}`);
    });
  });
  $("#link-btn").addEventListener("click", () => guard(async () => {
    if (!state.base) throw new Error("no position on the board");
    const href = window.location.href;     // in a view, the view alone (the address follows the view)
    try { await navigator.clipboard.writeText(href); showNote("link copied"); }
    catch (e) { showNote(`link: ${href}`); }
  }));
  $("#cancel-btn").addEventListener("click", cancelAll);
  $$("#tabs button").forEach((b) => b.addEventListener("click", () => switchTab(b.dataset.tab)));
  $("#an-stop").addEventListener("click", () => stopAnalysis("stopped"));
  $("#an-go").addEventListener("click", () => guard(startAnalysis));
  $("#objective").addEventListener("change", () => { if (hist.cur) guard(() => go(hist.cur, {push: false})); });
  for (const id of ["#an-match", "#an-target"]) $(id).addEventListener("change", () => {
    addressFollows();
    const entry = known.get(`${state.base}|${$("#objective").value}`);
    if (entry && !fairView()) guard(() => matchAnalysis(entry, state.base, $("#objective").value));
  });
  $("#eval-side").addEventListener("change", () => { const e = known.get(`${state.base}|${$("#objective").value}`); evalBar(e && e.a); markHindsight(); });
  $("#hindsight").addEventListener("change", () => { viewPanels(lens.board); addressFollows(); if (fairView()) startFair(); });
  $("#new-game-btn").addEventListener("click", lensOff);
  $("#hist-first").addEventListener("click", () => go(hist.root));
  $("#hist-prev").addEventListener("click", () => step(-1));
  $("#hist-next").addEventListener("click", () => step(1));
  $("#hist-last").addEventListener("click", () => go(lineEnd()));
  document.addEventListener("keydown", (ev) => {
    if (state.editing && ed.selected && !isTyping() && edKey(ev)) { ev.preventDefault(); return; }
    if (isTyping() || state.editing) return;
    if (!$("#tab-review").hidden && state.review && (ev.key === "ArrowDown" || ev.key === "ArrowUp")) {
      reviewStep(ev.key === "ArrowDown" ? 1 : -1); ev.preventDefault(); return;
    }
    if (!hist.cur) return;
    if (ev.key === "ArrowLeft") { step(-1); ev.preventDefault(); }
    else if (ev.key === "ArrowRight") { step(1); ev.preventDefault(); }
    else if (ev.key === "Home") { go(hist.root); ev.preventDefault(); }
    else if (ev.key === "End") { go(lineEnd()); ev.preventDefault(); }
  });
  window.addEventListener("popstate", () => guard(async () => {
    const next = hist.pending;        // a step back to an earlier entry, then on to `next`
    hist.pending = null;
    if (next && entryLines()) return go(next);
    await fromURL();
  }));
  $("#puzzle-btn").addEventListener("click", () => guard(loadPuzzle));
  $("#puzzle-close").addEventListener("click", () => { pz.data = null; pz.queue = []; $("#puzzle").hidden = true; });
  $("#puzzle-next").addEventListener("click", () => { pz.at++; if (pz.at < pz.queue.length) guard(showQueued); });
  $("#record-puzzles-btn").addEventListener("click", () => guard(loadRecordPuzzles));
  $("#tree-btn").addEventListener("click", () => guard(drawTree));
  linesWire();
  treePanWire();
  viewButtons(2);
  $("#suggest-btn").addEventListener("click", () => guard(runSuggest));
  $("#unseen-model").addEventListener("change", () => guard(drawUnseen));
  $("#suggest-stop").addEventListener("click", () => stopSuggest("stopped"));
  $("#new-game-btn").addEventListener("click", () => guard(newGame));
  $("#play-resume").addEventListener("click", () => guard(() => botsPlay(state.game)));
  $("#hint-btn").addEventListener("click", () => guard(askHint));
  $("#next-round-btn").addEventListener("click", () => guard(nextRound));
  $("#play-game").innerHTML = $("#deal-game").innerHTML;
  for (const id of ["#deal-game", "#play-game"]) $(id).addEventListener("change", (ev) => setGame(ev.target.value));
  $("#download-btn").addEventListener("click", downloadRecord);
  $("#open-game-btn").addEventListener("click", () => guard(openGame));
  $("#review-game-btn").addEventListener("click", () => guard(async () => {
    $("#record-text").value = state.game.record;
    recordRounds();
    switchTab("review");
    await runReview();
  }));
  $("#record-file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (file) $("#record-text").value = await file.text();
    recordRounds();
  });
  $("#record-text").addEventListener("input", recordRounds);
  $("#review-round").addEventListener("change", () => guard(runReview));
  $("#review-btn").addEventListener("click", () => guard(runReview));
  $("#review-match").addEventListener("change", () => { if (state.review) guard(runReview); });

  annotationsWire();
  await guard(fromURL);
  document.body.dataset.ready = "1";
}

// -- annotations: the review's marks and the player's comments in the move list --------------------
// A decision opened from the review puts its whole round in the move list (the deal as the root,
// the moves played as the line, once a review) and goes to the decision's position. Each move of
// the line carries the review's mark, coloured as the review's, whose title (and a click) says why;
// and the player's comment, saved in the game record (/api/annotate), edited in the box below.

const ann = {review: null, root: null, record: null};

// The round of review `r` in the move list, at decision `i` (the position before its move).
async function openInRound(r, i) {
  const d = r.decisions[i];
  if (ann.review === r && hist.root === ann.root && ann.root) {
    let n = ann.root;
    for (let k = 0; k < d.move - 1 && n; k++) n = n.children[0];
    state.played = d.played;
    if (n) return go(n);
  }
  await loadPosition(r.decisions[0].position, {line: r.decisions.map((x) => x.played), played: d.played,
                                               round: r, at: d.move - 1});
}

// Called by loadPosition once the round's line is built: every node of the main line learns its
// decision (the move that reached it) and the move played from it; the node at ply `at` is returned.
function annotateRound(r, at) {
  ann.review = r;
  ann.root = hist.root;
  ann.record = r.record;
  let n = hist.root, found = at === 0 ? hist.root : null;
  r.decisions.forEach((d, k) => {
    n.gamePlayed = d.played;
    n = n.children[0];
    n.decision = k;
    if (k + 1 === at) found = n;
  });
  n.gamePlayed = null;
  return found || n;
}

const inRound = (n) => ann.review && ann.root === hist.root && n && n.decision !== undefined;
const decisionOf = (n) => inRound(n) ? ann.review.decisions[n.decision] : null;

// Why a move got its mark: the fair loss (the verdict) and the hindsight one.
function whyText(d) {
  const f = d.fair, h = d.hindsight, parts = [];
  if (d.forced) return "forced: the only legal move";
  if (f && f.loss !== null) parts.push(`fair: lost ${f.loss.toFixed(2)} from ${d.name}'s view (best ${f.loss < 0.005 ? d.played : f.best}, ${f.worlds} worlds)`);
  else if (f && f.reason) parts.push(`fair: not judged (${f.reason})`);
  if (h.loss !== null) parts.push(`hindsight: lost ${h.loss} with every card known (best ${h.best.includes(d.played) ? d.played : h.best[0]})`);
  else parts.push(`hindsight: not judged${h.reason ? ` (${h.reason})` : ""}`);
  return `${d.played}${d.mark ? " " + markText(d) : ""}: ${parts.join("; ")}`;
}

function noteHTML(n) {
  const d = decisionOf(n);
  if (!d || !d.mark) return "";
  return `<span class="hnote ${markClass(d.mark)}" data-decision="${n.decision}" title="${esc(whyText(d))}">${esc(markText(d))}</span>`;
}

function commentHTML(n) {
  const d = decisionOf(n);
  if (!d || !d.comment) return "";
  const short = d.comment.length > 60 ? d.comment.slice(0, 59) + "…" : d.comment;
  return `<span class="hcomment" data-decision="${n.decision}" title="${esc(d.comment)}">“${esc(short)}”</span>`;
}

// After every drawing of the move list: a click on a mark says why; the comment box follows the
// move just played (the current node's) when it is a move of the reviewed round.
function annotationsFollow() {
  $$("#history .hnote").forEach((el) => el.addEventListener("click", () => {
    const d = ann.review && ann.review.decisions[Number(el.dataset.decision)];
    if (d) showNote(`move ${d.move}: ${whyText(d)}`);
  }));
  const d = decisionOf(hist.cur), box = $("#comment-box");
  box.hidden = !d;
  if (!d) return;
  if (box.dataset.decision !== String(hist.cur.decision)) {
    box.dataset.decision = String(hist.cur.decision);
    $("#comment-text").value = d.comment || "";
    $("#comment-saved").textContent = "";
  }
  $("#comment-label").textContent = `Comment on move ${d.move} (${d.name} played ${d.played})`;
}

async function saveComment() {
  const d = decisionOf(hist.cur);
  if (!d) throw new Error("choose a move of the reviewed round first");
  const a = await api("annotate", {record: ann.record, round: d.round, move: d.move,
                                   comment: $("#comment-text").value}, "saving");
  ann.record = a.record;
  ann.review.record = a.record;
  $("#record-text").value = a.record;          // the record with its comments, for the next review
  d.comment = a.comments[String(d.move)] || null;
  $("#comment-text").value = d.comment || "";
  $("#comment-saved").textContent = d.comment ? "saved in the record" : "comment removed";
  drawHistory();
}

function downloadAnnotated() {
  if (!ann.record) return;
  const blob = new Blob([ann.record], {type: "application/json"});
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "scopa-game-annotated.json";
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// -- learn from my mistakes: the reviewed round's fair mistakes of one player, as exercises ---------
// Each lesson shows the decision's position from the player's view (the API's board of the view:
// no hidden card), asks for a play (a click on a card or a move), says whether its fair value (the
// review's: PIMC's mean over the same worlds) is as good as the best's, then shows the best. The
// move list and the review's table and graph, which tell the later plays, are hidden meanwhile.

const learn = {lessons: [], at: 0, found: 0, answered: false};
const LEARN_TOLERANCE = 0.005;

function learnFollows(r) {
  learnStop();
  const names = [...new Set(r.decisions.map((d) => d.name))];
  $("#learn-player").innerHTML = names.map((n) => `<option value="${esc(n)}">${esc(n)}</option>`).join("");
  const you = names.find((n) => n === "you");
  if (you) $("#learn-player").value = you;
  $("#learn-row").hidden = !names.length;
}

const fairMistake = (d) => d.verdict === "fair" && (d.mark === "?" || d.mark === "??") && d.fair && d.fair.means;

async function learnStart() {
  const r = state.review, who = $("#learn-player").value;
  if (!r) throw new Error("review a game first");
  learn.lessons = r.decisions.filter((d) => d.name === who && fairMistake(d));
  learn.at = 0; learn.found = 0;
  if (!learn.lessons.length) {
    showNote(`${who} made no fair mistake (? or ??) in round ${r.round}: nothing to learn`);
    return;
  }
  stopAnalysis(); evalBar(null); clearAnalysis();
  document.body.classList.add("learning");
  $("#notation").value = "";
  window.history.replaceState(null, "", window.location.pathname);     // the address names no position
  $("#learn").hidden = false;
  await learnShow();
}

async function learnShow() {
  const d = learn.lessons[learn.at];
  learn.answered = false;
  const vb = await api("board", {position: d.position, player: d.player}, "reading");
  drawBoard(vb, viewNote(vb, d.player), null, null);
  $("#learn-step").textContent = `${learn.at + 1} of ${learn.lessons.length}`;
  $("#learn-question").textContent = `Round ${d.round}, move ${d.move}: ${d.name} played ${d.played} ${d.mark}, ` +
    `${d.fair.loss.toFixed(2)} below the best by the fair values (from ${d.name}'s view). Find a better play: click a card or a move.`;
  $("#learn-answer").textContent = "";
  $("#learn-answer").className = "";
  $("#learn-next").hidden = true;
  $("#learn-moves").innerHTML = vb.legal.map((m) => `<button type="button" class="learn-move" data-move="${esc(m)}">${esc(m)}</button>`).join("");
  $$("#learn-moves .learn-move").forEach((btn) => btn.addEventListener("click", () => learnAnswer(btn.dataset.move)));
  const hand = $(`#hand${d.player}`) ? `#hand${d.player}` : `#board [data-seat="${d.player}"] .cards`;
  $$(`${hand} svg.card`).forEach((svg) => {
    svg.classList.add("clickable");
    svg.addEventListener("click", () => {
      const moves = vb.legal.filter((m) => m.split("x")[0] === svg.dataset.card);
      if (moves.length === 1) learnAnswer(moves[0]);
      else $$("#learn-moves .learn-move").forEach((btn) => btn.hidden = btn.dataset.move.split("x")[0] !== svg.dataset.card);
    });
  });
}

function learnAnswer(move) {
  const d = learn.lessons[learn.at];
  if (learn.answered || !(move in d.fair.means)) return;
  learn.answered = true;
  const mean = d.fair.means[move], best = d.fair.best_mean, loss = Math.max(0, best - mean);
  const good = loss < LEARN_TOLERANCE, s = (x) => (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(2);
  learn.found += good;
  const verdict = good ? `${move}: as good as the best fair move (${s(mean)}).`
    : `${move}: ${move === d.played ? "the move played in the game, " : ""}${s(mean)}, ${loss.toFixed(2)} below the best.`;
  $("#learn-answer").textContent = `${verdict} Best: ${d.fair.best} (${s(best)} fair, over ${d.fair.worlds} world${d.fair.worlds === 1 ? "" : "s"}).`;
  $("#learn-answer").className = good ? "good" : "bad";
  $$("#learn-moves .learn-move").forEach((btn) => {
    btn.hidden = false; btn.disabled = true;
    btn.classList.toggle("best", btn.dataset.move === d.fair.best);
    btn.classList.toggle("chosen", btn.dataset.move === move);
  });
  const last = learn.at + 1 >= learn.lessons.length;
  $("#learn-next").hidden = last;
  if (last) $("#learn-step").textContent = `${learn.lessons.length} of ${learn.lessons.length}: found ${learn.found}`;
}

function learnNext() { learn.at++; if (learn.at < learn.lessons.length) guard(learnShow); }

function learnStop() {
  const was = document.body.classList.contains("learning");
  document.body.classList.remove("learning");
  $("#learn").hidden = true;
  learn.lessons = [];
  if (was && hist.cur) guard(() => go(hist.cur, {push: false}));     // the board as it was
}

function annotationsWire() {
  $("#comment-save").addEventListener("click", () => guard(saveComment));
  $("#comment-download").addEventListener("click", downloadAnnotated);
  $("#learn-btn").addEventListener("click", () => guard(learnStart));
  $("#learn-next").addEventListener("click", learnNext);
  $("#learn-stop").addEventListener("click", learnStop);
}

start();
