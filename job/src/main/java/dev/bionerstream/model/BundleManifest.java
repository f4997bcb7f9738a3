package dev.bionerstream.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * {@code bundle.json}: what a model bundle is and how it was made. Written by model-export; the
 * fields here are the ones the job reads, as {@code schemas/bundle.schema.json} describes them (a
 * field added here belongs there too).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BundleManifest(
        @JsonProperty("format") int format,
        @JsonProperty("name") String name,
        @JsonProperty("version") String version,
        @JsonProperty("max_sequence_length") int maxSequenceLength,
        @JsonProperty("lowercase") boolean lowercase,
        @JsonProperty("base_encoder") String baseEncoder,
        @JsonProperty("entity_types") List<EntityQuery> entityTypes,
        @JsonProperty("outputs") Map<String, String> outputs,
        @JsonProperty("files") Map<String, String> files,
        @JsonProperty("evaluation") Map<String, Map<String, Double>> evaluation,
        @JsonProperty("gate") BundleGate gate,
        @JsonProperty("quantization") BundleQuantization quantization,
        @JsonProperty("syntax") BundleSyntax syntax,
        @JsonProperty("corpus_tags") BundleCorpusTags corpusTags) {

    public String startOutput() {
        return outputs == null ? "start_logits" : outputs.getOrDefault("start", "start_logits");
    }

    public String endOutput() {
        return outputs == null ? "end_logits" : outputs.getOrDefault("end", "end_logits");
    }

    /** The graph output of the presence gate, when the bundle has one. */
    public java.util.Optional<String> presenceOutput() {
        return java.util.Optional.ofNullable(gate).map(BundleGate::output);
    }

    /** Whether the graph is quantized (an int8 bundle for CPUs), as {@code quantization} says. */
    public boolean quantized() {
        return quantization != null;
    }

    /** "name:version", the model identity stamped on every event. */
    public String id() {
        return name + ":" + version;
    }
}
