// A box that scrolls sideways (a wide table on a phone, the table page's one-row menu)
// cuts its content off at its edge, and a phone shows no scroll bar: the side with
// more to see fades out (site.css, [data-more]), and the fade follows the scrolling.
const BOXES = ".stats-table-wrap, .nav-links";
const EDGE_PX = 2;

function mark(box) {
  const left = box.scrollLeft > EDGE_PX;
  const right = box.scrollLeft + box.clientWidth < box.scrollWidth - EDGE_PX;
  const more = left && right ? "both" : left ? "left" : right ? "right" : "";
  if (more) box.dataset.more = more;
  else delete box.dataset.more;
}

function markAll() {
  document.querySelectorAll(BOXES).forEach(mark);
}

// (Scroll events do not bubble: caught on their way down, for the boxes the page's
// scripts add later too, such as the table's standings.)
document.addEventListener(
  "scroll",
  (event) => {
    if (event.target instanceof Element && event.target.matches(BOXES)) mark(event.target);
  },
  { capture: true, passive: true },
);
// (A narrower window, fonts and late content change the widths after the first paint;
// scripts add boxes.)
new ResizeObserver(markAll).observe(document.body);
new MutationObserver(markAll).observe(document.body, { childList: true, subtree: true });
markAll();
