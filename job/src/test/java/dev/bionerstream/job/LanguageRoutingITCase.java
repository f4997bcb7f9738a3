package dev.bionerstream.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.EntityEvent;
import dev.bionerstream.demo.Delivery;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.LocalPipeline;
import dev.bionerstream.demo.SharedService;
import dev.bionerstream.demo.TestPipelines;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.model.ModelBundle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * English and Spanish records through the job with the repository's two bundles (the English
 * default, and the Spanish PharmaCoNER bundle for Spanish): each document and each of its events
 * carries the model name:version of the bundle its language picked, Spanish text gets the Spanish
 * model's types, and each bundle ran its own ONNX Runtime session.
 */
class LanguageRoutingITCase {
    @RegisterExtension
    static final SharedService<EmbeddedKafka> KAFKA = SharedService.kafka();

    static final Path SPANISH_BUNDLE = Path.of("..", "bundles", "pharmaconer-es");

    @Test
    void eachLanguageIsServedByItsOwnBundle() throws Exception {
        Configuration options = Configuration.fromMap(Map.of(
                "job.checkpoint-interval", "1 s",
                "model.threads", "1",
                "model.language-bundles", "spa=" + SPANISH_BUNDLE));
        String english = ModelBundle.loadDefault().manifest().id();
        String spanish = ModelBundle.load(SPANISH_BUNDLE).manifest().id();
        try (ListenedBatches batches = new ListenedBatches(options);
                LocalPipeline p = TestPipelines.start(KAFKA, "languages", options);
                TopicReader<EntityEvent> events =
                        new TopicReader<>(p.kafka.bootstrapServers(), p.config.entitiesTopic(), EntityEvent.class)) {
            p.produce(List.of(
                    "{\"id\": \"en1\", \"title\": \"Lithium induced seizures in mice.\", \"language\": \"eng\"}",
                    "{\"id\": \"es1\", \"title\": \"Se le administró litio y paracetamol .\", \"language\": \"spa\"}",
                    "{\"id\": \"es2\", \"title\": \"Paciente tratado con cisplatino .\", \"language\": \"es\"}",
                    "{\"id\": \"xx1\", \"title\": \"Aspirin and cancer.\"}"));
            List<DocumentEntities> docs = p.documents.pollWhileProgressing(
                    "4 documents", l -> Delivery.distinct(l) >= 4, Duration.ofMinutes(3));
            Map<String, String> modelOf = docs.stream()
                    .collect(Collectors.toMap(
                            DocumentEntities::getDocumentId,
                            d -> d.getModelName() + ":" + d.getModelVersion(),
                            (a, b) -> a));
            assertThat(modelOf)
                    .containsExactlyInAnyOrderEntriesOf(
                            Map.of("en1", english, "es1", spanish, "es2", spanish, "xx1", english));
            Map<String, List<String>> typesOf = docs.stream()
                    .collect(Collectors.toMap(
                            DocumentEntities::getDocumentId,
                            d -> d.getEntities().stream()
                                    .map(m -> m.getText() + "/" + m.getEntityType())
                                    .toList(),
                            (a, b) -> a));
            assertThat(typesOf.get("es2")).as("the Spanish model's own types").contains("cisplatino/normalizable");
            assertThat(typesOf.get("en1")).contains("Lithium/chemical");
            long expectedEvents =
                    docs.stream().mapToLong(d -> d.getEntities().size()).sum();
            List<EntityEvent> seen = events.pollWhileProgressing(
                    expectedEvents + " entity events", l -> l.size() >= expectedEvents, Duration.ofMinutes(1));
            assertThat(seen).isNotEmpty().allSatisfy(e -> assertThat(e.getModelName() + ":" + e.getModelVersion())
                    .as(e.getDocumentId())
                    .isEqualTo(modelOf.get(e.getDocumentId())));
            for (var model : p.config.models().all()) {
                assertThat(batches.of(model).windows())
                        .as("windows the batcher of " + model.bundle() + " ran")
                        .isPositive();
            }
        }
    }
}
