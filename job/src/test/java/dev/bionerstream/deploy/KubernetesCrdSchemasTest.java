package dev.bionerstream.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * k8s/*.yaml against the CRDs of the operators that read them: the FlinkDeployments against the Flink
 * Kubernetes Operator's (1.15.0), the KafkaTopics and KafkaUsers against Strimzi's (0.49.0), the
 * PodMonitor against the Prometheus Operator's (0.93.0). A mistyped or misplaced field fails, as does
 * a wrong type or a value the CRD does not allow.
 */
class KubernetesCrdSchemasTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static CustomResourceSchemas crds;
    private static final List<Map<String, Object>> MANIFESTS = new ArrayList<>();

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void load() throws Exception {
        crds = CustomResourceSchemas.load();
        for (Path file : DeployFiles.kubernetesManifests()) {
            for (Object doc : DeployFiles.load(file)) {
                MANIFESTS.add((Map<String, Object>) doc);
            }
        }
    }

    @Test
    void everyCustomResourceMatchesItsOperatorsCrd() {
        List<String> checked = new ArrayList<>();
        Map<String, List<String>> violations = new TreeMap<>();
        for (Map<String, Object> m : MANIFESTS) {
            String group = ((String) m.get("apiVersion")).replaceAll("/?[^/]*$", "");
            String name = m.get("kind") + " " + DeployFiles.at(m, "metadata", "name");
            Optional<List<Error>> errors = crds.validate(m);
            if (group.contains(".") && !group.endsWith(".k8s.io")) {
                assertThat(errors)
                        .as("a CRD for " + name + " (" + m.get("apiVersion") + ") in src/test/resources/crds")
                        .isPresent();
            }
            errors.ifPresent(e -> {
                checked.add((String) m.get("kind"));
                if (!e.isEmpty()) {
                    violations.put(name, e.stream().map(Error::getMessage).toList());
                }
            });
        }
        assertThat(violations).as("what the CRDs refuse").isEmpty();
        assertThat(checked)
                .as("every custom resource of k8s/ was checked")
                .contains("FlinkDeployment", "KafkaTopic", "KafkaUser", "PodMonitor")
                .filteredOn("FlinkDeployment"::equals)
                .hasSize(2);
    }

    /** The hashes in the folder's README, where each file's release is named. */
    @Test
    void theCrdsAreTheOperatorsUnchanged() throws Exception {
        Path dir = Path.of(KubernetesCrdSchemasTest.class.getResource("/crds").toURI());
        Matcher row = Pattern.compile("(?m)^\\| `([^`]+)` \\|.*\\| `([0-9a-f]{64})` \\|$")
                .matcher(Files.readString(dir.resolve("README.md")));
        Map<String, String> listed = new TreeMap<>();
        while (row.find()) {
            listed.put(row.group(1), row.group(2));
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()).filter(f -> !f.equals("README.md")))
                    .as("every CRD has its row")
                    .containsExactlyInAnyOrderElementsOf(listed.keySet());
        }
        for (var e : listed.entrySet()) {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(dir.resolve(e.getKey())));
            assertThat(HexFormat.of().formatHex(sha)).as(e.getKey()).isEqualTo(e.getValue());
        }
    }

    @ParameterizedTest(name = "{0} {1}: {2} -> {3}")
    @CsvSource({
        // a field name mistyped, at the top of the spec and deep in the pod template
        "FlinkDeployment, bioner-stream, spec.job.upgradeMode, upgradeMod",
        "FlinkDeployment, bioner-stream, spec.taskManager.podTemplate.spec.containers.0.resources, resource",
        "FlinkDeployment, bioner-ingest, spec.job.parallelism, paralellism",
        "KafkaTopic, abstracts, spec.partitions, partition",
        "KafkaUser, bioner-stream, spec.authorization.acls.0.operations, operation",
        "PodMonitor, bioner-stream, spec.podMetricsEndpoints.0.port, prot",
    })
    void aMistypedFieldNameFails(String kind, String name, String path, String mistyped) {
        Change c = change(kind, name, path);
        c.parent().put(mistyped, c.parent().remove(c.field()));

        assertThat(crds.validate(c.manifest()).orElseThrow())
                .as(kind + " with " + path + " written " + mistyped)
                .anySatisfy(e -> assertThat(e.getMessage()).contains(mistyped));
    }

    @ParameterizedTest(name = "{0} {1}: {2} = {3}")
    @CsvSource({
        "FlinkDeployment, bioner-stream, spec.flinkVersion, v2_9",
        "FlinkDeployment, bioner-stream, spec.job.upgradeMode, checkpoint",
        "KafkaTopic, abstracts, spec.partitions, three",
        "KafkaUser, bioner-stream, spec.authentication.type, password",
    })
    void aValueTheCrdDoesNotAllowFails(String kind, String name, String path, String value) {
        Change c = change(kind, name, path);
        c.parent().put(c.field(), value);

        assertThat(crds.validate(c.manifest()).orElseThrow())
                .as(kind + " with " + path + " = " + value)
                .isNotEmpty();
    }

    /** A copy of the named manifest, and the object holding the field at the dotted {@code path} in it. */
    private record Change(Map<String, Object> manifest, Map<String, Object> parent, String field) {}

    @SuppressWarnings("unchecked")
    private static Change change(String kind, String name, String path) {
        Map<String, Object> found = MANIFESTS.stream()
                .filter(m -> kind.equals(m.get("kind")) && name.equals(DeployFiles.at(m, "metadata", "name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in k8s/"));
        Map<String, Object> copy = JSON.convertValue(found, Map.class);
        Map<String, Object> parent =
                DeployFiles.at(copy, path.substring(0, path.lastIndexOf('.')).split("\\."));
        String field = path.substring(path.lastIndexOf('.') + 1);
        assertThat(parent).as(kind + " " + name + " " + path).containsKey(field);
        return new Change(copy, parent, field);
    }
}
