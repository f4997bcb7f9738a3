package dev.bionerstream.serving;

import static dev.bionerstream.serving.ServingOptions.LANGUAGE_BUNDLES;

import dev.bionerstream.engine.GateSetting;
import dev.bionerstream.options.OptionChecks;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Which model serves a record: the bundle configured for its language ({@code
 * model.language-bundles}), else the default ({@code model.bundle}, or {@link BundleChoice}'s pick
 * when it is unset). Language bundles share the default's device, threads and batching and serve
 * all their own entity types; {@code model.entity-types} narrows the default only, whose types are
 * the ones it names.
 *
 * @param byLanguage keys are {@link Languages#key} codes
 */
public record ModelRoutes(ServingConfig defaultModel, Map<String, ServingConfig> byLanguage) implements Serializable {
    public ModelRoutes {
        byLanguage = Map.copyOf(byLanguage);
    }

    public static ModelRoutes from(ReadableConfig c, BundleChoice bundles) {
        ServingConfig base = ServingConfig.from(c, bundles);
        Map<String, ServingConfig> byLanguage = new LinkedHashMap<>();
        String spec = c.getOptional(LANGUAGE_BUNDLES).orElse("");
        for (String pair : spec.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            String[] kv = pair.split("=", 2);
            String language = kv.length == 2 ? Languages.key(kv[0]) : null;
            if (language == null || kv[1].isBlank()) {
                throw OptionChecks.refused(
                        LANGUAGE_BUNDLES,
                        "takes LANG=DIR pairs separated by commas, e.g. spa=/models/pharmaconer; got '" + pair.trim()
                                + "'");
            }
            ServingConfig model = new ServingConfig(
                    kv[1].trim(),
                    List.of(),
                    // each bundle's own measured gate, unless gates are off altogether
                    base.gate().kind() == GateSetting.Kind.OFF ? GateSetting.OFF : GateSetting.BUNDLE,
                    Map.of(), // model.corpus names the main bundle's corpora; another language's bundle has its own
                    base.geneSpans(),
                    base.inference(),
                    base.batchMaxSize(),
                    base.batchMaxWait(),
                    base.runners(),
                    base.maxWindowsPerDocument());
            ServingConfig earlier = byLanguage.put(language, model);
            if (earlier != null && !earlier.equals(model)) {
                throw OptionChecks.refused(
                        LANGUAGE_BUNDLES,
                        "names two bundles for language " + language + ": " + earlier.bundle() + " and "
                                + model.bundle());
            }
        }
        return new ModelRoutes(base, byLanguage);
    }

    /** The model for a record in {@code language} (any ISO 639 form; null: unknown). */
    public ServingConfig forLanguage(String language) {
        String key = Languages.key(language);
        return key == null ? defaultModel : byLanguage.getOrDefault(key, defaultModel);
    }

    /** Every distinct model, the default first. */
    public List<ServingConfig> all() {
        LinkedHashSet<ServingConfig> all = new LinkedHashSet<>();
        all.add(defaultModel);
        all.addAll(byLanguage.values());
        return List.copyOf(all);
    }
}
