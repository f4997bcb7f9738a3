package dev.bionerstream.deploy;

import static dev.bionerstream.deploy.DeployFiles.at;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** docker-compose.yml: the demo's services, start order, health checks, GPU profile, pinned images, no secrets. */
class DockerComposeTest {
    private static final Set<String> LONG_RUNNING =
            Set.of("kafka", "opensearch", "dashboards", "viewer", "jobmanager", "taskmanager", "taskmanager-gpu");

    private static Path root;
    private static Map<String, Object> services;

    @BeforeAll
    static void load() {
        root = DeployFiles.root();
        List<Object> docs = DeployFiles.load(root.resolve("docker-compose.yml"));
        assertThat(docs).hasSize(1);
        services = at(docs.get(0), "services");
    }

    @Test
    void hasEveryServiceOfTheDemo() {
        assertThat(services)
                .containsKeys(
                        "kafka",
                        "kafka-init",
                        "opensearch",
                        "dashboards",
                        "jobmanager",
                        "taskmanager",
                        "taskmanager-gpu",
                        "producer",
                        "viewer");
    }

    @Test
    void theViewerServesTheIndexOfTheJobOnTheHostsLoopback() {
        Object viewer = services.get("viewer");
        List<String> entrypoint = at(viewer, "entrypoint");
        assertThat(String.join(" ", entrypoint))
                .as("the job image's jar with Flink's lib/, running the command line")
                .isEqualTo(
                        "java -cp /opt/flink/usrlib/bioner-stream-job.jar:/opt/flink/lib/* dev.bionerstream.cli.Main");
        List<String> command = at(viewer, "command");
        List<String> jobCommand = at(services.get("jobmanager"), "command");
        assertThat(String.join(" ", command))
                .startsWith("view")
                .contains("--opensearch " + jobCommand.get(jobCommand.indexOf("--opensearch.hosts") + 1))
                .contains("--index bioner-documents")
                .contains("--viewer.host 0.0.0.0")
                .contains("--viewer.port 8090");
        assertThat((List<Object>) at(viewer, "ports")).containsExactly("127.0.0.1:8090:8090");
        assertThat((String) at(viewer, "depends_on", "opensearch", "condition")).isEqualTo("service_healthy");
        assertThat((String) at(viewer, "image")).isEqualTo(at(services.get("jobmanager"), "image"));
    }

    @Test
    void longRunningServicesHaveHealthChecks() {
        for (String name : LONG_RUNNING) {
            List<String> test = at(services.get(name), "healthcheck", "test");
            assertThat(test).as(name).isNotEmpty();
            assertThat(test.get(0)).as(name).isIn("CMD", "CMD-SHELL");
        }
    }

    @Test
    void startOrderWaitsForHealthyDependencies() {
        Set<String> allowed = Set.of("service_healthy", "service_completed_successfully", "service_started");
        services.forEach((name, service) -> {
            Map<String, Object> dependsOn = at(service, "depends_on");
            if (dependsOn != null) {
                dependsOn.forEach((dep, spec) -> {
                    assertThat(services).as(name + " depends on " + dep).containsKey(dep);
                    assertThat((String) at(spec, "condition"))
                            .as(name + " -> " + dep)
                            .isIn(allowed);
                    if ("service_healthy".equals(at(spec, "condition"))) {
                        assertThat((Object) at(services.get(dep), "healthcheck"))
                                .as(dep + " healthcheck")
                                .isNotNull();
                    }
                });
            }
        });
        assertThat((String) at(services.get("jobmanager"), "depends_on", "opensearch", "condition"))
                .isEqualTo("service_healthy");
        assertThat((String) at(services.get("jobmanager"), "depends_on", "kafka-init", "condition"))
                .isEqualTo("service_completed_successfully");
        assertThat((String) at(services.get("kafka-init"), "depends_on", "kafka", "condition"))
                .isEqualTo("service_healthy");
        assertThat((String) at(services.get("producer"), "depends_on", "jobmanager", "condition"))
                .isEqualTo("service_healthy");
        assertThat((String) at(services.get("dashboards"), "depends_on", "opensearch", "condition"))
                .isEqualTo("service_healthy");
    }

