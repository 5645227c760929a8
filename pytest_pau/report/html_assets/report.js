/* pytest-pau HTML report: filtering and trajectory views.
 *
 * Model text is untrusted: it only ever reaches the page through textContent (never
 * innerHTML), and the data block is JSON with "<", ">" and "&" escaped by the writer.
 *
 * Loaded with "#selftest&status=failed&arity=1&mode=...&open=first" the page applies
 * those filters through the same controls a user would, opens the first visible row, and
 * writes what happened into <pre id="pau-selftest">; the browser test checks the DOM.
 */
(function () {
  "use strict";
  var errors = [];
  window.addEventListener("error", function (ev) {
    errors.push(String(ev.message || ev.type));
    showErrors();
  });
  function showErrors() {
    var box = document.getElementById("pau-errors");
    if (box) { box.hidden = errors.length === 0; box.textContent = errors.join("\n"); }
  }

  var DATA = JSON.parse(document.getElementById("pau-data").textContent);
  var byIdx = DATA.instances;
  var rows = Array.prototype.slice.call(document.querySelectorAll("#pau-instances tbody tr.inst"));
  var controls = {
    status: document.getElementById("f-status"),
    arity: document.getElementById("f-arity"),
    mode: document.getElementById("f-mode"),
    text: document.getElementById("f-text")
  };

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function matches(row) {
    var d = row.dataset;
    if (controls.status.value && d.status !== controls.status.value) return false;
    if (controls.arity.value && d.arity !== controls.arity.value) return false;
    if (controls.mode.value && d.mode !== controls.mode.value) return false;
    var q = controls.text.value.trim().toLowerCase();
    if (q && d.id.toLowerCase().indexOf(q) < 0) return false;
    return true;
  }

  function applyFilters() {
    var shown = 0;
    rows.forEach(function (row) {
      var visible = matches(row);
      row.hidden = !visible;
      var detail = row.nextElementSibling;
      if (detail && detail.classList.contains("detail")) detail.hidden = !visible;
      if (visible) shown += 1;
    });
    document.getElementById("shown").textContent = shown + " of " + rows.length + " instances shown";
  }

  function section(parent, title) {
    parent.appendChild(el("h3", null, title));
  }

  function pre(parent, text) {
    parent.appendChild(el("pre", null, text === "" ? "(empty)" : text));
  }

  function buildSteps(parent, steps) {
    var list = el("ol", "steps");
    var queries = 0;
    steps.forEach(function (s) {
      var li = el("li");
      if (s.kind === "act") {
        queries += 1;
        li.className = "q";
        if (s.input === null) {
          li.appendChild(el("span", "exc", "query " + queries + ": unparseable input: " + (s.format_error || s.text)));
        } else {
          li.appendChild(el("span", null, "query " + queries + ": test_func"));
          li.appendChild(el("span", "in", s.input));
          li.appendChild(el("span", null, " \u2192 "));
          li.appendChild(el("span", s.ok ? "out" : "exc", s.output === null ? "(no result)" : s.output));
        }
      } else if (s.kind === "reason") {
        li.className = "plan";
        li.appendChild(el("div", null, "plan (iteration " + s.iteration + "):"));
        li.appendChild(el("pre", null, s.text));
      } else {
        li.className = "hyp";
        var head = s.kind === "reflect" ? "hypothesis after iteration " + s.iteration : s.kind + " answer";
        if (s.concluded === true) head += " (concluded: YES)";
        if (s.concluded === false) head += " (concluded: NO)";
        li.appendChild(el("div", null, head + ":"));
        li.appendChild(el("pre", null, s.text));
      }
      list.appendChild(li);
    });
    if (!steps.length) parent.appendChild(el("p", "note", "No steps were recorded."));
    else parent.appendChild(list);
  }

  function buildDetail(inst) {
    var box = el("div", "traj");
    if (inst.error) { section(box, "Infrastructure error"); pre(box, inst.error); }
    if (inst.skipped) { section(box, "Skipped"); pre(box, inst.skipped); }
    section(box, "Gold description"); pre(box, inst.gold);
    section(box, "Predicted description" + (inst.concluded ? " (concluded)" : " (iteration limit)"));
    pre(box, inst.prediction);
    section(box, "Queries and hypotheses (" + inst.n_queries + " queries)");
    buildSteps(box, inst.steps);
    section(box, "Judge: " + (inst.judge === null ? "no parseable rating" : inst.judge + " / 5"));
    pre(box, inst.explanation);
    section(box, "Code written from the prediction: " +
      (inst.match === null ? "no code match" : "code match " + Math.round(inst.match * 100) + "%"));
    pre(box, inst.code);
    if (inst.mismatches.length) {
      var table = el("table", "mism");
      var head = el("tr");
      ["input", "expected", "got"].forEach(function (h) { head.appendChild(el("th", null, h)); });
      table.appendChild(head);
      inst.mismatches.forEach(function (m) {
        var tr = el("tr");
        m.forEach(function (cell) { tr.appendChild(el("td", "q", cell)); });
        table.appendChild(tr);
      });
      box.appendChild(el("h3", null, "Mismatches"));
      box.appendChild(table);
    }
    if (inst.failure_mode !== "none") {
      section(box, "Failure mode: " + inst.failure_mode);
      if (inst.failure_detail) pre(box, inst.failure_detail);
    }
    return box;
  }

  function toggle(row) {
    var next = row.nextElementSibling;
    if (next && next.classList.contains("detail")) {
      next.parentNode.removeChild(next);
      row.classList.remove("open");
      return null;
    }
    var inst = byIdx[Number(row.dataset.idx)];
    var tr = el("tr", "detail");
    tr.dataset.id = inst.id;
    var td = el("td");
    td.colSpan = row.children.length;
    td.appendChild(buildDetail(inst));
    tr.appendChild(td);
    row.parentNode.insertBefore(tr, row.nextSibling);
    row.classList.add("open");
    return tr;
  }

  rows.forEach(function (row) {
    row.addEventListener("click", function () { toggle(row); });
    row.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); toggle(row); }
    });
  });
  ["status", "arity", "mode"].forEach(function (k) { controls[k].addEventListener("change", applyFilters); });
  controls.text.addEventListener("input", applyFilters);
  applyFilters();

  function selftest() {
    var out = { filters: {}, opened: null, shown: 0, errors: errors };
    var params = location.hash.slice(1).split("&").slice(1);
    params.forEach(function (kv) {
      var parts = kv.split("=");
      var key = decodeURIComponent(parts[0]);
      var value = decodeURIComponent(parts.slice(1).join("="));
      if (key === "open") return;
      var control = controls[key];
      if (!control) { errors.push("selftest: unknown filter " + key); return; }
      control.value = value;
      out.filters[key] = control.value;
      control.dispatchEvent(new Event(key === "text" ? "input" : "change"));
    });
    var visible = rows.filter(function (r) { return !r.hidden; });
    out.shown = visible.length;
    if (visible.length) {
      visible[0].click();
      var detail = visible[0].nextElementSibling;
      out.opened = detail && detail.classList.contains("detail") ? detail.dataset.id : null;
    }
    var box = document.getElementById("pau-selftest");
    box.hidden = false;
    box.textContent = JSON.stringify(out);
  }

  if (location.hash.indexOf("#selftest") === 0) {
    try { selftest(); } catch (e) { errors.push("selftest: " + e); showErrors(); }
  }
  showErrors();
})();
