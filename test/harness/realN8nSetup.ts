/* Set-up of every project that starts a real n8n (jest.config.js): its per-test time limit. */
import { TEST_TIMEOUT_MS } from './realN8n';

jest.setTimeout(TEST_TIMEOUT_MS);
