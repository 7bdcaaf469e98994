/**
 * The Tenant API credential's `name`, which the action node asks n8n for. (The Tenant Webhook API
 * credential's stays a literal: n8n's lint reads it to check that the trigger tests it.)
 */
export const TENANT_API_CREDENTIAL = 'tenantApi';
