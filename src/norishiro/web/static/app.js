"use strict";
// norishiro local page. Text is only sent to this page's own server (same origin); the
// Content-Security-Policy forbids any other connection. Chunk text is inserted with
// textContent, never as HTML.

const I18N = {
  en: {
    tagline: "chunk text for RAG, on this machine",
    privacy: "Everything runs on this computer: the text is sent only to the local norishiro server and never leaves the machine.",
    input: "Text", paste: "Paste text here (YAML front matter becomes metadata)", file: "File",
    rowsFile: "Open chunks made by norishiro chunk (.jsonl), for this text",
    size: "Chunk size", overlap: "Overlap", unit: "Unit", chars: "characters", strategy: "Strategy",
    headerKeys: "Header keys", model: "Model", url: "Ollama URL", truncate: "truncate: false (fail instead of cutting)",
    run: "Chunk", results: "Chunks", document: "Document with boundaries", lint: "Lint", list: "All chunks",
    body: "/api/embed JSON body", curl: "curl command", copy: "Copy", copied: "Copied",
    legendOverlap: "overlap", legendCut: "boundary", legendFinding: "lint finding",
    legendPii: "replaced before embedding", deid: "de-identify what is embedded",
    showEmbed: "show what is embedded (embed_text); off: the source text",
    summary: (n, m, u) => `${n} chunks, longest ${m} ${u}.`,
    chunkMeta: (i, n, u, s, e) => `#${i} · ${n} ${u} · offset ${s}–${e}`,
    pages: (a, b) => (a === b ? `p. ${a}` : `pp. ${a}–${b}`),
    loaded: (name, fmt, n) => `${name}: read as ${fmt}${n ? `, ${n} pages` : ""}. Editing the text drops the page numbers.`,
    lintSummary: (s) => `${s.boundaries} boundaries; ${Math.round(s.chunks_ending_at_sentence_end * 100)}% of chunks end at a sentence end; fragmentation ${s.fragmentation} (${s.fragmentation_per_1000_boundaries} per 1,000 boundaries). Heuristics: places to look at, not proofs.`,
    planner: "Plan (chunk count and embedded tokens)", docTokens: "Document tokens T", useText: "Use this text",
    share: "Copy share link", print: "Print report", reset: "Reset",
    stride: "stride s", count: "chunks n", embUpper: "embedded tokens (upper bound)", embExact: "embedded tokens (fixed windows)",
    overhead: "overhead", footer: "norishiro — のりしろ is the glue margin two paper pieces share: the chunk overlap.",
    units: { chars: "characters", tokens: "tokens" }, tooBig: "The text is too large",
    searchTitle: "Search the index", question: "A question", ask: "Search", noHits: "No hits.",
    indexInfo: (i) => `${i.target} (table ${i.table}): ${i.rows} chunks embedded with ${i.model}.`,
  },
  ja: {
    tagline: "RAG用のチャンク分割をこのマシンで",
    privacy: "すべてこのコンピューターの中で動きます。テキストはローカルの norishiro サーバーにだけ送られ、外には出ません。",
    input: "テキスト", paste: "ここにテキストを貼り付け（YAMLフロントマターはメタデータになります）", file: "ファイル",
    rowsFile: "norishiro chunk で作ったチャンク（.jsonl）をこのテキストで開く",
    size: "チャンクサイズ", overlap: "オーバーラップ", unit: "単位", chars: "文字", strategy: "分割方法",
    headerKeys: "ヘッダーのキー", model: "モデル", url: "Ollama のURL", truncate: "truncate: false（切り詰めずにエラー）",
    run: "分割", results: "チャンク", document: "境界つきの文書", lint: "チェック", list: "すべてのチャンク",
    body: "/api/embed 用のJSONボディ", curl: "curlコマンド", copy: "コピー", copied: "コピーしました",
    legendOverlap: "オーバーラップ", legendCut: "境界", legendFinding: "チェックの指摘",
    legendPii: "埋め込み前に置き換えた箇所", deid: "埋め込むテキストを匿名化する",
    showEmbed: "埋め込むテキスト（embed_text）を表示（オフ：元のテキスト）",
    summary: (n, m, u) => `チャンクは${n}個。最長は${m}${u}です。`,
    chunkMeta: (i, n, u, s, e) => `#${i} · ${n}${u} · オフセット ${s}–${e}`,
    pages: (a, b) => (a === b ? `${a}ページ` : `${a}–${b}ページ`),
    loaded: (name, fmt, n) => `${name} を ${fmt} として読みました${n ? `（${n}ページ）` : ""}。テキストを編集するとページ番号は消えます。`,
    lintSummary: (s) => `境界 ${s.boundaries} 件。文末で終わるチャンク ${Math.round(s.chunks_ending_at_sentence_end * 100)}%。文脈の分断の疑い ${s.fragmentation} 件（境界1,000件あたり ${s.fragmentation_per_1000_boundaries}）。ヒューリスティックなので、確認すべき箇所の目安です。`,
    planner: "計画（チャンク数と埋め込みトークン数）", docTokens: "文書トークン数 T", useText: "このテキストを使う",
    share: "共有リンクをコピー", print: "レポートを印刷", reset: "リセット",
    stride: "ストライド s", count: "チャンク数 n", embUpper: "埋め込みトークン数（上限）", embExact: "埋め込みトークン数（固定窓）",
    overhead: "増加率", footer: "norishiro — のりしろは、2枚の紙が共有する糊しろ、つまりチャンクのオーバーラップです。",
    units: { chars: "文字", tokens: "トークン" }, tooBig: "テキストが大きすぎます",
    searchTitle: "インデックスを検索", question: "質問", ask: "検索", noHits: "該当なし。",
    indexInfo: (i) => `${i.target}（テーブル ${i.table}）：${i.rows} チャンク、${i.model} で埋め込み済み。`,
  },
};

