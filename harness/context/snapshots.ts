/**
 * The message lists of the requests of a run, without a copy of the history per request. A
 * request's `messages` is the first `length` messages of the working history (then the reminder),
 * read from the history itself when first asked for, and kept from then on. Until then the
 * request holds a view: the history only grows between two rewrites, so its prefix is what was
 * sent. Before anything rewrites the history in place (a layer, a repair) and when the run ends,
 * {@link RequestSnapshots.seal} gives the views still open one frozen copy of the history (one
 * copy for all of them). So a run of N turns copies no history per turn and holds O(N) of
 * request memory instead of O(N²); a request reads exactly as it was sent, whenever it is read.
 */
import type { ChatMessage, ModelRequest, UserMessage } from '../model/types.ts';

/** What a view needs to become the list. */
interface View {
  base: readonly ChatMessage[];
  length: number;
  tail: UserMessage | undefined;
  list: ChatMessage[] | undefined;
}

function materialize(view: View): ChatMessage[] {
  if (!view.list) {
    const list = view.base.slice(0, view.length);
    if (view.tail) list.push(view.tail);
    view.list = list;
  }
  return view.list;
}

/** Where a request keeps its view: a non-enumerable own property (invisible to JSON, spreads and deep equality). */
const VIEW = Symbol('requestView');

type ViewRequest = ModelRequest & { [VIEW]: View };

/**
 * The `messages` accessor of every view request: one getter and one setter shared by all of
 * them (so a request costs no closures and no property dictionary of its own), reading the view
 * from the request.
 */
const MESSAGES: PropertyDescriptor = {
  get(this: ViewRequest): ChatMessage[] {
    return materialize(this[VIEW]);
  },
  set(this: ViewRequest, list: ChatMessage[]) {
    this[VIEW].list = list;
  },
  enumerable: true,
  configurable: true,
};

/** The views of one run's requests. */
export class RequestSnapshots {
  private open: View[] = [];

  /**
   * A request whose `messages` are `history`'s first `history.length` messages and then `tail`:
   * `fields` in their order, `messages` second after `model` (as a request is written out). The
   * list is an ordinary array once read; assigning `messages` replaces it. `messages` is an own
   * enumerable accessor, so JSON, spreads and deep equality see the list.
   */
  request(
    model: string,
    history: readonly ChatMessage[],
    tail: UserMessage | undefined,
    fields: Omit<ModelRequest, 'model' | 'messages'>,
  ): ModelRequest {
    const view: View = { base: history, length: history.length, tail, list: undefined };
    this.open.push(view);
    const request = { model } as ViewRequest;
    Object.defineProperty(request, 'messages', MESSAGES);
    Object.defineProperty(request, VIEW, { value: view });
    return Object.assign(request, fields);
  }

  /** `history` is about to change other than by appending (or the run ends): the open views get a frozen copy of it. */
  seal(history: readonly ChatMessage[]): void {
    let frozen: ChatMessage[] | undefined;
    for (const view of this.open)
      if (!view.list && view.base === history) view.base = frozen ??= history.slice();
    this.open = [];
  }
}
