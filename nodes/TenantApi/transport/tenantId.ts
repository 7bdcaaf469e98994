/**
 * The Tenant ID goes out as the `x-tenant-id` header on every request. Servers refuse oversized or
 * malformed header values with answers that point elsewhere (400 "check the body", 431, a reset
 * connection), so it is checked before anything is sent.
 */

export const MAX_TENANT_ID_LENGTH = 1024;

export function checkTenantId(value: unknown): void {
	if (value === undefined || value === null || value === '') return;
	if (typeof value !== 'string')
		throw new Error(`The credential's Tenant ID must be text, not ${typeof value}`);
	if (value.length > MAX_TENANT_ID_LENGTH) {
		throw new Error(
			`The credential's Tenant ID is ${value.length} characters long; at most ${MAX_TENANT_ID_LENGTH} are sent (it travels as the x-tenant-id header)`,
		);
	}
	if (!/^[\x20-\x7e]*$/.test(value)) {
		throw new Error(
			"The credential's Tenant ID may only contain printable ASCII characters (it travels as the x-tenant-id header)",
		);
	}
}
