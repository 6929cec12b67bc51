// Scenarios of the conformance suite that cannot apply to Hearth, each with the reason; the run
// lists them as n/a instead of passing or failing them.
export const NOT_APPLICABLE = {
  server: {},
  client: {},
};
