// cliplab grid widget: the browser side of cliplab.ui.widget.GridWidget.
//
// Python draws the scene as SVG (trait `svg`, sent whole now and then, and `patch`, the nodes changed since;
// `svg_from` says when a page showing the picture before need only patch; the CSS of every picture is
// `scene_style`) and describes it in `geometry`; this module shows that markup
// and turns pointer and keyboard input into intents for Python, which decides legality.
// Nothing here judges a move: clicks, drops and keys become messages, and Python answers with a new
// picture or a notice. Hover, focus, the mode and a held piece are browser-only state.
//
// Nodes the page adds to the picture carry the class cl-own: the overlays (focus ring, hover ring, ghost, notice
// mark) and each board's .cl-hits, the invisible targets for clicks on segments and points, built here once per
// board from its geometry (Python's picture has none). Patching skips them wherever they sit.
//
// Hooks for tests: root div.cl-grid[data-mode][data-board][data-held][data-turns][data-render-ms][data-revision]
// [data-zoom]; focus holder .cl-stage (tabindex=0, aria-activedescendant); buttons .cl-mode, .cl-rotate,
// .cl-zoom-out and .cl-zoom-in; the legend of keys details.cl-keys; the hovered preview's words .cl-preview-note;
// notice .cl-notice[data-tone][data-side]; live region .cl-live; .cl-hover / .cl-focused / .cl-held
// classes on the SVG elements; overlays .cl-focus-ring, .cl-hover-ring, .cl-ghost, .cl-notice-mark;
// .cl-preview groups (drawn hidden by Python) get .cl-preview-on while their place is hovered and
// .cl-preview-focus while it holds the keyboard focus.

const UNIT = 40; // viewBox pixels per cell, as in cliplab/ui/svg.py
const SVG_NS = "http://www.w3.org/2000/svg";
const KINDS = ["cell", "segment", "point"];
const MODE_NAMES = { cell: "Cells", segment: "Segments", point: "Points", piece: "Pieces" };
const DRAG_START_PX = 6;
// A new picture with up to this many changed attributes and nodes is patched into the page's; one with more
// (most of a large board recoloured) is swapped in whole, which is then quicker than changing each node.
const PATCH_LIMIT = 60;
// Boards' click targets kept for reuse (a board redrawn whole, a turn that takes clicks again); the oldest go.
const TARGETS_KEPT = 32;
// A click moves the focus at once but draws it (ring, classes, toolbar) after Python's answer: done while the
// message is on its way, that work and the frame it asks for slow the answer (~1 ms a click); done with a
// redraw, it holds back that redraw's paint. With no answer this soon it is drawn anyway. The ring is hidden
// while the mouse is in use, so nothing shows the wait.
const CLICK_FOCUS_WAIT_MS = 50;
const TRAY = "\u0000tray"; // focus "board" standing for the tray of pieces (not a valid board id)
// The viewer's own zoom on top of the scale a game draws at (a projector wants it larger). The board keeps
// its scale whatever sits beside it; a board wider than its place scrolls instead of shrinking.
const ZOOMS = [0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 2.5];
const ZOOM_KEY = "cliplab-grid-zoom";
// Each key: as the legend names it, in the short hint, and what it does.
const KEY_WORDS = {
  arrows: ["Arrows", "Arrows move", "move the focus over the board"],
  enter: ["Enter", "Enter chooses", "chooses the focused place (as a click does)"],
  mode: ["M", "M mode", "changes what the arrows move over (the Mode button)"],
  flip: ["O", "O turn line", "turns the focused line across"],
  board: ["[ ]", "[ ] board", "go to the previous or next board"],
  rotate: ["R", "R rotate", "turns the held piece"],
  zoom: ["+ \u2212", "+ \u2212 size", "make the board larger or smaller"],
  legend: ["?", "? keys", "opens or closes this list"],
  escape: ["Esc", "Esc cancel", "cancels: puts a held piece back, closes a message"],
};
const MODE_WORDS = {
  cell: "the squares of the board",
  point: "the corners where lines meet",
  segment: "the lines between two corners",
  piece: "the pieces in the tray",
};

function savedZoom() {
  try {
    const value = Number(globalThis.localStorage?.getItem(ZOOM_KEY));
    return ZOOMS.includes(value) ? value : 1;
  } catch {
    return 1; // storage may be refused (a sandboxed page): the zoom is then kept for this page only
  }
}

/** Clockwise quarter turns of a piece's cells, then shifted so the minimum row and column are 0.
 * Same as cliplab.grid.polyomino.orient with Transform(turns): (r, c) -> (c, -r) per turn. */
export function orient(cells, turns) {
  const moved = cells.map(([r, c]) => {
    let p = [r, c];
    for (let i = 0; i < ((turns % 4) + 4) % 4; i++) p = [p[1], -p[0]];
    return p;
  });
  if (moved.length === 0) return moved;
  const r0 = Math.min(...moved.map((p) => p[0]));
  const c0 = Math.min(...moved.map((p) => p[1]));
  return moved.map(([r, c]) => [r - r0 + 0, c - c0 + 0]);
}

function svgEl(name, attrs = {}) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

function htmlEl(name, attrs = {}, text = "") {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text) node.textContent = text;
  return node;
}

