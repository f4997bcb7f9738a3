package dev.bionerstream.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * {@code bundle.json} "syntax": the model reads combined feature attention inputs. {@code annotator}
 * names the toolkit and models it was trained with (the job must run the same); each kind is one
 * pair of graph inputs, {@code syntax_<kind>_positions} and {@code syntax_<kind>_labels}, int64
 * {@code [batch, seq, width]}.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BundleSyntax(@JsonProperty("annotator") String annotator, @JsonProperty("kinds") List<Kind> kinds) {

    /** One syntax kind ({@code pos}, {@code chunk}, {@code dep}), its width and its training labels in id order. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Kind(
            @JsonProperty("kind") String kind,
            @JsonProperty("width") int width,
            @JsonProperty("labels") List<String> labels) {}

    public static String positionsInput(String kind) {
        return "syntax_" + kind + "_positions";
    }

    public static String labelsInput(String kind) {
        return "syntax_" + kind + "_labels";
    }
}