let lang = (localStorage.getItem("norishiro-lang") || navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en";
const $ = (id) => document.getElementById(id);
const t = (k) => I18N[lang][k];

function applyLang() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((el) => { const v = t(el.dataset.i18n); if (typeof v === "string") el.textContent = v; });
  document.querySelectorAll("[data-i18n-placeholder]").forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
  $("lang").textContent = lang === "ja" ? "English" : "日本語";
  if (lastResult) render(lastResult);
  if (indexInfo) $("index_info").textContent = t("indexInfo")(indexInfo);
  plan();
}

function showError(msg) { const e = $("error"); e.textContent = msg; e.hidden = !msg; }
function showNote(msg) { const e = $("note"); e.textContent = msg; e.hidden = !msg; }

// pages of the loaded file (offsets where each begins) and where its loader wrote headings,
// valid while the text is unedited
let loadedPages = null;
let loadedOutline = null;
const PLAIN = /\.(txt|md|markdown|rst|text)$/i;

function base64(buf) {
  const bytes = new Uint8Array(buf);
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

// PDF, HTML and Word files are read by the server's loaders (the same as the command line)
async function openFile(f) {
  showError(""); showNote("");
  loadedPages = null; loadedOutline = null;
  if (PLAIN.test(f.name)) { $("text").value = await f.text(); return; }
  try {
    const r = await post("/api/load", { name: f.name, data: base64(await f.arrayBuffer()) });
    $("text").value = r.text;
    loadedPages = r.pages;
    loadedOutline = r.outline;
    showNote([t("loaded")(r.name, r.format, r.pages ? r.pages.length : 0), ...r.warnings].join("\n"));
  } catch (err) { showError(String(err.message || err)); }
}

async function post(path, body) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch (_) { /* not JSON */ }
  if (!res.ok) throw new Error((data && data.error) || `HTTP ${res.status}`);
  return data;
}

let lastResult = null;

async function run() {
  showError("");
  const unitSel = $("unit").value;
  const body = {
    text: $("text").value, size: Number($("size").value), overlap: Number($("overlap").value),
    unit: unitSel === "chars" ? "chars" : "tokens", tokenizer: unitSel === "chars" ? null : unitSel,
    strategy: $("strategy").value, header_keys: $("header_keys").value, model: $("model").value,
    ollama_url: $("ollama_url").value, truncate: !$("truncate").checked,
    pages: loadedPages, outline: loadedOutline, deid: $("deid").checked,
  };
  try {
    lastResult = await post("/api/chunk", body);
    lastResult._text = body.text;
    render(lastResult);
  } catch (err) {
    $("results").hidden = true;
    showError(String(err.message || err));
  }
}

// chunks made elsewhere (norishiro chunk -o chunks.jsonl), shown against the text above
async function openRows(file) {
  showError("");
  const body = {
    text: $("text").value, rows: await file.text(), model: $("model").value,
    ollama_url: $("ollama_url").value, truncate: !$("truncate").checked,
  };
  try {
    lastResult = await post("/api/rows", body);
    lastResult._text = body.text;
    render(lastResult);
  } catch (err) {
    $("results").hidden = true;
    showError(String(err.message || err));
  }
}

