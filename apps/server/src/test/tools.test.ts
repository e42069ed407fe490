import { describe, expect, it } from 'vitest';
import { requireTool, TOOLS, type Tool } from './tools.js';

const tool = (present: boolean): Record<string, Tool> => ({
  sshd: { describe: 'A stand-in server', install: 'apt-get install stand-in', present: () => present },
});

describe('requireTool: a test that needs a program skips without it, but never on CI', () => {
  it('answers true when the tool is there, on CI or not, without a warning', () => {
    const warnings: string[] = [];
    for (const CI of ['true', undefined]) {
      expect(requireTool('sshd', 'the test', { tools: tool(true), env: { CI }, warn: (m) => warnings.push(m) })).toBe(
        true,
      );
    }
    expect(warnings).toEqual([]);
  });

  it('answers false (skip) with a warning naming the tool, the test and how to install it outside CI', () => {
    const warnings: string[] = [];
    const answer = requireTool('sshd', 'the intake test', {
      tools: tool(false),
      env: {},
      warn: (m) => warnings.push(m),
    });
    expect(answer).toBe(false);
    expect(warnings).toEqual(['A stand-in server is missing (apt-get install stand-in); skipping the intake test']);
    // CI set to anything but "true" (a local shell's leftover) is not CI.
    expect(requireTool('sshd', 'the test', { tools: tool(false), env: { CI: 'false' }, warn: () => undefined })).toBe(
      false,
    );
  });

  it('throws under CI=true when the tool is missing, so the file fails instead of passing unrun', () => {
    const warnings: string[] = [];
    expect(() =>
      requireTool('sshd', 'the intake test', {
        tools: tool(false),
        env: { CI: 'true' },
        warn: (m) => warnings.push(m),
      }),
    ).toThrow(
      'A stand-in server is missing (apt-get install stand-in); on CI (CI=true) the intake test may not be skipped',
    );
    expect(warnings).toEqual([]);
  });

  it('knows the tools the server tests use, each with a way to install it', () => {
    expect(Object.keys(TOOLS).sort()).toEqual(['openssl', 'sshd', 'xmllint']);
    for (const t of Object.values(TOOLS)) expect(t.install).toMatch(/^apt-get install /);
  });
});
