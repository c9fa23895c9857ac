/** The transcript faults are caught by the transcript scenarios (`eval/faults/catalogue/transcript.ts`). */
import { faultTests } from './fault-tests.ts';

faultTests('transcript');
