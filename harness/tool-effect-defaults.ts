/**
 * The default `replay.toolEffects` of the configuration (`config.ts`): how a recorded tool of
 * another harness is classed for the permission policy when no sidecar or configuration rule
 * says otherwise (`eval/replay/tool-effects.ts` matches these globs against the tool name in
 * snake_case and each of its word suffixes).
 */
import type { EffectClass } from './tools/types.ts';

/**
 * The default effect classes of recorded tools, by the verb their name starts a word with:
 * deleting, sending, paying and running code are `irreversible`; creating, saving, updating and
 * the like are `write`; getting, reading, listing, searching and the like are `read`, as is
 * pydantic-ai's output tool `final_result` (https://ai.pydantic.dev/output/#tool-output).
 * Anything else is unknown (`replay.unknownToolEffect`, default `write`).
 */
export const DEFAULT_TOOL_EFFECTS: { pattern: string; effect: EffectClass }[] = [
  {
    pattern:
      '{delete,remove,drop,destroy,purge,erase,wipe,truncate,unlink,kill,terminate,revoke,send,email,publish,deploy,transfer,pay,refund,charge,execute,exec,shell,bash,terminal}{,_*}',
    effect: 'irreversible',
  },
  {
    pattern:
      '{write,create,save,update,insert,upsert,set,put,patch,edit,modify,move,rename,copy,append,add,upload,store,post,submit,commit,apply,register,book,schedule,enable,disable,install,replace,delegate}{,_*}',
    effect: 'write',
  },
  {
    pattern:
      '{get,read,list,search,fetch,find,lookup,query,describe,show,view,count,check,inspect,retrieve,browse,ask,final_result}{,_*}',
    effect: 'read',
  },
];
