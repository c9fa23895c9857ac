/** The context faults are caught by the context scenarios (`eval/faults/catalogue/context.ts`). */
import { faultTests } from './fault-tests.ts';

faultTests('context');
