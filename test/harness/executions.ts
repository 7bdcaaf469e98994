/**
 * Whole executions the way n8n's server starts and retries them, on workflows of any shape:
 *
 * - `startExecution`: a production webhook execution. n8n's webhook helpers put the trigger's output on
 *   the node execution stack (`prepareExecutionData`), and WorkflowRunner runs
 *   `new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(workflow)`;
 *   this does the same. Manual runs start from a start node with `WorkflowExecute.run()`.
 * - `retryExecution`: re-implements, kept minimal, the part of n8n's `ExecutionService.retry()`
 *   (packages/cli/src/executions/execution.service.ts, the same in 2.40.7 and 1.123.81) that decides
 *   what a retry runs: the failed execution's saved run data (node context included; a JSON round trip
 *   stands for the database), its error removed, the failed node's last task popped (so the node gets
 *   the same $runIndex), mode 'retry', a new execution id. "Retry with the currently saved workflow"
 *   (`loadWorkflow: true`) runs the current workflow and swaps the node objects on the stack by name.
 */
import { randomUUID } from 'crypto';

import { WorkflowExecute } from 'n8n-core';
import type { IConnections, INode, INodeExecutionData, IRun, IRunExecutionData, WorkflowExecuteMode } from 'n8n-workflow';
import { Workflow, createRunExecutionData } from 'n8n-workflow';

import type { Harness } from './engine';
import { executionData } from './engine';

export interface WorkflowSpec {
	id: string;
	nodes: INode[];
	connections: IConnections;
}

export interface Execution {
	executionId: string;
	mode: WorkflowExecuteMode;
	run: IRun;
	/** The run data as n8n saves it with the execution (what a retry starts from). */
	saved: IRunExecutionData;
}

function workflowOf(harness: Harness, spec: WorkflowSpec): Workflow {
	return new Workflow({
		id: spec.id,
		nodes: spec.nodes,
		connections: spec.connections,
		active: false,
		nodeTypes: harness.nodeTypes,
		settings: { executionOrder: 'v1' },
	});
}

async function execute(
	harness: Harness,
	workflow: Workflow,
	mode: WorkflowExecuteMode,
	runExecutionData: IRunExecutionData | undefined,
	startNode?: string,
): Promise<Execution> {
	const executionId = randomUUID();
	const additionalData = executionData(harness, mode, executionId, workflow);
	const run = runExecutionData
		? await new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(workflow)
		: await new WorkflowExecute(additionalData, mode).run({ workflow, startNode: workflow.getNode(startNode!)! });
	return { executionId, mode, run, saved: JSON.parse(JSON.stringify(run.data)) as IRunExecutionData };
}

/** A production delivery: `items` are what the trigger node's webhook() returned (`workflowData`). */
export async function startExecution(
	harness: Harness,
	spec: WorkflowSpec,
	trigger: string,
	items: INodeExecutionData[][],
	mode: WorkflowExecuteMode = 'webhook',
): Promise<Execution> {
	const workflow = workflowOf(harness, spec);
	const runExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node: workflow.getNode(trigger)!, data: { main: items }, source: null }] },
	});
	return await execute(harness, workflow, mode, runExecutionData);
}

/** A manual run from a start node (the editor's "Execute workflow"). */
export async function runManually(harness: Harness, spec: WorkflowSpec, startNode: string): Promise<Execution> {
	return await execute(harness, workflowOf(harness, spec), 'manual', undefined, startNode);
}

/** "Retry execution" of a failed execution; `currentWorkflow` = "with the currently saved workflow". */
export async function retryExecution(harness: Harness, original: WorkflowSpec, failed: Execution, currentWorkflow?: WorkflowSpec): Promise<Execution> {
	const data = JSON.parse(JSON.stringify(failed.saved)) as IRunExecutionData;
	const { lastNodeExecuted } = data.resultData;
	if (lastNodeExecuted) {
		delete data.resultData.error;
		const nodeRunData = data.resultData.runData?.[lastNodeExecuted];
		if (nodeRunData && nodeRunData.length > 0 && nodeRunData[nodeRunData.length - 1].error !== undefined) nodeRunData.pop();
	}
	const workflow = workflowOf(harness, currentWorkflow ?? original);
	if (currentWorkflow) {
		for (const stack of data.executionData!.nodeExecutionStack) {
			const node = workflow.getNode(stack.node.name);
			if (!node) throw new Error(`Could not find the node "${stack.node.name}" in workflow`);
			stack.node = node;
		}
	}
	return await execute(harness, workflow, 'retry', data);
}

/** The node's task data of its last run in an execution. */
export function lastRun(execution: Execution, node: string) {
	const runs = execution.run.data.resultData.runData[node] ?? [];
	return runs[runs.length - 1];
}
