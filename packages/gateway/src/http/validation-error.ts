/**
 * What a failed body schema (Fastify's `error.validation`, Ajv errors) is answered with: the
 * field as `param` (`messages[0].role`) and a message that names it and what was expected.
 */

interface AjvIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
  parentSchema?: { description?: unknown };
}

/** `/messages/0/role` -> `messages[0].role` (the property a `required` error misses appended). */
function paramOf(issue: AjvIssue): string {
  const parts = issue.instancePath.split('/').slice(1);
  const missing = issue.keyword === 'required' ? issue.params.missingProperty : undefined;
  if (typeof missing === 'string') parts.push(missing);
  let param = '';
  for (const raw of parts) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    param += /^\d+$/.test(part) ? `[${part}]` : param === '' ? part : `.${part}`;
  }
  return param;
}

function expected(issue: AjvIssue): string {
  const description = issue.parentSchema?.description;
  if (issue.keyword === 'anyOf' && typeof description === 'string') return description;
  if (issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues)) {
    return `expected one of ${issue.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (issue.keyword === 'required') return 'required';
  return issue.message ?? 'invalid';
}

/** The message and param of a schema failure (the first `anyOf` failure wins over its branches'). */
export function describeValidation(issues: readonly unknown[]): { message: string; param: string | null } {
  const list = issues as readonly AjvIssue[];
  const issue = list.find((i) => i.keyword === 'anyOf') ?? list[0];
  if (issue === undefined) return { message: 'the request body is not valid', param: null };
  const param = paramOf(issue);
  return { message: `${param || 'body'}: ${expected(issue)}`, param: param || null };
}
