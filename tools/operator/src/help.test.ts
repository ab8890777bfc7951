import { describe, expect, it } from '@jest/globals';
import { UsageError } from './arguments.ts';
import { OPERATOR_COMMANDS, OPTIONS, PROGRAM } from './commands.ts';
import { optionsOf, readCommandLine, usageFor } from './help.ts';

const read = (positionals: string[], options: Record<string, unknown> = {}) =>
  readCommandLine(PROGRAM, OPERATOR_COMMANDS, positionals, { json: false, ...options });

/** Every leading part of every command's words: "webhooks", "webhooks endpoints", … */
const groups = [
  ...new Set(
    OPERATOR_COMMANDS.flatMap((spec) =>
      spec.words
        .split(' ')
        .slice(0, -1)
        .map((_, i, w) => w.slice(0, i + 1).join(' ')),
    ),
  ),
];

describe('operator CLI help', () => {
  it('every command answers --help with its full usage line and summary', () => {
    for (const spec of OPERATOR_COMMANDS) {
      const line = read([...spec.words.split(' '), 'ACCOUNT_ID'], { help: true });
      expect(line.kind).toBe('help');
      const text = line.kind === 'help' ? line.text : '';
      expect(text.startsWith(`usage: operator ${spec.words} ${spec.synopsis}`.trimEnd())).toBe(true);
      expect(text).toContain(spec.summary);
      expect(text).toContain('Exit codes: 0 done, 1 refused');
    }
  });

  it('every group and the CLI itself answer --help (or a leading "help") with each of their commands', () => {
    for (const group of ['', ...groups]) {
      const words = group ? group.split(' ') : [];
      for (const line of [read(words, { help: true }), read(['help', ...words])]) {
        expect(line.kind).toBe('help');
        const text = line.kind === 'help' ? line.text : '';
        expect(text.startsWith(`usage: ${['operator', ...words].join(' ')} <command>`)).toBe(true);
        for (const spec of OPERATOR_COMMANDS.filter((s) => s.words.startsWith(group))) expect(text).toContain(spec.words);
      }
    }
  });

  it('a command names its own words, never a prefix of another command, so each line resolves to one command', () => {
    const words = OPERATOR_COMMANDS.map((spec) => spec.words);
    expect(new Set(words).size).toBe(words.length);
    for (const w of words) expect(words.filter((other) => other.startsWith(`${w} `))).toEqual([]);
  });

  it('every option a synopsis names is one the parser knows, and every option the parser knows is some command’s', () => {
    const named = new Set(OPERATOR_COMMANDS.flatMap((spec) => [...optionsOf(spec)]));
    expect([...named].sort()).toEqual(Object.keys(OPTIONS).sort());
  });

  it('an unknown command or a missing one is a usage error; its usage is the nearest group’s', () => {
    expect(() => read(['accounts', 'explode'])).toThrow(new UsageError('unknown command: accounts explode'));
    expect(() => read([])).toThrow(new UsageError('missing command'));
    expect(usageFor(PROGRAM, OPERATOR_COMMANDS, ['accounts', 'explode'])).toContain('usage: operator accounts <command>');
    expect(usageFor(PROGRAM, OPERATOR_COMMANDS, ['nonsense'])).toContain('usage: operator <command>');
  });

  it('an option the command’s synopsis does not name is a usage error; its own options and --json pass', () => {
    expect(() => read(['accounts', 'list'], { mode: 'test' })).toThrow(new UsageError('accounts list does not take --mode'));
    expect(read(['keys', 'create', 'acct_1'], { mode: 'test', label: 'CI', json: true })).toMatchObject({
      kind: 'run',
      spec: { words: 'keys create' },
    });
    expect(read(['webhooks', 'ping', 'acct_1', 'we_1'], { mode: 'live' })).toMatchObject({ kind: 'run', spec: { words: 'webhooks ping' } });
  });
});
