/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * Waits for a state the test has made happen but a server learns of a moment later (a connection the
 * client closed, an answer cut short). If it never comes, the test fails on its timeout.
 */
export async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
