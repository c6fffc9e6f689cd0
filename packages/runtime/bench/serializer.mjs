// node bench/serializer.mjs: what client-node's ObjectSerializer costs a pod status body, against plain JSON (see README, "Objects on the wire").
// Reads the serializer by a deep import of client-node's dist (the bench only).
// µs per pod status write body: client-node's ObjectSerializer (serialize + stringify, parse + deserialize) against plain JSON.
import { ObjectSerializer } from '@kubernetes/client-node/dist/serializer.js';

const now = new Date();
const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'p-1',
    namespace: 'bench',
    uid: 'a-b-c',
    resourceVersion: '123',
    creationTimestamp: now,
    labels: { app: 'x' },
  },
  spec: {
    nodeName: 'vk',
    containers: [{ name: 'c', image: 'nginx', resources: {} }],
    tolerations: [{ key: 'a', operator: 'Exists' }],
  },
  status: {
    phase: 'Running',
    hostIP: '1.2.3.4',
    podIP: '5.6.7.8',
    startTime: now,
    conditions: [
      { type: 'Ready', status: 'True', lastTransitionTime: now },
      { type: 'Initialized', status: 'True' },
    ],
    containerStatuses: [
      {
        name: 'c',
        image: 'nginx',
        imageID: '',
        ready: true,
        restartCount: 0,
        state: { running: { startedAt: now } },
      },
    ],
  },
};
const wire = JSON.parse(JSON.stringify(pod));
const text = JSON.stringify(wire);
function time(label, fn) {
  for (let i = 0; i < 2000; i++) fn();
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    const n = 20000;
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    rounds.push(Number(process.hrtime.bigint() - t) / n / 1000);
  }
  rounds.sort((a, b) => a - b);
  console.log(`${label}: ${rounds[2].toFixed(2)} µs (median of 5; min ${rounds[0].toFixed(2)})`);
}
time('ObjectSerializer write (serialize V1Pod + JSON.stringify)', () =>
  JSON.stringify(ObjectSerializer.serialize(pod, 'V1Pod')),
);
time('plain JSON write (JSON.stringify)', () => JSON.stringify(wire));
time('ObjectSerializer read (JSON.parse + deserialize V1Pod)', () =>
  ObjectSerializer.deserialize(JSON.parse(text), 'V1Pod'),
);
time('plain JSON read (JSON.parse)', () => JSON.parse(text));
