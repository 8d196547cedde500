// The live run page: tick the elapsed time, and keep the socket's stream exact across reconnects.
// Every event's first fragment is its event-log line (data-seq); the last line is the last event shown.
(function () {
  "use strict";

  function lastSeq() {
    var last = document.querySelector("#run-events > li:last-child");
    return last ? Number(last.getAttribute("data-seq")) : 0;
  }

  function tick() {
    var start = document.getElementById("run-start");
    var end = document.getElementById("run-end");
    var out = document.getElementById("run-elapsed");
    if (!start || !out || !start.getAttribute("data-at")) return;
    var from = Date.parse(start.getAttribute("data-at"));
    var to = end && end.getAttribute("data-at") ? Date.parse(end.getAttribute("data-at")) : Date.now();
    var seconds = Math.max(0, Math.round((to - from) / 1000));
    out.textContent = seconds >= 60 ? Math.floor(seconds / 60) + " min " + (seconds % 60) + " s" : seconds + " s";
  }

  // A reconnect resumes after the last event on the page, not after the one the page was loaded at.
  if (window.htmx && htmx.createWebSocket) {
    var create = htmx.createWebSocket;
    htmx.createWebSocket = function (url) {
      return create(url.replace(/([?&]after=)\d+/, "$1" + lastSeq()));
    };
  }

  // Never apply an event twice (the server already drops repeats; this guards the page too).
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var match = /data-seq="(\d+)"/.exec(event.detail.message);
    if (match && Number(match[1]) <= lastSeq()) event.preventDefault();
  });

  setInterval(tick, 1000);
})();
