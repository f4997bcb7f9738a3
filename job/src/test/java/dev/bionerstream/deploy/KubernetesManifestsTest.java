package dev.bionerstream.deploy;

import static dev.bionerstream.deploy.DeployFiles.at;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.job.JobOptions;
import dev.bionerstream.kafka.KafkaOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** k8s/*.yaml: the FlinkDeployment's required fields, GPU layout, state, secrets, topics and metrics. */
class KubernetesManifestsTest {
    private static final String SECRETS_EXAMPLE = "secrets.example.yaml";

    /** Every document of every manifest, with the file it came from. */
    private record Manifest(String file, Map<String, Object> doc) {
        String kind() {
            return (String) doc.get("kind");
        }
    }

    private static final List<Manifest> MANIFESTS = new ArrayList<>();

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void load() throws Exception {
        MANIFESTS.clear();
        for (Path file : DeployFiles.kubernetesManifests()) {
            for (Object doc : DeployFiles.load(file)) {
                MANIFESTS.add(new Manifest(file.getFileName().toString(), (Map<String, Object>) doc));
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theOperatorAppendsTheImagesQuietLoggersToEveryJobsLogConfiguration() throws Exception {
        Map<String, Object> values =
                (Map<String, Object>) DeployFiles.load(DeployFiles.root().resolve("k8s/operator/values.yaml"))
                        .get(0);
        assertThat((Boolean) at(values, "defaultConfiguration", "append")).isTrue();
        String operator = at(values, "defaultConfiguration", "log4j-console.properties");
        String images = java.nio.file.Files.readString(DeployFiles.root().resolve("docker/log4j-quiet.properties"));
        assertThat(settings(operator))
                .as("k8s/operator/values.yaml against docker/log4j-quiet.properties")
                .isEqualTo(settings(images))
                .containsEntry("logger.metricgroup.name", "org.apache.flink.metrics.MetricGroup")
                .containsEntry("logger.metricgroup.level", "ERROR");
    }

    private static Map<String, String> settings(String properties) throws java.io.IOException {
        java.util.Properties p = new java.util.Properties();
        p.load(new java.io.StringReader(properties));
        Map<String, String> m = new java.util.TreeMap<>();
        p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
        return m;
    }

    @Test
    void everyManifestIsAKubernetesObject() {
        assertThat(MANIFESTS)
                .extracting(Manifest::kind)
                .contains(
                        "Namespace",
                        "FlinkDeployment",
                        "KafkaTopic",
                        "KafkaUser",
                        "PodMonitor",
                        "Secret",
                        "PersistentVolumeClaim");
        for (Manifest m : MANIFESTS) {
            assertThat(m.doc()).as(m.file()).containsKeys("apiVersion", "kind", "metadata");
            assertThat((String) at(m.doc(), "metadata", "name")).as(m.file()).isNotBlank();
        }
    }

    @Test
    void flinkDeploymentRunsTheJobInApplicationModeWithSavepointUpgrades() {
        Map<String, Object> spec = at(flinkDeployment(), "spec");
        assertThat((String) spec.get("image")).matches(DeployFiles::pinned, "a pinned image");
        assertThat(spec.get("flinkVersion")).isEqualTo("v2_2");
        assertThat((String) at(spec, "job", "jarURI"))
                .startsWith("local:///opt/flink/usrlib/")
                .endsWith(".jar");
        assertThat((String) at(spec, "job", "entryClass")).isEqualTo("dev.bionerstream.job.BionerJob");
        assertThat((String) at(spec, "job", "upgradeMode")).isEqualTo("savepoint");
        assertThat((String) at(spec, "job", "state")).isEqualTo("running");
        assertThat(arg("--model.bundle")).startsWith("/models/");
        assertThat(arg("--kafka.bootstrap-servers")).isNotBlank();
    }

    @Test
    void spanishRecordsGoToTheBundleTheImageCarries() {
        String spanish = arg("--model.language-bundles");
        assertThat(spanish).startsWith("spa=");
        assertThat(DeployFiles.shippedBundle(spanish).getFileName()).hasToString("pharmaconer-es");
    }

    @Test
    void everyTaskManagerKeepsFlinksMetricsThreadForItsLife() {
        for (String job : List.of("bioner-stream", "bioner-ingest")) {
            Map<String, Object> conf = at(named("FlinkDeployment", job), "spec", "flinkConfiguration");
            assertThat(String.valueOf(conf.get("env.java.opts.taskmanager")))
                    .as("%s: no job's task starts Flink's metrics RPC thread anew (it would hold that job)", job)
                    .contains(DockerComposeTest.KEEP_METRICS_THREAD);
        }
    }

    @Test
    void ingestJobReadsTheFeedVolumeWithOneReader() {
        Map<String, Object> spec = at(named("FlinkDeployment", "bioner-ingest"), "spec");
        assertThat((String) spec.get("image")).matches(DeployFiles::pinned, "a pinned image");
        assertThat((String) at(spec, "job", "entryClass")).isEqualTo("dev.bionerstream.ingest.IngestJob");
        assertThat(String.valueOf((Object) at(spec, "job", "parallelism"))).isEqualTo("1");
        List<String> args = at(spec, "job", "args");
        String dir = args.get(args.indexOf("--ingest.directory") + 1);
        Map<String, Object> container =
                ((List<Map<String, Object>>) at(spec, "podTemplate", "spec", "containers")).get(0);
        List<Map<String, Object>> mounts = at(container, "volumeMounts");
        assertThat(mounts).anySatisfy(m -> assertThat(dir).isEqualTo("file://" + m.get("mountPath")));
        List<Map<String, Object>> volumes = at(spec, "podTemplate", "spec", "volumes");
        String claim = at(volumes.get(0), "persistentVolumeClaim", "claimName");
        assertThat(named("PersistentVolumeClaim", claim)).isNotNull();
        assertThat((String) at(spec, "flinkConfiguration", "execution.checkpointing.dir"))
                .as("its own checkpoints, apart from the annotation job's")
                .isNotEqualTo(flinkConfiguration().get("execution.checkpointing.dir"));
    }

    @Test
    void stateGoesToObjectStorageWithKubernetesHaAndExponentialRestarts() {
        Map<String, Object> conf = flinkConfiguration();
        assertThat((String) conf.get("execution.checkpointing.dir")).startsWith("s3://");
        assertThat((String) conf.get("execution.checkpointing.savepoint-dir")).startsWith("s3://");
        assertThat(conf.get("high-availability.type")).isEqualTo("kubernetes");
        assertThat((String) conf.get("high-availability.storageDir")).startsWith("s3://");
        assertThat(conf.get("restart-strategy.type")).isEqualTo("exponential-delay");
        assertThat(conf)
                .containsKeys(
                        "restart-strategy.exponential-delay.initial-backoff",
                        "restart-strategy.exponential-delay.max-backoff");
        assertThat(envNames()).contains("ENABLE_BUILT_IN_PLUGINS");
    }

    @Test
    void taskManagersShareOneGpuPerPodAcrossTheirSlots() {
        Map<String, Object> spec = at(flinkDeployment(), "spec");
        List<Map<String, Object>> containers = at(spec, "taskManager", "podTemplate", "spec", "containers");
        Map<String, Object> main = containers.stream()
                .filter(c -> "flink-main-container".equals(c.get("name")))
                .findFirst()
                .orElseThrow();
        assertThat(String.valueOf((Object) at(main, "resources", "limits", "nvidia.com/gpu")))
                .isEqualTo("1");
        int slots = Integer.parseInt(String.valueOf(flinkConfiguration().get("taskmanager.numberOfTaskSlots")));
        assertThat(slots).isGreaterThan(1);
        int parallelism = (Integer) at(spec, "job", "parallelism");
        assertThat(parallelism % slots)
                .as("parallelism fills whole TaskManagers")
                .isZero();
        assertThat(arg("--job.parallelism")).isEqualTo(String.valueOf(parallelism));
        assertThat(arg("--model.device")).startsWith("cuda");
    }

    @Test
    void prometheusReporterIsScrapedByThePodMonitor() {
        Map<String, Object> conf = flinkConfiguration();
        assertThat(conf.get("metrics.reporter.prom.factory.class"))
                .isEqualTo("org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
        String port = String.valueOf(conf.get("metrics.reporter.prom.port"));
        Map<String, Object> podMonitor = only("PodMonitor").doc();
        Map<String, Object> selector = at(podMonitor, "spec", "selector", "matchLabels");
        Map<String, Object> podLabels = at(flinkDeployment(), "spec", "podTemplate", "metadata", "labels");
        assertThat(podLabels).containsAllEntriesOf(selector);
        List<Map<String, Object>> endpoints = at(podMonitor, "spec", "podMetricsEndpoints");
        List<Map<String, Object>> ports = at(mainContainer(), "ports");
        assertThat(ports).anySatisfy(p -> {
            assertThat(p.get("name")).isEqualTo(endpoints.get(0).get("port"));
            assertThat(String.valueOf(p.get("containerPort"))).isEqualTo(port);
        });
    }

    @Test
    void kafkaTopicsAreTheJobsTopics() {
        Set<String> topics = new TreeSet<>();
        for (Manifest m : MANIFESTS) {
            if ("KafkaTopic".equals(m.kind())) {
                assertThat((String) at(m.doc(), "metadata", "labels", "strimzi.io/cluster"))
                        .isNotBlank();
                assertThat((Integer) at(m.doc(), "spec", "partitions")).isPositive();
                topics.add(at(m.doc(), "spec", "topicName"));
            }
        }
        assertThat(topics)
                .containsExactlyInAnyOrder(
                        KafkaOptions.INPUT_TOPIC.defaultValue(),
                        JobOptions.ENTITIES_TOPIC.defaultValue(),
                        JobOptions.DOCUMENTS_TOPIC.defaultValue(),
                        KafkaOptions.DEAD_LETTER_TOPIC.defaultValue());
    }

    @Test
    void eachJobHasItsOwnKafkaUserWithTheAclsItsArgumentsNeed() {
        Map<String, Object> job = flinkDeployment();
        Map<String, Object> ingest = named("FlinkDeployment", "bioner-ingest");
        assertThat(kafkaSecret(job)).isNotEqualTo(kafkaSecret(ingest));

        String input = argOr(job, KafkaOptions.INPUT_TOPIC.key(), KafkaOptions.INPUT_TOPIC.defaultValue());
        String dlq = argOr(job, KafkaOptions.DEAD_LETTER_TOPIC.key(), KafkaOptions.DEAD_LETTER_TOPIC.defaultValue());
        Map<String, Object> annotator = named("KafkaUser", "bioner-stream");
        assertThat(grants(annotator, "topic", input)).contains("Read");
        assertThat(grants(
                        annotator,
                        "group",
                        argOr(job, KafkaOptions.GROUP_ID.key(), KafkaOptions.GROUP_ID.defaultValue())))
                .contains("Read");
        for (var topic :
                List.of(JobOptions.ENTITIES_TOPIC, JobOptions.DOCUMENTS_TOPIC, KafkaOptions.DEAD_LETTER_TOPIC)) {
            assertThat(grants(annotator, "topic", argOr(job, topic.key(), topic.defaultValue())))
                    .as(topic.key())
                    .contains("Write");
        }
        assertThat(grants(annotator, "transactionalId", transactionalPrefix(job)))
                .contains("Write");

        Map<String, Object> feed = named("KafkaUser", "bioner-ingest");
        assertThat(grants(feed, "topic", argOr(ingest, KafkaOptions.INPUT_TOPIC.key(), input)))
                .contains("Write")
                .doesNotContain("Read");
        assertThat(grants(feed, "topic", argOr(ingest, KafkaOptions.DEAD_LETTER_TOPIC.key(), dlq)))
                .contains("Write");
        assertThat(grants(feed, "transactionalId", transactionalPrefix(ingest))).contains("Write");
    }

    /** The operations {@code user}'s ACLs allow on the resource {@code name} of {@code type}. */
    private static Set<String> grants(Map<String, Object> user, String type, String name) {
        Set<String> ops = new TreeSet<>();
        List<Map<String, Object>> acls = at(user, "spec", "authorization", "acls");
        for (Map<String, Object> acl : acls) {
            Map<String, Object> r = at(acl, "resource");
            String aclName = (String) r.get("name");
            boolean matches = "prefix".equals(r.get("patternType")) ? name.startsWith(aclName) : name.equals(aclName);
            if (type.equals(r.get("type")) && matches) {
                ops.addAll(at(acl, "operations"));
            }
        }
        return ops;
    }

    private static String transactionalPrefix(Map<String, Object> deployment) {
        return argOr(
                deployment,
                KafkaOptions.TRANSACTIONAL_ID_PREFIX.key(),
                KafkaOptions.TRANSACTIONAL_ID_PREFIX.defaultValue());
    }

    private static String argOr(Map<String, Object> deployment, String key, String fallback) {
        List<String> args = at(deployment, "spec", "job", "args");
        int i = args.indexOf("--" + key);
        return i < 0 ? fallback : args.get(i + 1);
    }

    private static String kafkaSecret(Map<String, Object> deployment) {
        List<Map<String, Object>> containers = at(deployment, "spec", "podTemplate", "spec", "containers");
        List<Map<String, Object>> env = at(containers.get(0), "env");
        return env.stream()
                .filter(v -> "KAFKA_SASL_JAAS_CONFIG".equals(v.get("name")))
                .map(v -> (String) at(v, "valueFrom", "secretKeyRef", "name"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void credentialsComeFromSecretsThroughEnvironmentVariables() {
        Map<String, Set<String>> secretKeys = secretsInExample();
        List<Map<String, Object>> env = at(mainContainer(), "env");
        for (Map<String, Object> var : env) {
            String name = (String) var.get("name");
            Map<String, Object> ref = at(var, "valueFrom", "secretKeyRef");
            if (ref != null) {
                assertThat(secretKeys).as("Secret of " + name).containsKey((String) ref.get("name"));
                assertThat(secretKeys.get((String) ref.get("name")))
                        .as("key of " + name)
                        .contains((String) ref.get("key"));
            } else {
                assertThat(name)
                        .as(name + " must come from a Secret")
                        .doesNotMatch("(?i).*(password|secret|username|jaas|access_key|cert|hosts).*");
            }
        }
        assertThat(envNames())
                .contains("OPENSEARCH_HOSTS", "OPENSEARCH_USERNAME", "OPENSEARCH_PASSWORD", "KAFKA_SASL_JAAS_CONFIG");
        // Kafka SASL settings in the args are placeholders the Kafka clients resolve from the environment.
        assertThat(arg("--kafka.properties.sasl.jaas.config")).matches("\\$\\{env:[A-Z0-9_]+}");
        assertThat(arg("--kafka.properties.config.providers.env.class"))
                .isEqualTo("org.apache.kafka.common.config.provider.EnvVarConfigProvider");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theViewerReadsTheJobsIndexWithItsSecretAndStaysInsideTheCluster() {
        Map<String, Object> deployment = named("Deployment", "bioner-viewer");
        List<Map<String, Object>> containers = at(deployment, "spec", "template", "spec", "containers");
        Map<String, Object> viewer = containers.get(0);
        assertThat((String) viewer.get("image")).isEqualTo(at(flinkDeployment(), "spec", "image"));
        assertThat(String.join(" ", (List<String>) viewer.get("command")))
                .contains("/opt/flink/usrlib/bioner-stream-job.jar:/opt/flink/lib/*")
                .endsWith("dev.bionerstream.cli.Main");
        List<String> args = (List<String>) viewer.get("args");
        assertThat(args.get(0)).isEqualTo("view");
        assertThat(args.get(args.indexOf("--index") + 1)).isEqualTo(arg("--opensearch.index"));
        List<Map<String, Object>> env = (List<Map<String, Object>>) viewer.get("env");
        Map<String, Set<String>> secretKeys = secretsInExample();
        assertThat(env)
                .extracting(v -> (String) v.get("name"))
                .containsExactlyInAnyOrder(
                        "OPENSEARCH_HOSTS", "OPENSEARCH_USERNAME", "OPENSEARCH_PASSWORD", "OPENSEARCH_CA_CERT");
        for (Map<String, Object> var : env) {
            Map<String, Object> ref = at(var, "valueFrom", "secretKeyRef");
            assertThat(secretKeys.get((String) ref.get("name")))
                    .as(var.get("name") + "")
                    .contains((String) ref.get("key"));
        }
        Map<String, Object> service = named("Service", "bioner-viewer");
        assertThat((String) at(service, "spec", "type")).isEqualTo("ClusterIP");
        assertThat((Map<String, Object>) at(service, "spec", "selector"))
                .isEqualTo(at(deployment, "spec", "template", "metadata", "labels"));
        assertThat((String) at(viewer, "readinessProbe", "httpGet", "path")).isEqualTo("/");
    }

    @Test
    void noSecretValueIsWrittenInAnyManifest() {
        for (Manifest m : MANIFESTS) {
            if ("Secret".equals(m.kind())) {
                assertThat(m.file()).as("Secrets only in the example file").isEqualTo(SECRETS_EXAMPLE);
                assertThat(m.doc()).as("no base64 data in the example").doesNotContainKey("data");
                Map<String, Object> data = at(m.doc(), "stringData");
                data.forEach((k, v) ->
                        assertThat(String.valueOf(v)).as(k + " placeholder").matches("<.+>"));
                continue;
            }
            DeployFiles.walk(m.doc(), "", (path, value) -> {
                if (value instanceof String s
                        && DeployFiles.SECRET_KEY
                                .matcher(DeployFiles.lastKey(path))
                                .matches()) {
                    assertThat(s).as(m.file() + " " + path).matches("\\$\\{env:[A-Z0-9_]+}|<.+>");
                }
            });
            List<String> args = at(m.doc(), "spec", "job", "args");
            if (args != null) {
                for (int i = 0; i + 1 < args.size(); i++) {
                    String key = args.get(i);
                    if (key.startsWith("--")
                            && (DeployFiles.SECRET_KEY.matcher(key).matches()
                                    || key.contains("truststore.certificates"))) {
                        assertThat(args.get(i + 1)).as(args.get(i)).matches("\\$\\{env:[A-Z0-9_]+}");
                    }
                }
            }
        }
    }

    @Test
    void everyImageIsPinned() {
        for (Manifest m : MANIFESTS) {
            DeployFiles.walk(m.doc(), "", (path, value) -> {
                if (DeployFiles.lastKey(path).equals("image")) {
                    assertThat(DeployFiles.pinned(String.valueOf(value)))
                            .as(m.file() + " " + path + " = " + value)
                            .isTrue();
                }
            });
        }
    }

    private static Map<String, Set<String>> secretsInExample() {
        Map<String, Set<String>> out = new HashMap<>();
        for (Manifest m : MANIFESTS) {
            if ("Secret".equals(m.kind())) {
                Map<String, Object> data = at(m.doc(), "stringData");
                out.put(at(m.doc(), "metadata", "name"), new TreeSet<>(data.keySet()));
            }
        }
        return out;
    }

    private static Manifest only(String kind) {
        List<Manifest> found =
                MANIFESTS.stream().filter(m -> kind.equals(m.kind())).toList();
        assertThat(found).as(kind).hasSize(1);
        return found.get(0);
    }

    private static Map<String, Object> flinkDeployment() {
        return named("FlinkDeployment", "bioner-stream");
    }

    private static Map<String, Object> named(String kind, String name) {
        return MANIFESTS.stream()
                .filter(m -> kind.equals(m.kind()) && name.equals(at(m.doc(), "metadata", "name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " named " + name))
                .doc();
    }

    private static Map<String, Object> flinkConfiguration() {
        return at(flinkDeployment(), "spec", "flinkConfiguration");
    }

    private static Map<String, Object> mainContainer() {
        List<Map<String, Object>> containers = at(flinkDeployment(), "spec", "podTemplate", "spec", "containers");
        return containers.stream()
                .filter(c -> "flink-main-container".equals(c.get("name")))
                .findFirst()
                .orElseThrow();
    }

    private static List<String> envNames() {
        List<Map<String, Object>> env = at(mainContainer(), "env");
        return env.stream().map(v -> (String) v.get("name")).toList();
    }

    /** The value after {@code key} in the job args. */
    private static String arg(String key) {
        List<Object> args = at(flinkDeployment(), "spec", "job", "args");
        int i = args.indexOf(key);
        assertThat(i).as("job arg " + key).isNotNegative();
        return String.valueOf(args.get(i + 1));
    }
}
