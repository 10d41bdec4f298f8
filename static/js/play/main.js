// The play page's entry (templates/games/play.html): starts the page with the config the server
// wrote into it (json_script). Everything else is shell.js, which can be imported on its own.
import { startPlay } from "./shell.js";

const config = JSON.parse(document.getElementById("play-config").textContent);
const page = document.querySelector(".play");
// Tests and curious teachers can look at the shell from the console.
startPlay(page, { config }).then((handle) => {
  if (handle) globalThis.playShell = handle;
});
