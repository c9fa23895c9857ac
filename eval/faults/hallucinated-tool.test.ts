/** The hallucinated-tool faults are caught by the hallucinated-tool scenarios (`eval/faults/catalogue/hallucinated-tool.ts`). */
import { faultTests } from './fault-tests.ts';

faultTests('hallucinated-tool');
