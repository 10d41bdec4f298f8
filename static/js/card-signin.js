// A login card's QR code carries its token after "#", which a browser never sends to a server:
// the token reaches no access log. This page posts it, and the server signs the child in.
const form = document.getElementById("card-form");
const token = decodeURIComponent(window.location.hash.slice(1));
if (form && token) {
  form.elements.token.value = token;
  // The token leaves the address bar (and the history) before anything else happens.
  window.history.replaceState(null, "", window.location.pathname);
  form.submit();
} else if (form) {
  document.getElementById("card-status").hidden = true;
  document.getElementById("card-missing").hidden = false;
}
