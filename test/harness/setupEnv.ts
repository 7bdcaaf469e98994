/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
// n8n-core's InstanceSettings writes to the user folder; keep that out of the developer's home, in a
// folder of each test file's own that goes when the file's tests are done.
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

if (!process.env.N8N_USER_FOLDER) {
	const userFolder = mkdtempSync(join(tmpdir(), 'tenant-api-n8n-'));
	process.env.N8N_USER_FOLDER = userFolder;
	afterAll(() => rmSync(userFolder, { recursive: true, force: true }));
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
process.env.N8N_LOG_LEVEL ??= 'silent';
