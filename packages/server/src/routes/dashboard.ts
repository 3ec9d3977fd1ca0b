import { Router } from '../vendor/koa.js';
import type { Middleware } from 'koa';
import { HttpError } from '@cadence-detect/errors';
import { dashboardAsset } from '../dashboard/dashboard-assets.js';
import { dashboardPage, loginPage } from '../dashboard/dashboard-pages.js';
import { SESSION_COOKIE, Sessions } from '../middleware/session.js';
import type { SessionRevocations } from '../middleware/session-revocations.js';
import { constantTimeEqual } from '@cadence-detect/forge-kit';
import type { RegisterRoutes } from './route-module.js';
import { sendPage } from './send-page.js';
import { bodyParser } from '../middleware/body.js';
import { pathParameter } from './path-parameter.js';

/**
 * The dashboard: `/`, and the token exchange. With an API token configured, `/` asks
 * for it once; POST /session trades it for an HttpOnly, SameSite=Strict session cookie that the
 * guarded routes accept (docs/http-api.md). The token never goes into a URL.
 */
function dashboardRoutes(
  router: Router,
  token: string | null,
  limit: Middleware,
  revocations: SessionRevocations,
  basePath = '',
): void {
  // The cookie goes back only to this server's paths (under its prefix, if it has one).
  const cookiePath = `${basePath}/`;
  const sessions = token ? new Sessions(token, revocations) : null;
  router.get('/', async (ctx) =>
    sendPage(
      ctx,
      sessions && !(await sessions.valid(Sessions.presented(ctx))) ? loginPage() : dashboardPage(sessions !== null),
    ),
  );
  assetRoutes(router);
  sessionRoutes(router, token, sessions, limit, cookiePath);
}

/**
 * POST /session trades the API token for a session cookie (only to this server's paths), and
 * DELETE /session ends the session itself.
 */
function sessionRoutes(
  router: Router,
  token: string | null,
  sessions: Sessions | null,
  limit: Middleware,
  cookiePath: string,
): void {
  const form = bodyParser({
    json: true,
    jsonStrict: true,
    urlencoded: true,
    text: false,
    multipart: false,
    jsonLimit: 4096,
    formLimit: 4096,
    onError: (error) => {
      throw error;
    },
  });
  router.post('/session', limit, form, (ctx) => {
    const given = (ctx.request.body as { token?: unknown } | undefined)?.token;
    const fromForm = ctx.is('application/x-www-form-urlencoded') !== false;
    if (sessions && token) {
      if (typeof given !== 'string' || !constantTimeEqual(given, token))
        throw new HttpError(401, 'unauthorized', 'That is not the API token');
      const { value, maxAge } = sessions.issue();
      ctx.cookies.set(SESSION_COOKIE, value, {
        httpOnly: true,
        sameSite: 'strict',
        path: cookiePath,
        maxAge: maxAge * 1000,
        secure: ctx.secure,
        overwrite: true,
      });
    }
    if (fromForm) {
      ctx.status = 303;
      ctx.redirect('./');
      return;
    }
    ctx.status = 204;
  });
  // Signing out ends the session itself, not only this browser's copy of the cookie.
  router.delete('/session', async (ctx) => {
    await sessions?.end(Sessions.presented(ctx));
    ctx.cookies.set(SESSION_COOKIE, '', {
      httpOnly: true,
      sameSite: 'strict',
      path: cookiePath,
      maxAge: 0,
      overwrite: true,
    });
    ctx.status = 204;
  });
}

/** The dashboard's scripts and styles, open like the sign-in page that needs them: nothing in them is secret. */
function assetRoutes(router: Router): void {
  router.get('/assets/:file', (ctx) => {
    const file = pathParameter(ctx, 'file');
    const asset = dashboardAsset(file);
    if (!asset) throw HttpError.notFound(`No asset ${file}`);
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = asset.type;
    ctx.etag = asset.etag;
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = asset.body;
  });
}

/** The dashboard's pages, on the open router: they ask for the token themselves. */
export const register: RegisterRoutes<'config' | 'backends' | 'guards'> = ({ open }, { config, backends, guards }) => {
  dashboardRoutes(open, config.api.token, guards.queryLimit, backends.sessionRevocations, config.server.base_path);
};
