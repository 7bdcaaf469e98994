/* The globalSetup of the real-n8n projects in jest.config.js: their n8n, started once (sharedN8n.ts). */
import { acquire } from './sharedN8n';

export default async function (
	_: unknown,
	project: { displayName?: { name: string }; globals: { n8nVersion?: unknown } },
) {
	await acquire(String(project.globals.n8nVersion), project.displayName?.name ?? 'n8n');
}
