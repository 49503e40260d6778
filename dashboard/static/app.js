// caddy-x402 dashboard: the little script the pages need.
(function () {
  "use strict";
  // A key is shown once, in the answer to the POST that made it. Replace
  // that history entry with the keys page, so reloading shows the page
  // again instead of posting the form a second time.
  var shown = document.querySelector("[data-replace-url]");
  if (shown && window.history && history.replaceState) {
    history.replaceState(null, "", shown.getAttribute("data-replace-url"));
  }
  // Copy buttons copy the text of the element they name.
  document.querySelectorAll("button[data-copy]").forEach(function (b) {
    b.addEventListener("click", function () {
      var el = document.getElementById(b.getAttribute("data-copy"));
      if (!el) return;
      var text = el.textContent;
      var done = function () { b.textContent = "Copied"; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () { select(el); });
      } else {
        select(el);
      }
    });
  });
  function select(el) {
    var r = document.createRange();
    r.selectNodeContents(el);
    var s = window.getSelection();
    s.removeAllRanges();
    s.addRange(r);
  }
  // Confirm destructive actions.
  document.querySelectorAll("form[data-confirm]").forEach(function (f) {
    f.addEventListener("submit", function (e) {
      if (!window.confirm(f.getAttribute("data-confirm"))) e.preventDefault();
    });
  });
})();
