package dev.bionerstream.viewer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SearchQueryTest {
    @Test
    void readsEveryPartAndTrimsIt() throws Exception {
        SearchQuery q = SearchQuery.from(Map.of(
                "q",
                " kinase ",
                "entity",
                "Imatinib",
                "type",
                "Chemical",
                "doc",
                "PMID:1",
                "year",
                "2026",
                "from",
                "20",
                "size",
                "10"));

        assertThat(q).isEqualTo(new SearchQuery("kinase", "Imatinib", "chemical", "PMID:1", 2026, 20, 10));
    }

    @Test
    void emptyPartsAreLeftOutAndThePageDefaultsToTheFirstTwenty() throws Exception {
        assertThat(SearchQuery.from(Map.of("q", "", "entity", "  ")))
                .isEqualTo(new SearchQuery(null, null, null, null, null, 0, 20));
    }

    @Test
    void badPartsAreRefusedWithWhatToChange() {
        assertThatThrownBy(() -> SearchQuery.from(Map.of("size", "ten")))
                .isInstanceOf(BadQueryException.class)
                .hasMessage("size must be a whole number, not 'ten'");
        assertThatThrownBy(() -> SearchQuery.from(Map.of("size", "1000")))
                .hasMessage("size must be in 1..100, not 1000");
        assertThatThrownBy(() -> SearchQuery.from(Map.of("from", "9990", "size", "20")))
                .hasMessageContaining("from + size must be at most 10000");
        assertThatThrownBy(() -> SearchQuery.from(Map.of("type", "chemical\"}")))
                .hasMessageContaining("is not an entity type");
        assertThatThrownBy(() -> SearchQuery.from(Map.of("query", "x")))
                .hasMessage("unknown parameter 'query': use q, entity, type, doc, year, from, size");
        assertThatThrownBy(() -> SearchQuery.from(Map.of("year", "26")))
                .hasMessage("year must be in 1700..2999, not 26");
        assertThatThrownBy(() -> SearchQuery.from(Map.of("q", "x".repeat(501))))
                .hasMessage("q is longer than 500 characters");
    }
}
