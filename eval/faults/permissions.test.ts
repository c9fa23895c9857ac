/** The permissions faults are caught by the permissions scenarios (`eval/faults/catalogue/permissions.ts`). */
import { faultTests } from './fault-tests.ts';

faultTests('permissions');
