package dev.bionerstream.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.EntityEvent;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.LocalPipeline;
import dev.bionerstream.demo.SharedService;
import dev.bionerstream.demo.TestPipelines;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.demo.TopicWriter;
import dev.bionerstream.kafka.OutputFormat;
import dev.bionerstream.kafka.OutputSchemas;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --kafka.output-format json} end to end: the job with the shipped model, on a real broker,
 * writes its entities, documents and dead-letter topics as JSON, and {@code scripts/read-json-topics},
 * a Python consumer on Debian's confluent-kafka (librdkafka: no Java, no Avro), reads them
 * read_committed, checks every value against {@code schemas/json/} with Python's jsonschema, and
 * reads what the job wrote: the same events and documents, the tombstone of a deleted document, the
 * refused record's exact bytes. Every value it read also passes the same schemas here.
 */
class JsonOutputITCase {
    @RegisterExtension
    static final SharedService<EmbeddedKafka> KAFKA = SharedService.kafka();

    /** The test fails only when no output arrives for this long: a busy machine is slow, not wrong. */
    static final Duration STALL = Duration.ofMinutes(5);
    /** Debian's, where apt puts python3-confluent-kafka and python3-jsonschema; -Djson.consumer.python= overrides. */
    static final String PYTHON = System.getProperty("json.consumer.python", "/usr/bin/python3");

    static final String BAD = "{\"id\": \"json-3\", \"title\": ";

