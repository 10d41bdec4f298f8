// The report status page asks the server every few seconds. While the report is queued or being
// compiled it updates the status line in place (a polite live region announces it); once the
// report is ready or failed it reloads, so the download links appear without a click.
const box = document.getElementById("report-status");
const POLL_MS = 2000;

async function poll() {
  try {
    const response = await fetch(box.dataset.statusUrl, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    if (response.ok) {
      const data = await response.json();
      if (!data.pending) {
        window.location.reload();
        return;
      }
      if (data.status !== box.dataset.status || data.label !== box.dataset.label) {
        const badge = box.querySelector(".status-badge");
        badge.textContent = data.label;
        badge.className = `status-badge status-${data.status}`;
        box.dataset.status = data.status;
        box.dataset.label = data.label;
      }
    }
  } catch {
    // A dropped connection: the next poll tries again.
  }
  window.setTimeout(poll, POLL_MS);
}

if (box) {
  window.setTimeout(poll, POLL_MS);
}
