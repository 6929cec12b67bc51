// Scenarios of the conformance suite that cannot apply to Hearth, each with the reason; the run
// lists them as n/a (and does not start them) instead of passing or failing them.
export const NOT_APPLICABLE = {
  server: {},
  client: {
    'auth/pre-registration':
      'Hearth signs in as a public client (PKCE, token_endpoint_auth_method "none"; oauth_client_id for a pre-registered one); a confidential client secret would have to live in a config file',
    'auth/client-credentials-jwt': 'extension (SEP-1046): machine-to-machine client_credentials with a private key; Hearth signs a person in with the authorization code flow',
    'auth/client-credentials-basic': 'extension (SEP-1046): machine-to-machine client_credentials with a client secret; Hearth signs a person in with the authorization code flow',
    'auth/cross-app-access-complete-flow': 'extension (SEP-990): enterprise IdP token exchange + JWT bearer grant; Hearth has no enterprise identity provider to exchange with',
  },
};
