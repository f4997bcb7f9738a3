package dev.bionerstream.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.Abstract;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.EntityEvent;
import dev.bionerstream.avro.TextField;
import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.Extraction;
import dev.bionerstream.model.BundleManifest;
import dev.bionerstream.model.EntityQuery;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DocumentRecordsTest {
    static BundleManifest model(String version) {
        return new BundleManifest(
                1,
                "m",
                version,
                256,
                true,
                "enc",
                List.of(new EntityQuery("chemical", "q1"), new EntityQuery("disease", "q2")),
                null,
                Map.of(),
                null,
                null,
                null,
                null,
                null);
    }

    static final Abstract DOC = Abstract.newBuilder()
            .setId("pmid:1")
            .setTitle("Lithium toxicity")
            .setAbstractText("x")
            .build();
    static final Extraction ANNOTATED = new Extraction(
            List.of(
                    List.of(
                            new Entity("chemical", 0, 7, "Lithium", 0, 0.9),
                            new Entity("disease", 0, 16, "Lithium toxicity", 0, 0.8)),
                    List.of(new Entity("chemical", 0, 1, "x", 0, 0.7))),
            List.of(1, 1),
            List.of(),
            0);

    @Test
    void idsAreDeterministicPerInputAndModelVersion() {
        DocumentEntities a = new DocumentRecords(model("1")).document(DOC, ANNOTATED, Instant.ofEpochMilli(1));
        DocumentEntities b = new DocumentRecords(model("1")).document(DOC, ANNOTATED, Instant.ofEpochMilli(2));
        DocumentEntities c = new DocumentRecords(model("2")).document(DOC, ANNOTATED, Instant.ofEpochMilli(1));
        assertThat(a.getEventId()).isEqualTo(b.getEventId()).isNotEqualTo(c.getEventId());
        assertThat(a.getEntities())
                .extracting(m -> m.getEventId())
                .doesNotHaveDuplicates()
                .isEqualTo(b.getEntities().stream().map(m -> m.getEventId()).toList());
        assertThat(a.getEntities().get(0).getQueryId()).startsWith("chemical@").hasSize("chemical@".length() + 8);
    }

    @Test
    void eventsCarryTheDocumentAndTheModel() {
        DocumentEntities d = new DocumentRecords(model("1")).document(DOC, ANNOTATED, Instant.ofEpochMilli(5));
        List<EntityEvent> events = DocumentRecords.events(d);
        assertThat(events).extracting(EntityEvent::getEntityType).containsExactly("chemical", "disease", "chemical");
        assertThat(events)
                .extracting(EntityEvent::getField)
                .containsExactly(TextField.TITLE, TextField.TITLE, TextField.ABSTRACT);
        assertThat(d.getSentences()).isEqualTo(2);
        assertThat(events.get(1)).satisfies(e -> {
            assertThat(e.getDocumentId()).isEqualTo("pmid:1");
            assertThat(e.getText()).isEqualTo("Lithium toxicity");
            assertThat(e.getModelVersion()).isEqualTo("1");
            assertThat(e.getProcessingTime()).isEqualTo(Instant.ofEpochMilli(5));
        });
    }
}
