import { checkTenantId, MAX_TENANT_ID_LENGTH } from '../../nodes/TenantApi/transport/tenantId';

describe('checkTenantId', () => {
	it('accepts an empty or ordinary Tenant ID', () => {
		expect(() => checkTenantId('')).not.toThrow();
		expect(() => checkTenantId(undefined)).not.toThrow();
		expect(() => checkTenantId('tenant_demo 42')).not.toThrow();
		expect(() => checkTenantId('x'.repeat(MAX_TENANT_ID_LENGTH))).not.toThrow();
	});

	it('refuses one too long or with characters a header cannot carry', () => {
		expect(() => checkTenantId('x'.repeat(MAX_TENANT_ID_LENGTH + 1))).toThrow(/at most 1024/);
		expect(() => checkTenantId('tenant\r\nX-Evil: 1')).toThrow(/printable ASCII/);
		expect(() => checkTenantId('tenant_é')).toThrow(/printable ASCII/);
	});
});
