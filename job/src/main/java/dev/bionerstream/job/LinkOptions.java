package dev.bionerstream.job;

import dev.bionerstream.linking.LinkSettings;
import dev.bionerstream.options.OptionChecks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;

/** How mentions are linked to concepts, read once into {@link LinkSettings}. */
public final class LinkOptions {
    private LinkOptions() {}

    public static final ConfigOption<String> BUNDLES = ConfigOptions.key("link.bundles")
            .stringType()
            .noDefaultValue()
            .withDescription("Vocabulary bundles in place of the jar's, TYPE=DIR pairs, comma-separated (e.g. "
                    + "gene=/vocabularies/gene); unset, each of chemical, disease, gene and species uses the jar's.");
    public static final ConfigOption<String> GENE_SPECIES = ConfigOptions.key("link.gene-species")
            .stringType()
            .defaultValue("document")
            .withDescription(
                    "Which species' genes a gene mention may link to: document (the species named right before the "
                            + "gene or in its sentence, then the document's most named, then human, then mouse) or NCBI "
                            + "taxon ids in order of preference, comma-separated (e.g. 10090,9606: mouse genes first, "
                            + "nothing else).");
    public static final ConfigOption<Double> MIN_SCORE = ConfigOptions.key("link.min-score")
            .doubleType()
            .defaultValue(LinkSettings.DEFAULT_MIN_SCORE)
            .withDescription(
                    "An approximate match (character-trigram cosine) below this score leaves the mention NIL (no id).");
    public static final ConfigOption<String> VOCABULARY = ConfigOptions.key("link.vocabulary")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "Your own vocabularies in place of the shipped ones: TYPE=FILE pairs, comma-separated (e.g. "
                            + "chemical=/data/drugs.tsv); FILE has one concept per line, id<TAB>name[<TAB>synonym|synonym...] "
                            + "(docs/linking.md). A type without a shipped vocabulary (the Spanish model's) gains one.");
    public static final ConfigOption<String> VOCABULARY_EXTRA = ConfigOptions.key("link.vocabulary-extra")
            .stringType()
            .noDefaultValue()
            .withDescription(
                    "Concepts added to the shipped vocabularies: TYPE=FILE pairs as link.vocabulary; a concept with a "
                            + "shipped id replaces its name and adds its synonyms.");

    public static final List<ConfigOption<?>> ALL =
            List.of(BUNDLES, GENE_SPECIES, MIN_SCORE, VOCABULARY, VOCABULARY_EXTRA);

    /** The settings these options give over the shipped vocabularies; messages name the option. */
    public static LinkSettings settings(ReadableConfig config) {
        Map<String, String> bundles = new TreeMap<>(LinkSettings.shipped().bundles());
        bundles.putAll(typeFiles(BUNDLES, config, "gene=/vocabularies/gene"));
        return new LinkSettings(
                bundles,
                typeFiles(VOCABULARY, config, "chemical=/data/drugs.tsv"),
                typeFiles(VOCABULARY_EXTRA, config, "chemical=/data/drugs.tsv"),
                geneSpecies(config.get(GENE_SPECIES)),
                config.get(MIN_SCORE));
    }

    private static List<Integer> geneSpecies(String value) {
        if (value.strip().equals("document")) {
            return List.of();
        }
        List<Integer> taxa = new ArrayList<>();
        for (String t : value.split(",")) {
            try {
                taxa.add(Integer.parseInt(t.strip().replaceFirst("^ncbitaxon:", "")));
            } catch (NumberFormatException e) {
                throw OptionChecks.refused(
                        GENE_SPECIES, "must be document or NCBI taxon ids such as 9606,10090, got " + value);
            }
        }
        return taxa;
    }

    private static Map<String, String> typeFiles(ConfigOption<String> option, ReadableConfig config, String example) {
        return OptionChecks.pairs(option, config.get(option), "TYPE=PATH", example);
    }
}