function render(r) {
  const u = t("units")[r.summary.unit];
  $("results").hidden = false;
  $("summary").textContent = t("summary")(r.summary.chunks, r.summary.longest, u);
  const list = $("chunks");
  list.replaceChildren();
  for (const c of r.chunks) {
    const li = document.createElement("li");
    li.className = "chunk";
    const meta = document.createElement("div");
    meta.className = "meta";
    meta.textContent = t("chunkMeta")(c.index, c.size, u, c.start, c.end)
      + (c.page_start ? ` · ${t("pages")(c.page_start, c.page_end)}` : "") + (c.section ? ` · ${c.section}` : "")
      + (c.section_canonical ? ` [${c.section_canonical}]` : "");
    const pre = document.createElement("pre");
    pre.textContent = $("show_embed").checked ? c.embed_text : c.text;
    li.append(meta, pre);
    list.append(li);
  }
  renderDoc(r);
  $("lint").textContent = t("lintSummary")(r.lint.summary);
  const fl = $("findings");
  fl.replaceChildren();
  for (const f of r.lint.findings.filter((x) => x.left !== undefined && x.kind !== "broken-sentence").slice(0, 50)) {
    const li = document.createElement("li");
    li.textContent = `${f.kind} @${f.offset}: …${(f.left || "").slice(-20)} | ${(f.right || "").slice(0, 20)}…`;
    fl.append(li);
  }
  $("body").textContent = r.ollama_body;
  $("curl").textContent = r.curl;
}

function renderDoc(r) {
  // The body (front matter removed) with chunk boundaries, overlaps and lint findings.
  const text = r._text.slice(r.offset_base);
  const view = $("docview");
  view.replaceChildren();
  const cuts = new Map();
  for (const f of r.lint.findings) if (f.level && f.kind !== "broken-sentence") cuts.set(f.offset, f.kind);
  // positions covered by two chunks are overlap
  const marks = new Set([0, text.length]);
  for (const c of r.chunks) { marks.add(c.start); marks.add(c.end); }
  const pii = r.chunks.flatMap((c) => c.replaced || []);
  for (const p of pii) { marks.add(p.start); marks.add(p.end); }
  const pts = [...marks].sort((a, b) => a - b);
  const ends = new Set(r.chunks.map((c) => c.end));
  for (let i = 0; i + 1 < pts.length; i++) {
    const a = pts[i], b = pts[i + 1];
    const covering = r.chunks.filter((c) => c.start <= a && b <= c.end);
    const span = document.createElement("span");
    span.textContent = text.slice(a, b);
    span.className = covering.length > 1 ? "ov" : `seg${covering.length ? covering[0].index % 2 : 0}`;
    const hidden = pii.find((p) => p.start <= a && b <= p.end);
    if (hidden) { span.classList.add("pii"); span.title = hidden.class; }
    view.append(span);
    if (ends.has(b) && b < text.length) {
      const cut = document.createElement("span");
      cut.className = "cut";
      cut.textContent = "|";
      view.append(cut);
      if (cuts.has(b)) {
        const fm = document.createElement("span");
        fm.className = "finding";
        fm.textContent = "!";
        fm.title = cuts.get(b);
        view.append(fm);
      }
    }
  }
}

async function copyFrom(id, btn) {
  const text = $(id).textContent;
  try { await navigator.clipboard.writeText(text); }
  catch (_) {
    const ta = document.createElement("textarea");
    ta.value = text; document.body.append(ta); ta.select(); document.execCommand("copy"); ta.remove();
  }
  btn.textContent = t("copied");
  setTimeout(() => { btn.textContent = t("copy"); }, 1500);
}

// ---- planner (seed 000): s = c - o, n = ceil((T - o) / s), embedded <= n * c
function plan() {
  const T = Number($("p_tokens").value), c = Number($("p_size").value), o = Number($("p_overlap").value);
  const out = $("p_out");
  out.replaceChildren();
  if (!(c >= 1) || !(o >= 0) || !(T >= 0) || o >= c || !Number.isInteger(T + c + o)) {
    const p = document.createElement("p");
    p.className = "err";
    p.textContent = lang === "ja" ? "T ≥ 0、c ≥ 1、0 ≤ o < c の整数を入れてください。" : "Enter whole numbers with T ≥ 0, c ≥ 1 and 0 ≤ o < c.";
    out.append(p);
    return;
  }
  const s = c - o, n = T === 0 ? 0 : Math.max(1, Math.ceil((T - o) / s));
  const upper = n * c, exact = n ? T + (n - 1) * o : 0;
  const rows = [
    [t("stride"), s, `s = c − o = ${c} − ${o} = ${s}`],
    [t("count"), n, `n = ⌈(T − o) / s⌉ = ⌈(${T} − ${o}) / ${s}⌉ = ⌈${((T - o) / s).toFixed(2)}⌉ = ${n}`],
    [t("embUpper"), upper.toLocaleString(), `n · c = ${n} × ${c} = ${upper}`],
    [t("embExact"), exact.toLocaleString(), `T + (n − 1) · o = ${T} + ${Math.max(0, n - 1)} × ${o} = ${exact}`],
    [t("overhead"), T ? `${(((upper - T) / T) * 100).toFixed(1)}%` : "-", `(n · c − T) / T`],
  ];
  const table = document.createElement("table");
  for (const [k, v, f] of rows) {
    const tr = document.createElement("tr");
    const th = document.createElement("th"); th.textContent = k;
    const td = document.createElement("td"); td.textContent = String(v); td.className = "v";
    const tf = document.createElement("td"); tf.textContent = f; tf.className = "f";
    tr.append(th, td, tf);
    table.append(tr);
  }
  out.append(table);
  // the share link restores the inputs, never the document text
  const q = new URLSearchParams({ T, c, o, lang });
  history.replaceState(null, "", `#${q}`);
}

