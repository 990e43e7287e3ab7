/**
 * multipart/form-data bodies, for the platform routes that ask for them (`RouteOptions.multipart`):
 * read whole (within the route's body limit) and handed over as a Buffer, parsed by the route. Any
 * other route answers such a body 415, as before.
 */
import type { FastifyInstance } from 'fastify';

export function addMultipartParser(app: FastifyInstance): void {
  if (app.hasContentTypeParser('multipart/form-data')) return;
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (req, body, done) => {
    const wanted = (req.routeOptions.config as { multipart?: boolean } | undefined)?.multipart === true;
    if (wanted) return done(null, body);
    const err = new Error(`Unsupported Media Type: multipart/form-data`) as Error & { statusCode: number };
    err.statusCode = 415;
    done(err, undefined);
  });
}
