/* The globalTeardown of the real-n8n projects in jest.config.js: their n8n stopped, its logs kept (sharedN8n.ts). */
import { release } from './sharedN8n';

export default async function (
	_: unknown,
	project: { displayName?: { name: string }; globals: { n8nVersion?: unknown } },
) {
	await release(String(project.globals.n8nVersion), project.displayName?.name ?? 'n8n');
}
