/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * A stand-in for OpenAI's /chat/completions on loopback, for n8n's OpenAI Chat Model node (v1.2). It records
 * every request (`tools`: what an agent's model is shown of each tool) and answers from a script: the tool
 * call scripted for the prompt, then a final answer that quotes the tool's result. Only that much of the API
 * is re-implemented; the agent, tool wrapping, $fromAI and the tool node's execution are n8n's own code.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatTool {
	type: 'function';
	function: {
		name: string;
		description: string;
		parameters: { properties?: Record<string, { type?: string }>; required?: string[] };
	};
}

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool';
	content: string | null | Array<{ type: string; text?: string }>;
	tool_call_id?: string;
}

export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	tools?: ChatTool[];
}

/** The tool call the model makes for a prompt that contains `whenPromptHas`. */
export interface ScriptedCall {
	whenPromptHas: string;
	tool: string;
	args: Record<string, unknown>;
}

export interface FakeChatModel {
	/** Base URL for the openAiApi credential's `url`. */
	url: string;
	requests: ChatRequest[];
	close(): Promise<void>;
}

export function textOf(message: ChatMessage): string {
	if (typeof message.content === 'string') return message.content;
	return (message.content ?? []).map((part) => part.text ?? '').join('');
}

function reply(request: ChatRequest, script: ScriptedCall[], id: number) {
	const toolResult = request.messages.find((m) => m.role === 'tool');
	const prompt = request.messages
		.filter((m) => m.role === 'user')
		.map(textOf)
		.join('\n');
	const scripted = script.find((s) => prompt.includes(s.whenPromptHas));
	const call = { name: scripted?.tool, arguments: JSON.stringify(scripted?.args) };
	const message =
		toolResult || !scripted
			? {
					role: 'assistant',
					content: `Tool result: ${toolResult ? textOf(toolResult) : '(no tool called)'}`,
				}
			: {
					role: 'assistant',
					content: null,
					tool_calls: [{ id: `call_${id}`, type: 'function', function: call }],
				};
	const finish_reason = 'tool_calls' in message ? 'tool_calls' : 'stop';
	return {
		id: `chatcmpl-${id}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: request.model,
		choices: [{ index: 0, message, logprobs: null, finish_reason }],
		usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
	};
}

export async function startFakeChatModel(script: ScriptedCall[]): Promise<FakeChatModel> {
	const requests: ChatRequest[] = [];
	const server = http.createServer(async (req, res) => {
		let body = '';
		for await (const chunk of req) body += chunk;
		if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end('{"error":{"message":"only POST /chat/completions"}}');
			return;
		}
		const request = JSON.parse(body) as ChatRequest;
		requests.push(request);
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify(reply(request, script, requests.length)));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
		requests,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
