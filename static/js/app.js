// Site-wide behaviour: say when a request failed (htmx does not swap 5xx answers), and count characters
// in fields that have a limit (data-limit), so a long paste is never cut silently.
(function () {
  "use strict";

  function showError(message) {
    var banner = document.getElementById("request-error");
    if (!banner) return;
    banner.textContent = message;
    banner.hidden = false;
  }

  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    var reason = status === 403 ? "you may not do that here" : status === 404 ? "it no longer exists" : "the server failed";
    showError("That did not work (HTTP " + status + ": " + reason + "). Nothing was changed; reload the page and try again.");
  });
  document.addEventListener("htmx:sendError", function () {
    showError("The server did not answer: check your connection, then try again.");
  });
  document.addEventListener("htmx:beforeRequest", function () {
    var banner = document.getElementById("request-error");
    if (banner) banner.hidden = true;
  });

  function count(field) {
    var limit = Number(field.getAttribute("data-limit"));
    var out = document.getElementById(field.getAttribute("data-counter"));
    if (!limit || !out) return;
    var used = field.value.length;
    out.textContent = used.toLocaleString("en") + " / " + limit.toLocaleString("en") + " characters" +
      (used > limit ? ": " + (used - limit).toLocaleString("en") + " too many" : "");
    out.classList.toggle("error", used > limit);
  }

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("[data-limit]")) count(event.target);
  });
  function countAll() {
    document.querySelectorAll("[data-limit]").forEach(count);
  }
  document.addEventListener("DOMContentLoaded", countAll);
  document.addEventListener("htmx:afterSettle", countAll);
})();
