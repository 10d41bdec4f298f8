// The summary's "Print" button: the browser's own print dialog (which also saves a PDF).
// Without scripts the button stays hidden and the browser's menu prints the page all the same.
for (const button of document.querySelectorAll("[data-print]")) {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
}
