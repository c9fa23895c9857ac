/** The loop faults are caught by the loop scenarios (`eval/faults/catalogue/loop.ts`). */
import { faultTests } from './fault-tests.ts';

faultTests('loop');