function restoreFromHash() {
  const q = new URLSearchParams(location.hash.slice(1));
  if (q.has("T")) $("p_tokens").value = q.get("T");
  if (q.has("c")) $("p_size").value = q.get("c");
  if (q.has("o")) $("p_overlap").value = q.get("o");
  if (q.has("lang")) lang = q.get("lang") === "ja" ? "ja" : "en";
}

async function useText() {
  showError("");
  const unitSel = $("unit").value;
  try {
    const r = await post("/api/count", { text: $("text").value, tokenizer: unitSel === "chars" ? "o200k_base" : unitSel });
    $("p_tokens").value = r.tokens;
    plan();
  } catch (err) { showError(String(err.message || err)); }
}

let indexInfo = null;

// the search box (shown when the page was started with serve --index)
async function ask() {
  showError("");
  const q = $("q").value.trim();
  if (!q) return;
  try {
    const r = await post("/api/search", { query: q, k: Number($("k").value) || 5 });
    const list = $("hits");
    list.textContent = "";
    if (!r.hits.length) { const li = document.createElement("li"); li.textContent = t("noHits"); list.appendChild(li); }
    for (const h of r.hits) {
      const li = document.createElement("li");
      const meta = document.createElement("div");
      meta.className = "meta";
      const where = [h.score.toFixed(3), h.doc_id];
      if (h.section) where.push("§ " + h.section);
      if (h.page_start != null) where.push(t("pages")(h.page_start, h.page_end));
      where.push(`[${h.start}:${h.end}]`);
      meta.textContent = where.join(" · ");
      const pre = document.createElement("pre");
      pre.textContent = h.text;
      li.append(meta, pre);
      list.appendChild(li);
    }
  } catch (err) { showError(String(err.message || err)); }
}

// strategies and tokenizers come from the server: every registered chunker, and the
// models whose tokenizer is on this machine
async function loadOptions() {
  try {
    const r = await fetch("/api/options");
    if (!r.ok) return;
    const o = await r.json();
    if (o.index) {
      indexInfo = o.index;
      $("search-panel").hidden = false;
      $("index_info").textContent = t("indexInfo")(o.index);
    }
    const st = $("strategy");
    const current = st.value;
    st.textContent = "";
    for (const name of o.strategies) {
      const op = document.createElement("option");
      op.value = name; op.textContent = name;
      st.appendChild(op);
    }
    st.value = o.strategies.includes(current) ? current : "recursive";
    const unit = $("unit");
    for (const name of o.tokenizers) {
      if ([...unit.options].some((x) => x.value === name)) continue;
      const op = document.createElement("option");
      op.value = name; op.textContent = name + " tokens";
      unit.appendChild(op);
    }
  } catch (_) { /* the built-in choices stay */ }
}

document.addEventListener("DOMContentLoaded", async () => {
  await loadOptions();
  restoreFromHash();
  $("run").addEventListener("click", run);
  $("ask").addEventListener("click", ask);
  $("q").addEventListener("keydown", (e) => { if (e.key === "Enter") ask(); });
  $("lang").addEventListener("click", () => { lang = lang === "ja" ? "en" : "ja"; localStorage.setItem("norishiro-lang", lang); applyLang(); });
  document.querySelectorAll("button.copy").forEach((b) => b.addEventListener("click", () => copyFrom(b.dataset.target, b)));
  $("rows_file").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (f) await openRows(f);
  });
  $("file").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (f) await openFile(f);
  });
  $("show_embed").addEventListener("change", () => { if (lastResult) render(lastResult); });
  $("text").addEventListener("input", () => {
    if (loadedPages || loadedOutline) { loadedPages = null; loadedOutline = null; showNote(""); }
  });
  for (const id of ["p_tokens", "p_size", "p_overlap"]) $(id).addEventListener("input", plan);
  $("p_use").addEventListener("click", useText);
  $("p_share").addEventListener("click", async () => {
    plan();
    try { await navigator.clipboard.writeText(location.href); } catch (_) { /* shown in the address bar */ }
  });
  $("p_print").addEventListener("click", () => window.print());
  $("p_reset").addEventListener("click", () => {
    $("p_tokens").value = 8000; $("p_size").value = 512; $("p_overlap").value = 64; plan();
  });
  applyLang();
});
