import type { IDataObject } from 'n8n-workflow';

import type { NextPage } from './readPage';
import { PaginationError } from './readPage';

/** Remembers where pagination has been, so an API that repeats itself stops us, not hangs us. */
export class PaginationGuard {
	private readonly seen = new Set<string>();
	private pages = 0;
	private previousFirstItem: string | undefined;

	constructor(private readonly maxPages: number) {}

	/** Called for every page fetched. */
	countPage(items: IDataObject[]): void {
		this.pages++;
		const first = items.length > 0 ? JSON.stringify(items[0]) : undefined;
		if (first !== undefined && first === this.previousFirstItem) {
			throw new PaginationError(
				`Pagination is not advancing: page ${this.pages} starts with the same record as the page before. If the API returns the whole list in one answer, set Pagination Style to None; otherwise set the pagination options to match the API.`,
			);
		}
		this.previousFirstItem = first;
	}

	/** Called before following a next page. */
	follow(next: NextPage): void {
		const key =
			next.kind === 'page'
				? `page:${next.page}`
				: `${next.kind}:${next.kind === 'cursor' ? next.cursor : next.url}`;
		if (this.seen.has(key)) {
			throw new PaginationError(
				`Pagination loops: the API returned the same ${next.kind === 'url' ? 'next-page URL' : next.kind} twice (after ${this.pages} pages)`,
			);
		}
		this.seen.add(key);
		if (this.pages >= this.maxPages) {
			throw new PaginationError(
				`Stopped after ${this.maxPages} pages without reaching the end of the listing. Raise "Max Pages" if the listing really is that long.`,
			);
		}
	}
}
