/**
 * The chat's status line on stderr: a spinner with what the harness is doing (waiting for the
 * model, running a tool) and the active todo (the `in_progress` item of the last `write_todos`
 * call), fed by harness events. It animates only on a terminal; elsewhere it stays silent and
 * only the per-call result lines are written.
 */
import type { HarnessEvent } from '../harness/events.ts';
import { activeTodo as activeForm, type Todo } from '../harness/memory/todos.ts';

/** Braille spinner frames. */
const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** What the status line shows. */
export interface ChatStatus {
  turn: number;
  activity: string;
  /** The active todo, when the model keeps a todo list. */
  todo?: string;
}

/** The status text: `turn 2 · running read_file · todo: fix the parser`. */
export function statusText(status: ChatStatus): string {
  return `turn ${status.turn} · ${status.activity}${status.todo ? ` · todo: ${status.todo}` : ''}`;
}

/**
 * What the model says it is doing: the `activeForm` of the `in_progress` item of a `write_todos`
 * arguments text (`{todos: [{content, activeForm, status}]}`), falling back to its `content`.
 */
export function activeTodo(argumentsText: string): string | undefined {
  try {
    const value = JSON.parse(argumentsText) as { todos?: Partial<Todo>[] };
    const todos = (value.todos ?? []).filter((t): t is Todo => typeof t?.content === 'string');
    const item = todos.find((t) => t.status === 'in_progress');
    return item
      ? typeof item.activeForm === 'string' && item.activeForm !== ''
        ? activeForm(todos)
        : item.content
      : undefined;
  } catch {
    return undefined;
  }
}

/** A status line driven by harness events. Call {@link StatusLine.stop} before writing anything else. */
export class StatusLine {
  readonly status: ChatStatus = { turn: 0, activity: 'starting' };
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private readonly calls = new Map<string, string>();

  /**
   * @param write where the line goes (stderr)
   * @param animate draw the spinner (a terminal); otherwise only call result lines are written
   */
  constructor(
    private readonly write: (text: string) => void,
    private readonly animate: boolean,
  ) {}

  /** Starts the spinner (no-op when not animating or already running). */
  start(): void {
    if (!this.animate || this.timer) return;
    this.timer = setInterval(() => this.draw(), 80);
    this.timer.unref?.();
    this.draw();
  }

  /** Stops the spinner and clears its line. */
  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.write('\r\u001b[K');
  }

  /** Updates the status from one harness event; writes a line per finished tool call. */
  onEvent(event: HarnessEvent): void {
    if (event.scope.length > 0) return;
    if (event.type === 'turn_start') {
      this.status.turn = event.turn;
      this.status.activity = event.wrapUp ? 'writing a summary' : 'waiting for the model';
    } else if (event.type === 'tool_call_start') {
      this.calls.set(
        event.callId,
        `${event.tool}(${event.arguments.length > 60 ? `${event.arguments.slice(0, 57)}...` : event.arguments})`,
      );
      this.status.activity = `running ${event.tool}`;
      if (event.tool === 'write_todos') this.status.todo = activeTodo(event.arguments) ?? this.status.todo;
    } else if (event.type === 'tool_call_end') {
      const running = Boolean(this.timer);
      this.stop();
      this.write(
        `  ${event.ok ? '✓' : '✗'} ${this.calls.get(event.callId) ?? event.tool}${event.ok ? '' : ` ${event.errorType}`}\n`,
      );
      if (running) this.start();
    }
    if (this.timer) this.draw();
  }

  private draw(): void {
    this.frame = (this.frame + 1) % SPINNER_FRAMES.length;
    this.write(`\r${SPINNER_FRAMES[this.frame]} ${statusText(this.status)}\u001b[K`);
  }
}
