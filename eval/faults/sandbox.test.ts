/** The sandbox faults are caught by the sandbox scenarios (`eval/faults/catalogue/sandbox.ts`). */
import { faultTests } from './fault-tests.ts';

faultTests('sandbox');