    @Test
    void aPythonConsumerReadsTheJsonTopicsTheJobWrote() throws Exception {
        Configuration options = Configuration.fromMap(Map.of(
                "kafka.output-format", "json",
                "job.checkpoint-interval", "1 s",
                "model.threads", "1"));
        try (LocalPipeline p = TestPipelines.start(KAFKA, "json-output", options);
                TopicReader<EntityEvent> events = new TopicReader<>(
                        p.kafka.bootstrapServers(), p.config.entitiesTopic(), EntityEvent.class, OutputFormat.JSON)) {
            p.produce(List.of(
                    "{\"id\": \"json-1\", \"title\": \"Naloxone reverses the antihypertensive effect of clonidine.\","
                            + " \"abstract\": \"In mice, lithium induced seizures.\", \"journal\": \"Hypertension\"}",
                    "{\"id\": \"json-2\", \"title\": \"Aspirin and cancer.\"}",
                    BAD));
            send(p, p.config.kafka().inputTopic(), "json-2", null); // deletes json-2

            List<DocumentEntities> docs = p.documents.pollWhileProgressing(
                    "2 documents and the tombstone of json-2",
                    l -> l.size() >= 2 && p.documents.tombstones().contains("json-2"),
                    STALL);
            List<DeadLetter> dead = p.deadLetters.pollWhileProgressing("a dead letter", l -> !l.isEmpty(), STALL);
            long mentions = docs.stream().mapToLong(d -> d.getEntities().size()).sum();
            List<EntityEvent> written =
                    events.pollWhileProgressing(mentions + " entity events", l -> l.size() >= mentions, STALL);
            assertThat(docs).extracting(DocumentEntities::getDocumentId).containsExactly("json-1", "json-2");
            assertThat(written).hasSize((int) mentions);

            PythonRead python = readWithPython(p.kafka.bootstrapServers(), p.config, "job-output");
            assertThat(python.exit()).as(python.describe()).isZero();
            Map<String, List<JsonNode>> read = python.byTopic();
            List<JsonNode> pyEvents = read.get(p.config.entitiesTopic());
            assertThat(pyEvents)
                    .extracting(r -> r.at("/value/eventId").textValue())
                    .containsExactlyInAnyOrderElementsOf(
                            written.stream().map(EntityEvent::getEventId).toList());
            assertThat(pyEvents).anySatisfy(r -> assertThat(List.of(
                            r.at("/value/text").textValue(),
                            r.at("/value/entityType").textValue(),
                            r.at("/value/field").textValue(),
                            r.at("/value/start").intValue(),
                            r.at("/value/end").intValue()))
                    .containsExactly("Naloxone", "chemical", "TITLE", 0, 8));

            List<JsonNode> pyDocs = read.get(p.config.documentsTopic());
            assertThat(pyDocs)
                    .filteredOn(r -> r.get("value").isNull())
                    .extracting(r -> r.get("key").textValue())
                    .as("the deleted document's tombstone")
                    .containsExactly("json-2");
            JsonNode first = pyDocs.get(0);
            assertThat(first.get("key").textValue()).isEqualTo("json-1");
            assertThat(first.at("/value/journal").textValue()).isEqualTo("Hypertension");
            assertThat(first.at("/value/publicationDate").isNull()).isTrue();
            assertThat(first.at("/value/entities").size())
                    .isEqualTo(docs.get(0).getEntities().size());

            List<JsonNode> pyDead = read.get(p.config.kafka().deadLetterTopic());
            assertThat(pyDead).hasSize(dead.size()).hasSize(1);
            assertThat(new String(
                            Base64.getDecoder()
                                    .decode(pyDead.get(0)
                                            .at("/value/originalBytes")
                                            .textValue()),
                            StandardCharsets.UTF_8))
                    .isEqualTo(BAD);
            assertThat(pyDead.get(0).at("/value/stage").textValue()).isEqualTo("parse");

            for (var topic : Map.of(
                            p.config.entitiesTopic(), "EntityEvent",
                            p.config.documentsTopic(), "DocumentEntities",
                            p.config.kafka().deadLetterTopic(), "DeadLetter")
                    .entrySet()) {
                for (JsonNode r : read.get(topic.getKey())) {
                    if (!r.get("value").isNull()) {
                        OutputSchemas.assertValid(topic.getValue(), JSON.writeValueAsBytes(r.get("value")));
                    }
                }
            }

            // The consumer's own check says something: a value off its schema fails it, named.
            send(p, p.config.entitiesTopic(), "json-1", "{\"eventId\": \"c19f\", \"documentId\": \"json-1\"}");
            PythonRead refused = readWithPython(p.kafka.bootstrapServers(), p.config, "a-value-off-schema");
            assertThat(refused.exit()).as(refused.describe()).isEqualTo(1);
            assertThat(refused.stderr())
                    .contains(p.config.entitiesTopic() + "/0@")
                    .contains("$.eventId")
                    .contains("'entityType' is a required property");
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A keyed record; a null value is a tombstone. */
    private static void send(LocalPipeline p, String topic, String key, String value) {
        TopicWriter.produceKeyed(p.kafka.bootstrapServers(), topic, key, value);
    }

    /** One run of scripts/read-json-topics: its exit status, the records it printed by topic, its errors. */
    private record PythonRead(int exit, Map<String, List<JsonNode>> byTopic, String stderr) {
        String describe() {
            return SCRIPT + " with " + PYTHON + " (needs python3-confluent-kafka and python3-jsonschema, which"
                    + " .ci/run installs from Debian): exit " + exit + "\n" + stderr;
        }
    }

    static final Path SCRIPT = Path.of("..", "scripts", "read-json-topics");

    /** Runs the Python consumer over the job's topics; what it printed stays in target/json-output/{@code run}.*. */
    private static PythonRead readWithPython(String bootstrapServers, JobConfig cfg, String run)
            throws IOException, InterruptedException {
        Path dir = Files.createDirectories(Path.of("target", "json-output"));
        Path out = dir.resolve(run + ".jsonl");
        Path err = dir.resolve(run + ".err");
        Process python = new ProcessBuilder(
                        PYTHON,
                        SCRIPT.toString(),
                        "--bootstrap-servers",
                        bootstrapServers,
                        "--entities-topic",
                        cfg.entitiesTopic(),
                        "--documents-topic",
                        cfg.documentsTopic(),
                        "--dead-letter-topic",
                        cfg.kafka().deadLetterTopic(),
                        "--timeout",
                        String.valueOf(STALL.toSeconds()))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!python.waitFor(STALL.toSeconds() + 60, TimeUnit.SECONDS)) {
            python.destroyForcibly();
            throw new AssertionError(SCRIPT + " still running after its own --timeout");
        }
        Map<String, List<JsonNode>> byTopic = new java.util.TreeMap<>(Map.of(
                cfg.entitiesTopic(), new ArrayList<>(),
                cfg.documentsTopic(), new ArrayList<>(),
                cfg.kafka().deadLetterTopic(), new ArrayList<>()));
        for (String line : Files.readAllLines(out)) {
            JsonNode r = JSON.readTree(line);
            byTopic.get(r.get("topic").textValue()).add(r);
        }
        return new PythonRead(python.exitValue(), byTopic, Files.readString(err));
    }
}
