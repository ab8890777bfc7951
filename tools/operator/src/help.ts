/**
 * The operator CLI's help and usage machinery. Every command is one CommandSpec in a catalogue
 * (commands.ts, the command table); from it come `--help` on every command and every group of commands, the
 * usage printed with a usage error, and the options a command accepts (read from its synopsis, so
 * the help can never list an option the command refuses, nor the command take one the help hides).
 * A command line that names no command of the catalogue is a usage error: a command cannot exist
 * without its help.
 */
import { UsageError } from './arguments.ts';

export interface CommandSpec {
  /** The words that name the command, e.g. "accounts create" or "webhooks endpoints add". */
  readonly words: string;
  /** What follows the words: positional arguments in CAPITALS, options as `--name VALUE`, optional parts in [ ]. */
  readonly synopsis: string;
  /** One sentence: what the command does. */
  readonly summary: string;
  /** Further lines shown by `--help` on this command: refusals, what is printed, caveats. */
  readonly details?: readonly string[];
}

/** Options every command takes; they are not repeated in each synopsis. */
const COMMON_OPTIONS = ['json', 'help'];
const EPILOGUE = 'Add --json for machine-readable output. Exit codes: 0 done, 1 refused (the error on stderr), 2 usage error.';

/** What a command line asks for: a command's help (or a group's), or running a command. */
export type CommandLine<S extends CommandSpec = CommandSpec> = { kind: 'help'; text: string } | { kind: 'run'; spec: S };

const wordsOf = (spec: CommandSpec): string[] => spec.words.split(' ');

function startsWith(words: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= words.length && prefix.every((word, i) => words[i] === word);
}

/** The longest leading part of `positionals` that some command's words begin with ([] when none). */
function knownPrefix(catalogue: readonly CommandSpec[], positionals: readonly string[]): string[] {
  for (let n = positionals.length; n > 0; n--) {
    const prefix = positionals.slice(0, n);
    if (catalogue.some((spec) => startsWith(wordsOf(spec), prefix))) return prefix;
  }
  return [];
}

/** `--help` of one command. */
export function commandHelp(program: string, spec: CommandSpec): string {
  const lines = [`usage: ${program} ${spec.words} ${spec.synopsis}`.trimEnd(), '', spec.summary];
  if (spec.details?.length) lines.push('', ...spec.details);
  return `${lines.join('\n')}\n\n${EPILOGUE}\n`;
}

/** `--help` of a group ("webhooks", "webhooks endpoints", or the whole CLI for []): each command and what it does. */
export function groupHelp(program: string, catalogue: readonly CommandSpec[], group: readonly string[]): string {
  const members = catalogue.filter((spec) => startsWith(wordsOf(spec), group));
  const head = [program, ...group].join(' ');
  const lines = [`usage: ${head} <command> [arguments] [--json]`, ''];
  for (const spec of members) lines.push(`  ${spec.words} ${spec.synopsis}`.trimEnd(), `      ${spec.summary}`);
  lines.push('', `Run "${head} <command> --help" for a command's details.`);
  return `${lines.join('\n')}\n${EPILOGUE}\n`;
}

/** The usage that goes with a usage error on `positionals`: the command's help, else its group's. */
export function usageFor(program: string, catalogue: readonly CommandSpec[], positionals: readonly string[]): string {
  const spec = findCommand(catalogue, positionals);
  return spec ? commandHelp(program, spec) : groupHelp(program, catalogue, knownPrefix(catalogue, positionals));
}

/** The command whose words begin `positionals` (the rest are its arguments), if any. */
export function findCommand<S extends CommandSpec>(catalogue: readonly S[], positionals: readonly string[]): S | undefined {
  let best: S | undefined;
  for (const spec of catalogue) {
    if (startsWith(positionals, wordsOf(spec)) && wordsOf(spec).length > (best ? wordsOf(best).length : 0)) best = spec;
  }
  return best;
}

/** The options a command takes: those its synopsis names, and the common ones. */
export function optionsOf(spec: CommandSpec): Set<string> {
  return new Set([...COMMON_OPTIONS, ...Array.from(spec.synopsis.matchAll(/--([a-z][a-z0-9-]*)/g), (m) => m[1] ?? '')]);
}

/**
 * Reads a parsed command line: `--help` (or a leading `help` word) anywhere gives the help of what
 * the words name; otherwise the command to run, with its options checked against its synopsis.
 * Throws UsageError for an unknown command or an option it does not take (print usageFor with it).
 */
export function readCommandLine<S extends CommandSpec>(
  program: string,
  catalogue: readonly S[],
  positionals: readonly string[],
  options: Readonly<Record<string, unknown>>,
): CommandLine<S> {
  const askedHelp = options['help'] === true || positionals[0] === 'help';
  const words = positionals[0] === 'help' ? positionals.slice(1) : positionals;
  const spec = findCommand(catalogue, words);
  if (askedHelp) {
    return { kind: 'help', text: spec ? commandHelp(program, spec) : groupHelp(program, catalogue, knownPrefix(catalogue, words)) };
  }
  if (!spec) {
    const problem = words.length ? `unknown command: ${words.join(' ')}` : 'missing command';
    throw new UsageError(problem);
  }
  const allowed = optionsOf(spec);
  const refused = Object.keys(options).filter((name) => options[name] !== undefined && !allowed.has(name));
  if (refused.length) {
    throw new UsageError(`${spec.words} does not take ${refused.map((name) => `--${name}`).join(', ')}`);
  }
  return { kind: 'run', spec };
}
