package dev.bionerstream.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.EntityEvent;
import dev.bionerstream.avro.Mention;
import dev.bionerstream.avro.TextField;
import dev.bionerstream.demo.Delivery;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.Heartbeat;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.demo.SharedService;
import dev.bionerstream.demo.TestTopics;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.engine.BatchSize;
import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.LengthSortedBatches;
import dev.bionerstream.engine.MrcEngine;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.eval.Scores;
import dev.bionerstream.eval.Span;
import dev.bionerstream.inference.InferenceOptions;
import dev.bionerstream.inference.MrcSession;
import dev.bionerstream.inference.OrtMrcSession;
import dev.bionerstream.kafka.DeadLetters;
import dev.bionerstream.model.ModelBundle;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.SessionFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole job on a MiniCluster against a real Kafka broker: BC5CDR test abstracts in, entity
 * events out, equal to the engine's output for the same texts, exactly once; bad records to the
 * dead-letter topic.
 */
class StreamingJobITCase {
    /**
     * Enough for both subtasks, many batches of mixed documents and checkpoints in between (the
     * engine's output must equal the stream's on each); -Dbioner.it.abstracts runs more (100, then 40,
     * before the suite had to fit its time: the model's passes, in the job and again in the engine
     * for the comparison, are most of the test's time).
     */
    static final int ABSTRACTS = Integer.getInteger("bioner.it.abstracts", 24);
    /** The test fails only when no output arrives for this long: a busy machine is slow, not wrong. */
    static final Duration STALL = Duration.ofMinutes(5);

    static final List<String> BAD =
            List.of("{\"id\": \"x\"", "{\"title\": \"no id\"}", "{\"id\": \"empty\", \"abstract\": \"\"}");

    @RegisterExtension
    static final SharedService<EmbeddedKafka> KAFKA = SharedService.kafka();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    @Test
    void abstractsInEntityEventsOutEqualToTheEngineExactlyOnce() throws Exception {
        List<String> sample = SampleAbstracts.load(ABSTRACTS);
        EmbeddedKafka kafka = KAFKA.get();
        Map<String, String> args = new TreeMap<>(Map.of(
                "kafka.bootstrap-servers", kafka.bootstrapServers(),
                "kafka.starting-offsets", "earliest",
                "kafka.delivery-guarantee", "exactly-once",
                "kafka.transaction-timeout", "1 min",
                "job.checkpoint-interval", "1 s",
                "job.parallelism", "2",
                "batch.max-size", "16",
                "model.threads", "2"));
        args.putAll(TestTopics.of("streaming"));
        JobConfig cfg = JobConfig.from(Configuration.fromMap(args), BundleChoice.NO_INSTALLATION);
        kafka.createTopics(
                2,
                cfg.kafka().inputTopic(),
                cfg.entitiesTopic(),
                cfg.documentsTopic(),
                cfg.kafka().deadLetterTopic());
        List<String> records = new ArrayList<>(sample.subList(0, sample.size() / 2));
        records.addAll(BAD);
        records.addAll(sample.subList(sample.size() / 2, sample.size()));
        kafka.produce(cfg.kafka().inputTopic(), records);

        Configuration flink = new Configuration();
        flink.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        BionerJob.wire(env, cfg, SessionFactory.ONNX_RUNTIME);
        JobClient job = env.executeAsync("bioner-stream ITCase");
        List<DocumentEntities> docs;
        List<DeadLetter> dead;
        List<EntityEvent> events;
        try (var d = new TopicReader<>(kafka.bootstrapServers(), cfg.documentsTopic(), DocumentEntities.class);
                var dl = new TopicReader<>(kafka.bootstrapServers(), cfg.kafka().deadLetterTopic(), DeadLetter.class);
                var ev = new TopicReader<>(kafka.bootstrapServers(), cfg.entitiesTopic(), EntityEvent.class)) {
            docs = d.pollWhileProgressing(sample.size() + " documents", l -> l.size() >= sample.size(), STALL);
            dead = dl.pollUntil(l -> l.size() >= BAD.size(), Duration.ofMinutes(1));
            int mentions = docs.stream().mapToInt(x -> x.getEntities().size()).sum();
            events = ev.pollWhileProgressing(mentions + " entity events", l -> l.size() >= mentions, STALL);
            Thread.sleep(3000); // a duplicate would arrive with the next checkpoints
            docs = d.poll(Duration.ofSeconds(1));
            events = ev.poll(Duration.ofSeconds(1));
        } finally {
            job.cancel().get();
        }

        // exactly once: each document and each mention once
        Delivery delivery = Delivery.of(sample, docs);
        List<String> deadReasons = dead.stream()
                .map(x -> x.getStage() + ": " + x.getErrorMessage())
                .toList();
        assertThat(delivery.missing())
                .as("documents missing (none arrived for %s); dead letters: %s", STALL, deadReasons)
                .isEmpty();
        assertThat(delivery.duplicated()).as("documents seen more than once").isEmpty();
        Set<String> mentionIds = new HashSet<>();
        docs.forEach(x -> x.getEntities().forEach(m -> mentionIds.add(m.getEventId())));
        List<String> eventIds = events.stream().map(EntityEvent::getEventId).toList();
        assertThat(eventIds.size() - new HashSet<>(eventIds).size())
                .as("duplicated entity events")
                .isZero();
        Set<String> missingEvents = new TreeSet<>(mentionIds);
        missingEvents.removeAll(eventIds);
        assertThat(missingEvents).as("mentions without their entity event").isEmpty();
        assertThat(deadReasons)
                .as("dead letters: only the bad records, at parse")
                .hasSize(BAD.size())
                .allSatisfy(x -> assertThat(x).startsWith(DeadLetters.PARSE))
                .anySatisfy(m -> assertThat(m).contains("not valid JSON"));

        compareWithEngineAndScore(sample, docs);
    }

