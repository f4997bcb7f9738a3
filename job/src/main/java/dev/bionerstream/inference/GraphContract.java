package dev.bionerstream.inference;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.bionerstream.features.MrcWindow;
import dev.bionerstream.model.BundleException;
import dev.bionerstream.model.BundleManifest;
import dev.bionerstream.model.BundleSyntax;
import dev.bionerstream.model.ModelBundle;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * What a bundle's model graph takes and gives, as its manifest declares it: inputs {@code [batch,
 * seq]} ({@link #INPUTS}, and two {@code [batch, seq, width]} per syntax kind), start and end logits
 * {@code [batch, seq, 2]}, and where the bundle has a presence gate, presence logits {@code [batch,
 * seq, types]}. {@link #check} holds a session's graph to it; {@link #logits} reads a run's outputs.
 *
 * @param presence the presence gate's output; null: the bundle has none
 */
record GraphContract(List<String> inputs, String start, String end, String presence) {
    static final String IDS = "input_ids", MASK = "attention_mask", TYPES = "token_type_ids";
    static final List<String> INPUTS = List.of(IDS, MASK, TYPES);

    static GraphContract of(BundleManifest manifest) {
        return new GraphContract(
                inputs(manifest),
                manifest.startOutput(),
                manifest.endOutput(),
                manifest.presenceOutput().orElse(null));
    }

    /** The graph inputs a bundle's model takes: the ids, and two per syntax kind the manifest declares. */
    static List<String> inputs(BundleManifest manifest) {
        List<String> names = new ArrayList<>(INPUTS);
        if (manifest.syntax() != null) {
            for (BundleSyntax.Kind k : manifest.syntax().kinds()) {
                names.add(BundleSyntax.positionsInput(k.kind()));
                names.add(BundleSyntax.labelsInput(k.kind()));
            }
        }
        return names;
    }

    /** Closes {@code session} and throws when its graph's inputs and outputs are not these. */
    void check(ModelBundle bundle, OrtSession session) throws OrtException {
        Set<String> actualInputs = session.getInputNames();
        Set<String> actualOutputs = session.getOutputNames();
        Set<String> expected = outputs(presence != null);
        if (!actualInputs.equals(Set.copyOf(inputs)) || !actualOutputs.containsAll(expected)) {
            session.close();
            throw new BundleException(String.format(
                    "%s/model.onnx has inputs %s and outputs %s; expected inputs %s and outputs %s",
                    bundle.source(), actualInputs, actualOutputs, inputs, expected));
        }
    }

    /** Whether a run of {@code batch} needs the presence logits: it holds a gate window. */
    boolean gated(List<MrcWindow> batch) {
        boolean gated = batch.stream().anyMatch(MrcWindow::isGate);
        if (gated && presence == null) {
            throw new IllegalArgumentException("a presence gate window, but the bundle has no presence gate output");
        }
        return gated;
    }

    /** The outputs a run asks for: the presence logits only when it is {@link #gated}. */
    Set<String> outputs(boolean gated) {
        return gated ? Set.of(start, end, presence) : Set.of(start, end);
    }

    /**
     * Each window's logits from a run of {@code batch} padded to {@code n} ({@code gated}: with
     * the presence logits): start and end at its
     * context positions 1..len, and for a gate window, per type, the highest presence logit among them.
     */
    List<WindowLogits> logits(OrtSession.Result result, List<MrcWindow> batch, int n, boolean gated) {
        FloatBuffer startLogits = ((OnnxTensor) result.get(start).orElseThrow()).getFloatBuffer();
        FloatBuffer endLogits = ((OnnxTensor) result.get(end).orElseThrow()).getFloatBuffer();
        OnnxTensor presenceTensor = gated ? (OnnxTensor) result.get(presence).orElseThrow() : null;
        // getFloatBuffer copies the tensor: once per batch, not once per gate window
        FloatBuffer presenceLogits = gated ? presenceTensor.getFloatBuffer() : null;
        int entityTypes = gated ? (int) presenceTensor.getInfo().getShape()[2] : 0;
        List<WindowLogits> out = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            MrcWindow w = batch.get(i);
            int len = w.contextLength();
            out.add(new WindowLogits(
                    slice(startLogits, (i * n + 1) * 2, len * 2),
                    slice(endLogits, (i * n + 1) * 2, len * 2),
                    w.isGate() ? maxOverContext(presenceLogits, entityTypes, i, n, len) : null));
        }
        return out;
    }

    /** Per type, the highest presence logit of window {@code i}'s context positions 1..len. */
    private static float[] maxOverContext(FloatBuffer values, int k, int i, int n, int len) {
        float[] max = new float[k];
        Arrays.fill(max, Float.NEGATIVE_INFINITY);
        for (int pos = 1; pos <= len; pos++) {
            int base = (i * n + pos) * k;
            for (int t = 0; t < k; t++) {
                max[t] = Math.max(max[t], values.get(base + t));
            }
        }
        return max;
    }

    private static float[] slice(FloatBuffer buffer, int offset, int length) {
        float[] out = new float[length];
        buffer.get(offset, out);
        return out;
    }
}
