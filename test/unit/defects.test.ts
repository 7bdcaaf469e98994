/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test reads the product's sources: fs */
/**
 * The mutant check (`npm run mutants`) is only as good as its defects: each must still patch the product, its text
 * found exactly once in the file it names, or the check would stop at a refactor instead of catching the defect.
 */
import { readFileSync } from 'fs';

import { DEFECTS, patched } from '../property/defects';

describe.each(DEFECTS.map((defect) => [defect.name, defect] as const))(
	'deliberate defect: %s',
	(_name, defect) => {
		it.each([...new Set(defect.patches.map((patch) => patch.file))])('applies to %s', (file) => {
			const source = readFileSync(file, 'utf8');
			expect(patched(defect, file, source)).not.toBe(source);
		});
	},
);
