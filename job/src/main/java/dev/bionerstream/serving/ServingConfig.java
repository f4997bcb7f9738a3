package dev.bionerstream.serving;

import static dev.bionerstream.serving.ServingOptions.*;

import dev.bionerstream.batching.BatchPolicy;
import dev.bionerstream.batching.BatchSettings;
import dev.bionerstream.engine.BatchSize;
import dev.bionerstream.engine.GateSetting;
import dev.bionerstream.engine.GeneSpans;
import dev.bionerstream.engine.PresenceGate;
import dev.bionerstream.engine.RefusedSettingException;
import dev.bionerstream.inference.Device;
import dev.bionerstream.inference.GraphOptimization;
import dev.bionerstream.inference.InferenceOptions;
import dev.bionerstream.model.ModelBundle;
import dev.bionerstream.options.OptionChecks;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;

/**
 * What identifies a served model in a JVM: the bundle, how it runs and how it batches. Subtasks
 * with equal configs share one session and one batcher.
 *
 * @param bundle bundle directory; null for the bundle in the jar ({@link BundleChoice} decides which)
 * @param entityTypes the types to extract; all of the bundle's when empty
 * @param gate the presence gate setting ({@link PresenceGate#resolve})
 * @param corpora type -> the corpus whose conventions it follows, for a bundle with corpus tags
 * @param geneSpans how gene spans are written
 */
public record ServingConfig(
        String bundle,
        List<String> entityTypes,
        GateSetting gate,
        Map<String, String> corpora,
        GeneSpans geneSpans,
        InferenceOptions inference,
        BatchSize batchMaxSize,
        Duration batchMaxWait,
        int runners,
        int maxWindowsPerDocument)
        implements Serializable {
    public ServingConfig {
        entityTypes = List.copyOf(entityTypes);
        Objects.requireNonNull(gate, "gate");
        Objects.requireNonNull(batchMaxSize, "batchMaxSize");
        Objects.requireNonNull(geneSpans, "geneSpans");
        corpora = Map.copyOf(corpora);
        OptionChecks.requirePositive(MAX_WINDOWS_PER_DOCUMENT, maxWindowsPerDocument);
        OptionChecks.requireNotNegative(RUNNERS, runners, "one per core on a CPU");
        OptionChecks.requireNotNegative(BATCH_MAX_WAIT, batchMaxWait);
    }

    /**
     * Reads and checks the {@link ServingOptions}, each parsed here into its type; messages name the
     * option and how to fix it. {@code bundles} picks the bundle for the device read here.
     */
    public static ServingConfig from(ReadableConfig c, BundleChoice bundles) {
        int threads = OptionChecks.requireNotNegative(THREADS, c.get(THREADS), "all cores");
        GraphOptimization optimization = OptionChecks.oneOf(c, OPTIMIZATION);
        Device device = Device.parse(c.get(DEVICE));
        InferenceOptions inference = new InferenceOptions(device, threads, 1, optimization);
        List<String> types = c.getOptional(ENTITY_TYPES)
                .map(s -> Arrays.stream(s.split("[,;]"))
                        .map(String::trim)
                        .filter(t -> !t.isEmpty())
                        .toList())
                .orElse(List.of());
        return new ServingConfig(
                bundles.bundle(c, device),
                types,
                gate(c.get(GATE)),
                OptionChecks.pairs(CORPUS, c.get(CORPUS), "TYPE=CORPUS", "disease=NCBI-disease"),
                OptionChecks.oneOf(c, GENE_SPANS),
                inference,
                new BatchSize(OptionChecks.requirePositive(BATCH_MAX_SIZE, c.get(BATCH_MAX_SIZE))),
                c.get(BATCH_MAX_WAIT),
                c.get(RUNNERS),
                c.get(MAX_WINDOWS_PER_DOCUMENT));
    }

    private static GateSetting gate(String setting) {
        try {
            return GateSetting.parse(setting);
        } catch (RefusedSettingException e) {
            throw worded(e);
        }
    }

    /** The engine's refusal of the gate or the corpora, worded with the option that set it. */
    static IllegalArgumentException worded(RefusedSettingException refused) {
        ConfigOption<String> option =
                switch (refused.setting()) {
                    case GATE -> GATE;
                    case CORPUS -> CORPUS;
                };
        return OptionChecks.refused(option, refused.detail());
    }

    /**
     * How the shared micro-batcher batches for a model whose session runs on {@code device} (where it
     * runs, not where it was asked to: CUDA that could not start runs on the CPU): batches fill on a
     * GPU and hold windows of similar lengths on a CPU ({@link BatchPolicy}).
     */
    public BatchSettings batching(Device device) {
        return new BatchSettings(
                batchMaxSize,
                batchMaxWait,
                maxWindowsPerDocument,
                device.cuda() ? BatchPolicy.FILL : BatchPolicy.SIMILAR_LENGTHS);
    }

    /** The model runners on the machine the model runs on ({@link ServingOptions#RUNNERS}). */
    public int runnersHere() {
        return runners > 0 ? runners : onePerCore() ? Runtime.getRuntime().availableProcessors() : 1;
    }

    /** The session options on the machine the model runs on: one thread per runner when there is one per core. */
    public InferenceOptions inferenceHere() {
        return onePerCore()
                ? new InferenceOptions(inference.device(), 1, inference.interOpThreads(), inference.optimization())
                : inference;
    }

    private boolean onePerCore() {
        return runners == 0 && !inference.device().cuda() && inference.intraOpThreads() == 0;
    }

    /** The bundle this config names, or the one in the jar. */
    public ModelBundle loadBundle() {
        return ModelBundle.loadOrDefault(Optional.ofNullable(bundle).map(Path::of));
    }
}
