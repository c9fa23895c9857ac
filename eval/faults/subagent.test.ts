/** The subagent faults are caught by the subagent scenarios (`eval/faults/catalogue/subagent.ts`). */
import { faultTests } from './fault-tests.ts';

faultTests('subagent');
