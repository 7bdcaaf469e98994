/**
 * Executions as n8n's server starts and retries them, for the engine tests of keys across executions
 * (test/engine/exactlyOnce.test.ts).
 *
 * What it rebuilds, and why: two pieces of n8n's server package (packages/cli, not a library the engine
 * tests can load without installing n8n), each only as far as the node's automatic keys depend on it.
 * - `startExecution`: a production webhook execution. n8n's webhook helpers put the trigger's output on
 *   the node execution stack (`prepareExecutionData`) and WorkflowRunner runs
 *   `new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(workflow)`.
 * - `retryExecution`: what `ExecutionService.retry()` (packages/cli/src/executions/execution.service.ts,
 *   the same in 2.40.7, 2.41.1 and 1.123.81) makes a retry run: the execution's saved data (its node context
 *   holds the keys' scope; a JSON round trip stands for the database), its error removed, the failed
 *   node's last task popped (so the node runs with the same $runIndex, part of the keys), mode 'retry', a
 *   new execution id; with "the currently saved workflow", the nodes on the stack swapped for the new
 *   workflow's by name (how a node deleted and added again, or a changed Body, gets the first keys).
 * Not rebuilt: the checks and bookkeeping around it (permissions, refused statuses, `retryOf`, the
 * database, queue mode). The real ones run in test/e2e/exactlyOnce.test.ts ("Retry execution" through
 * n8n's REST API, with the original and the saved workflow, a retry of a retry, redeliveries) and
 * test/queue (workers).
 */
import type {
	IConnections,
	INode,
	INodeExecutionData,
	IRun,
	IRunExecutionData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow, createRunExecutionData } from 'n8n-workflow';

import type { Harness } from './engine';
import { execute } from './engine';

export interface WorkflowSpec {
	id: string;
	nodes: INode[];
	connections: IConnections;
}

export interface Execution {
	executionId: string;
	mode: WorkflowExecuteMode;
	run: IRun;
	/** What n8n saves with the execution: the workflow it ran, and its run data (what a retry starts from). */
	workflow: WorkflowSpec;
	saved: IRunExecutionData;
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Runs `spec` from the node `start`, or from the run data `start` makes for its Workflow. */
async function executeSpec(
	harness: Harness,
	spec: WorkflowSpec,
	mode: WorkflowExecuteMode,
	start: string | ((workflow: Workflow) => IRunExecutionData),
): Promise<Execution> {
	const workflow = new Workflow({
		...spec,
		active: false,
		nodeTypes: harness.nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const { executionId, run } = await execute(
		harness,
		workflow,
		mode,
		typeof start === 'string' ? start : start(workflow),
	);
	return { executionId, mode, run, workflow: spec, saved: copy(run.data) };
}

/** A production delivery: `items` are what the trigger node's webhook() returned (`workflowData`). */
export async function startExecution(
	harness: Harness,
	spec: WorkflowSpec,
	trigger: string,
	items: INodeExecutionData[][],
	mode: WorkflowExecuteMode = 'webhook',
): Promise<Execution> {
	return await executeSpec(harness, spec, mode, (workflow) =>
		createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{ node: workflow.getNode(trigger)!, data: { main: items }, source: null },
				],
			},
		}),
	);
}

/** A manual run from a start node (the editor's "Execute workflow"): n8n-core's own WorkflowExecute.run(). */
export async function runManually(
	harness: Harness,
	spec: WorkflowSpec,
	startNode: string,
): Promise<Execution> {
	return await executeSpec(harness, spec, 'manual', startNode);
}

/** "Retry execution" of a failed execution: with its own workflow, or `currentWorkflow` ("with the currently saved workflow"). */
export async function retryExecution(
	harness: Harness,
	failed: Execution,
	currentWorkflow?: WorkflowSpec,
): Promise<Execution> {
	return await executeSpec(harness, currentWorkflow ?? failed.workflow, 'retry', (workflow) => {
		const data = copy(failed.saved);
		const { lastNodeExecuted } = data.resultData;
		if (lastNodeExecuted) {
			delete data.resultData.error;
			const tasks = data.resultData.runData[lastNodeExecuted] ?? [];
			if (tasks.length > 0 && tasks[tasks.length - 1].error !== undefined) tasks.pop();
		}
		if (currentWorkflow)
			for (const entry of data.executionData!.nodeExecutionStack)
				entry.node = workflow.getNode(entry.node.name)!;
		return data;
	});
}
