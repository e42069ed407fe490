import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Tests that need a program of the machine (a real OpenSSH server, libxml2's xmllint).
 * On a developer's machine without it such a test is skipped with a warning; under CI=true (.ci/run,
 * which installs them) a missing tool fails the run instead, so CI never passes on tests it did not
 * run. Every such test asks here, through `requireTool`: one rule, not one per file. (The browser
 * journeys need chromium too, but never skip: e2e/src/browser.ts fails to launch without it.)
 */
export interface Tool {
  /** What the test needs, for the message. */
  describe: string;
  /** How to get it on Debian. */
  install: string;
  present: () => boolean;
}

export const TOOLS = {
  sshd: {
    describe: 'OpenSSH server (/usr/sbin/sshd and /usr/bin/ssh-keygen)',
    // The paths test/sftp-servers.ts starts (startOpenSshServer).
    install: 'apt-get install openssh-server',
    present: () => existsSync('/usr/sbin/sshd') && existsSync('/usr/bin/ssh-keygen'),
  },
  openssl: {
    describe: 'OpenSSL (/usr/bin/openssl), for the certificates of the local TLS peers',
    // test/delivery-peers.ts makes a self-signed certificate for the FTPS, SMTP and HTTPS peers.
    install: 'apt-get install openssl',
    present: () => spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0,
  },
  xmllint: {
    describe: "libxml2's xmllint on PATH",
    install: 'apt-get install libxml2-utils',
    present: () => spawnSync('xmllint', ['--version'], { stdio: 'ignore' }).status === 0,
  },
} as const satisfies Record<string, Tool>;

export type ToolName = keyof typeof TOOLS;

export interface RequireToolOptions {
  env?: Record<string, string | undefined>;
  /** Where the skip warning goes (console.warn). */
  warn?: (message: string) => void;
  /** The tools to look in (tests of this helper give their own). */
  tools?: Record<string, Tool>;
}

/** Answers once per tool and process (the checks spawn programs). */
const presence = new Map<string, boolean>();

/**
 * Whether the tool is here: true when present; false when missing outside CI (the caller skips,
 * and a warning says which test and why); throws when missing under CI=true, so the test file fails
 * with the tool and how to install it.
 *
 *   describe.skipIf(!requireTool('sshd', 'the intake against OpenSSH'))('...', () => { ... })
 */
export function requireTool(name: ToolName, what: string, options: RequireToolOptions = {}): boolean {
  const tools: Record<string, Tool> = options.tools ?? TOOLS;
  const tool = tools[name];
  if (!tool) throw new Error(`Unknown tool ${name}`);
  const cacheKey = options.tools ? undefined : name;
  let present = cacheKey ? presence.get(cacheKey) : undefined;
  if (present === undefined) {
    present = tool.present();
    if (cacheKey) presence.set(cacheKey, present);
  }
  if (present) return true;
  const env = options.env ?? process.env;
  const missing = `${tool.describe} is missing (${tool.install})`;
  if (env.CI === 'true') {
    throw new Error(`${missing}; on CI (CI=true) ${what} may not be skipped`);
  }
  (options.warn ?? console.warn)(`${missing}; skipping ${what}`);
  return false;
}
