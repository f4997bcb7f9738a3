package dev.bionerstream.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * {@code bundle.json} "corpus_tags": the model was trained on several corpora with each question
 * wrapped in its corpus's tag ({@code <BC5CDR> question </BC5CDR>}, seed 003's dataset tags), so it
 * follows the annotation conventions of the corpus it is asked in. {@code corpora} lists the tags it
 * learnt; {@code defaults} names the corpus whose conventions each type follows unless the caller
 * picks another.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BundleCorpusTags(
        @JsonProperty("corpora") List<String> corpora, @JsonProperty("defaults") Map<String, String> defaults) {

    /** The question as the model was trained to read it in {@code corpus}. */
    public static String tagged(String query, String corpus) {
        return "<" + corpus + "> " + query + " </" + corpus + ">";
    }
}
