// daybook's timeline page: a little JavaScript on top of server-rendered
// HTML. Everything works without it.
(function () {
  "use strict";

  // The topic filter applies as soon as a tag is chosen.
  document.querySelectorAll("select[data-autosubmit]").forEach(function (sel) {
    sel.addEventListener("change", function () { sel.form.submit(); });
  });

  // "/" focuses the search box, as in many sites.
  document.addEventListener("keydown", function (ev) {
    var q = document.getElementById("q");
    if (ev.key === "/" && q && document.activeElement !== q &&
        !(document.activeElement && /^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement.tagName))) {
      ev.preventDefault();
      q.focus();
      q.select();
    }
  });

  // A link to a line inside an entry (#L12) marks the whole entry.
  function markTarget() {
    document.querySelectorAll(".target").forEach(function (el) { el.classList.remove("target"); });
    if (!location.hash) { return; }
    var el = document.getElementById(location.hash.slice(1));
    if (!el) { return; }
    var entry = el.closest("li.entry, .note");
    if (entry) {
      entry.classList.add("target");
    }
  }
  window.addEventListener("hashchange", markTarget);
  markTarget();
})();
