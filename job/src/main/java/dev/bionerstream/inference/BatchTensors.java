package dev.bionerstream.inference;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import dev.bionerstream.features.MrcWindow;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A batch of windows as the graph's input tensors {@code [batch, seq]}, padded to its longest window
 * (dynamic padding: the caller sorts by length so padding stays small), with its syntax tensors.
 * Closing it frees the tensors.
 */
final class BatchTensors implements AutoCloseable {
    private final int length;
    private final Map<String, OnnxTensor> tokens = new HashMap<>();
    private final SyntaxTensors syntax;

    private BatchTensors(int length, SyntaxTensors syntax) {
        this.length = length;
        this.syntax = syntax;
    }

    /** @param batch windows, at least one */
    static BatchTensors of(OrtEnvironment env, List<MrcWindow> batch) throws OrtException {
        int b = batch.size();
        int n = paddedLength(batch);
        long[] ids = new long[b * n];
        long[] mask = new long[b * n];
        long[] types = new long[b * n];
        for (int i = 0; i < b; i++) {
            MrcWindow w = batch.get(i);
            System.arraycopy(w.inputIds(), 0, ids, i * n, w.length());
            System.arraycopy(w.tokenTypeIds(), 0, types, i * n, w.length());
            Arrays.fill(mask, i * n, i * n + w.length(), 1L);
        }
        long[] shape = {b, n};
        BatchTensors out = new BatchTensors(n, SyntaxTensors.of(env, batch, n));
        try {
            out.tokens.put(GraphContract.IDS, OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape));
            out.tokens.put(GraphContract.MASK, OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape));
            out.tokens.put(GraphContract.TYPES, OnnxTensor.createTensor(env, LongBuffer.wrap(types), shape));
        } catch (OrtException | RuntimeException e) {
            out.close();
            throw e;
        }
        return out;
    }

    /** The length every window of {@code batch} is padded to: its longest window's. */
    static int paddedLength(List<MrcWindow> batch) {
        return batch.stream().mapToInt(MrcWindow::length).max().orElseThrow();
    }

    /** The padded length of every window. */
    int length() {
        return length;
    }

    /** Every input tensor by its graph input's name. */
    Map<String, OnnxTensor> feeds() {
        Map<String, OnnxTensor> feeds = new HashMap<>(tokens);
        feeds.putAll(syntax.tensors());
        return feeds;
    }

    @Override
    public void close() {
        try (syntax) {
            tokens.values().forEach(OnnxTensor::close);
        }
    }
}
