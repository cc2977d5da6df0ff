import { CREATE_TAG_EXAMPLE } from '../src/behaviour-tags/behaviour-tag-api-examples';
import { CREATE_EXAMPLE, FLOW_CTA_ID, FLOW_USER_ID } from '../src/api-docs/flow-examples';
import { DELTA_EXAMPLE } from '../src/sdk/sdk-api-examples';
import { sdkHeaders } from './fixtures';
import { CONSOLE_OPERATOR, startConsoleApp } from './console-examples';
import { eachDatabase, TestApp } from './harness';

type Json = Record<string, any>;

/**
 * The support tools' examples in the admin console do what they show: on an empty database, after
 * the console's flow (the example CTA, its tag, go live, a launch with the device's state), the
 * explain example and both simulate examples answer exactly the documented responses.
 */
eachDatabase('The support tools in the admin console', (database) => {
  let api: TestApp;
  let document: Json;

  beforeAll(async () => {
    ({ api, document } = await startConsoleApp(database));
    expect((await api.post('/engine/ctas', CREATE_EXAMPLE, CONSOLE_OPERATOR)).body).toEqual({ data: FLOW_CTA_ID });
    expect((await api.post('/engine/behaviour-tags', CREATE_TAG_EXAMPLE, CONSOLE_OPERATOR)).status).toBe(200);
    expect((await api.put(`/engine/ctas/${FLOW_CTA_ID}/live`)).status).toBe(200);
    expect((await api.post('/cta/active/state-machines', DELTA_EXAMPLE, sdkHeaders('default', FLOW_USER_ID))).status).toBe(200);
  });
  afterAll(() => api.close());

  it('explain: the path example names the flow user, and the answer is the documented one', async () => {
    const operation = document.paths['/engine/app-users/{userId}/launch'].get;
    const userId = operation.parameters.find((parameter: Json) => parameter.name === 'userId').schema.example;
    const res = await api.get(`/engine/app-users/${userId}/launch?appVersion=5.2.0&packageName=com.example.app&hotpatchVersion=v7`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(operation.responses['200'].content['application/json'].schema.example);
  });

  it('simulate: each body example answers its documented response', async () => {
    const operation = document.paths['/engine/ctas/simulate'].post;
    const bodies = operation.requestBody.content['application/json'].examples as Json;
    const answers = operation.responses['200'].content['application/json'].examples as Json;
    expect(Object.keys(bodies)).toEqual(Object.keys(answers));
    for (const [name, example] of Object.entries(bodies)) {
      const res = await api.post('/engine/ctas/simulate', example.value);
      expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 200, body: answers[name].value });
    }
  });
});
