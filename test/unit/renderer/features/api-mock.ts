// The mocked `renderer/api/index.ts` for view tests: a FakeApi in place of the real client.
import { FakeApi } from '../fake-api.js';

export const fakeApi = new FakeApi();
