// Starts the engine's worker as early as a page can: the build adds this module to the <head> of
// every page that shows a widget (hooks/pyodide_bundle.py), as an async module script, so it runs
// as soon as it and engine.js have arrived, while the page is still being parsed, instead of
// after every widget module has loaded (widgets/rollbook.js). The worker takes no time from the
// page's own thread: reading never waits for it. It is the same engine.js module the widgets
// import, so the page still has one worker.

import { warmUp } from "./engine.js";

warmUp();
