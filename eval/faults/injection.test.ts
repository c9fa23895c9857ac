/** The injection faults are caught by the injection scenarios (`eval/faults/catalogue/injection.ts`). */
import { faultTests } from './fault-tests.ts';

faultTests('injection');
