/**
 * `GET /v1/models` and `GET /v1/models/{id}`: the configured model, and `hermes` as an alias (the
 * chat and responses endpoints accept any `model` and answer with the configured one), in
 * OpenAI's list shape. Chat front-ends list models before they send anything. Guarded like every
 * /v1 route (Host, Origin, API key).
 */
import type { FastifyInstance } from 'fastify';
import { sendApiError } from '../../http/api-error.js';

/** The alias every client can name: it always means the configured model. */
export const MODEL_ALIAS = 'hermes';

export interface ModelObject {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

/** The models the gateway lists: the configured one, then the alias (once, if they differ). */
export function listedModels(model: string, created: number): ModelObject[] {
  const ids = model === MODEL_ALIAS ? [model] : [model, MODEL_ALIAS];
  return ids.map((id) => ({ id, object: 'model', created, owned_by: 'hermes' }));
}

/** Registers both routes; `created` is the gateway's start (seconds since the epoch). */
export function registerModelsRoutes(
  app: FastifyInstance,
  model: string,
  created = Math.floor(Date.now() / 1000),
): void {
  const options = { config: { guard: 'api' } };
  const models = listedModels(model, created);
  app.get('/v1/models', options, async () => ({ object: 'list', data: models }));
  // a wildcard: model ids may hold slashes (`openai/gpt-4o`)
  app.get<{ Params: { '*': string } }>('/v1/models/*', options, async (request, reply) => {
    const id = request.params['*'];
    const found = models.find((m) => m.id === id);
    if (found) return found;
    return sendApiError(
      reply,
      404,
      `The model '${id}' does not exist: this gateway serves ${models.map((m) => `'${m.id}'`).join(' and ')}`,
      'invalid_request_error',
      'model_not_found',
      'model',
    );
  });
}
