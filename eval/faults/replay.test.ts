/** The replay faults are caught by the replay scenarios and cassettes (`eval/faults/catalogue/replay.ts`). */
import { faultTests } from './fault-tests.ts';

faultTests('replay');
