// Herald on the web. No page needs this script: it adds a step-through control to a replay
// and follows a live fight or tournament by server-sent events. Without it every step shows.
(function () {
  "use strict";

  // A replay's step-through: Previous / Next over the steps, from the first.
  var list = document.querySelector("ol.steps[data-stepper]");
  if (list && !document.querySelector(".stepper")) {
    var items = list.querySelectorAll("li");
    var at = 0;
    var bar = document.createElement("div");
    bar.className = "stepper";
    var prev = document.createElement("button");
    prev.textContent = "Previous";
    prev.id = "step-prev";
    var next = document.createElement("button");
    next.textContent = "Next";
    next.id = "step-next";
    var all = document.createElement("button");
    all.textContent = "All steps";
    all.id = "step-all";
    var where = document.createElement("span");
    where.id = "step-where";
    var show = function () {
      for (var i = 0; i < items.length; i++) {
        items[i].classList.toggle("hidden", i > at);
      }
      where.textContent = "Step " + at + " of " + (items.length - 1);
    };
    prev.addEventListener("click", function () { if (at > 0) { at--; show(); } });
    next.addEventListener("click", function () { if (at < items.length - 1) { at++; show(); } });
    all.addEventListener("click", function () { at = items.length - 1; show(); });
    bar.appendChild(prev);
    bar.appendChild(next);
    bar.appendChild(all);
    bar.appendChild(where);
    list.parentNode.insertBefore(bar, list);
    show();
  }

  // A live page: new steps are appended as they come; at the end the page is read again.
  var live = document.querySelector("[data-live]");
  if (live && window.EventSource) {
    var source = new EventSource(live.getAttribute("data-live"));
    var note = document.getElementById("live-note");
    if (note) { note.textContent = "Live: new steps appear as they are played."; }
    source.addEventListener("step", function (e) {
      var step = JSON.parse(e.data);
      var target = document.getElementById("steps");
      if (!target) { return; }
      var li = document.createElement("li");
      li.id = "step-" + step.n;
      li.value = step.n;
      var head = document.createElement("div");
      head.textContent = step.head;
      li.appendChild(head);
      step.lines.forEach(function (line) {
        var div = document.createElement("div");
        div.textContent = line;
        li.appendChild(div);
      });
      if (step.dice) {
        var dice = document.createElement("div");
        dice.className = "dice";
        dice.textContent = step.dice;
        li.appendChild(dice);
      }
      target.appendChild(li);
    });
    source.addEventListener("changed", function () {
      source.close();
      window.location.reload();
    });
  }
})();