    /** Streaming neither loses nor adds a span: the job's mentions equal the engine's on the same texts. */
    private static void compareWithEngineAndScore(List<String> sample, List<DocumentEntities> docs) throws Exception {
        ObjectMapper json = new ObjectMapper();
        Map<String, DocumentEntities> byId = new TreeMap<>();
        docs.forEach(d -> byId.put(d.getDocumentId(), d));
        Scores scores = new Scores();
        ModelBundle bundle = ModelBundle.loadDefault();
        try (MrcSession session = OrtMrcSession.open(bundle, InferenceOptions.cpu(2));
                MrcEngine engine = new MrcEngine(bundle, List.of())) {
            List<String> texts = new ArrayList<>();
            List<JsonNode> nodes = new ArrayList<>();
            for (String line : sample) {
                JsonNode n = json.readTree(line);
                nodes.add(n);
                texts.add(n.get("title").asText());
                texts.add(n.get("abstract").asText());
            }
            List<List<Entity>> expected;
            try (Heartbeat h = Heartbeat.start("the engine on the same " + sample.size() + " abstracts")) {
                expected = engine.extract(
                                texts, Segmentation.SENTENCES, new LengthSortedBatches(session, new BatchSize(16)))
                        .join()
                        .entities();
            }
            for (int i = 0; i < nodes.size(); i++) {
                JsonNode n = nodes.get(i);
                Set<String> engineSpans = new HashSet<>();
                expected.get(2 * i).forEach(e -> engineSpans.add(key(TextField.TITLE, e.type(), e.start(), e.end())));
                expected.get(2 * i + 1)
                        .forEach(e -> engineSpans.add(key(TextField.ABSTRACT, e.type(), e.start(), e.end())));
                Set<String> jobSpans = new HashSet<>();
                List<Span> predicted = new ArrayList<>();
                for (Mention m : byId.get(n.get("id").asText()).getEntities()) {
                    jobSpans.add(key(m.getField(), m.getEntityType(), m.getStart(), m.getEnd()));
                    if (m.getEntityType().equals("chemical")
                            || m.getEntityType().equals("disease")) {
                        predicted.add(new Span(m.getField() + "/" + m.getEntityType(), m.getStart(), m.getEnd()));
                    }
                }
                assertThat(jobSpans).as("document %s", n.get("id").asText()).isEqualTo(engineSpans);
                List<Span> gold = new ArrayList<>();
                n.get("gold")
                        .forEach(g -> gold.add(new Span(
                                g.get("field").asText() + "/" + g.get("type").asText(),
                                g.get("start").asInt(),
                                g.get("end").asInt())));
                scores.add(predicted, gold);
            }
        }
        System.out.println(
                "Streaming job vs BC5CDR gold on " + sample.size() + " pseudo-abstracts (sentence split by the job):");
        System.out.print(scores.table());
    }

    private static String key(TextField field, String type, int start, int end) {
        return field + "/" + type + "/" + start + ":" + end;
    }
}
