// LTI Dynamic Registration's last step: the tool tells the learning platform that opened the
// registration (as a frame of its admin page, or a window) that it is over, with the message the
// specification names; the platform then closes the frame and shows the registration. The message
// says nothing else, so it may go to whatever site the platform is on.
const button = document.querySelector("[data-lti-close]");
const note = document.querySelector("[data-lti-close-note]");
if (button) {
  const platform = window.opener || (window.parent !== window ? window.parent : null);
  button.addEventListener("click", () => {
    if (platform) platform.postMessage({ subject: "org.imsglobal.lti.close" }, "*");
    if (note) note.hidden = false;
  });
  button.dataset.ready = "true";
}
