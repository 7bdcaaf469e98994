import { clampWhole, wholeInRange } from '../../nodes/TenantApi/actions/common/numberOption';
import { acceptedMethod } from '../../nodes/TenantApi/actions/request/send.operation';
import { checkTenantId, MAX_TENANT_ID_LENGTH } from '../../nodes/TenantApi/transport/tenantId';

describe('acceptedMethod', () => {
	it('accepts any case and refuses other methods', () => {
		expect(acceptedMethod('post')).toBe('POST');
		expect(acceptedMethod(' Patch ')).toBe('PATCH');
		expect(() => acceptedMethod('TRACE')).toThrow('The Method must be one of DELETE, GET, PATCH, POST, PUT, not "TRACE"');
		expect(() => acceptedMethod(undefined)).toThrow(/not undefined/);
	});
});

describe('numbers from parameters', () => {
	it('clamps to the range and falls back on non-numbers', () => {
		expect(clampWhole(2000, 1, 10, 4)).toBe(10);
		expect(clampWhole(-3, 1, 64, 5)).toBe(1);
		expect(clampWhole('7', 1, 64, 5)).toBe(7);
		expect(clampWhole(2.9, 1, 64, 5)).toBe(2);
		expect(clampWhole('abc', 1, 64, 5)).toBe(5);
		expect(clampWhole(undefined, 1, 64, 5)).toBe(5);
		expect(clampWhole(Number.POSITIVE_INFINITY, 1, 64, 5)).toBe(5);
	});

	it('refuses what a guess would get wrong', () => {
		expect(wholeInRange(30000, 1, 2 ** 31 - 1, 'Timeout (Ms)')).toBe(30000);
		expect(() => wholeInRange(2 ** 31, 1, 2 ** 31 - 1, 'Timeout (Ms)')).toThrow('Timeout (Ms) must be a whole number from 1 to 2147483647, not 2147483648');
		expect(() => wholeInRange(0, 1, 10, 'X')).toThrow(/not 0/);
		expect(() => wholeInRange('soon', 1, 10, 'X')).toThrow(/not "soon"/);
	});
});

describe('checkTenantId', () => {
	it('accepts an empty or ordinary Tenant ID', () => {
		expect(() => checkTenantId('')).not.toThrow();
		expect(() => checkTenantId(undefined)).not.toThrow();
		expect(() => checkTenantId('tenant_demo 42')).not.toThrow();
		expect(() => checkTenantId('x'.repeat(MAX_TENANT_ID_LENGTH))).not.toThrow();
	});

	it('refuses one too long or with characters a header cannot carry', () => {
		expect(() => checkTenantId('x'.repeat(100 * 1024))).toThrow(
			"The credential's Tenant ID is 102400 characters long; at most 1024 are sent (it travels as the x-tenant-id header)",
		);
		expect(() => checkTenantId('tenant\r\nX-Evil: 1')).toThrow(/printable ASCII/);
		expect(() => checkTenantId('tenant_é')).toThrow(/printable ASCII/);
	});
});
