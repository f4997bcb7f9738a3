package dev.bionerstream.engine;

import dev.bionerstream.model.BundleCorpusTags;
import dev.bionerstream.model.BundleManifest;
import dev.bionerstream.model.EntityQuery;
import java.util.List;
import java.util.Map;

/**
 * The questions asked of a bundle trained with corpus tags: each type's query wrapped in the tag of
 * the corpus whose annotation conventions it should follow, the bundle's default per type unless
 * the caller chose another (e.g. {@code disease=NCBI-disease}); a choice the bundle cannot follow is a
 * {@link RefusedSettingException}.
 */
final class CorpusConventions {
    private CorpusConventions() {}

    static List<EntityQuery> questions(BundleManifest manifest, List<EntityQuery> types, Map<String, String> chosen) {
        BundleCorpusTags tags = manifest.corpusTags();
        if (tags == null) {
            if (!chosen.isEmpty()) {
                throw new RefusedSettingException(
                        RefusedSettingException.Setting.CORPUS,
                        chosen + ": the bundle " + manifest.id()
                                + " was trained without corpus tags, so it follows one set of conventions per type");
            }
            return types;
        }
        for (Map.Entry<String, String> c : chosen.entrySet()) {
            if (!tags.defaults().containsKey(c.getKey()) || !tags.corpora().contains(c.getValue())) {
                throw new RefusedSettingException(
                        RefusedSettingException.Setting.CORPUS,
                        c.getKey() + "=" + c.getValue() + ": the bundle " + manifest.id() + " has the types "
                                + tags.defaults().keySet()
                                + " and learnt the corpora " + tags.corpora());
            }
        }
        return types.stream()
                .map(q -> new EntityQuery(
                        q.name(),
                        BundleCorpusTags.tagged(
                                q.query(),
                                chosen.getOrDefault(q.name(), tags.defaults().get(q.name())))))
                .toList();
    }
}
