/**
 * The `harness-bench` command. Exit codes (`EXIT_CODES` in `cli/io.ts`): 0 all pass, 1 a case
 * failed or errored, 2 bad input (unreadable or invalid scenario, cassette or config, or a bad
 * flag), with nothing written, 3 an internal error (our bug), 4 the environment. An error that
 * reaches this file is mapped by its fault (`harness/errors.ts`).
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { chatCommand } from './chat-command.ts';
import { exportCommand } from './export-command.ts';
import { fuzzCommand } from './fuzz-command.ts';
import { importCommand } from './import-command.ts';
import { mergeCommand } from './merge-command.ts';
import { recordCommand } from './record-command.ts';
import { policyCheckCommand } from './policy-command.ts';
import { replayCommand } from './replay-command.ts';
import { addViewCommands } from './report-command.ts';
import { runCommand } from './run-command.ts';
import { serveCommand } from './serve-command.ts';
import { validateCommand } from './validate-command.ts';
import { initCommand } from './init-command.ts';
import { addPassthroughOptions, servePassthrough } from './serve-passthrough.ts';
import { MAX_FILE_SIZE_ENV, setMaxFileSize } from '../eval/input-limits.ts';
import { EXIT_CODES, EXIT_CODES_HELP, reportError } from './errors.ts';
import { type CliIo, processIo, VERSION } from './io.ts';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Runs the CLI with `argv` (as `process.argv`: node, script, args…) and resolves with the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let exitCode = 0;
  const program = new Command('harness-bench')
    .description(
      'A test bench for LLM agent harnesses: the model frozen, the harness live, every decision scored and diffed.',
    )
    .version(VERSION, '-v, --version')
    .addHelpText('after', EXIT_CODES_HELP)
    .showHelpAfterError('(run with --help for usage)')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });

  program
    .command('run')
    .description(
      'Run scenarios and replay recordings under one or more configurations, print a table, write results.',
    )
    .option('-s, --scenarios <glob>', 'scenario files or folders (repeatable; default: scenarios/)', collect)
    .option(
      '-r, --recordings <glob>',
      'cassette files or folders (repeatable; default: recordings/)',
      collect,
    )
    .option(
      '-c, --config <file|name=file|name>',
      'harness configuration: a file, NAME=FILE, or a name from the project configuration or the ' +
        "package's configs/ (repeatable to compare; default: the project's configurations, else configs/default.json)",
      collect,
    )
    .option(
      '--harness <name|file>',
      'the harness under test: ours (default, in-process), an adapter file, or the name of one in adapters/ (docs/adapters.md); repeatable to compare harnesses side by side',
      collect,
    )
    .option('--json <file>', 'write the results JSON to this file')
    .option(
      '-o, --out <dir>',
      'write results.json, report.md, junit.xml, report.html and cases/ (one transcript per case) into this folder',
    )
    .option('--verbose', 'print the turn-by-turn ledger of each failed case as it ends')
    .option(
      '-f, --filter <text>',
      'only cases whose id contains this text (repeatable: any of them)',
      collect,
    )
    .option('-t, --tag <tag>', 'only cases with this tag (repeatable: any of them; !TAG leaves out)', collect)
    .option('--list', 'list the cases that would run, with their tags, and exit 0 (nothing runs)')
    .addOption(new Option('--concurrency <n>', 'cases run at once').default('2').argParser(positiveInt))
    .option('--bail', 'stop starting cases after the first failure (says how many did not run)')
    .option('--reference <name>', 'the configuration the others are compared with (default: the first -c)')
    .option('--compact', 'list only failures, skips and changes (the default above 30 cases)')
    .option('--full', 'list every case, however many')
    .addOption(
      new Option('--repeat <k>', 'run the suite k times: pass^k and flips per case').argParser(positiveInt),
    )
    .option('--baseline <results.json>', 'compare with a stored run: exit 1 on any regression')
    .option(
      '--tolerance <metric=value>',
      'allowed worsening of a metric for --baseline, e.g. tokensPerCase=5% (repeatable)',
      collect,
    )
    .option('--shard <i/n>', 'run only shard i of n (cases split by a stable hash; join with merge)')
    .option(
      '--trace [url]',
      'export one OpenTelemetry trace per case over OTLP/HTTP (default: OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318)',
    )
    .option('--trace-file <file>', 'write the traces as OTLP JSON Lines to this file')
    .option(
      '--trace-content',
      'record tool arguments and results, commands and paths in traces (off by default)',
    )
    .option(
      '--approved <dir>',
      'compare each case with its approved behaviour in this folder (default: approved/ when it exists)',
    )
    .option('--no-approved', 'do not compare with the approved behaviour')
    .addOption(maxFileSizeOption())
    .action(async (options) => {
      exitCode = await runCommand(options, io);
    });

  program
    .command('approve')
    .description(
      'Run cases and record their behaviour as approved (approved/ or --approved DIR): what run then compares each case with (docs/approved-behaviour.md).',
    )
    .option('-s, --scenarios <glob>', 'scenario files or folders (repeatable; default: scenarios/)', collect)
    .option(
      '-r, --recordings <glob>',
      'cassette files or folders (repeatable; default: recordings/)',
      collect,
    )
    .option('-c, --config <file|name=file|name>', 'harness configuration, as for run (repeatable)', collect)
    .option('--harness <name|file>', 'the harness under test, as for run (repeatable)', collect)
    .option(
      '-f, --filter <text>',
      'only cases whose id contains this text (repeatable: any of them)',
      collect,
    )
    .option('-t, --tag <tag>', 'only cases with this tag (repeatable; !TAG leaves out)', collect)
    .option('--approved <dir>', 'the folder of approved behaviours (default: approved/)')
    .addOption(new Option('--concurrency <n>', 'cases run at once').default('2').argParser(positiveInt))
    .addOption(maxFileSizeOption())
    .action(async (options) => {
      exitCode = await runCommand({ ...options, approve: true, compact: true }, io);
    });

  addPassthroughOptions(
    program
      .command('serve')
      .description(
        "Serve a scenario's scripted model or a cassette's responses as an OpenAI-compatible endpoint on 127.0.0.1 until Ctrl-C; with --upstream, forward to a real provider and record the foreign harness's session as a cassette.",
      )
      .argument('[source]', 'a scenario or cassette file (not with --upstream)')
      .option('--port <n>', 'port to listen on (default: a free one)')
      .option('--harness <name|file>', "apply this adapter file's tool mapping to the calls served")
      .option('--log <file>', 'on exit, write every request received as JSON to this file'),
  ).action(async (source: string | undefined, command: string[], options) => {
    exitCode = options.upstream
      ? await servePassthrough({ ...options, command: [...(source ? [source] : []), ...command] }, io)
      : await serveCommand(source, options, io);
  });

  program
    .command('init')
    .description(
      'Create harness-bench.config.yaml and an example scenario under scenarios/ in the current folder, ' +
        'so `harness-bench run` runs your scenarios.',
    )
    .option('--force', 'overwrite the files if they exist')
    .action(async (options: { force?: boolean }) => {
      exitCode = await initCommand(options, io);
    });

  program
    .command('merge')
    .description(
      'Join the results files of a sharded run (run --shard i/n) into the unsharded results; re-render report.md, junit.xml and report.html.',
    )
    .argument('<files...>', "every shard's results.json")
    .option(
      '-o, --out <dir>',
      "write results.json, report.md, junit.xml, report.html and each shard's cases/ into this folder",
    )
    .option('--json <file>', 'write the merged results JSON to this file')
    .action(async (files: string[], options) => {
      exitCode = await mergeCommand(files, options, io);
    });

  program
    .command('import')
    .description(
      'Import recordings as version-1 cassettes, the format read from the content: VCR (VCR.py, Ruby, ' +
        'go-vcr, Betamax, ExVCR), HAR / Polly.JS, nock, chunk logs, raw SSE, Go httprr, Azure test-proxy, ' +
        'WireMock, Hoverfly, MockServer, Talkback, Python responses (docs/recording-format.md).',
    )
    .argument('<files...>', 'recording files')
    .requiredOption('-o, --out <dir>', 'folder for the cassettes')
    .option('--force', 'overwrite cassettes that exist')
    .addOption(maxFileSizeOption())
    .action(async (files: string[], options: { out: string; force?: boolean }) => {
      exitCode = await importCommand(files, options, io);
    });

  program
    .command('replay')
    .description(
      'Replay one cassette through the harness with the model frozen; print the ledger and every divergence.',
    )
    .argument('<cassette>', 'cassette file')
    .option('-c, --config <file>', 'harness configuration (default: configs/default.json)')
    .option('-w, --workspace <dir>', 'run on a copy of this folder as the workspace (see --in-place)')
    .option('--in-place', 'with --workspace: let the tools change the folder itself, not a copy')
    .addOption(maxFileSizeOption())
    .addOption(
      new Option(
        '--match <mode>',
        'request matching (default: strict for our cassettes, sequential for imported ones)',
      ).choices(['strict', 'sequential', 'counterfactual']),
    )
    .option(
      '--then <file>',
      'counterfactual: scripted turns (JSON or YAML) that take over at the first divergence',
    )
    .action(async (file: string, options) => {
      exitCode = await replayCommand(file, options, io);
    });

  program
    .command('record')
    .description(
      'Run the harness once against a live OpenAI-compatible endpoint and record the session as a' +
        ' cassette (non-interactive).',
    )
    .option(
      '--base-url <url>',
      'endpoint base URL, e.g. http://127.0.0.1:1234/v1 (default: HARNESS_BASE_URL)',
    )
    .option('--model <name>', 'model name (default: HARNESS_MODEL)')
    .option('--task <text>', 'the task given to the harness')
    .option('--tasks <file>', 'record several tasks (JSON or YAML list), one cassette each into --out DIR')
    .addOption(
      new Option('--concurrency <n>', 'with --tasks: sessions at once (default 1)').argParser(positiveInt),
    )
    .option('--rate <n/unit>', 'with --tasks: request starts over all sessions, e.g. 60/min, 2/s')
    .option('-w, --workspace <dir>', 'the workspace the tools work in (default: the current folder)')
    .option(
      '-c, --config <file>',
      'harness configuration (default: configs/default.json); asks are answered by its mode',
    )
    .requiredOption('-o, --out <file>', 'the cassette to write (with --tasks: the folder)')
    .option('--title <text>', 'cassette title')
    .option('--no-stream', 'ask for whole responses instead of streams')
    .option('--force', 'overwrite an existing cassette')
    .option('--trace [url]', 'export the run as an OpenTelemetry trace over OTLP/HTTP (see run --trace)')
    .option('--trace-file <file>', 'write the trace as OTLP JSON Lines to this file')
    .option('--trace-content', 'record tool arguments and results, commands and paths in the trace')
    .action(async (options) => {
      exitCode = await recordCommand(options, io);
    });

  program
    .command('chat')
    .description(
      'The interactive harness on a live OpenAI-compatible endpoint (approvals in the terminal, ' +
        'Ctrl-C cancels a turn).',
    )
    .option('--base-url <url>', 'endpoint base URL (default: HARNESS_BASE_URL)')
    .option('--model <name>', 'model name (default: HARNESS_MODEL)')
    .option('-w, --workspace <dir>', 'the workspace the tools work in (default: the current folder)')
    .option('-c, --config <file>', 'harness configuration (default: configs/default.json)')
    .option('--resume <id>', 'continue a session from ~/.harness-bench/sessions/<id>.jsonl')
    .option('--record <file>', 'record the session as a cassette, written on exit')
    .option('--no-stream', 'ask for whole responses instead of streams')
    .option('--force', 'overwrite an existing --record file')
    .option('--trace [url]', 'export each turn as an OpenTelemetry trace over OTLP/HTTP (see run --trace)')
    .option('--trace-file <file>', 'write the traces as OTLP JSON Lines to this file')
    .option('--trace-content', 'record tool arguments and results, commands and paths in traces')
    .action(async (options) => {
      exitCode = await chatCommand(options, io);
    });

  program
    .command('export')
    .description('Export a cassette as nock definitions (JSON) for your own nock-based tests.')
    .option('--nock <cassette>', 'the cassette to export as nock definitions')
    .option('-o, --out <file>', 'write to this file (default: stdout)')
    .option('--force', 'overwrite --out if it exists')
    .option(
      '--scope <origin>',
      'origin nock intercepts, e.g. http://127.0.0.1:1234 (default: from the cassette host)',
    )
    .action(async (options) => {
      exitCode = await exportCommand(options, io);
    });

  program
    .command('policy')
    .description('Inspect the permission policy.')
    .command('check')
    .description(
      'Explain how a command (or, with a file tool, a path) is decided: JSON on stdout, exit 0 whatever the verdict.',
    )
    .argument('[command...]', 'the command to check, after --')
    .option(
      '--batch <file>',
      'JSON lines of checks ({tool, command|path, mode?, taintedBy?, id?}; - for stdin): one verdict per line out',
    )
    .option(
      '-c, --config <file|name>',
      'harness configuration: a file or a name, as run -c (default: configs/default.json)',
    )
    .option('--tool <name>', 'bash (default) or a built-in file tool, whose operand is a path', 'bash')
    .option('-w, --workspace <dir>', 'the workspace paths are resolved in (default: the current folder)')
    .option('--tainted-by <tool>', 'decide as if content of this untrusted tool had entered the context')
    .action(async (words: string[], options) => {
      exitCode = await policyCheckCommand(words, options, io);
    });

  program
    .command('fuzz')
    .description(
      'Fuzz the harness with generated model turn streams (broken arguments, unknown tools, duplicate ids, split streams, budgets, loops, injection); every invariant is checked on every run.',
    )
    .addOption(
      new Option('--runs <n>', 'generated runs in all, split over the families')
        .default('6000')
        .argParser(positiveInt),
    )
    .option('--seed <n>', 'fast-check seed (printed on every run; replays a failure)')
    .option(
      '--family <name>',
      'only this family (repeatable): arguments, calls, budgets, loops, stream, mixed',
      collect,
    )
    .option(
      '--save-counterexample <dir>',
      'write the shrunk failing case as a scenario file into this folder',
    )
    .option('-c, --config <file>', 'harness configuration (default: configs/default.json)')
    .option('--replay <file>', 'run a saved .case.json again and check every invariant')
    .action(async (options) => {
      exitCode = await fuzzCommand(options, io);
    });

  program
    .command('validate')
    .description(
      'Validate scenario, cassette and configuration files (exit 0 when all are valid, 2 otherwise).',
    )
    .argument('<files...>', 'files, folders (searched recursively) or globs to check')
    .addOption(maxFileSizeOption())
    .action(async (files: string[]) => {
      exitCode = await validateCommand(files, io);
    });

  addViewCommands(program, io, (code) => {
    exitCode = code;
  });

  for (const command of program.commands) command.addHelpText('after', EXIT_CODES_HELP);
  // Each command starts with the limit of its own --max-file-size (or none): main() runs many
  // times in one process in tests.
  program.hook('preAction', (_program, action) => {
    setMaxFileSize(action.opts().maxFileSize as string | undefined);
  });
  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      )
        return 0;
      return EXIT_CODES.userInput;
    }
    return reportError(error, io);
  } finally {
    // The limit is the command's: nothing after main() returns reads with it.
    setMaxFileSize(undefined);
  }
}

/** `--max-file-size SIZE`, on every command that reads scenarios, cassettes or configurations. */
function maxFileSizeOption(): Option {
  return new Option(
    '--max-file-size <size>',
    `largest input file read, e.g. 64MB (default: 8MB a scenario, 64MB a cassette, 1MB a configuration; env ${MAX_FILE_SIZE_ENV})`,
  );
}

function positiveInt(value: string): string {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('must be a positive integer');
  return value;
}
