/** Runs `task(0..count-1)` with at most `limit` in flight; results keep index order. */
export async function mapWithConcurrency<T>(
	count: number,
	limit: number,
	task: (index: number) => Promise<T>,
): Promise<T[]> {
	const results = new Array<T>(count);
	let nextIndex = 0;
	const worker = async () => {
		while (nextIndex < count) {
			const index = nextIndex++;
			results[index] = await task(index);
		}
	};
	const workers = Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker);
	await Promise.all(workers);
	return results;
}
