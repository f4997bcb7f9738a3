package dev.bionerstream.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * {@code bundle.json} "gate": the bundle's presence gate, a graph output of per-piece presence
 * logits for every entity type, read from a query-free pass over a sentence; types scoring below
 * {@code threshold} (a probability) are not asked of that sentence. {@code enabled} is the
 * exporter's verdict from the measured F1 cost: whether the gate is on unless told otherwise.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BundleGate(
        @JsonProperty("output") String output,
        @JsonProperty("threshold") double threshold,
        @JsonProperty("enabled") boolean enabled,
        @JsonProperty("max_f1_loss") Double maxF1Loss,
        @JsonProperty("passes_saved_percent") Double passesSavedPercent) {}
