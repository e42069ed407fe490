import { loadConfig } from './config.js';
import { createStartupGate } from './startup-gate.js';

/**
 * A start-up line before the app's logger exists: plain at a terminal, JSON (as pino writes it) to
 * pipes, files and log collectors.
 */
function say(message: string): void {
  if (process.stdout.isTTY) console.log(message);
  else console.log(JSON.stringify({ level: 30, time: Date.now(), msg: message }));
}

/**
 * Process entry (issue 18 item 6, "start-up that tells the truth"): listen first, with this file's
 * two small imports only, so that from the first seconds of a start a request is answered (503 with
 * Retry-After, a page that reloads itself: startup-gate.ts) instead of refused; then load the app
 * and start it (start.ts), which hands the same socket to the app once it is ready and ends with the
 * ready line once the app answers over it.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const gate = createStartupGate();
  await gate.listen(config.port, config.host);
  say(`Railwatt is starting at ${config.publicUrl}: preparing the database and the demo data ...`);
  const { start } = await import('./start.js');
  await start(config, gate);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
