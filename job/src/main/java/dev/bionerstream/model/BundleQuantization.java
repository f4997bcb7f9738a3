package dev.bionerstream.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * {@code bundle.json} "quantization", present only in a bundle written by model-export's
 * {@code bioner_mrc.quantize}: how its graph was quantized ({@code method} "dynamic-per-token": int8
 * weights, activations quantized at run time with one scale per token, so a text's result does not
 * depend on its batch) and from which bundle. Such a graph is made for CPUs; the float16 bundle it
 * came from is the one for GPUs.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BundleQuantization(
        @JsonProperty("method") String method,
        @JsonProperty("ops") List<String> ops,
        @JsonProperty("weights") String weights,
        @JsonProperty("activations") String activations) {}
