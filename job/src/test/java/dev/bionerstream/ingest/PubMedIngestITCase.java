package dev.bionerstream.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.LocalPipeline;
import dev.bionerstream.demo.OwnMiniCluster;
import dev.bionerstream.demo.RunsBesideOthers;
import dev.bionerstream.demo.SharedService;
import dev.bionerstream.demo.TestPipelines;
import dev.bionerstream.job.JobConfig;
import dev.bionerstream.model.ModelBundle;
import dev.bionerstream.serving.SessionFactory;
import dev.bionerstream.sink.opensearch.OpenSearchNode;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.zip.GZIPOutputStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * PubMed files dropped into a watched directory -> the ingest job -> abstracts -> the annotation
 * job (default model, and the repository's Spanish bundle for Spanish text) -> entity-documents and a
 * real OpenSearch index: a revised citation replaces the first version, a DeleteCitation removes its
 * document from both, a broken article is a dead letter with its file and position, a Spanish
 * article's Spanish abstract is read by the Spanish model (its English one by the English model),
 * and the same files dropped again change nothing.
 */
@RunsBesideOthers
class PubMedIngestITCase {
    static final String INDEX = "bioner-pubmed-it";
    static final List<String> FILES = List.of("pubmed26n0001.xml", "pubmed26n0002.xml", "pubmed26n0003.xml");
    static final Path SPANISH_BUNDLE = Path.of("..", "bundles", "pharmaconer-es");
    /** Dropped as {@code .xml.gz}, as NCBI publishes update files, so both file kinds go through the job. */
    static final String GZIPPED = "pubmed26n0002.xml";

    static final int PARALLELISM = 2;

    @TempDir
    Path watched;

    /** The annotation job and the ingest job, each at the parallelism of a 2-core machine's local environment. */
    @RegisterExtension
    static final OwnMiniCluster FLINK = new OwnMiniCluster(2 * PARALLELISM);

    @RegisterExtension
    static final SharedService<OpenSearchNode> OPENSEARCH = OpenSearchNode.shared();

    @RegisterExtension
    static final SharedService<EmbeddedKafka> KAFKA = SharedService.kafka();

    @Test
    void filesBecomeIndexedDocumentsWithRevisionsAndDeletionsApplied() throws Exception {
        OpenSearchNode os = OPENSEARCH.get();
        Configuration options = Configuration.fromMap(Map.of(
                "job.checkpoint-interval",
                "1 s",
                "model.threads",
                "2",
                "opensearch.hosts",
                os.url,
                "opensearch.index",
                INDEX,
                "model.language-bundles",
                "spa=" + SPANISH_BUNDLE));
        try (LocalPipeline p = TestPipelines.start(
                KAFKA,
                "pubmed",
                options,
                FLINK.environment(new Configuration(), PARALLELISM),
                SessionFactory.ONNX_RUNTIME)) {
            JobClient ingest = startIngest(p.config);
            try {
                FILES.forEach(this::drop);

                Map<String, DocumentEntities> current = p.documents.current();
                p.documents.pollWhileProgressing(
                        "the deletion of 90000003 and the correction of 90000001",
                        l -> p.documents.tombstones().contains("90000003")
                                && current.containsKey("90000001")
                                && current.get("90000001").getTitle().contains("(corrected)"),
                        Duration.ofMinutes(4));
                assertThat(current.keySet())
                        .as("documents as they stand after the revision and the deletion")
                        .containsExactlyInAnyOrder("90000001", "90000002", "90000004.v2", "90000005", "90000006");
                assertThat(p.documents.tombstones())
                        .as("a deletion reaches every configured model (English, Spanish): one tombstone each")
                        .containsExactly("90000003", "90000003");
                DocumentEntities revised = current.get("90000001");
                assertThat(revised.getAbstractText())
                        .isEqualTo(
                                "BACKGROUND: Cocaine causes seizures in mice. RESULTS: Lithium prevented the seizures "
                                        + "caused by cocaine.");
                assertThat(revised.getPublicationDate()).isEqualTo("1998-12");
                assertThat(revised.getEntities())
                        .extracting(m -> m.getText().toLowerCase())
                        .contains("cocaine", "seizures", "lithium");
                String spanishModel =
                        ModelBundle.load(SPANISH_BUNDLE).manifest().id();
                String englishModel = ModelBundle.loadDefault().manifest().id();
                assertThat(modelOf(current.get("90000005")))
                        .as("a Spanish case report with only a Spanish abstract")
                        .isEqualTo(spanishModel);
                assertThat(current.get("90000005").getEntities())
                        .extracting(m -> m.getText())
                        .contains("cisplatino");
                assertThat(modelOf(current.get("90000006")))
                        .as("a Spanish article's English abstract")
                        .isEqualTo(englishModel);

                List<DeadLetter> dead = p.deadLetters.pollUntil(l -> !l.isEmpty(), Duration.ofMinutes(1));
                assertThat(dead).singleElement().satisfies(d -> {
                    assertThat(d.getStage()).isEqualTo("ingest");
                    assertThat(d.getTopic()).isEqualTo(GZIPPED + ".gz");
                    assertThat(d.getOffset()).isEqualTo(2L);
                    assertThat(d.getErrorMessage()).contains("article 2, line ").contains("article without a PMID");
                });

                List<ConsumerRecord<String, String>> abstracts = readAbstracts(p, 8);
                assertThat(abstracts)
                        .extracting(ConsumerRecord::key)
                        .as("4 citations, the revision, the deletion, 2 Spanish citations: in file order")
                        .containsExactly(
                                "90000001",
                                "90000002",
                                "90000003",
                                "90000004.v2",
                                "90000001",
                                "90000003",
                                "90000005",
                                "90000006");
                assertThat(abstracts.get(5).value()).isNull();

                awaitIndexCount(os, 5);
                ObjectNode indexed = os.client
                        .search(
                                s -> s.index(INDEX)
                                        .query(q -> q.term(
                                                t -> t.field("documentId").value(v -> v.stringValue("90000001")))),
                                ObjectNode.class)
                        .hits()
                        .hits()
                        .get(0)
                        .source();
                assertThat(indexed.get("abstract").asText()).contains("Lithium prevented the seizures");

                FILES.forEach(this::drop);
                Thread.sleep(8_000); // four scans of the directory
                assertThat(readAbstracts(p, 8))
                        .as("the same files again: nothing new")
                        .hasSize(8);
                assertThat(os.count(INDEX)).isEqualTo(5);
            } finally {
                ingest.cancel().get();
            }
        }
    }

    private static String modelOf(DocumentEntities d) {
        return d.getModelName() + ":" + d.getModelVersion();
    }

    private JobClient startIngest(JobConfig annotation) throws Exception {
        // the annotation job's input and dead-letter topics, a group and transactional ids of its own
        IngestConfig cfg = IngestConfig.from(Configuration.fromMap(Map.of(
                "ingest.directory", watched.toUri().toString(),
                "ingest.monitor-interval", "2 s",
                "ingest.min-file-age", "1 s",
                "kafka.bootstrap-servers", annotation.kafka().bootstrapServers(),
                "kafka.input-topic", annotation.kafka().inputTopic(),
                "kafka.dead-letter-topic", annotation.kafka().deadLetterTopic(),
                "kafka.group-id", "pubmed-ingest",
                "kafka.transactional-id-prefix", "pubmed-ingest",
                "job.checkpoint-interval", "1 s")));
        StreamExecutionEnvironment env = FLINK.environment(new Configuration(), PARALLELISM);
        IngestJob.wire(env, cfg);
        return env.executeAsync(IngestJob.NAME);
    }

    /**
     * Copies a test file in the way the README tells users to: a hidden name first, then an atomic
     * rename. The second file goes in gzipped, as NCBI publishes them ({@link #GZIPPED}).
     */
    private void drop(String name) {
        String target = name.equals(GZIPPED) ? name + ".gz" : name;
        try (InputStream in = getClass().getResourceAsStream("/pubmed/" + name)) {
            Path part = watched.resolve("." + target + ".part");
            if (target.endsWith(".gz")) {
                try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(part))) {
                    in.transferTo(out);
                }
            } else {
                Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(
                    part, watched.resolve(target), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (Exception e) {
            throw new IllegalStateException("cannot drop " + name, e);
        }
    }

    /** Every committed record of the abstracts topic, read from the start until at least {@code expected}. */
    private static List<ConsumerRecord<String, String>> readAbstracts(LocalPipeline p, int expected) {
        Properties props = new Properties();
        props.put("bootstrap.servers", p.kafka.bootstrapServers());
        props.put("group.id", "abstracts-check-" + System.nanoTime());
        props.put("auto.offset.reset", "earliest");
        props.put("isolation.level", "read_committed");
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> c =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            c.subscribe(List.of(p.config.kafka().inputTopic()));
            long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            long quietUntil = 0;
            while (System.nanoTime() < deadline && (out.size() < expected || System.nanoTime() < quietUntil)) {
                c.poll(Duration.ofMillis(500)).forEach(out::add);
                if (out.size() >= expected && quietUntil == 0) {
                    quietUntil = System.nanoTime() + Duration.ofSeconds(3).toNanos(); // anything beyond would show now
                }
            }
        }
        return out;
    }

    private static void awaitIndexCount(OpenSearchNode os, long expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        long count = -1;
        while (System.nanoTime() < deadline && (count = countOrMissing(os)) != expected) {
            Thread.sleep(500);
        }
        assertThat(count).as("documents in the index").isEqualTo(expected);
    }

    private static long countOrMissing(OpenSearchNode os) {
        try {
            return os.count(INDEX);
        } catch (Exception e) {
            return -1; // the index is created with the first bulk request
        }
    }
}