/** Sets an attribute (null: removes it) unless it already has that value. */
function setAttr(node, name, value) {
  if (value === null) node.removeAttribute(name);
  else if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

function clamp(value, low, high) {
  return Math.max(low, Math.min(high, value));
}

function spokenPoint(r, c) {
  return `row ${r + 1}, column ${c + 1}`;
}

/** Report a bug without breaking the widget: it reaches the console and window "error" listeners. */
function surface(error) {
  if (typeof globalThis.reportError === "function") globalThis.reportError(error);
  else setTimeout(() => { throw error; });
}

function render({ model, el }) {
  const events = new AbortController();
  const on = (target, type, handler, options = {}) =>
    target.addEventListener(type, guard(handler), { ...options, signal: events.signal });

  // ------------------------------------------------------------------ the DOM we own
  const root = htmlEl("div", { class: "cl-grid" });
  // Sends any message as this widget would: browser tests use it to check that the kernel refuses
  // malformed ones. It grants nothing a page script could not already do.
  root.cliplabSend = (message) => model.send(message);
  const toolbar = htmlEl("div", { class: "cl-toolbar" });
  const modeButton = htmlEl("button", {
    type: "button", class: "cl-mode", tabindex: "-1", "aria-keyshortcuts": "M",
    title: "What the arrow keys move over (key M)",
  });
  const rotateButton = htmlEl("button", {
    type: "button", class: "cl-rotate", tabindex: "-1", "aria-keyshortcuts": "R",
    title: "Turn the held piece a quarter turn clockwise (key R)",
  });
  rotateButton.append(htmlEl("span", { class: "cl-icon", "aria-hidden": "true" }, "\u21bb"), " Rotate");
  const heldInfo = htmlEl("span", { class: "cl-held-info" });
  const hint = htmlEl("span", { class: "cl-hint", "aria-hidden": "true" }); // filled by updateToolbar
  // What a click on the hovered (or focused) place would do, in words; it takes the hint's place.
  const previewNote = htmlEl("span", { class: "cl-preview-note", role: "status" });
  const zoomOut = htmlEl("button", {
    type: "button", class: "cl-zoom-out", tabindex: "-1", "aria-label": "Smaller board", title: "Smaller board (key \u2212)",
  }, "\u2212");
  const zoomValue = htmlEl("span", { class: "cl-zoom-value", "aria-live": "polite" });
  const zoomIn = htmlEl("button", {
    type: "button", class: "cl-zoom-in", tabindex: "-1", "aria-label": "Larger board", title: "Larger board (key +)",
  }, "+");
  const zoomBox = htmlEl("span", { class: "cl-zoom", role: "group", "aria-label": "Board size" });
  zoomBox.append(zoomOut, zoomValue, zoomIn);
  const keys = htmlEl("details", { class: "cl-keys" });
  // Like the toolbar buttons, out of the tab order (the stage is the widget's one tab stop): key ? opens it.
  const keysSummary = htmlEl("summary", { tabindex: "-1", title: "What the keys and the Mode button do (key ?)" }, "Keys");
  const keysList = htmlEl("dl", { class: "cl-keys-list" });
  keys.append(keysSummary, keysList);
  toolbar.append(modeButton, rotateButton, heldInfo, hint, previewNote, zoomBox, keys);

  const stage = htmlEl("div", {
    class: "cl-stage", tabindex: "0", role: "application", "aria-roledescription": "game boards",
    "data-lm-suppress-shortcuts": "true",
    "aria-label": "Game boards. Arrow keys move, Enter or Space chooses, M changes what you move over, " +
      "Page Up and Page Down or [ and ] change board, R turns a held piece, Escape cancels.",
  });
  const host = htmlEl("div", { class: "cl-svg-host" });
  const notice = htmlEl("div", { class: "cl-notice", hidden: "" });
  const noticeIcon = htmlEl("span", { class: "cl-notice-icon", "aria-hidden": "true" });
  const noticeText = htmlEl("span", { class: "cl-notice-text" });
  const noticeClose = htmlEl("button", {
    type: "button", class: "cl-notice-close", tabindex: "-1", "aria-label": "Dismiss",
  }, "\u00d7");
  notice.append(noticeIcon, noticeText, noticeClose);
  stage.append(host, notice);
  const live = htmlEl("div", { class: "cl-live", "aria-live": "polite", "aria-atomic": "true" });
  const sceneStyle = htmlEl("style", { class: "cl-scene-style" });
  const parser = document.createElement("template");
  root.append(sceneStyle, toolbar, stage, live);
  el.append(root);

  // ------------------------------------------------------------------ state
  let svg = null; // the current <svg>
  let drawnSvg = null; // the model's "svg" markup on screen (drawn whole, or grown by patching; see drawSvg)
  let drawnPatch = null; // the model's "patch" last drawn
  let drawnNodes = new Map(); // that patch as drawn: path "i j k" -> markup
  let drawnRevision = null; // the model's "revision" whose picture is on screen
  let rootOverlay = null; // <g> on top of the whole scene (ghost off the boards, tray focus ring)
  let boards = new Map(); // id -> {id, el, overlay, rows, cols, clickable, pieces, label}
  let order = []; // board ids in document order
  let pieces = new Map(); // piece id -> <g class="cl-piece">
  let pieceOrder = [];
  const builtTargets = new Map(); // a board's geometry (see placeTargets) -> its <g class="cl-hits">
  const focus = { board: null, kind: "cell", r: 0, c: 0, o: "h", piece: 0 };
  const lastOnBoard = new Map(); // board id -> {kind, r, c, o}, to come back to the same place
  let lastBoard = null; // the board focused before the tray
  let hover = null; // {key, el, ring}
  let held = null; // {piece, turns, anchor: [r, c] of the original piece cell held, or null = corner}
  let place = null; // where the held piece would land: {board, r, c} (top-left cell) or null
  let pointer = null; // last pointer position over the stage {x, y}
  let press = null; // pointerdown on a tray piece: {id, anchor, x, y, pointerId, dragging}
  let swallowClick = false;
  let ghost = null; // {el, inner, key}
  let shownNotice = null; // the notice dict on screen
  let noticeMark = null;
  let svgChanged = false;
  let noticeChanged = false;
  let syncQueued = false;
  let lastAnnounced = "";
  let toolbarWording = null; // what the hint, the legend and the Mode button last said (see updateToolbar)
  let zoom = savedZoom();

  function guard(handler) {
    return (...args) => {
      try {
        return handler(...args);
      } catch (error) {
        // Drop transient gestures so the widget stays usable, then let the bug be seen.
        press = null;
        swallowClick = false;
        root.classList.remove("cl-dragging");
        surface(error);
        return undefined;
      }
    };
  }

  // ------------------------------------------------------------------ drawing the scene
  function readBoards() {
    const geometry = model.get("geometry") || {};
    const described = geometry.boards || {};
    boards = new Map();
    order = [];
    if (!svg) return;
    for (const boardEl of svg.querySelectorAll(".cl-board")) {
      const id = boardEl.getAttribute("data-board");
      if (id === null || boards.has(id)) continue;
      const g = described[id] || {};
      const clickable = Array.isArray(g.clickable)
        ? g.clickable.filter((k) => KINDS.includes(k))
        : (boardEl.getAttribute("data-clickable") || "").split(/\s+/).filter((k) => KINDS.includes(k));
      let overlay = boardEl.querySelector(":scope > .cl-overlay");
      if (!overlay) {
        overlay = svgEl("g", { class: "cl-overlay cl-own", "aria-hidden": "true" });
        boardEl.append(overlay);
      }
      const board = {
        id,
        el: boardEl,
        overlay,
        rows: Number(g.rows ?? boardEl.getAttribute("data-rows")) || 0,
        cols: Number(g.cols ?? boardEl.getAttribute("data-cols")) || 0,
        clickable,
        pieces: g.pieces === undefined ? boardEl.hasAttribute("data-accepts-pieces") : Boolean(g.pieces),
        label: boardEl.getAttribute("aria-label") || id,
      };
      placeTargets(board, g.targets || {});
      boards.set(id, board);
      order.push(id);
    }
  }

  /** Puts the board's click targets for segments and points under its overlay, so they win over what is drawn
   * beneath: the ones it has when they still fit, else ones built before for the same geometry, else new ones. */
  function placeTargets(board, sizes) {
    const kinds = ["segment", "point"].filter((k) => board.clickable.includes(k) && Number(sizes[k]) > 0);
    const have = board.el.querySelector(":scope > .cl-hits");
    const key = [model.get("ids"), board.id, board.rows, board.cols, ...kinds.map((k) => `${k}=${sizes[k]}`)].join(" ");
    if (have?.dataset.key === key) return;
    have?.remove();
    if (!kinds.length) return;
    let hits = builtTargets.get(key);
    if (!hits) {
      hits = buildTargets(board, kinds, sizes);
      hits.dataset.key = key;
      builtTargets.set(key, hits);
      if (builtTargets.size > TARGETS_KEPT) builtTargets.delete(builtTargets.keys().next().value);
    }
    board.el.insertBefore(hits, board.overlay);
  }

  function buildTargets(board, kinds, sizes) {
    const hits = svgEl("g", { class: "cl-hits cl-own" });
    const prefix = `${model.get("ids")}-${board.id}`;
    const { rows, cols } = board;
    if (kinds.includes("segment")) {
      const pad = Number(sizes.segment);
      const segment = (r, c, r2, c2) => {
        const across = r2 === r; // a horizontal segment
        hits.append(svgEl("rect", {
          class: "cl-hit", id: `${prefix}-s${r}-${c}-${across ? "h" : "v"}`, "data-kind": "segment",
          "data-r": r, "data-c": c, "data-r2": r2, "data-c2": c2,
          "aria-label": `segment from point ${spokenPoint(r, c)} to point ${spokenPoint(r2, c2)}`,
          ...(across ? { x: c * UNIT, y: r * UNIT - pad, width: UNIT, height: 2 * pad }
            : { x: c * UNIT - pad, y: r * UNIT, width: 2 * pad, height: UNIT }),
        }));
      };
      for (let r = 0; r <= rows; r++) {
        for (let c = 0; c <= cols; c++) {
          if (c < cols) segment(r, c, r, c + 1);
          if (r < rows) segment(r, c, r + 1, c);
        }
      }
    }
    if (kinds.includes("point")) {
      for (let r = 0; r <= rows; r++) {
        for (let c = 0; c <= cols; c++) {
          hits.append(svgEl("circle", {
            class: "cl-hit", id: `${prefix}-p${r}-${c}`, "data-kind": "point", "data-r": r, "data-c": c,
            "aria-label": `point ${spokenPoint(r, c)}`, cx: c * UNIT, cy: r * UNIT, r: Number(sizes.point),
          }));
        }
      }
    }
    return hits;
  }

  function readPieces() {
    pieces = new Map();
    pieceOrder = [];
    if (!svg) return;
    const prefix = model.get("ids") || "clg";
    for (const pieceEl of svg.querySelectorAll(".cl-tray .cl-piece")) {
      const id = pieceEl.getAttribute("data-piece");
      if (id === null || pieces.has(id)) continue;
      pieceEl.id = `${prefix}-piece-${id}`;
      pieces.set(id, pieceEl);
      pieceOrder.push(id);
    }
  }

  /** Draws the picture the model holds: `svg` whole when it changed, then the nodes `patch` names that are
   * not drawn yet. A new `svg` that Python made from the picture on screen by `patch` (its `svg_from` is the
   * revision on screen) is not drawn whole: patching those nodes is enough. Returns false when there was
   * nothing new to draw. */
  function drawSvg() {
    const started = performance.now();
    const markup = model.get("svg") || "";
    const fresh = markup !== drawnSvg || !host.firstChild;
    const whole = fresh && !(host.firstChild && model.get("svg_from") === drawnRevision);
    const nodes = changedNodes(fresh);
    if (!fresh && nodes.length === 0) {
      drawnRevision = model.get("revision"); // the same picture shown again
      return false;
    }
    // Our overlays stay where the patch keeps their board (the focus ring is moved, not redrawn); what
    // else they hold belonged to the old picture and is drawn again if it still applies.
    hover?.el.classList.remove("cl-hover"); // a target outlives the picture
    hover?.ring?.remove();
    ghost?.el.remove();
    noticeMark?.remove();
    hover = null;
    ghost = null;
    noticeMark = null;
    if (whole) drawWhole(markup);
    drawnSvg = markup;
    // A click's answer mostly changes a few cells: the boards, the tray and the <svg> are then as they were.
    if (!patchNodes(nodes) || whole) readPicture();
    normaliseFocus();
    const focusLater = focusPending && !keyboardPlacing();
    if (focusLater) drawFocusAfterPaint(); // the toolbar too, which follows the focus
    else drawFocus();
    drawGhost();
    if (!focusLater) updateToolbar();
    drawnRevision = model.get("revision");
    root.dataset.renderMs = (performance.now() - started).toFixed(2);
    return true;
  }

  /** Takes in a picture whose <svg>, boards or tray may be new. */
  function readPicture() {
    svg = host.querySelector("svg");
    showZoom();
    if (svg && rootOverlay?.parentNode !== svg) {
      rootOverlay = svgEl("g", { class: "cl-overlay cl-root-overlay cl-own", "aria-hidden": "true" });
      svg.append(rootOverlay);
    } else if (!svg) {
      rootOverlay = null;
    }
    readBoards();
    readPieces();
    if (held && !pieces.has(held.piece)) {
      held = null; // the piece left the tray (placed): nothing is held any more
      place = null;
    }
  }

  function drawWhole(markup) {
    // One parse of the whole markup (inert, in a template), then the page's picture is patched to match
    // it (the first picture, one that is not a single <svg>, or one with more than PATCH_LIMIT changes is
    // swapped in whole).
    parser.innerHTML = markup;
    const fresh = parser.content.querySelector("svg");
    if (fresh) {
      // Sized and marked as it will be shown, so that patching leaves an unchanged <svg> element untouched.
      fresh.setAttribute("focusable", "false");
      sizeSvg(fresh);
    }
    const patchable = fresh && svg && host.childNodes.length === 1 && parser.content.childNodes.length === 1;
    if (patchable && differences(svg, fresh, PATCH_LIMIT) <= PATCH_LIMIT) {
      patch(svg, fresh);
    } else {
      host.replaceChildren(...parser.content.childNodes);
    }
    parser.content.replaceChildren(); // not innerHTML = "": that starts the HTML parser for nothing
    svg = host.querySelector("svg");
  }

  /** The [path, markup] pairs of `patch` not drawn yet (all of them with a new `svg`); remembers them all as
   * drawn. Python names each changed node of its picture once, by the child indices leading to it from the
   * <svg> ("1 0 6 5"), and keeps naming it until it sends the picture whole again. */
  function changedNodes(fresh) {
    const sent = model.get("patch") || {};
    if (!fresh && sent === drawnPatch) return []; // one update calls this once for each trait it changed
    drawnPatch = sent;
    const drawn = fresh ? new Map() : drawnNodes;
    const named = new Map();
    const changed = [];
    for (const [key, markup] of Object.entries(sent)) {
      named.set(key, markup);
      if (drawn.get(key) !== markup) changed.push([key.split(" ").map(Number), markup]);
    }
    drawnNodes = named;
    return changed;
  }

  /** Draws the [path, entry] pairs, each entry a node's markup or (a cell) its description (JSON, from
   * Python's svg.described); returns whether every node drawn sits inside a board (a cell, a row). */
  function patchNodes(nodes) {
    if (nodes.length === 0) return true;
    const marked = nodes.filter(([, entry]) => entry.startsWith("<")); // the rest are descriptions
    // One parse for all the markup, inside an <svg> so that it is parsed as SVG.
    if (marked.length) parser.innerHTML = `<svg xmlns="${SVG_NS}">${marked.map(([, markup]) => markup).join("")}</svg>`;
    const parsed = marked.length ? [...parser.content.firstElementChild.children] : [];
    let inBoards = true;
    for (const [path, entry] of nodes) {
      // The indices count Python's elements only: our own nodes are skipped wherever they sit.
      const node = path.reduce((parent, index) => parent && markupChild(parent, index), svg);
      const fresh = entry.startsWith("<") ? parsed.shift() : JSON.parse(entry);
      const name = fresh?.nodeName ?? fresh?.[0];
      if (node?.nodeName !== name) throw new Error(`grid: no <${name}> at [${path}] to patch`);
      inBoards &&= node.parentNode.closest(".cl-board") !== null;
      if (Array.isArray(fresh)) {
        match(node, fresh);
      } else if (differences(node, fresh, PATCH_LIMIT) <= PATCH_LIMIT) {
        patch(node, fresh);
      } else {
        fresh.append(...ownNodes(node));
        node.replaceWith(fresh);
      }
    }
    if (marked.length) parser.content.replaceChildren(); // not innerHTML = "": that starts the HTML parser
    return inBoards;
  }

  /** What `patch` does with a node Python described ([name, attributes, text or children]) rather than
   * drew: makes `old` (of that name) the same, building only the elements it lacks. */
  function match(old, [, attributes, content]) {
    syncAttributes(old, attributes, true);
    if (typeof content === "string") {
      if (old.childElementCount || old.textContent !== content) old.textContent = content;
      return;
    }
    alignChildren(old, content.map(([name]) => name), (was, i) => match(was, content[i]), (i) => build(content[i]));
  }

  function build([name, attributes, content]) {
    const el = svgEl(name, attributes);
    if (typeof content === "string") el.textContent = content;
    else el.append(...content.map(build));
    return el;
  }

  function isOwn(node) {
    return node.nodeType === Node.ELEMENT_NODE && node.classList.contains("cl-own");
  }

  /** The `index`th child element of `parent` that came from Python's markup. */
  function markupChild(parent, index) {
    let seen = -1;
    for (const child of parent.children) if (!isOwn(child) && ++seen === index) return child;
    return null;
  }

  function ownNodes(node) {
    return [...node.children].filter(isOwn);
  }

  /** Makes `old` the same as `fresh` (both elements of one name) by changing only what differs: a click
   * that recolours one cell then restyles that cell, not the whole picture, and the elements the pointer
   * and the focus are on stay the same. `fresh`'s nodes may be moved into `old`; our own nodes stay. */
  function patch(old, fresh) {
    syncAttributes(old, fresh, true);
    const news = [...fresh.childNodes];
    alignChildren(old, news.map((n) => n.nodeName), (was, i) => {
      if (news[i].nodeType === Node.ELEMENT_NODE) patch(was, news[i]);
      else if (was.nodeValue !== news[i].nodeValue) was.nodeValue = news[i].nodeValue;
    }, (i) => news[i]);
  }

  /** Lines up `old`'s children from Python (our own stay) with new ones named `names`: the ith is kept and
   * `update`d when its name is the same, else `make(i)` takes its place; extra ones go. */
  function alignChildren(old, names, update, make) {
    const olds = [...old.childNodes].filter((n) => !isOwn(n));
    // New nodes go after the last of Python's, before our own that follow it (drawn on top of them).
    const after = olds.length ? olds[olds.length - 1].nextSibling : old.firstChild;
    names.forEach((name, i) => {
      const was = olds[i];
      if (was === undefined) old.insertBefore(make(i), after);
      else if (was.nodeName !== name) was.replaceWith(make(i));
      else update(was, i);
    });
    for (const extra of olds.slice(names.length)) extra.remove();
  }

  /** How many attributes and nodes `patch` would change (counting stops above `limit`); reads only. */
  function differences(old, fresh, limit) {
    let count = syncAttributes(old, fresh, false);
    // Side by side through both lists of children, our own nodes in the page's skipped.
    let was = old.firstChild;
    let node = fresh.firstChild;
    for (;;) {
      while (was && isOwn(was)) was = was.nextSibling;
      if (!was || !node || count > limit) break;
      if (was.nodeName !== node.nodeName) count++;
      else if (node.nodeType === Node.ELEMENT_NODE) count += differences(was, node, limit - count);
      else if (was.nodeValue !== node.nodeValue) count++;
      was = was.nextSibling;
      node = node.nextSibling;
    }
    for (; was && count <= limit; was = was.nextSibling) if (!isOwn(was)) count++;
    for (; node && count <= limit; node = node.nextSibling) count++;
    return count;
  }

  /** How many attribute writes give `old` exactly the attributes of `wanted` (a parsed element, or a
   * description's object of name to value), making them when `write` is true. */
  function syncAttributes(old, wanted, write) {
    const parsed = wanted instanceof Element;
    const had = old.attributes.length;
    let kept = 0; // the wanted names `old` had already
    let count = 0;
    for (const name of parsed ? wanted.getAttributeNames() : Object.keys(wanted)) {
      const value = parsed ? wanted.getAttribute(name) : wanted[name];
      const was = old.getAttribute(name);
      if (was !== null) kept++;
      if (was === value) continue;
      count++;
      if (write) old.setAttribute(name, value);
    }
    // Counted, and listed only when some must go: listing a page element's `attributes` makes an Attr node for
    // each, which every later write to it keeps up to date.
    if (had > kept) {
      for (const name of old.getAttributeNames()) {
        if (parsed ? wanted.hasAttribute(name) : Object.hasOwn(wanted, name)) continue;
        count++;
        if (write) old.removeAttribute(name);
      }
    }
    return count;
  }

  /** The picture at the game's own scale times the viewer's zoom (Python gives the former as max-width). */
  function applyZoom() {
    showZoom();
    if (svg) sizeSvg(svg);
  }

  function showZoom() {
    // Called on every redraw: toggleAttribute and setAttr leave what is already so alone (see drawFocus).
    setAttr(root, "data-zoom", String(zoom));
    const percent = `${Math.round(zoom * 100)}%`;
    if (zoomValue.textContent !== percent) zoomValue.textContent = percent;
    zoomOut.toggleAttribute("disabled", zoom === ZOOMS[0]);
    zoomIn.toggleAttribute("disabled", zoom === ZOOMS[ZOOMS.length - 1]);
  }

  function sizeSvg(node) {
    if (node.dataset.naturalWidth === undefined) node.dataset.naturalWidth = String(parseFloat(node.style.maxWidth));
    const natural = Number(node.dataset.naturalWidth);
    if (!Number.isFinite(natural)) return;
    node.style.width = `${(natural * zoom).toFixed(1)}px`;
    node.style.maxWidth = "none";
  }

  function changeZoom(step) {
    const next = ZOOMS[clamp(ZOOMS.indexOf(zoom) + step, 0, ZOOMS.length - 1)];
    if (next === zoom) return;
    zoom = next;
    try {
      globalThis.localStorage?.setItem(ZOOM_KEY, String(zoom));
    } catch {
      // not kept past this page: nothing lost
    }
    applyZoom();
    drawGhost();
    positionNotice();
    announce(`Board size ${Math.round(zoom * 100)}%`);
  }

  function geometryChanged() {
    readBoards();
    normaliseFocus();
    drawFocus();
    drawGhost();
    updateToolbar();
  }

  // ------------------------------------------------------------------ places and elements
  function modesOf(board) {
    if (!board) return ["piece"];
    const modes = KINDS.filter((k) => board.clickable.includes(k));
    if (board.pieces && !modes.includes("cell")) modes.unshift("cell");
    return modes.length ? modes : ["cell"];
  }

  function clampFocus(board) {
    const rows = board.rows;
    const cols = board.cols;
    if (focus.kind === "cell") {
      focus.r = clamp(focus.r, 0, rows - 1);
      focus.c = clamp(focus.c, 0, cols - 1);
    } else if (focus.kind === "point") {
      focus.r = clamp(focus.r, 0, rows);
      focus.c = clamp(focus.c, 0, cols);
    } else if (focus.o === "h") {
      focus.r = clamp(focus.r, 0, rows);
      focus.c = clamp(focus.c, 0, cols - 1);
    } else {
      focus.r = clamp(focus.r, 0, rows - 1);
      focus.c = clamp(focus.c, 0, cols);
    }
  }

  function normaliseFocus() {
    if (focus.board === TRAY) {
      if (pieceOrder.length) {
        focus.kind = "piece";
        focus.piece = clamp(focus.piece, 0, pieceOrder.length - 1);
        return;
      }
      focus.board = null;
    }
    if (!boards.has(focus.board)) {
      focus.board = order.length ? order[0] : pieceOrder.length ? TRAY : null;
      if (focus.board === TRAY) {
        focus.kind = "piece";
        focus.piece = 0;
        return;
      }
      if (focus.board === null) return;
    }
    const board = boards.get(focus.board);
    const modes = modesOf(board);
    if (!modes.includes(focus.kind)) focus.kind = modes[0];
    clampFocus(board);
  }

  function cellId(boardId, r, c) {
    return `${model.get("ids")}-${boardId}-c${r}-${c}`;
  }

  function findCell(board, r, c) {
    const id = cellId(board.id, r, c);
    const byId = document.getElementById(id);
    if (byId && board.el.contains(byId)) return byId;
    return board.el.querySelector(`[data-kind="cell"][data-r="${r}"][data-c="${c}"]`);
  }

  function findTarget(board, kind, r, c, r2, c2) {
    if (!board) return null;
    if (kind === "cell") return findCell(board, r, c);
    if (kind === "point") return board.el.querySelector(`.cl-hit[data-kind="point"][data-r="${r}"][data-c="${c}"]`);
    if (kind === "segment") {
      return board.el.querySelector(
        `.cl-hit[data-kind="segment"][data-r="${r}"][data-c="${c}"][data-r2="${r2}"][data-c2="${c2}"]`,
      );
    }
    return null;
  }

  /** The focused segment's end points. */
  function segmentEnds() {
    return focus.o === "h" ? [focus.r, focus.c, focus.r, focus.c + 1] : [focus.r, focus.c, focus.r + 1, focus.c];
  }

  /** A shape (board-local viewBox units) for a place: used by rings and the notice mark. */
  function shapeFor(kind, r, c, r2, c2, inset) {
    return svgEl(kind === "point" ? "circle" : kind === "segment" ? "line" : "rect", shapeAttrs(kind, r, c, r2, c2, inset));
  }

  function shapeAttrs(kind, r, c, r2, c2, inset) {
    if (kind === "point") return { cx: c * UNIT, cy: r * UNIT, r: UNIT * 0.27 };
    if (kind === "segment") return { x1: c * UNIT, y1: r * UNIT, x2: c2 * UNIT, y2: r2 * UNIT };
    return { x: c * UNIT + inset, y: r * UNIT + inset, width: UNIT - 2 * inset, height: UNIT - 2 * inset, rx: 3 };
  }

  // ------------------------------------------------------------------ focus ring and live region
  let focusRing = null;
  let focusedEl = null;
  let focusPreview = null; // the focused place's preview (grid.css shows it only while keys are in use)
  let focusPending = false; // a click moved the focus, which is not drawn yet (see focusOn)
  let focusTimer = null; // draws that focus: CLICK_FOCUS_WAIT_MS after the click, or once the answer is painted

  /** The answer to a click redraws the board first: the focus the click moved (its ring hidden while the mouse
   * is in use) is drawn in a task after the next frame, so that work does not hold back the board's paint. */
  function drawFocusAfterPaint() {
    clearTimeout(focusTimer);
    focusTimer = null;
    requestAnimationFrame(guard(() => {
      if (focusPending && focusTimer === null) focusTimer = setTimeout(guard(drawFocusAndToolbar));
    }));
  }

  function drawFocusAndToolbar() {
    drawFocus();
    updateToolbar();
  }

  function drawFocus() {
    clearTimeout(focusTimer); // this draws what it would have
    focusTimer = null;
    focusPending = false;
    const oldRing = focusRing;
    focusRing = null;
    const [el, preview] = placeFocus(oldRing);
    if (oldRing && oldRing !== focusRing) oldRing.remove();
    // Classes and attributes are changed only where they differ (setting one to the value it has is still a
    // DOM mutation, and most clicks and redraws leave the focus where it was); a patched node has come back
    // with Python's class, so the class is checked rather than remembered.
    if (focusedEl !== el) focusedEl?.classList.remove("cl-focused");
    if (el && !el.classList.contains("cl-focused")) el.classList.add("cl-focused");
    if (focusPreview !== preview) focusPreview?.classList.remove("cl-preview-focus");
    if (preview && !preview.classList.contains("cl-preview-focus")) preview.classList.add("cl-preview-focus");
    focusedEl = el;
    focusPreview = preview;
    setAttr(stage, "aria-activedescendant", el?.id || null);
    setAttr(root, "data-board", focus.board === TRAY ? "" : focus.board ?? "");
    setAttr(root, "data-mode", focus.kind);
    if (!hover && focus.board !== TRAY && focus.board !== null) showNote(root.classList.contains("cl-kbd") ? preview : null);
  }

  /** Draws the focus ring where the focus is; returns the focused element and its preview (or nulls). */
  function placeFocus(oldRing) {
    if (focus.board === null || !svg) return [null, null];
    if (focus.board === TRAY) {
      const pieceEl = pieces.get(pieceOrder[focus.piece]);
      if (!pieceEl || !rootOverlay) return [null, null];
      const box = boxInSvg(pieceEl);
      if (box) {
        focusRing = svgEl("g", { class: "cl-focus-ring", "data-kind": "piece" });
        for (const part of ["cl-halo", "cl-ring"]) {
          focusRing.append(svgEl("rect", {
            class: part, x: box.x - 4, y: box.y - 4, width: box.width + 8, height: box.height + 8, rx: 5,
          }));
        }
        rootOverlay.append(focusRing);
      }
      return [pieceEl, null];
    }
    const board = boards.get(focus.board);
    if (!board) return [null, null];
    const [r, c, r2, c2] = focus.kind === "segment" ? segmentEnds() : [focus.r, focus.c, 0, 0];
    if (oldRing?.parentNode === board.overlay && oldRing.dataset.kind === focus.kind) {
      // Moved rather than drawn again: taking an element out of the picture costs more than a click's
      // whole handling; and every redraw comes here, mostly with the focus where it was: nothing is built.
      const attrs = Object.entries(shapeAttrs(focus.kind, r, c, r2, c2, 2));
      for (const shape of oldRing.children) for (const [name, value] of attrs) setAttr(shape, name, String(value));
      focusRing = oldRing;
    } else {
      focusRing = svgEl("g", { class: "cl-focus-ring", "data-kind": focus.kind });
      for (const part of ["cl-halo", "cl-ring"]) {
        const shape = shapeFor(focus.kind, r, c, r2, c2, 2);
        shape.setAttribute("class", part);
        focusRing.append(shape);
      }
      board.overlay.append(focusRing);
    }
    const el = findTarget(board, focus.kind, r, c, r2, c2);
    return [el, previewFor(board, el)];
  }

  function boxInSvg(node) {
    // A node's bounding box in the <svg>'s user units, through its transforms.
    if (!svg || !node.getBBox) return null;
    const own = node.getScreenCTM();
    const top = svg.getScreenCTM();
    if (!own || !top) return null;
    const matrix = top.inverse().multiply(own);
    const b = node.getBBox();
    const a = new DOMPoint(b.x, b.y).matrixTransform(matrix);
    const z = new DOMPoint(b.x + b.width, b.y + b.height).matrixTransform(matrix);
    return { x: Math.min(a.x, z.x), y: Math.min(a.y, z.y), width: Math.abs(z.x - a.x), height: Math.abs(z.y - a.y) };
  }

  function describeFocus() {
    if (focus.board === TRAY) {
      const id = pieceOrder[focus.piece];
      const pieceEl = pieces.get(id);
      return `Tray: ${pieceEl?.getAttribute("aria-label") || `piece ${id}`}. Enter picks it up.`;
    }
    const board = boards.get(focus.board);
    if (!board) return "";
    if (focus.kind === "cell") {
      const cell = findCell(board, focus.r, focus.c);
      return cell?.querySelector(":scope > title")?.textContent || spokenPoint(focus.r, focus.c);
    }
    const note = focusPreview?.getAttribute("data-note");
    const then = note ? `. ${note}` : "";
    if (focus.kind === "point") return `point ${spokenPoint(focus.r, focus.c)}${then}`;
    const [r, c, r2, c2] = segmentEnds();
    return `segment from ${spokenPoint(r, c)} to ${spokenPoint(r2, c2)}${then}`;
  }

  /** The words of a preview in the toolbar, in place of the key hint (none: the hint comes back). */
  function showNote(preview) {
    const note = preview?.getAttribute("data-note") || "";
    if (previewNote.textContent === note) return;
    previewNote.textContent = note;
    previewNote.title = note;
    root.classList.toggle("cl-noting", note !== "");
  }

  function announce(text) {
    if (!text) return;
    // The same words twice in a row are not re-read unless the text changes: vary it invisibly.
    const spoken = text === lastAnnounced ? `${text}\u00a0` : text;
    lastAnnounced = spoken;
    live.textContent = spoken;
  }

  function updateToolbar() {
    const hasBoards = order.length > 0;
    const board = boards.get(focus.board);
    const modes = focus.board === TRAY ? ["piece"] : modesOf(board);
    modeButton.toggleAttribute("disabled", modes.length < 2);
    modeButton.toggleAttribute("hidden", !hasBoards || (modes.length < 2 && order.length < 2 && pieceOrder.length === 0));
    // The key hint and the legend name only the keys that do something on this picture.
    // A picture that takes no clicks (someone else's turn) has nothing for the arrows and Enter to choose.
    const choosing = pieceOrder.length > 0 || order.some((id) => boards.get(id).clickable.length || boards.get(id).pieces);
    const acting = choosing ? ["arrows", "enter"] : [];
    if (modes.length > 1) acting.push("mode");
    if (focus.kind === "segment") acting.push("flip");
    if (order.length + (pieceOrder.length ? 1 : 0) > 1) acting.push("board");
    if (pieceOrder.length || held) acting.push("rotate");
    acting.push("zoom", "legend", "escape");
    // Called on every click and redraw: the words are rebuilt only when they would read differently, so
    // a click does not restyle and relayout the toolbar for nothing.
    const wording = `${acting.join(" ")}|${modeButton.hidden}|${focus.kind}`;
    if (wording !== toolbarWording) {
      toolbarWording = wording;
      hint.textContent = acting.map((k) => KEY_WORDS[k][1]).join(" \u00b7 ");
      hint.title = acting.map((k) => `${KEY_WORDS[k][0]}: ${KEY_WORDS[k][2]}`).join("\n");
      const listed = acting.map((k) => [KEY_WORDS[k][0], KEY_WORDS[k][2]]);
      if (!modeButton.hidden) listed.push(["Mode", `now ${MODE_NAMES[focus.kind]}: the arrows move over ${MODE_WORDS[focus.kind]}`]);
      keysList.replaceChildren(...listed.flatMap(([key, words]) => [htmlEl("dt", {}, key), htmlEl("dd", {}, words)]));
      modeButton.dataset.mode = focus.kind;
      modeButton.textContent = "";
      modeButton.append(
        htmlEl("span", { class: "cl-mode-label" }, "Mode:"), " ",
        htmlEl("span", { class: "cl-mode-value" }, MODE_NAMES[focus.kind] || focus.kind),
      );
      modeButton.setAttribute("aria-label", `Mode: ${MODE_NAMES[focus.kind] || focus.kind}. Change with M.`);
      modeButton.title = `The arrow keys move over ${MODE_WORDS[focus.kind] || focus.kind}; click or press M to change`;
    }
    rotateButton.toggleAttribute("hidden", pieceOrder.length === 0 && !held);
    rotateButton.toggleAttribute("disabled", !held);
    setAttr(rotateButton, "data-turns", held ? String(held.turns) : "0");
    setAttr(root, "data-held", held ? held.piece : "");
    setAttr(root, "data-turns", held ? String(held.turns) : "0");
    const holding = held ? `Holding ${pieceName(held.piece)}${held.turns ? `, turned ${held.turns * 90}\u00b0` : ""}` : "";
    if (heldInfo.textContent !== holding) heldInfo.textContent = holding;
    for (const [id, pieceEl] of pieces) pieceEl.classList.toggle("cl-held", Boolean(held && held.piece === id));
  }

  function pieceName(id) {
    return pieces.get(id)?.getAttribute("aria-label") || `piece ${id}`;
  }

  // ------------------------------------------------------------------ intents
  function send(message) {
    model.send({ type: "intent", ...message });
  }

  function sendPlace(board, kind, at, to) {
    if (!board.clickable.includes(kind)) return false;
    if (kind === "segment") send({ board: board.id, kind, at, to });
    else send({ board: board.id, kind, at });
    return true;
  }

  // ------------------------------------------------------------------ pieces
  function pieceCells(id) {
    const listed = (model.get("geometry") || {}).pieces?.[id];
    if (Array.isArray(listed) && listed.length) return listed.map(([r, c]) => [Number(r), Number(c)]);
    const pieceEl = pieces.get(id);
    if (!pieceEl) return [];
    return [...pieceEl.querySelectorAll(":scope > [data-r][data-c]")].map((n) => [
      Number(n.getAttribute("data-r")), Number(n.getAttribute("data-c")),
    ]);
  }

  /** Where the held cell sits in the turned shape (the drop corner is that far up and left of it). */
  function anchorOffset() {
    if (!held || !held.anchor) return [0, 0];
    const cells = pieceCells(held.piece);
    const turned = orient(cells, held.turns);
    const i = cells.findIndex(([r, c]) => r === held.anchor[0] && c === held.anchor[1]);
    return i >= 0 ? turned[i] : [0, 0];
  }

  function pickUp(id, anchor) {
    if (!pieces.has(id)) return;
    held = { piece: id, turns: held && held.piece === id ? held.turns : 0, anchor };
    place = null;
    hideHover();
    updateToolbar();
    drawGhost();
  }

  function putBack(say = true) {
    if (!held) return;
    const name = pieceName(held.piece);
    held = null;
    place = null;
    if (press && press.dragging) {
      // Escape in the middle of a drag: the release that follows must not act as a click.
      swallowClick = true;
      if (stage.hasPointerCapture?.(press.pointerId)) stage.releasePointerCapture(press.pointerId);
    }
    press = null;
    root.classList.remove("cl-dragging");
    drawGhost();
    updateToolbar();
    if (say) announce(`${name} put back`);
  }

  function rotate() {
    if (!held) {
      announce("No piece is held: pick one from the tray first");
      return;
    }
    held.turns = (held.turns + 1) % 4;
    if (pointer && !keyboardPlacing()) place = placeAtPointer(pointer.x, pointer.y);
    else if (place) clampPlace();
    drawGhost(true);
    updateToolbar();
    announce(`${pieceName(held.piece)} turned ${held.turns * 90} degrees`);
  }

  function keyboardPlacing() {
    return root.classList.contains("cl-kbd");
  }

  function clampPlace() {
    const board = boards.get(place.board);
    if (!board) {
      place = null;
      return;
    }
    place.r = clamp(place.r, 0, board.rows - 1);
    place.c = clamp(place.c, 0, board.cols - 1);
  }

  function drop() {
    if (!held || !place) return false;
    const board = boards.get(place.board);
    if (!board || !board.pieces) return false;
    const message = { board: board.id, kind: "drop", piece: held.piece, turns: held.turns, at: [place.r, place.c] };
    if (focus.board !== board.id || focus.kind !== "cell") focusOn({ board, kind: "cell", at: message.at });
    held = null;
    place = null;
    drawGhost();
    updateToolbar();
    send(message);
    return true;
  }

  /** The board (accepting pieces) under a client point, with the point in cells of that board. */
  function boardAt(x, y, onlyPieces) {
    for (const id of order) {
      const board = boards.get(id);
      if (onlyPieces && !board.pieces) continue;
      const local = toBoard(board, x, y);
      if (local && local.x >= 0 && local.y >= 0 && local.x < board.cols && local.y < board.rows) {
        return { board, x: local.x, y: local.y };
      }
    }
    return null;
  }

  function toBoard(board, x, y) {
    const matrix = board.el.getScreenCTM();
    if (!matrix) return null;
    const p = new DOMPoint(x, y).matrixTransform(matrix.inverse());
    return { x: p.x / UNIT, y: p.y / UNIT };
  }

  function placeAtPointer(x, y) {
    if (!held) return null;
    const hit = boardAt(x, y, true);
    if (!hit) return null;
    const [ar, ac] = anchorOffset();
    const { board } = hit;
    // The corner is kept on the board (a drop names a board cell); Python judges the rest.
    return {
      board: board.id,
      r: clamp(Math.floor(hit.y) - ar, 0, board.rows - 1),
      c: clamp(Math.floor(hit.x) - ac, 0, board.cols - 1),
    };
  }

  function buildGhost() {
    const cells = pieceCells(held.piece);
    const turned = orient(cells, held.turns);
    const pieceEl = pieces.get(held.piece);
    const sources = new Map();
    if (pieceEl) {
      for (const n of pieceEl.querySelectorAll(":scope > [data-r][data-c]")) {
        sources.set(`${n.getAttribute("data-r")},${n.getAttribute("data-c")}`, n);
      }
    }
    const outer = svgEl("g", { class: "cl-ghost", "data-piece": held.piece, "data-turns": held.turns });
    const inner = svgEl("g", { class: "cl-ghost-cells" });
    outer.append(inner);
    cells.forEach(([r, c], i) => {
      const [nr, nc] = turned[i];
      const shift = svgEl("g", { transform: `translate(${(nc - c) * UNIT} ${(nr - r) * UNIT})` });
      const source = sources.get(`${r},${c}`);
      if (source) {
        // Each cell moves to its turned place upright, so glyphs and text stay readable.
        const copy = source.cloneNode(true);
        for (const name of ["id", "role", "data-kind", "data-r", "data-c", "class"]) copy.removeAttribute(name);
        copy.querySelector("title")?.remove();
        shift.append(copy);
      } else {
        shift.append(svgEl("rect", { x: c * UNIT, y: r * UNIT, width: UNIT, height: UNIT, class: "cl-ghost-fill" }));
      }
      shift.append(svgEl("rect", { x: c * UNIT, y: r * UNIT, width: UNIT, height: UNIT, class: "cl-ghost-edge" }));
      inner.append(shift);
    });
    return { el: outer, key: `${held.piece}/${held.turns}` };
  }

  function drawGhost(rebuild = false) {
    if (!held || !svg) {
      if (ghost) ghost.el.remove();
      ghost = null;
      return;
    }
    if (!ghost || rebuild || ghost.key !== `${held.piece}/${held.turns}`) {
      if (ghost) ghost.el.remove();
      ghost = buildGhost();
    }
    const board = place && boards.get(place.board);
    if (board) {
      ghost.el.setAttribute("transform", `translate(${place.c * UNIT} ${place.r * UNIT})`);
      ghost.el.classList.add("cl-snapped");
      ghost.el.setAttribute("data-board", board.id);
      ghost.el.setAttribute("data-r", place.r);
      ghost.el.setAttribute("data-c", place.c);
      if (ghost.el.parentNode !== board.overlay) board.overlay.append(ghost.el);
      return;
    }
    ghost.el.classList.remove("cl-snapped");
    ghost.el.removeAttribute("data-board");
    const top = svg.getScreenCTM();
    if (!pointer || !top || !rootOverlay) {
      ghost.el.remove();
      return;
    }
    // Off the boards the ghost floats under the pointer, held by the cell that was picked.
    const p = new DOMPoint(pointer.x, pointer.y).matrixTransform(top.inverse());
    const [ar, ac] = anchorOffset();
    const x = p.x - (ac + 0.5) * UNIT;
    const y = p.y - (ar + 0.5) * UNIT;
    ghost.el.setAttribute("transform", `translate(${x.toFixed(1)} ${y.toFixed(1)})`);
    if (ghost.el.parentNode !== rootOverlay) rootOverlay.append(ghost.el);
  }

  // ------------------------------------------------------------------ hover
  function hoverKey(node) {
    const board = node.closest(".cl-board")?.getAttribute("data-board");
    return [board, ...["data-kind", "data-r", "data-c", "data-r2", "data-c2"].map((a) => node.getAttribute(a))].join("|");
  }

  /** The hidden preview group Python drew for the place `node` names (what a click there would do). */
  function previewFor(board, node) {
    if (!node) return null;
    const place = ["data-kind", "data-r", "data-c", "data-r2", "data-c2"].map((a) => node.getAttribute(a) ?? "").join("|");
    return board.el.querySelector(`:scope > .cl-preview[data-for="${CSS.escape(place)}"]`);
  }

  function hideHover() {
    if (!hover) return;
    hover.el.classList.remove("cl-hover");
    hover.ring?.remove();
    hover.preview?.classList.remove("cl-preview-on");
    hover = null;
    showNote(root.classList.contains("cl-kbd") ? focusPreview : null);
  }

  function showHover(node, board) {
    if (hover && hover.el === node) return;
    hideHover();
    if (!node) return;
    node.classList.add("cl-hover");
    const preview = previewFor(board, node);
    preview?.classList.add("cl-preview-on");
    showNote(preview);
    let ring = null;
    if (node.getAttribute("data-kind") === "cell") {
      const r = Number(node.getAttribute("data-r"));
      const c = Number(node.getAttribute("data-c"));
      ring = shapeFor("cell", r, c, 0, 0, 2.5);
      ring.setAttribute("class", "cl-hover-ring");
      board.overlay.prepend(ring);
    }
    hover = { el: node, ring, preview, key: hoverKey(node) };
  }

  function restoreHover(key) {
    if (!key || !svg) return;
    const [boardId, kind, r, c, r2, c2] = key.split("|");
    const board = boards.get(boardId);
    if (!board || !board.clickable.includes(kind)) return;
    const node = findTarget(board, kind, Number(r), Number(c), Number(r2), Number(c2));
    if (node) showHover(node, board);
  }

  // ------------------------------------------------------------------ what a pointer event names
  function placeFromEvent(event) {
    const target = event.target instanceof Element ? event.target : null;
    if (!target || !host.contains(target)) return null;
    const boardEl = target.closest(".cl-board");
    const board = boardEl && boards.get(boardEl.getAttribute("data-board"));
    if (!board) return null;
    const node = target.closest("[data-kind]");
    const num = (n, a) => Number(n.getAttribute(a));
    if (node && boardEl.contains(node) && KINDS.includes(node.getAttribute("data-kind"))) {
      const kind = node.getAttribute("data-kind");
      const at = [num(node, "data-r"), num(node, "data-c")];
      const to = kind === "segment" ? [num(node, "data-r2"), num(node, "data-c2")] : null;
      return { board, kind, at, to, node };
    }
    const token = target.closest(".cl-token");
    if (token && board.clickable.includes("point")) {
      return { board, kind: "point", at: [num(token, "data-r"), num(token, "data-c")], to: null, node: null };
    }
    // Something drawn over the cells (a token, a line): the cell under the pointer.
    const local = toBoard(board, event.clientX, event.clientY);
    if (!local) return null;
    const r = Math.floor(local.y);
    const c = Math.floor(local.x);
    if (r < 0 || c < 0 || r >= board.rows || c >= board.cols) return null;
    return { board, kind: "cell", at: [r, c], to: null, node: findCell(board, r, c) };
  }

  /** Moves the focus to a place; `later`: draws it after Python's answer to a click (see CLICK_FOCUS_WAIT_MS). */
  function focusOn(found, later = false) {
    if (!modesOf(found.board).includes(found.kind)) return;
    remember();
    focus.board = found.board.id;
    focus.kind = found.kind;
    if (found.kind === "segment") {
      const [a, b] = [found.at, found.to].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
      focus.r = a[0];
      focus.c = a[1];
      focus.o = a[0] === b[0] ? "h" : "v";
    } else {
      [focus.r, focus.c] = found.at;
    }
    clampFocus(found.board);
    if (later) {
      focusPending = true;
      focusTimer ??= setTimeout(guard(drawFocusAndToolbar), CLICK_FOCUS_WAIT_MS);
      return;
    }
    drawFocus();
    updateToolbar();
  }

  // ------------------------------------------------------------------ pointer handlers
  function onPointerDown(event) {
    root.classList.remove("cl-kbd");
    swallowClick = false;
    if (event.button !== 0 || !(event.target instanceof Element)) return;
    const pieceEl = event.target.closest(".cl-piece");
    if (pieceEl && host.contains(pieceEl)) {
      const cell = event.target.closest("[data-r][data-c]");
      const anchor = cell && pieceEl.contains(cell)
        ? [Number(cell.getAttribute("data-r")), Number(cell.getAttribute("data-c"))]
        : null;
      press = { id: pieceEl.getAttribute("data-piece"), anchor, x: event.clientX, y: event.clientY,
        pointerId: event.pointerId, dragging: false };
    }
  }

  function onPointerMove(event) {
    pointer = { x: event.clientX, y: event.clientY };
    if (press && press.pointerId === event.pointerId && !press.dragging) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) >= DRAG_START_PX) {
        press.dragging = true;
        pickUp(press.id, press.anchor);
        try {
          stage.setPointerCapture(event.pointerId);
        } catch {
          // the pointer is already gone (released between events): the drag ends on pointerup anyway
        }
        root.classList.add("cl-dragging");
      }
    }
    if (held) {
      root.classList.remove("cl-kbd");
      place = placeAtPointer(event.clientX, event.clientY);
      drawGhost();
      return;
    }
    const found = placeFromEvent(event);
    if (found && found.node && found.board.clickable.includes(found.kind)) showHover(found.node, found.board);
    else hideHover();
  }

  function onPointerUp(event) {
    if (!press || press.pointerId !== event.pointerId) return;
    const wasDragging = press.dragging;
    press = null;
    if (!wasDragging) return; // a plain click: handled by onClick
    root.classList.remove("cl-dragging");
    swallowClick = true;
    if (stage.hasPointerCapture?.(event.pointerId)) stage.releasePointerCapture(event.pointerId);
    place = placeAtPointer(event.clientX, event.clientY);
    if (!drop()) putBack();
  }

  function onPointerCancel(event) {
    if (!press || press.pointerId !== event.pointerId) return;
    const wasDragging = press.dragging;
    press = null;
    root.classList.remove("cl-dragging");
    if (wasDragging) putBack();
  }

  function onPointerLeave() {
    hideHover();
    if (held && !press) {
      pointer = null;
      if (!place) drawGhost();
    }
  }

  function onClick(event) {
    if (swallowClick) {
      swallowClick = false;
      return;
    }
    if (!(event.target instanceof Element) || notice.contains(event.target)) return;
    const pieceEl = event.target.closest(".cl-piece");
    if (pieceEl && host.contains(pieceEl)) {
      const id = pieceEl.getAttribute("data-piece");
      if (held && held.piece === id) {
        putBack();
        return;
      }
      const cell = event.target.closest("[data-r][data-c]");
      pickUp(id, cell && pieceEl.contains(cell)
        ? [Number(cell.getAttribute("data-r")), Number(cell.getAttribute("data-c"))] : null);
      place = placeAtPointer(event.clientX, event.clientY);
      drawGhost();
      announce(`Holding ${pieceName(id)}: click a cell to place it, R turns it, Escape puts it back`);
      return;
    }
    if (held) {
      place = placeAtPointer(event.clientX, event.clientY);
      if (!drop()) putBack();
      return;
    }
    const found = placeFromEvent(event);
    if (!found) return;
    if (sendPlace(found.board, found.kind, found.at, found.to)) focusOn(found, true);
  }

  // ------------------------------------------------------------------ keyboard
  function remember() {
    if (focus.board !== null && focus.board !== TRAY) {
      lastBoard = focus.board;
      lastOnBoard.set(focus.board, { kind: focus.kind, r: focus.r, c: focus.c, o: focus.o });
    }
  }

  function goTo(boardId, preferKind) {
    remember();
    if (boardId === TRAY) {
      focus.board = TRAY;
      focus.kind = "piece";
      focus.piece = clamp(focus.piece, 0, Math.max(0, pieceOrder.length - 1));
    } else {
      const board = boards.get(boardId);
      const previous = lastOnBoard.get(boardId);
      const kind = preferKind || focus.kind;
      focus.board = boardId;
      if (previous) Object.assign(focus, previous);
      if (kind !== "piece" && modesOf(board).includes(kind)) focus.kind = kind;
    }
    normaliseFocus();
  }

  function cycleBoard(step) {
    const stops = [...order, ...(pieceOrder.length ? [TRAY] : [])];
    if (stops.length === 0) return;
    const i = stops.indexOf(focus.board);
    const next = stops[(((i < 0 ? 0 : i + step) % stops.length) + stops.length) % stops.length];
    goTo(next);
    afterMove(true);
  }

  function cycleMode() {
    if (focus.board === TRAY || focus.board === null) {
      announce("The tray has only pieces; use [ or ] to go to a board");
      return;
    }
    const modes = modesOf(boards.get(focus.board));
    focus.kind = modes[(modes.indexOf(focus.kind) + 1) % modes.length];
    clampFocus(boards.get(focus.board));
    drawFocus();
    updateToolbar();
    announce(`${MODE_NAMES[focus.kind]}: ${describeFocus()}`);
  }

  function afterMove(sayBoard = false) {
    drawFocus();
    updateToolbar();
    if (held && focus.board !== TRAY && focus.kind === "cell") {
      const board = boards.get(focus.board);
      place = board && board.pieces ? { board: focus.board, r: focus.r, c: focus.c } : null;
      drawGhost();
    }
    const where = describeFocus();
    if (sayBoard && focus.board !== TRAY) announce(`${boards.get(focus.board)?.label}, ${MODE_NAMES[focus.kind]}: ${where}`);
    else announce(where);
  }

  function move(key, ctrl) {
    if (focus.board === TRAY) {
      const n = pieceOrder.length;
      if (!n) return;
      if (key === "Home") focus.piece = 0;
      else if (key === "End") focus.piece = n - 1;
      else focus.piece = (focus.piece + (key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1) + n) % n;
      afterMove();
      return;
    }
    const board = boards.get(focus.board);
    if (!board) return;
    if (key === "Home") {
      focus.c = 0;
      if (ctrl) focus.r = 0;
    } else if (key === "End") {
      focus.c = board.cols;
      if (ctrl) focus.r = board.rows;
    } else {
      focus.r += key === "ArrowDown" ? 1 : key === "ArrowUp" ? -1 : 0;
      focus.c += key === "ArrowRight" ? 1 : key === "ArrowLeft" ? -1 : 0;
    }
    clampFocus(board);
    afterMove();
  }

  function flipSegment() {
    if (focus.kind !== "segment") {
      announce("O turns a segment; press M to move over segments");
      return;
    }
    focus.o = focus.o === "h" ? "v" : "h";
    clampFocus(boards.get(focus.board));
    afterMove();
  }

  function act() {
    if (focus.board === TRAY) {
      const id = pieceOrder[focus.piece];
      if (id === undefined) return;
      if (held && held.piece === id) {
        putBack();
        return;
      }
      pickUp(id, null);
      const target = boards.get(lastBoard)?.pieces ? lastBoard : order.find((b) => boards.get(b).pieces);
      if (target === undefined) {
        announce(`Holding ${pieceName(id)}, but no board here takes pieces`);
        return;
      }
      goTo(target, "cell");
      focus.kind = "cell";
      clampFocus(boards.get(target));
      afterMove();
      announce(`Holding ${pieceName(id)} on ${boards.get(target).label}, ${describeFocus()}. ` +
        "Arrows move it, R turns it, Enter places it, Escape puts it back.");
      return;
    }
    const board = boards.get(focus.board);
    if (!board) return;
    if (held) {
      if (board.pieces && focus.kind === "cell") {
        place = { board: board.id, r: focus.r, c: focus.c };
        drop();
      } else {
        announce(board.pieces ? "Press M to move over cells to place the piece" : `Pieces are not placed on ${board.label}`);
      }
      return;
    }
    if (focus.kind === "segment") {
      const [r, c, r2, c2] = segmentEnds();
      if (!sendPlace(board, "segment", [r, c], [r2, c2])) announce(`Segments are not chosen on ${board.label}`);
    } else if (!sendPlace(board, focus.kind, [focus.r, focus.c], null)) {
      announce(`${MODE_NAMES[focus.kind]} are not chosen on ${board.label}`);
    }
  }

  function onKeyDown(event) {
    if (event.target !== stage || event.altKey || event.metaKey) return;
    const key = event.key;
    const ctrl = event.ctrlKey;
    if (ctrl && key !== "Home" && key !== "End") return;
    let handled = true;
    switch (key) {
      case "ArrowUp": case "ArrowDown": case "ArrowLeft": case "ArrowRight": case "Home": case "End":
        move(key, ctrl);
        break;
      case "PageDown": case "]":
        cycleBoard(1);
        break;
      case "PageUp": case "[":
        cycleBoard(-1);
        break;
      case "m": case "M":
        cycleMode();
        break;
      case "o": case "O":
        flipSegment();
        break;
      case "r": case "R":
        rotate();
        break;
      case "+": case "=":
        changeZoom(1);
        break;
      case "-": case "_":
        changeZoom(-1);
        break;
      case "?":
        keys.open = !keys.open;
        break;
      case "Enter": case " ":
        if (event.repeat) break;
        hideNotice();
        act();
        break;
      case "Escape":
        if (held) putBack();
        else if (shownNotice) hideNotice();
        else if (keys.open) keys.open = false;
        else handled = false;
        break;
      default:
        handled = false;
    }
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
      root.classList.add("cl-kbd");
    }
  }

  // ------------------------------------------------------------------ notices
  function placeRect(n) {
    const board = boards.get(n.board);
    if (!board || !Array.isArray(n.at) || n.at.length !== 2) return board ? board.el.getBoundingClientRect() : null;
    const [r, c] = n.at.map(Number);
    const kind = n.kind === "drop" ? "cell" : n.kind;
    const [r2, c2] = Array.isArray(n.to) ? n.to.map(Number) : [r, c];
    const node = findTarget(board, kind, r, c, r2, c2);
    if (node) return node.getBoundingClientRect();
    // Not drawn as an element (not clickable there): work it out from the board's coordinates.
    const matrix = board.el.getScreenCTM();
    if (!matrix) return null;
    const box = kind === "point" ? [c - 0.2, r - 0.2, c + 0.2, r + 0.2]
      : kind === "segment" ? [Math.min(c, c2) - 0.1, Math.min(r, r2) - 0.1, Math.max(c, c2) + 0.1, Math.max(r, r2) + 0.1]
        : [c, r, c + 1, r + 1];
    const a = new DOMPoint(box[0] * UNIT, box[1] * UNIT).matrixTransform(matrix);
    const z = new DOMPoint(box[2] * UNIT, box[3] * UNIT).matrixTransform(matrix);
    return new DOMRect(Math.min(a.x, z.x), Math.min(a.y, z.y), Math.abs(z.x - a.x), Math.abs(z.y - a.y));
  }

  function showNotice(n) {
    if (!n || typeof n.text !== "string" || n.text === "") {
      hideNotice();
      return;
    }
    shownNotice = n;
    const tone = n.tone === "error" ? "error" : "info";
    notice.dataset.tone = tone;
    noticeIcon.textContent = tone === "error" ? "\u26a0" : "\u2139";
    noticeText.textContent = n.text;
    notice.hidden = false;
    drawNoticeMark(n, tone);
    positionNotice();
    announce(tone === "error" ? `Not done: ${n.text}` : n.text);
  }

  function drawNoticeMark(n, tone) {
    noticeMark?.remove();
    noticeMark = null;
    const board = boards.get(n.board);
    if (!board || !Array.isArray(n.at)) return;
    const [r, c] = n.at.map(Number);
    const kind = n.kind === "point" || n.kind === "segment" ? n.kind : "cell";
    const [r2, c2] = Array.isArray(n.to) ? n.to.map(Number) : [r, c];
    noticeMark = shapeFor(kind, r, c, r2, c2, 1.5);
    noticeMark.setAttribute("class", "cl-notice-mark");
    noticeMark.setAttribute("data-tone", tone);
    noticeMark.setAttribute("data-kind", kind);
    board.overlay.prepend(noticeMark);
  }

  function positionNotice() {
    if (!shownNotice || notice.hidden) return;
    const rect = shownNotice.board !== undefined ? placeRect(shownNotice) : null;
    if (!rect || (rect.width === 0 && rect.height === 0)) {
      notice.dataset.side = "below-boards";
      notice.style.left = "";
      notice.style.top = "";
      return;
    }
    notice.dataset.side = "right";
    notice.style.left = "0px";
    notice.style.top = "0px";
    const frame = stage.getBoundingClientRect();
    const width = notice.offsetWidth;
    const height = notice.offsetHeight;
    const gap = 12;
    let side = "right";
    let left = rect.right - frame.left + gap;
    let top = rect.top - frame.top + rect.height / 2 - height / 2;
    // The notice may stick out of the stage to the right, but not out of the widget.
    const room = root.getBoundingClientRect().right - frame.left;
    if (left + width > room) {
      side = "left";
      left = rect.left - frame.left - gap - width;
    }
    if (left < 0) {
      side = "below";
      left = clamp(rect.left - frame.left + rect.width / 2 - width / 2, 0, Math.max(0, room - width));
      top = rect.bottom - frame.top + gap;
    }
    const clampedTop = Math.max(0, top);
    const arrow = side === "below"
      ? rect.left - frame.left + rect.width / 2 - left
      : rect.top - frame.top + rect.height / 2 - clampedTop;
    notice.dataset.side = side;
    notice.style.left = `${Math.round(left)}px`;
    notice.style.top = `${Math.round(clampedTop)}px`;
    notice.style.setProperty("--cl-arrow", `${Math.round(arrow)}px`);
  }

  function hideNotice() {
    shownNotice = null;
    if (!notice.hidden) notice.hidden = true; // every redraw comes here: setting it again is still a change
    noticeMark?.remove();
    noticeMark = null;
  }

  function sync() {
    syncQueued = false;
    // A notice that came with the new picture stays; an older one goes with the old picture.
    if (noticeChanged) showNotice(model.get("notice"));
    else if (svgChanged) hideNotice();
    // The answer was a notice alone (a refusal): the focus moved by the click is drawn with it (a redraw has
    // put it off until that redraw is painted).
    if (focusPending && !svgChanged) drawFocusAndToolbar();
    svgChanged = false;
    noticeChanged = false;
  }

  function queueSync() {
    if (syncQueued) return;
    syncQueued = true;
    queueMicrotask(guard(sync));
  }

  // ------------------------------------------------------------------ wiring
  const onSvg = guard(() => {
    const hovered = hover?.key;
    if (!drawSvg()) return; // "svg" and "patch" came in one update: both were drawn on the first call
    restoreHover(hovered);
    if (shownNotice) positionNotice();
    svgChanged = true;
    queueSync();
  });
  const onGeometry = guard(geometryChanged);
  // The scene's CSS, the same for every picture: one <style> of ours, so a redraw never adds or removes a
  // style sheet (which restyles the whole page).
  const onSceneStyle = guard(() => {
    sceneStyle.textContent = model.get("scene_style") || "";
  });
  const onNotice = guard(() => {
    noticeChanged = true;
    queueSync();
  });
  model.on("change:svg", onSvg);
  model.on("change:patch", onSvg);
  model.on("change:scene_style", onSceneStyle);
  model.on("change:geometry", onGeometry);
  model.on("change:notice", onNotice);
  model.on("change:ids", onSvg);
  // Python sets it in the same update as the picture: all change handlers of one update run before the
  // page does anything else, so a reader who sees the new number also sees that picture drawn.
  const onRevision = guard(() => {
    onSvg(); // an update may change the number alone (the same picture again): it is then the one on screen
    root.dataset.revision = String(model.get("revision") ?? 0);
  });
  model.on("change:revision", onRevision);

  on(stage, "pointerdown", onPointerDown);
  on(stage, "pointermove", onPointerMove);
  on(stage, "pointerup", onPointerUp);
  on(stage, "pointercancel", onPointerCancel);
  on(stage, "pointerleave", onPointerLeave);
  on(stage, "click", onClick);
  on(stage, "keydown", onKeyDown);
  on(stage, "dragstart", (event) => event.preventDefault());
  on(modeButton, "click", () => {
    cycleMode();
    stage.focus({ preventScroll: true });
  });
  on(rotateButton, "click", () => {
    rotate();
    stage.focus({ preventScroll: true });
  });
  on(zoomOut, "click", () => changeZoom(-1));
  on(zoomIn, "click", () => changeZoom(1));
  on(noticeClose, "click", (event) => {
    event.stopPropagation();
    hideNotice();
    stage.focus({ preventScroll: true });
  });
  // A click anywhere but on the notice dismisses it.
  on(document, "pointerdown", (event) => {
    if (shownNotice && !(event.target instanceof Node && notice.contains(event.target))) hideNotice();
  }, { capture: true });
  on(stage, "focus", () => {
    // Reached with Tab (not a click): show where the arrow keys are.
    if (stage.matches(":focus-visible")) root.classList.add("cl-kbd");
    if (focus.board !== null) announce(describeFocus());
  });

  const resized = new ResizeObserver(guard(() => {
    positionNotice();
    if (held && !place) drawGhost();
  }));
  resized.observe(stage);

  onSceneStyle();
  drawSvg();
  onRevision();
  if (model.get("notice")?.text) showNotice(model.get("notice"));

  return () => {
    events.abort();
    clearTimeout(focusTimer);
    resized.disconnect();
    model.off("change:svg", onSvg);
    model.off("change:patch", onSvg);
    model.off("change:scene_style", onSceneStyle);
    model.off("change:geometry", onGeometry);
    model.off("change:notice", onNotice);
    model.off("change:ids", onSvg);
    model.off("change:revision", onRevision);
    root.remove();
  };
}

export default { render };
