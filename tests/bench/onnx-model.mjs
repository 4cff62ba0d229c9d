// Builds small ONNX models of scaled dot-product attention for onnxruntime-web, encoded
// with protobufjs from a subset of onnx.proto3 (field numbers as in onnx/onnx.proto3).
//
//   attentionModel({ heads, n, dh, causal, form })  -> Uint8Array (a serialized ModelProto)
//
// form 'ops':  per-head tensors [h, n, d_h]:
//                S = FusedMatMul(Q, K; transB = 1, alpha = 1/√d_h)   (com.microsoft: no Transpose node)
//                S = S + mask (causal only, input [n, n] of 0 / −∞)
//                O = MatMul(Softmax(S, axis = −1), V)
// form 'mha':  com.microsoft MultiHeadAttention on [1, n, h·d_h] (one fused contrib op),
//              causal through an additive attention_bias [1, 1, n, n].
// form 'attention': the standard ONNX Attention op (opset 23) on [1, h, n, d_h] with
//              is_causal and scale = 1/√d_h (what onnxruntime-node runs natively).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');
const require = createRequire(join(web, 'package.json'));
const protobuf = require('protobufjs');

const FLOAT = 1;
const ATTR = { FLOAT: 1, INT: 2, INTS: 7 };

const root = protobuf.Root.fromJSON({
  nested: {
    onnx: {
      nested: {
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            ints: { rule: 'repeated', type: 'int64', id: 8 },
            type: { type: 'int32', id: 20 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            opType: { type: 'string', id: 4 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
            domain: { type: 'string', id: 7 },
          },
        },
        Dimension: { fields: { dimValue: { type: 'int64', id: 1 }, dimParam: { type: 'string', id: 2 } } },
        TensorShapeProto: { fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } } },
        TensorTypeProto: { fields: { elemType: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } } },
        TypeProto: { fields: { tensorType: { type: 'TensorTypeProto', id: 1 } } },
        ValueInfoProto: { fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 } } },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
          },
        },
        ModelProto: {
          fields: {
            irVersion: { type: 'int64', id: 1 },
            producerName: { type: 'string', id: 2 },
            graph: { type: 'GraphProto', id: 7 },
            opsetImport: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
          },
        },
      },
    },
  },
});
const ModelProto = root.lookupType('onnx.ModelProto');

const tensor = (name, dims) => ({
  name,
  type: { tensorType: { elemType: FLOAT, shape: { dim: dims.map((d) => ({ dimValue: d })) } } },
});
const node = (opType, input, output, attribute = [], domain = '') => ({ opType, input, output, attribute, domain, name: output[0] });
const fAttr = (name, f) => ({ name, f, type: ATTR.FLOAT });
const iAttr = (name, i) => ({ name, i, type: ATTR.INT });

export function attentionModel({ heads, n, dh, causal, form = 'ops' }) {
  const scale = 1 / Math.sqrt(dh);
  let inputs, nodes;
  if (form === 'attention') {
    const shape = [1, heads, n, dh];
    inputs = [tensor('Q', shape), tensor('K', shape), tensor('V', shape)];
    nodes = [node('Attention', ['Q', 'K', 'V'], ['O'], [iAttr('is_causal', causal ? 1 : 0), fAttr('scale', scale)])];
    return encode(inputs, nodes, tensor('O', shape), { irVersion: 11, opset: 23 });
  }
  if (form === 'mha') {
    const shape = [1, n, heads * dh];
    inputs = [tensor('Q', shape), tensor('K', shape), tensor('V', shape)];
    const mhaInputs = ['Q', 'K', 'V'];
    if (causal) {
      inputs.push(tensor('mask', [1, 1, n, n]));
      // inputs: query, key, value, bias, key_padding_mask, attention_bias
      mhaInputs.push('', '', 'mask');
    }
    nodes = [node('MultiHeadAttention', mhaInputs, ['O'], [iAttr('num_heads', heads), fAttr('scale', scale)], 'com.microsoft')];
    return encode(inputs, nodes, tensor('O', shape));
  }
  const shape = [heads, n, dh];
  inputs = [tensor('Q', shape), tensor('K', shape), tensor('V', shape)];
  nodes = [node('FusedMatMul', ['Q', 'K'], ['S'], [iAttr('transB', 1), fAttr('alpha', scale)], 'com.microsoft')];
  let logits = 'S';
  if (causal) {
    inputs.push(tensor('mask', [n, n]));
    nodes.push(node('Add', ['S', 'mask'], ['Sm']));
    logits = 'Sm';
  }
  nodes.push(node('Softmax', [logits], ['P'], [iAttr('axis', -1)]));
  nodes.push(node('MatMul', ['P', 'V'], ['O']));
  return encode(inputs, nodes, tensor('O', shape));
}

function encode(inputs, nodes, output, { irVersion = 8, opset = 17 } = {}) {
  const model = {
    irVersion,
    producerName: 'attention-explorable benchmark',
    opsetImport: [{ domain: '', version: opset }, { domain: 'com.microsoft', version: 1 }],
    graph: { name: 'attention', node: nodes, input: inputs, output: [output] },
  };
  const err = ModelProto.verify(model);
  if (err) throw new Error(`ONNX model: ${err}`);
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
}
