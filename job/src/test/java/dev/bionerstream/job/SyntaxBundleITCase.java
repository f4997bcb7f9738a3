package dev.bionerstream.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.Delivery;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.LocalPipeline;
import dev.bionerstream.demo.SharedService;
import dev.bionerstream.demo.TestPipelines;
import dev.bionerstream.model.TestBundles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A bundle with combined feature attention and corpus tags (model-export's tiny random one) served
 * by the streaming job: the annotator runs inside the engine's one door, so records go through
 * Kafka, the shared batcher and ONNX Runtime with their syntax inputs, and come out as documents of
 * that model, with a user's corpus choice.
 */
class SyntaxBundleITCase {
    @RegisterExtension
    static final SharedService<EmbeddedKafka> KAFKA = SharedService.kafka();

    @Test
    void aSyntaxBundleServesTheStreamEndToEnd() throws Exception {
        Path bundle = TestBundles.path("tiny-syntax");
        Configuration options = Configuration.fromMap(Map.of(
                "job.checkpoint-interval", "1 s",
                "model.threads", "1",
                "model.bundle", bundle.toString(),
                "model.corpus", "disease=BC5CDR"));
        try (ListenedBatches batches = new ListenedBatches(options);
                LocalPipeline p = TestPipelines.start(KAFKA, "syntax", options)) {
            p.produce(List.of(
                    "{\"id\": \"s1\", \"title\": \"Treatment with cocaine induced seizures.\", "
                            + "\"abstract\": \"Naloxone-induced seizures were seen. Patients recovered.\"}",
                    "{\"id\": \"s2\", \"title\": \"Mutations of BRCA1 were studied in Mus musculus.\"}"));
            List<DocumentEntities> docs = p.documents.pollWhileProgressing(
                    "2 documents", l -> Delivery.distinct(l) >= 2, Duration.ofMinutes(3));
            assertThat(p.deadLetters.poll(Duration.ofSeconds(2)))
                    .as("dead letters")
                    .isEmpty();
            assertThat(docs).extracting(DocumentEntities::getDocumentId).contains("s1", "s2");
            assertThat(docs).allSatisfy(d -> {
                assertThat(d.getModelName()).isEqualTo("tiny-syntax");
                assertThat(d.getSentences()).isPositive();
            });
            assertThat(batches.of(p.config.models().all().get(0)).windows())
                    .as("(sentence, type) passes")
                    .isEqualTo(2 * 4);
        }
    }
}
