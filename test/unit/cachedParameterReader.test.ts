import type { IExecuteFunctions } from 'n8n-workflow';

import { cachedParameterReader } from '../../nodes/TenantApi/actions/common/cachedParameterReader';

/** Just what cachedParameterReader uses of the execute context: the node's raw parameters and the reads. */
function context(parameters: Record<string, unknown>) {
	const reads: Array<[string, number]> = [];
	const fn = {
		getNode: () => ({ parameters }),
		getNodeParameter: (path: string, itemIndex: number) => {
			reads.push([path, itemIndex]);
			return `${path}@${itemIndex}`;
		},
	} as unknown as IExecuteFunctions;
	return { fn, reads };
}

describe('cachedParameterReader', () => {
	it('reads an expression for every item', () => {
		const { fn, reads } = context({ endpoint: '={{ "/t/" + $json.id }}' });
		const endpointOf = cachedParameterReader(fn, 'endpoint', '');
		expect([0, 1, 2].map(endpointOf)).toEqual(['endpoint@0', 'endpoint@1', 'endpoint@2']);
		expect(reads).toHaveLength(3);
	});

	it('reads a fixed value once, for the first item that asks, also inside a collection', () => {
		const { fn, reads } = context({ endpoint: '/transfers', options: { includeMetadata: true } });
		const endpointOf = cachedParameterReader(fn, 'endpoint', '');
		const metadataOf = cachedParameterReader(fn, 'options.includeMetadata', false);
		expect(reads).toHaveLength(0);
		expect([3, 4, 5].map(endpointOf)).toEqual(['endpoint@3', 'endpoint@3', 'endpoint@3']);
		expect([0, 1].map(metadataOf)).toEqual(['options.includeMetadata@0', 'options.includeMetadata@0']);
		expect(reads).toEqual([
			['endpoint', 3],
			['options.includeMetadata', 0],
		]);
	});

	it('an option that is not set is read once too (n8n gives the fallback)', () => {
		const { fn, reads } = context({ options: {} });
		const of = cachedParameterReader(fn, 'options.includeMetadata', false);
		of(0);
		of(1);
		expect(reads).toHaveLength(1);
	});
});
