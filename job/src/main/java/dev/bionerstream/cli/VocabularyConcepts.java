package dev.bionerstream.cli;

import dev.bionerstream.linking.Candidate;
import dev.bionerstream.linking.LinkSettings;
import dev.bionerstream.linking.Linkers;
import dev.bionerstream.linking.NameKey;
import dev.bionerstream.linking.Vocabulary;
import dev.bionerstream.viewer.ConceptLookup;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The page's lookup of a searched name in the shipped vocabularies, loaded on the first search by
 * name (once per JVM, shared with a job in the same JVM: the demo's).
 */
public final class VocabularyConcepts implements ConceptLookup {
    @Override
    public List<String> idsNamed(String name, String type) {
        Set<String> ids = new LinkedHashSet<>();
        String key = NameKey.of(name);
        for (Map.Entry<String, Vocabulary> v :
                Linkers.shared(LinkSettings.shipped()).vocabularies().entrySet()) {
            if (type == null || type.equals(v.getKey())) {
                for (Candidate c : v.getValue().exact(key)) {
                    ids.add(c.concept().id());
                }
            }
        }
        return List.copyOf(ids);
    }
}
