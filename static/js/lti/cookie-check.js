// The LTI login inside a learning platform's frame (templates/classroom/lti/cookie_check.html,
// docs/lti.md "Inside a frame"). If this frame keeps a cookie, the login goes on here. If not
// (Safari, or a browser set to block third-party cookies), the login's state cookie and then the
// session's would be lost on the way: the page shows "Open in a new window" instead, where the
// same login runs at the top level and signs the person in.

const TEST_COOKIE = "lti_cookie_check";

function cookiesKept() {
  if (!navigator.cookieEnabled) return false;
  // A cookie another site's frame may keep at all: SameSite=None needs Secure (HTTPS).
  const attributes = window.location.protocol === "https:" ? "; SameSite=None; Secure" : "";
  document.cookie = `${TEST_COOKIE}=1; path=/${attributes}`;
  const kept = document.cookie.split(";").some((cookie) => cookie.trim() === `${TEST_COOKIE}=1`);
  document.cookie = `${TEST_COOKIE}=; path=/; max-age=0${attributes}`;
  return kept;
}

const check = document.querySelector("[data-lti-cookie-check]");
if (check) {
  if (window.top === window.self || cookiesKept()) {
    window.location.replace(check.dataset.loginUrl);
  } else {
    check.querySelector("[data-checking]").hidden = true;
    check.querySelector("[data-blocked]").hidden = false;
    check.querySelector("[data-new-window]").addEventListener("click", () => {
      check.querySelector("[data-opened]").hidden = false;
    });
  }
}