    @Test
    void ingestJobWatchesTheMountedFeedDirectoryWithItsOwnCheckpoints() {
        List<String> command = at(services.get("ingest"), "command");
        assertThat(String.join(" ", command))
                .startsWith("standalone-job")
                .contains("--job-classname dev.bionerstream.ingest.IngestJob")
                .contains("--ingest.directory file:///data/pubmed");
        List<String> volumes = at(services.get("ingest"), "volumes");
        assertThat(volumes).anyMatch(v -> v.endsWith(":/data/pubmed:ro") && v.contains("samples/pubmed"));
        assertThat(volumes).contains("ingest-checkpoints:/opt/flink/checkpoints");
        assertThat((Object) at(services.get("ingest-taskmanager"), "environment", "JOB_MANAGER_RPC_ADDRESS"))
                .isEqualTo("ingest");
        assertThat(root.resolve("samples/pubmed")).isDirectory();
    }

    @Test
    void jobManagerRunsTheJobInApplicationMode() {
        List<String> command = at(services.get("jobmanager"), "command");
        assertThat(command.get(0)).isEqualTo("standalone-job");
        assertThat(String.join(" ", command))
                .contains("--job-classname dev.bionerstream.job.BionerJob")
                .contains("--kafka.bootstrap-servers kafka:9092")
                .contains("--opensearch.hosts http://opensearch:9200");
        assertThat((String) at(services.get("taskmanager"), "command")).isEqualTo("taskmanager");
        assertThat((String) at(services.get("jobmanager"), "build", "target")).isEqualTo("cpu");
    }

    @Test
    void spanishRecordsGoToTheBundleTheImageCarries() throws Exception {
        List<String> command = at(services.get("jobmanager"), "command");
        String spanish = command.get(command.indexOf("--model.language-bundles") + 1);
        assertThat(spanish).startsWith("spa=");
        assertThat(DeployFiles.shippedBundle(spanish).getFileName())
                .as("the CPU TaskManagers' Spanish bundle")
                .hasToString("pharmaconer-es-int8");
        assertThat(Files.readAllLines(root.resolve("Dockerfile")))
                .filteredOn(l -> l.equals("COPY --chown=flink:flink bundles/ " + DeployFiles.IMAGE_BUNDLES))
                .as("both images (cpu, gpu) copy the repository's bundles")
                .hasSize(2);
    }

    /**
     * Flink's image entrypoint reads FLINK_PROPERTIES line by line, deletes every blank of a line and
     * splits it at its first colon: a comment line becomes a setting of its own (the compose demo's
     * config.yaml once held "#Ajob'ssubtasks...: oneTaskManagerlost"), and a value with blanks loses
     * them. So each line is a key, a colon and a value without blanks.
     */
    @Test
    void flinkPropertiesAreLinesTheImageEntrypointReadsAsWritten() {
        for (String service : List.of("jobmanager", "taskmanager", "taskmanager-gpu", "ingest", "ingest-taskmanager")) {
            String properties = at(services.get(service), "environment", "FLINK_PROPERTIES");
            assertThat(properties).as(service).isNotBlank();
            for (String line : properties.split("\n")) {
                if (!line.isBlank()) {
                    assertThat(line).as(service + ": FLINK_PROPERTIES line").matches("[a-z][a-zA-Z0-9._-]*: \\S+");
                }
            }
        }
    }

    @Test
    void onlyTheCpuTaskManagerRunsWithoutTheOptimizingCompilerAndEveryOneKeepsItsMetricsThread() {
        assertThat(taskManagerJavaOpts("taskmanager")).contains("-XX:TieredStopAtLevel=1");
        assertThat(taskManagerJavaOpts("taskmanager-gpu")).doesNotContain("-XX:TieredStopAtLevel=1");
        for (String tm : List.of("taskmanager", "taskmanager-gpu", "ingest-taskmanager")) {
            assertThat(taskManagerJavaOpts(tm))
                    .as("%s: Flink's metrics RPC thread never ends, so no job's task starts it anew", tm)
                    .contains(KEEP_METRICS_THREAD);
        }
    }

    /** The JVM setting that keeps Flink's metrics RPC thread for a TaskManager's life. */
    static final String KEEP_METRICS_THREAD =
            "-Dpekko.actor.default-dispatcher.thread-pool-executor.allow-core-timeout=off";

