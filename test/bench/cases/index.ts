/** Every bench case, in the order they run. A new case: one file in this folder and one line here. */
import type { BenchCase } from './types';
import { tokenCase } from './token';
import { meCase } from './me';
import { salesCase } from './sales';
import { checkoutCase } from './checkout';
import { chargebacksCase } from './chargebacks';
import { webhooksCase } from './webhooks';
import { webhooksClusterCase } from './webhooks-cluster';
import { eventsCase } from './events';
import { chargesCase } from './charges';
import { lookupsCase } from './lookups';
import { storeCase } from './store';
import { refundsCase } from './refunds';
import { meTracedCase, salesTracedCase } from './traced';

export const benchCases: BenchCase[] = [
  tokenCase,
  meCase,
  meTracedCase,
  salesCase,
  salesTracedCase,
  refundsCase,
  checkoutCase,
  chargebacksCase,
  webhooksCase,
  webhooksClusterCase,
  eventsCase,
  chargesCase,
  lookupsCase,
  storeCase,
];
