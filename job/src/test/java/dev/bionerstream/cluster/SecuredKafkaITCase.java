package dev.bionerstream.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.Delivery;
import dev.bionerstream.demo.RunsBesideOthers;
import dev.bionerstream.demo.SampleAbstracts;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.demo.TopicWriter;
import dev.bionerstream.ingest.IngestConfig;
import dev.bionerstream.ingest.IngestJob;
import dev.bionerstream.job.BionerJob;
import dev.bionerstream.job.JobConfig;
import dev.bionerstream.kafka.KafkaPermissions;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.SessionFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The job against Kafka as k8s/ deploys it: a KRaft broker with a TLS listener (a CA and certificate
 * made for the test), SCRAM-SHA-512 users, and the standard authorizer holding exactly the ACLs of
 * {@code k8s/kafka-user.yaml} (read from that file); the job gets the {@code kafka.*} arguments of
 * {@code k8s/flink-deployment.yaml} (the Secrets' values put in). It runs exactly once and reaches
 * nothing else; a user missing one ACL is refused before the job starts, the ACL named. The feed job
 * runs and is checked the same way, with its settings and user ({@code k8s/ingest-deployment.yaml},
 * {@code bioner-ingest}).
 */
@RunsBesideOthers
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecuredKafkaITCase {
    static final Duration STALL = Duration.ofMinutes(5);
    static final int ABSTRACTS = 6;

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(1)
            .build());

    private final Path dir = Path.of("target", "secured-kafka-itcase").toAbsolutePath();
    private final Map<String, String> passwords = new LinkedHashMap<>();
    private KafkaProcess broker;
    private TestCertificates certs;
    private List<AclBinding> acls;

    @BeforeAll
    void startBroker() throws Exception {
        ClusterSetup.deleteRecursively(dir);
        certs = TestCertificates.make(dir.resolve("certs"));
        acls = aclsOf(ClusterSetup.repositoryRoot().resolve("k8s/kafka-user.yaml"));
        acls.forEach(a -> passwords.putIfAbsent(user(a), "pw-" + user(a) + "-" + Long.toHexString(System.nanoTime())));
        broker = KafkaProcess.formatSecured(dir.resolve("kafka"), certs, passwords);
        broker.start();
        try (Admin admin = admin()) {
            admin.createTopics(List.of("abstracts", "entities", "entity-documents", "abstracts-dlq").stream()
                            .map(t -> new NewTopic(t, 1, (short) 1))
                            .toList())
                    .all()
                    .get();
            admin.createAcls(acls).all().get();
        } catch (Exception e) {
            throw new AssertionError("the secured broker did not come up: " + e + "\n" + broker.log(), e);
        }
    }

    @AfterAll
    void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void theJobWithTheManifestsSettingsRunsExactlyOnceAndReachesNothingElse() throws Exception {
        JobConfig cfg = jobConfig();
        BionerJob.checkKafkaPermissions(cfg);
        List<String> sample = SampleAbstracts.load(ABSTRACTS);
        TopicWriter.produce(broker.adminBootstrap(), "abstracts", sample);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                Configuration.fromMap(Map.of("restart-strategy.type", "none")));
        BionerJob.wire(env, cfg, SessionFactory.ONNX_RUNTIME);
        JobClient job = env.executeAsync("bioner-stream on secured Kafka");
        List<DocumentEntities> docs;
        try (var read = new TopicReader<>(broker.adminBootstrap(), "entity-documents", DocumentEntities.class)) {
            read.pollWhileProgressing(sample.size() + " documents", l -> l.size() >= sample.size(), STALL);
            Thread.sleep(3000); // a duplicate would come with the next checkpoints
            docs = read.poll(Duration.ofSeconds(1));
        } finally {
            job.cancel().get();
        }
        Delivery delivery = Delivery.of(sample, docs);
        assertThat(delivery.missing())
                .as("documents missing under read_committed")
                .isEmpty();
        assertThat(delivery.duplicated()).as("documents seen twice").isEmpty();

        // its ACLs hold it to its own work: it may not read what it writes, nor write what it reads
        assertThatThrownBy(() -> new KafkaPermissions(cfg.kafka())
                        .reads("entity-documents", "another job's output")
                        .writes("abstracts", "the input")
                        .check())
                .hasMessageContainingAll("READ on topic 'entity-documents'", "WRITE on topic 'abstracts'");
    }

    @Test
    void aUserMissingOneAclIsRefusedBeforeTheJobStartsWithTheAclNamed() throws Exception {
        JobConfig cfg = jobConfig();
        Check job = () -> BionerJob.checkKafkaPermissions(cfg);
        assertMissing(
                job,
                "bioner-stream",
                ResourceType.TRANSACTIONAL_ID,
                null,
                "WRITE on transactional ids starting with 'bioner-stream'");
        assertMissing(
                job,
                "bioner-stream",
                ResourceType.TOPIC,
                "abstracts-dlq",
                "WRITE on topic 'abstracts-dlq' (the dead letters");
        assertMissing(job, "bioner-stream", ResourceType.GROUP, null, "READ on group 'bioner-stream'");
    }

    @Test
    void theFeedJobWithItsManifestsSettingsRunsAndIsCheckedTheSameWay() throws Exception {
        Path watched = Files.createDirectories(dir.resolve("pubmed"));
        Map<String, String> given = settings("k8s/ingest-deployment.yaml", "bioner-ingest");
        given.put("ingest.directory", watched.toUri().toString());
        given.put("ingest.monitor-interval", "1 s");
        given.put("ingest.min-file-age", "1 s");
        given.put("job.checkpoint-interval", "1 s");
        IngestConfig cfg = IngestConfig.from(Configuration.fromMap(given));
        IngestJob.checkKafkaPermissions(cfg);

        // it runs, exactly once, on the feed's user: a PubMed file's four citations on the abstracts topic
        try (InputStream in = getClass().getResourceAsStream("/pubmed/pubmed26n0001.xml")) {
            Files.copy(in, watched.resolve("pubmed26n0001.xml"));
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                Configuration.fromMap(Map.of("restart-strategy.type", "none")));
        IngestJob.wire(env, cfg);
        JobClient job = env.executeAsync("feed job on secured Kafka");
        try {
            assertThat(committedCitationKeys(4))
                    .as("the citations of pubmed26n0001.xml, read_committed")
                    .containsExactly("90000001", "90000002", "90000003", "90000004.v2");
        } finally {
            job.cancel().get();
        }

        Check ingest = () -> IngestJob.checkKafkaPermissions(cfg);
        assertMissing(
                ingest,
                "bioner-ingest",
                ResourceType.TRANSACTIONAL_ID,
                null,
                "WRITE on transactional ids starting with 'bioner-ingest'");
        assertMissing(ingest, "bioner-ingest", ResourceType.TOPIC, "abstracts", "WRITE on topic 'abstracts'");
    }

    /** The keys of the test citations (PMIDs 9000000x) on the abstracts topic, read_committed over ADMIN. */
    private List<String> committedCitationKeys(int expected) {
        Properties p = new Properties();
        p.put("bootstrap.servers", broker.adminBootstrap());
        p.put("group.id", "citations-check-" + System.nanoTime());
        p.put("auto.offset.reset", "earliest");
        p.put("isolation.level", "read_committed");
        List<String> keys = new ArrayList<>();
        try (KafkaConsumer<String, String> c =
                new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            c.subscribe(List.of("abstracts"));
            long deadline = System.nanoTime() + STALL.toNanos();
            while (keys.size() < expected && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(500)).forEach(r -> {
                    if (r.key() != null && r.key().startsWith("9000000")) {
                        keys.add(r.key());
                    }
                });
            }
            c.poll(Duration.ofSeconds(3)).forEach(r -> {
                if (r.key() != null && r.key().startsWith("9000000")) {
                    keys.add(r.key()); // a duplicate would show here
                }
            });
        }
        return keys;
    }

    interface Check {
        void run() throws Exception;
    }

    /**
     * Takes {@code user}'s ACLs of {@code type} (named {@code name}, if given) away, checks that {@code
     * check} refuses with {@code message}, and gives them back.
     */
    private void assertMissing(Check check, String user, ResourceType type, String name, String message)
            throws Exception {
        List<AclBinding> taken = acls.stream()
                .filter(a -> user(a).equals(user) && a.pattern().resourceType() == type)
                .filter(a -> name == null || a.pattern().name().equals(name))
                .toList();
        assertThat(taken).as("%s's %s ACLs in k8s/kafka-user.yaml", user, type).isNotEmpty();
        try (Admin admin = admin()) {
            admin.deleteAcls(taken.stream().map(AclBinding::toFilter).toList())
                    .all()
                    .get();
            assertThatThrownBy(check::run)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(message)
                    .hasMessageContaining("k8s/kafka-user.yaml");
        } finally {
            try (Admin admin = admin()) {
                admin.createAcls(taken).all().get();
            }
        }
    }

    /** The annotation job's settings: its manifest's, for the exactly-once run here. */
    private JobConfig jobConfig() throws IOException {
        Map<String, String> given = settings("k8s/flink-deployment.yaml", "bioner-stream");
        given.put("kafka.starting-offsets", "earliest");
        given.put("kafka.delivery-guarantee", "exactly-once");
        given.put("job.checkpoint-interval", "1 s");
        given.put("model.threads", "1");
        return JobConfig.from(Configuration.fromMap(given), BundleChoice.NO_INSTALLATION);
    }

    /**
     * A manifest's kafka.* arguments with {@code user}'s Secret values in place of ${env:...}, and this
     * broker's address.
     */
    private Map<String, String> settings(String manifest, String user) throws IOException {
        List<String> args = jobArgs(ClusterSetup.repositoryRoot().resolve(manifest));
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.size(); i += 2) {
            if (args.get(i).startsWith("--kafka.")) {
                given.put(
                        args.get(i).substring(2),
                        args.get(i + 1)
                                .replace("${env:KAFKA_SASL_JAAS_CONFIG}", jaas(user))
                                .replace("${env:KAFKA_CA_CERT}", certs.caPem()));
            }
        }
        assertThat(given)
                .as("the Kafka client settings of " + manifest)
                .containsEntry("kafka.properties.security.protocol", "SASL_SSL")
                .containsEntry("kafka.properties.sasl.mechanism", "SCRAM-SHA-512");
        given.put("kafka.bootstrap-servers", broker.bootstrapServers());
        return given;
    }

    private String jaas(String user) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user + "\" password=\""
                + passwords.get(user) + "\";";
    }

    private Admin admin() {
        Properties p = new Properties();
        p.put("bootstrap.servers", broker.adminBootstrap());
        return Admin.create(p);
    }

    private static String user(AclBinding a) {
        return a.entry().principal().substring("User:".length());
    }

    @SuppressWarnings("unchecked")
    static List<String> jobArgs(Path manifest) throws IOException {
        for (Object doc : yaml(manifest)) {
            Map<String, Object> m = (Map<String, Object>) doc;
            if ("FlinkDeployment".equals(m.get("kind"))) {
                Map<String, Object> job = (Map<String, Object>) ((Map<String, Object>) m.get("spec")).get("job");
                return ((List<Object>) job.get("args"))
                        .stream().map(String::valueOf).toList();
            }
        }
        throw new AssertionError("no FlinkDeployment in " + manifest);
    }

    /** Each KafkaUser's ACLs, its name the principal, as Strimzi's User Operator creates them. */
    @SuppressWarnings("unchecked")
    static List<AclBinding> aclsOf(Path kafkaUsers) throws IOException {
        List<AclBinding> out = new ArrayList<>();
        for (Object doc : yaml(kafkaUsers)) {
            Map<String, Object> user = (Map<String, Object>) doc;
            String principal = "User:" + ((Map<String, Object>) user.get("metadata")).get("name");
            Map<String, Object> authorization =
                    (Map<String, Object>) ((Map<String, Object>) user.get("spec")).get("authorization");
            for (Object a : (List<Object>) authorization.get("acls")) {
                Map<String, Object> acl = (Map<String, Object>) a;
                Map<String, Object> resource = (Map<String, Object>) acl.get("resource");
                ResourcePattern pattern = new ResourcePattern(
                        resourceType((String) resource.get("type")),
                        (String) resource.get("name"),
                        "prefix".equals(resource.get("patternType")) ? PatternType.PREFIXED : PatternType.LITERAL);
                for (Object op : (List<Object>) acl.get("operations")) {
                    out.add(new AclBinding(
                            pattern,
                            new AccessControlEntry(
                                    principal,
                                    "*",
                                    AclOperation.fromString(((String) op).toUpperCase(Locale.ROOT)),
                                    AclPermissionType.ALLOW)));
                }
            }
        }
        return out;
    }

    /** Strimzi's resource types: topic, group, transactionalId, cluster. */
    private static ResourceType resourceType(String strimzi) {
        return switch (strimzi) {
            case "transactionalId" -> ResourceType.TRANSACTIONAL_ID;
            default -> ResourceType.fromString(strimzi.toUpperCase(Locale.ROOT));
        };
    }

    private static List<Object> yaml(Path file) throws IOException {
        List<Object> docs = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(in).forEach(d -> {
                if (d != null) {
                    docs.add(d);
                }
            });
        }
        return docs;
    }
}