    private List<String> taskManagerJavaOpts(String service) {
        Object opts = ((Map<String, Object>) at(services.get(service), "environment")).get("FLINK_ENV_JAVA_OPTS_TM");
        return opts == null ? List.of() : List.of(String.valueOf(opts).split("\\s+"));
    }

    @Test
    void dashboardsAndIndexArePublished() {
        assertThat(publishedPorts()).contains("8081:8081", "9200:9200", "5601:5601");
    }

    @Test
    void gpuTaskManagerIsAnOptionalProfileWithAnNvidiaReservation() {
        Object gpu = services.get("taskmanager-gpu");
        assertThat((List<String>) at(gpu, "profiles")).containsExactly("gpu");
        List<Map<String, Object>> devices = at(gpu, "deploy", "resources", "reservations", "devices");
        assertThat(devices).hasSize(1);
        assertThat(devices.get(0)).containsEntry("driver", "nvidia").containsEntry("count", 1);
        assertThat((List<String>) devices.get(0).get("capabilities")).contains("gpu");
        assertThat((String) at(gpu, "build", "target")).isEqualTo("gpu");
        assertThat((String) at(gpu, "image")).endsWith("-gpu");
    }

    @Test
    void producerMountsTheSampleAbstractsOfTheRepository() {
        List<String> volumes = at(services.get("producer"), "volumes");
        String command = String.join(" ", (List<String>) at(services.get("producer"), "command"));
        for (String file : List.of("abstracts.jsonl", "abstracts-es.jsonl")) {
            String mount = volumes.stream()
                    .filter(v -> v.contains("/" + file + ":"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("the producer does not mount " + file + ": " + volumes));
            Path sample = root.resolve(mount.substring(0, mount.indexOf(':')));
            assertThat(sample).as("sample file mounted by the producer").exists();
            assertThat(command).contains("/samples/" + file);
        }
        assertThat(command).contains("kafka-console-producer.sh").contains("--topic abstracts");
    }

    @Test
    void everyImageIsPinned() {
        services.forEach((name, service) -> {
            String image = at(service, "image");
            assertThat(image).as(name + " image").isNotNull();
            assertThat(DeployFiles.pinned(image))
                    .as(name + " image " + image + " has a tag other than latest")
                    .isTrue();
        });
    }

    @Test
    void noSecretValuesInline() {
        DeployFiles.walk(services, "", (path, value) -> {
            if (value instanceof String s
                    && DeployFiles.SECRET_KEY.matcher(DeployFiles.lastKey(path)).matches()) {
                assertThat(s).as(path).matches("\\$\\{[A-Z0-9_]+}");
            }
        });
    }

    private static List<String> publishedPorts() {
        List<String> ports = new ArrayList<>();
        services.values().forEach(s -> {
            List<Object> p = at(s, "ports");
            if (p != null) {
                p.forEach(x -> ports.add(String.valueOf(x)));
            }
        });
        return ports;
    }

    @Test
    void dockerfileBuildsCpuAndGpuImagesFromPinnedBases() throws Exception {
        List<String> lines = Files.readAllLines(root.resolve("Dockerfile"));
        String text = String.join("\n", lines);
        assertThat(text)
                .contains("ARG FLINK_IMAGE=flink:2.2.1-java17")
                .contains("ARG MAVEN_IMAGE=maven:3.9-eclipse-temurin-17");
        assertThat(text).contains("AS cpu").contains("AS gpu");
        assertThat(text).contains("-DskipTests package").contains("-DskipTests -Pgpu package");
        assertThat(text)
                .contains("onnxruntime_gpu")
                .contains("/opt/flink/lib/")
                .contains("/opt/flink/usrlib/bioner-stream-job.jar");
        Set<String> stages = new java.util.HashSet<>();
        for (String line : lines) {
            if (line.startsWith("FROM ")) {
                String[] words = line.split("\\s+");
                String image = words[1];
                assertThat(image.startsWith("${") || stages.contains(image) || DeployFiles.pinned(image))
                        .as(line)
                        .isTrue();
                if (words.length == 4 && words[2].equalsIgnoreCase("AS")) {
                    stages.add(words[3]);
                }
            }
        }
        assertThat(text.indexOf("FROM ${FLINK_IMAGE} AS cpu"))
                .as("cpu is the last stage, the default target")
                .isGreaterThan(text.indexOf("FROM ${FLINK_IMAGE} AS gpu"));
    }
}
