// The projector shows what fits its screen, nothing to scroll (nobody scrolls a projector). Each
// list marked data-pages (the tables, the leaderboard's rows) shows the items that fit above the
// window's bottom; when some do not, it shows them a page at a time, turning every PAGE_SECONDS,
// and its pager (data-pager, under the list's heading) says which: "Tables 10–18 of 75". The live
// part is swapped in whole on every change (session-live.js): the pages are laid out again then,
// from the same place.

const PAGE_SECONDS = 10;
// Room under the last item shown, in px: the page's own bottom margin.
const BOTTOM_SPACE = 12;

const region = document.querySelector("[data-live-region]");
if (region) {
  const firstShown = new Map(); // list name -> index of the first item shown

  const items = (list) => [...list.children];

  // How far down ``list`` reaches: its own bottom, or a box around it with its padding, border
  // and margin below (a card around the list ends under its last item).
  const reach = (list) => {
    let bottom = list.getBoundingClientRect().bottom;
    for (let box = list; box && box !== region; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.display === "contents") continue;
      bottom = Math.max(bottom, box.getBoundingClientRect().bottom + parseFloat(style.marginBottom));
    }
    return bottom;
  };

  // Shows the items of ``list`` from ``start`` that fit above the window's bottom (one at least),
  // hides the others; returns the index past the last one shown.
  const fill = (list, start) => {
    const all = items(list);
    all.forEach((item, index) => {
      item.hidden = index < start;
    });
    const limit = window.innerHeight - BOTTOM_SPACE;
    let end = all.length;
    for (let index = start; index < all.length; index += 1) {
      if (index > start && all[index].getBoundingClientRect().bottom > limit) {
        end = index;
        break;
      }
    }
    for (let index = end; index < all.length; index += 1) all[index].hidden = true;
    // What is below the last item (the box around the list), and rows whose columns widened as
    // others were hidden (a name that now wraps): fewer items until the whole fits.
    while (end - 1 > start && reach(list) > limit) {
      end -= 1;
      all[end].hidden = true;
    }
    return end;
  };

  const layOut = () => {
    for (const list of region.querySelectorAll("[data-pages]")) {
      const name = list.dataset.pages;
      const pager = region.querySelector(`[data-pager="${CSS.escape(name)}"]`);
      const count = items(list).length;
      if (pager) pager.hidden = true;
      let start = firstShown.get(name) || 0;
      if (start >= count) start = 0;
      if (start === 0 && fill(list, 0) === count) {
        firstShown.set(name, 0);
        continue; // everything fits: no pages
      }
      if (pager) {
        pager.hidden = false;
        pager.textContent = pager.dataset.template; // its room taken before measuring
      }
      const end = fill(list, start);
      firstShown.set(name, start);
      list.dataset.pageEnd = String(end);
      if (pager) {
        pager.textContent = pager.dataset.template
          .replace("{first}", String(start + 1))
          .replace("{last}", String(end))
          .replace("{count}", String(count));
      }
    }
  };

  // The next page of ``name`` (every paged list when none is named); after the last, the first.
  const turn = (name) => {
    for (const list of region.querySelectorAll("[data-pages]")) {
      if (name && list.dataset.pages !== name) continue;
      const pager = region.querySelector(`[data-pager="${CSS.escape(list.dataset.pages)}"]`);
      if (pager && pager.hidden) continue; // it fits: nothing to turn
      const end = Number(list.dataset.pageEnd || 0);
      firstShown.set(list.dataset.pages, end >= items(list).length ? 0 : end);
    }
    layOut();
  };

  new MutationObserver(layOut).observe(region, { childList: true });
  window.addEventListener("resize", layOut);
  document.fonts?.ready.then(layOut);
  setInterval(() => turn(), PAGE_SECONDS * 1000);
  layOut();
  // Tests turn the pages without waiting for the timer.
  window.projectorPages = { turn };
}
