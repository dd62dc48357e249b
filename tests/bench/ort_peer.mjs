// ort_peer.mjs — the ONNX Runtime Web peer of attn_bench (impl "ort-wasm"): onnxruntime-web's WebAssembly execution
// provider (SIMD binary, one thread, default graph optimisations) running the graph
//   Z = MatMul(Softmax(Mul(MatMul(Q, Transpose(K)), 1/√d_k), axis −1), V)
// on the same inputs as the others. tfjs_peer.mjs loads it when onnxruntime-web is installed and interleaves its
// repetitions with tfjs's and ours. The ONNX model is encoded here, field by field (onnx.proto3), one per shape, so
// ORT sees fixed dimensions and may fuse what it likes (it turns MatMul + Mul into one FusedMatMul).
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// ---- a minimal protobuf writer: varints, length-delimited fields, packed floats ---------------------------
function varint(x) {
  const out = [];
  let v = BigInt(x);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return out;
}
const key = (field, wire) => varint((field << 3) | wire);
const intField = (field, x) => [...key(field, 0), ...varint(x)];
const bytesField = (field, bytes) => [...key(field, 2), ...varint(bytes.length), ...bytes];
const strField = (field, s) => bytesField(field, [...new TextEncoder().encode(s)]);

const FLOAT = 1; // TensorProto.DataType.FLOAT
const ATTR_INT = 2, ATTR_INTS = 7; // AttributeProto.AttributeType

// ValueInfoProto { name = 1, type = 2 { tensor_type = 1 { elem_type = 1, shape = 2 { dim = 1 { dim_value = 1 } } } } }
function valueInfo(name, dims) {
  const shape = dims.flatMap((d) => bytesField(1, intField(1, d)));
  return [...strField(1, name), ...bytesField(2, bytesField(1, [...intField(1, FLOAT), ...bytesField(2, shape)]))];
}

// NodeProto { input = 1, output = 2, name = 3, op_type = 4, attribute = 5 }
function node(op, inputs, outputs, attributes = []) {
  return [...inputs.flatMap((s) => strField(1, s)), ...outputs.flatMap((s) => strField(2, s)), ...strField(3, outputs[0]),
          ...strField(4, op), ...attributes.flatMap((a) => bytesField(5, a))];
}

// The attention graph for Q, K, V of n×d, as the bytes of a ModelProto (IR version 8, opset 17).
export function attentionModel(n, d) {
  const perm = [...strField(1, 'perm'), ...bytesField(8, [1, 0].flatMap((x) => varint(x))), ...intField(20, ATTR_INTS)];
  const axis = [...strField(1, 'axis'), ...intField(3, 2n ** 64n - 1n), ...intField(20, ATTR_INT)]; // −1 as int64
  // TensorProto { data_type = 2, name = 8, raw_data = 9 }: the scalar 1/√d_k (no dims), little-endian float bytes.
  const alphaBytes = [...new Uint8Array(new Float32Array([1 / Math.sqrt(d)]).buffer)];
  const alpha = [...intField(2, FLOAT), ...strField(8, 'alpha'), ...bytesField(9, alphaBytes)];
  const graph = [
    ...bytesField(1, node('Transpose', ['K'], ['Kt'], [perm])),
    ...bytesField(1, node('MatMul', ['Q', 'Kt'], ['S'])),
    ...bytesField(1, node('Mul', ['S', 'alpha'], ['Ss'])),
    ...bytesField(1, node('Softmax', ['Ss'], ['P'], [axis])),
    ...bytesField(1, node('MatMul', ['P', 'V'], ['Z'])),
    ...strField(2, 'attention'),
    ...bytesField(5, alpha),
    ...['Q', 'K', 'V'].flatMap((name) => bytesField(11, valueInfo(name, [n, d]))),
    ...bytesField(12, valueInfo('Z', [n, d])),
  ];
  // ModelProto { ir_version = 1, graph = 7, opset_import = 8 { domain = 1, version = 2 } }
  const model = [...intField(1, 8), ...bytesField(7, graph), ...bytesField(8, [...strField(1, ''), ...intField(2, 17)])];
  return new Uint8Array(model);
}

// The peer: { name, setup, run (returns a Promise: ORT's API is asynchronous), output, teardown }.
export async function makeOrtPeer() {
  const require = createRequire(import.meta.url);
  const dist = path.dirname(require.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm'));
  const ort = await import(pathToFileURL(path.join(dist, 'ort.node.min.mjs')).href);
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  ort.env.wasm.proxy = false;
  ort.env.wasm.wasmPaths = dist + path.sep;
  ort.env.logLevel = 'error';
  return {
    name: 'ort-wasm',
    version: ort.env.versions?.web ?? '',
    async setup(n, d, inp) {
      this.session = await ort.InferenceSession.create(attentionModel(n, d), {
        executionProviders: ['wasm'], graphOptimizationLevel: 'all', intraOpNumThreads: 1, interOpNumThreads: 1,
      });
      this.feeds = { Q: new ort.Tensor('float32', inp.Q, [n, d]), K: new ort.Tensor('float32', inp.K, [n, d]),
                     V: new ort.Tensor('float32', inp.V, [n, d]) };
    },
    async run() { (await this.session.run(this.feeds)).Z.dispose(); },
    async output() {
      const z = (await this.session.run(this.feeds)).Z;
      const out = (await z.getData()).slice();
      z.dispose();
      return out;
    },
    async teardown() { await this.session.release(); },
  };
}
