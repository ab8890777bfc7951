// Risk covered: a command's name written in more than one place (its help, its dispatch, the audit
// log's list of reads) drifts: a command with help but no handler, a handler no help names, or a
// new change left out of the account's audit log. The command table is the one source: every entry
// carries its handler and its audit rule, and the audit log follows the table.
import { describe, expect, it } from '@jest/globals';
import { OPERATOR_COMMANDS } from './commands.ts';
import { operatorActionOf } from './operator-audit.ts';

const argumentsOf = (synopsis: string): string[] =>
  synopsis
    .split(' ')
    .filter((word) => /^[A-Z][A-Z_|]*$/.test(word))
    .map((word, i) => `${word.toLowerCase()}_${i}`);

describe('the operator command table', () => {
  it('names each command once, each with its handler and its audit rule', () => {
    const words = OPERATOR_COMMANDS.map((command) => command.words);
    expect(new Set(words).size).toBe(words.length);
    for (const command of OPERATOR_COMMANDS) {
      expect({ words: command.words, run: typeof command.run }).toEqual({ words: command.words, run: 'function' });
      expect(['boolean', 'function']).toContain(typeof command.audited);
    }
  });

  it('is what the audit log reads: a command is an action exactly when its entry says so', () => {
    for (const command of OPERATOR_COMMANDS) {
      const line = [...command.words.split(' '), ...argumentsOf(command.synopsis)];
      for (const values of [{ mode: 'test' }, { mode: 'test', set: 'x' }]) {
        const audited = typeof command.audited === 'function' ? command.audited(values) : command.audited;
        const action = operatorActionOf(line, values);
        expect({ words: command.words, values, action: action?.words ?? null }).toEqual({
          words: command.words,
          values,
          action: audited ? command.words : null,
        });
        // The account, for a command that names one, is its first argument.
        if (action && command.synopsis.startsWith('ACCOUNT_ID')) expect(action.accountId).toBe(line[command.words.split(' ').length]);
      }
    }
  });
});
