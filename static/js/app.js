// Site-wide behaviour: say when a request failed (htmx does not swap 5xx answers), count characters in fields
// that have a limit (data-limit), so a long paste is never cut silently, show a form's fields for its choice, and
// send files dropped on an upload form's drop area (data-drop-zone).
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
  // A form's button that htmx disabled while it was sent (hx-disabled-elt) stays disabled when the answer sent the
  // browser elsewhere; the page brought back by the back button gets it back (a repeat is caught by the server).
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    document.querySelectorAll("form[hx-disabled-elt] button[disabled]").forEach(function (button) {
      button.disabled = false;
    });
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

  // The run form: each element marked data-template-only="a b" shows for those templates only
  // ("report" stands for every template but the free question).
  function showTemplateFields() {
    var select = document.getElementById("id_template");
    if (!select) return;
    var chosen = [select.value];
    if (select.value !== "question") chosen.push("report");
    document.querySelectorAll("[data-template-only]").forEach(function (element) {
      var wanted = element.getAttribute("data-template-only").split(" ");
      element.hidden = !wanted.some(function (name) { return chosen.indexOf(name) >= 0; });
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.id === "id_template") showTemplateFields();
  });
  document.addEventListener("DOMContentLoaded", showTemplateFields);
  document.addEventListener("htmx:afterSwap", showTemplateFields);

  // The schedule form: fields marked data-frequency-only="daily weekly" show for those frequencies only, and a
  // new schedule starts in the browser's time zone (the server validates whatever is sent).
  function showFrequencyFields() {
    var checked = document.querySelector("input[name=frequency]:checked");
    if (!checked) return;
    document.querySelectorAll("[data-frequency-only]").forEach(function (element) {
      element.hidden = element.getAttribute("data-frequency-only").split(" ").indexOf(checked.value) < 0;
    });
  }
  function browserTimezone() {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (error) { zone = ""; }
    document.querySelectorAll("input[data-browser-timezone]").forEach(function (input) {
      if (zone && input.value === "UTC") input.value = zone;
      input.removeAttribute("data-browser-timezone");
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.name === "frequency") showFrequencyFields();
  });
  [showFrequencyFields, browserTimezone].forEach(function (setup) {
    document.addEventListener("DOMContentLoaded", setup);
    document.addEventListener("htmx:afterSwap", setup);
  });

  // The upload form's drop area ([data-drop-zone] around its file input): files dropped on it go into that input
  // and the form is sent as if chosen and submitted (htmx then shows each file's row, its progress and errors).
  // Without JavaScript the area is only the input and its button.
  function dropZone(event) {
    var types = event.dataTransfer ? Array.prototype.slice.call(event.dataTransfer.types || []) : [];
    if (types.indexOf("Files") < 0) return null;
    return event.target.closest ? event.target.closest("[data-drop-zone]") : null;
  }
  ["dragenter", "dragover"].forEach(function (kind) {
    document.addEventListener(kind, function (event) {
      var zone = dropZone(event);
      if (!zone) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
      zone.classList.add("dragging");
    });
  });
  document.addEventListener("dragleave", function (event) {
    var zone = dropZone(event);
    if (zone && !zone.contains(event.relatedTarget)) zone.classList.remove("dragging");
  });
  document.addEventListener("drop", function (event) {
    var zone = dropZone(event);
    if (!zone) return;
    event.preventDefault();
    zone.classList.remove("dragging");
    var input = zone.querySelector("input[type=file]");
    if (!input || !event.dataTransfer.files.length) return;
    input.files = event.dataTransfer.files;
    // requestSubmit fires the submit event htmx sends the form on (submit() would skip it and reload the page)
    if (input.form.requestSubmit) input.form.requestSubmit();
    else input.form.dispatchEvent(new Event("submit", { cancelable: true, bubbles: true }));
  });
  function showDropHints() {
    document.querySelectorAll("[data-drop-zone] [data-drop-hint]").forEach(function (hint) { hint.hidden = false; });
  }
  document.addEventListener("DOMContentLoaded", showDropHints);
  document.addEventListener("htmx:afterSwap", showDropHints);
})();
