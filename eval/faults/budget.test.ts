/** The budget faults are caught by the budget scenarios (`eval/faults/catalogue/budget.ts`). */
import { faultTests } from './fault-tests.ts';

faultTests('budget');
