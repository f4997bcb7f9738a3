package dev.bionerstream.inference;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.features.SyntaxInput;
import dev.bionerstream.model.BundleSyntax;
import java.nio.LongBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A batch's syntax inputs as ONNX tensors {@code [batch, seq, width]}, padded like the ids (zeros:
 * no context). Empty for windows without syntax. Closing it frees the tensors.
 */
final class SyntaxTensors implements AutoCloseable {
    private final Map<String, OnnxTensor> tensors = new LinkedHashMap<>();

    private SyntaxTensors() {}

    static SyntaxTensors of(OrtEnvironment env, List<MrcWindow> batch, int n) throws OrtException {
        SyntaxTensors out = new SyntaxTensors();
        List<SyntaxInput> first = batch.get(0).syntax();
        try {
            for (int k = 0; k < first.size(); k++) {
                int width = first.get(k).width();
                long[] positions = new long[batch.size() * n * width];
                long[] labels = new long[positions.length];
                for (int i = 0; i < batch.size(); i++) {
                    SyntaxInput in = batch.get(i).syntax().get(k);
                    System.arraycopy(in.positions(), 0, positions, i * n * width, in.positions().length);
                    System.arraycopy(in.labels(), 0, labels, i * n * width, in.labels().length);
                }
                long[] shape = {batch.size(), n, width};
                String kind = first.get(k).kind().key();
                out.tensors.put(
                        BundleSyntax.positionsInput(kind),
                        OnnxTensor.createTensor(env, LongBuffer.wrap(positions), shape));
                out.tensors.put(
                        BundleSyntax.labelsInput(kind), OnnxTensor.createTensor(env, LongBuffer.wrap(labels), shape));
            }
        } catch (OrtException | RuntimeException e) {
            out.close();
            throw e;
        }
        return out;
    }

    Map<String, OnnxTensor> tensors() {
        return tensors;
    }

    @Override
    public void close() {
        tensors.values().forEach(OnnxTensor::close);
    }
}
