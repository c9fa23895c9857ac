/** The bad-json faults are caught by the bad-json scenarios (`eval/faults/catalogue/bad-json.ts`). */
import { faultTests } from './fault-tests.ts';

faultTests('bad-json');
