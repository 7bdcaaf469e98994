/**
 * The mutant check (`npm run mutants`) is only as good as its defects: each must still patch the product, its text
 * found exactly once in the file it names, or the check would stop at a refactor instead of catching the defect.
 */
import { DEFECTS, patchedFile } from '../property/defects';

describe.each(DEFECTS.map((defect) => [defect.name, defect] as const))('deliberate defect: %s', (_name, defect) => {
	it.each([...new Set(defect.patches.map((patch) => patch.file))])('applies to %s', (file) => {
		expect(() => patchedFile(defect, file)).not.toThrow();
	});
});
