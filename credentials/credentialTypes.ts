/**
 * The Tenant API credential type's name: the credential's `name`, and what the action node asks n8n
 * for. (The Tenant Webhook API credential keeps its name a literal: n8n's lint reads it there to
 * check that the trigger tests it.)
 */
export const TENANT_API_CREDENTIAL = 'tenantApi';
