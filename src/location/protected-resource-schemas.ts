import * as z from '../platform/zod-mini.ts';

/**
 * RFC 9728 protected resource metadata for the one protected operation (POST /api/location).
 * There is no authorization server: the owner's token is provisioned by hand, so
 * `authorization_servers` (and `scopes_supported`) are left out, as §3.2 asks of empty members.
 */
export const ProtectedResourceMetadataSchema = z
  .strictObject({
    resource: z.url().check(z.describe('The resource identifier: the site origin (`SITE_URL`).')),
    bearer_methods_supported: z
      .array(z.enum(['header', 'body', 'query']))
      .check(z.describe('The token is accepted in the `Authorization` header only.')),
    resource_name: z.string(),
    resource_documentation: z.url(),
  })
  .check(
    z.meta({
      id: 'ProtectedResourceMetadata',
      description:
        'RFC 9728 metadata. No `authorization_servers`: tokens cannot be obtained, only provisioned by the owner.',
    }),
  );

export type ProtectedResourceMetadata = z.output<typeof ProtectedResourceMetadataSchema>;
