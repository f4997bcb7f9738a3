// The search-and-view page: talks only to its own server (/api/...), draws each document's
// mentions at the offsets the job indexed (UTF-16 units, as JavaScript strings count them).
"use strict";

const KNOWN_TYPES = ["chemical", "disease", "gene", "species"];
const RATES_EVERY_MS = 5000;

const $ = (selector) => document.querySelector(selector);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "text") node.textContent = value;
    else if (name === "onclick") node.addEventListener("click", value);
    else node.setAttribute(name, value);
  }
  children.forEach((c) => node.append(c));
  return node;
}

/** Known types have their colour in the stylesheet; any other gets a stable hue from its name. */
function paint(node, type) {
  if (KNOWN_TYPES.includes(type)) {
    node.style.setProperty("background", `var(--${type})`);
  } else {
    let hash = 0;
    for (const ch of type) hash = (hash * 31 + ch.codePointAt(0)) % 360;
    node.style.setProperty("background", `hsl(${hash}, 70%, 82%)`);
  }
  return node;
}

async function api(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  const body = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

/** A linked mention's concepts as "id name" pairs; "NIL" when its vocabulary found none; "" when not linked. */
function concepts(mention) {
  const ids = mention.conceptId || [];
  if (ids.length) return ids.map((id, i) => `${id} ${(mention.conceptName || [])[i] || ""}`.trim()).join(" | ");
  return mention.vocabulary ? "NIL" : "";
}

function mark(mention, doc) {
  const linked = concepts(mention);
  const node = paint(el("mark", {
    "data-type": mention.type,
    "data-start": String(mention.start),
    "data-end": String(mention.end),
    "data-field": mention.field,
    "data-concept": (mention.conceptId || []).join("|"),
    title: `${mention.type}${linked ? " · " + linked : ""} · score ${Number(mention.score).toFixed(3)}`
      + ` · model ${doc.modelName} ${doc.modelVersion} · [${mention.start}, ${mention.end})`,
  }), mention.type);
  return node;
}

/** Each concept id linked to its page at the source (MeSH, NCBI Gene, NCBI Taxonomy; CTD for MEDIC's). */
function conceptCell(mention) {
  const cell = el("td", { class: "concept" });
  const ids = mention.conceptId || [];
  if (!ids.length) cell.textContent = mention.vocabulary ? "NIL" : "";
  ids.forEach((id, i) => {
    if (i) cell.append(" | ");
    const url = (mention.conceptUrl || [])[i];
    cell.append(url ? el("a", { href: url, target: "_blank", rel: "noopener", text: id }) : id);
    const name = (mention.conceptName || [])[i];
    if (name) cell.append(" " + name);
  });
  return cell;
}

/**
 * The text with every mention of the field as a <mark>; a mention inside another nests in it.
 * One that crosses another's end (rare) is cut there and drawn dotted, its data-end unchanged.
 */
function highlight(text, mentions, doc) {
  const root = document.createDocumentFragment();
  const valid = mentions
    .filter((m) => Number.isInteger(m.start) && Number.isInteger(m.end) && m.start >= 0 && m.start < m.end && m.end <= text.length)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const open = [{ node: root, end: text.length }];
  let pos = 0;
  const closeUntil = (start) => {
    while (open.length > 1 && open[open.length - 1].end <= start) {
      const top = open.pop();
      top.node.append(text.slice(pos, top.end));
      pos = top.end;
    }
  };
  for (const m of valid) {
    closeUntil(m.start);
    if (m.start < pos) continue; // the same start as a mention already drawn and cut
    const parent = open[open.length - 1];
    parent.node.append(text.slice(pos, m.start));
    pos = m.start;
    const node = mark(m, doc);
    parent.node.append(node);
    const end = Math.min(m.end, parent.end);
    if (end < m.end) node.classList.add("clipped");
    open.push({ node, end });
  }
  closeUntil(text.length);
  root.append(text.slice(pos));
  return root;
}

function fieldText(doc, field) {
  const text = field === "TITLE" ? doc.title : doc.abstract;
  const container = el(field === "TITLE" ? "span" : "p", { class: field === "TITLE" ? "title" : "abstract", "data-field": field });
  if (text) container.append(highlight(text, doc.entities.filter((m) => m.field === field), doc));
  return container;
}

function meta(doc) {
  const date = doc.publicationDate || doc.publicationDateText || "";
  const parts = [doc.documentId, doc.journal, date, `${doc.modelName} ${doc.modelVersion}`, `${doc.entities.length} mentions`];
  if (doc.relevance !== undefined) parts.push(`relevance ${doc.relevance.toFixed(2)}`);
  return el("p", { class: "meta", text: parts.filter(Boolean).join(" · ") });
}

function card(doc) {
  const link = el("a", { href: "#view=" + encodeURIComponent(doc.eventId) }, fieldText(doc, "TITLE"));
  return el("article", { "data-event-id": doc.eventId, "data-document-id": doc.documentId },
    el("h3", {}, link), meta(doc), fieldText(doc, "ABSTRACT"));
}

function documentView(doc) {
  const rows = doc.entities.map((m) => el("tr", {},
    el("td", {}, paint(el("span", { class: "swatch" }), m.type), m.type),
    el("td", { text: m.text }), el("td", { text: m.field }),
    el("td", { text: `[${m.start}, ${m.end})` }), el("td", { text: Number(m.score).toFixed(3) }), conceptCell(m)));
  const table = el("table", { class: "mentions" },
    el("thead", {}, el("tr", {}, ...["type", "text", "field", "offsets", "score", "concept"].map((h) => el("th", { text: h })))),
    el("tbody", {}, ...rows));
  return el("article", { "data-event-id": doc.eventId, "data-document-id": doc.documentId, class: "document" },
    el("h3", {}, fieldText(doc, "TITLE")), meta(doc), fieldText(doc, "ABSTRACT"), table);
}

function legend(types) {
  const all = [...new Set([...KNOWN_TYPES, ...types])];
  $("#legend").replaceChildren(...all.map((t) => el("span", {}, paint(el("span", { class: "swatch" }), t), t)));
  const select = $("#search select[name=type]");
  const chosen = select.value;
  select.replaceChildren(el("option", { value: "", text: "any type" }), ...all.map((t) => el("option", { value: t, text: t })));
  select.value = chosen;
}

function facets(result) {
  $("#type-facets").replaceChildren(...result.facets.types.map((f) => el("li", {},
    el("button", { type: "button", onclick: () => go({ type: f.type }) }, paint(el("span", { class: "swatch" }), f.type), f.type + " "),
    el("span", { class: "count", text: String(f.count) }))));
  $("#entity-facets").replaceChildren(...result.facets.entities.map((f) => el("li", {},
    el("button", { type: "button", onclick: () => go({ entity: f.text, type: f.type }) },
      paint(el("span", { class: "swatch" }), f.type), f.text + " "),
    el("span", { class: "count", text: String(f.count) }))));
  $("#concept-facets").replaceChildren(...result.facets.concepts.map((f) => el("li", {},
    el("button", { type: "button", "data-concept": f.id, onclick: () => go({ entity: f.id, type: f.type }) },
      paint(el("span", { class: "swatch" }), f.type), `${f.name} (${f.id}) `),
    el("span", { class: "count", text: String(f.count) }))));
  legend(result.facets.types.map((f) => f.type));
}

function status(text, isError = false) {
  $("#status").textContent = text;
  $("#status").classList.toggle("error", isError);
}

function go(params) {
  const hash = new URLSearchParams(Object.entries(params).filter(([, v]) => v)).toString();
  // The same search again (a retry after an error) does not change the hash, so no hashchange.
  if (location.hash.slice(1) === hash) render();
  else location.hash = hash;
}

// Each render asks the server once; a slow answer to an older hash must not overwrite a newer one.
let latestRender = 0;

async function render() {
  const mine = ++latestRender;
  const current = () => mine === latestRender;
  const params = new URLSearchParams(location.hash.slice(1));
  const form = $("#search");
  for (const name of ["entity", "type", "q", "doc", "year"]) form.elements[name].value = params.get(name) || "";
  status("searching…");
  try {
    if (params.has("view")) {
      const doc = await api("api/document?id=" + encodeURIComponent(params.get("view")));
      if (!current()) return;
      $("#results").replaceChildren(documentView(doc));
      status(`document ${doc.documentId}: ${doc.entities.length} mentions`);
      return;
    }
    const result = await api("api/search?" + params.toString());
    if (!current()) return;
    $("#results").replaceChildren(...result.documents.map(card));
    facets(result);
    const count = `${result.total} document${result.total === 1 ? "" : "s"}`;
    status(count + (result.total > result.documents.length ? `, first ${result.documents.length} shown` : ""));
  } catch (e) {
    if (!current()) return;
    $("#results").replaceChildren();
    status(e.message, true);
  }
}

async function rates() {
  try {
    const r = await api("api/rates");
    $("#live").textContent = `last minute: ${r.documentsPerMinute} documents, ${r.entitiesPerMinute} entities, `
      + `${r.deadLettersPerMinute} dead letters · ${r.documents} documents in the index`;
  } catch (e) {
    $("#live").textContent = "live: " + e.message;
  }
}

$("#search").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target;
  go(Object.fromEntries(["entity", "type", "q", "doc", "year"].map((n) => [n, form.elements[n].value.trim()])));
});
window.addEventListener("hashchange", render);
legend([]);
render();
rates();
setInterval(rates, RATES_EVERY_MS);
