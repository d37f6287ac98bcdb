// `conformance mock`: the bundled reference mock, owned by mock/main.ts.
export { mockHelp, runMock } from '../../mock/main.js';
