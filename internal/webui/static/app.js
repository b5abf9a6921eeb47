// Keyboard shortcuts. Every page works without this file: links, forms
// and buttons are reachable with Tab; this only adds jumps.
(function () {
  "use strict";
  var go = { m: "", f: "facts", s: "sessions", v: "vault", t: "settings", c: "costs" };
  var pending = false;
  var slash = false;
  function typing(e) {
    var t = e.target;
    return t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
  }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || typing(e)) { return; }
    if (pending) {
      pending = false;
      if (Object.prototype.hasOwnProperty.call(go, e.key)) {
        e.preventDefault();
        window.location.href = "/ui/" + go[e.key];
      }
      return;
    }
    if (e.key === "/") {
      // Focus on key-up: a focus during key-down would let the key's own
      // character land in the box.
      if (document.getElementById("q")) { e.preventDefault(); slash = true; }
    } else if (e.key === "g") {
      pending = true;
    } else if (e.key === "?") {
      var h = document.getElementById("shortcuts");
      if (h) { h.hidden = !h.hidden; }
    }
  });
  document.addEventListener("keyup", function (e) {
    if (slash && e.key === "/") {
      slash = false;
      var q = document.getElementById("q");
      q.focus();
      q.select();
    }
  });
})();
