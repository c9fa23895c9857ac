/** The session faults are caught by the session scenarios (`eval/faults/catalogue/session.ts`). */
import { faultTests } from './fault-tests.ts';

faultTests('session');
