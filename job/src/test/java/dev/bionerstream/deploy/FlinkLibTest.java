package dev.bionerstream.deploy;

import static dev.bionerstream.deploy.DeployFiles.at;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The job's native code (ONNX Runtime, DJL tokenizers) goes to Flink's lib/ in every deployment:
 * both images copy flink-lib's jar list there, the job jar leaves it out, and docker-compose and the
 * Kubernetes manifest load those packages parent-first. ClusterITCase runs a cluster on that list.
 */
class FlinkLibTest {
    static final List<String> NATIVE_PACKAGES = List.of("ai.onnxruntime.", "ai.djl.");

    @Test
    void bothImagesCopyFlinkLibsListIntoLib() throws Exception {
        List<String> lines = Files.readAllLines(DeployFiles.root().resolve("Dockerfile"));
        assertThat(lines)
                .filteredOn(l -> l.strip().equals("&& cp flink-lib/target/lib/*.jar /out/lib/"))
                .as("the cpu and gpu build stages copy flink-lib/target/lib")
                .hasSize(2);
        for (String stage : List.of("build-cpu", "build-gpu")) {
            assertThat(lines)
                    .as("the image built from " + stage + " puts its lib/ jars in /opt/flink/lib")
                    .contains("COPY --from=" + stage + " --chown=flink:flink /out/lib/ /opt/flink/lib/");
        }
    }

    @Test
    void theJobModuleTakesTheNativeJarsFromFlinkLibNotItsOwnJar() throws Exception {
        String pom = Files.readString(DeployFiles.root().resolve("job/pom.xml"));
        assertThat(pom)
                .contains("<artifactId>bioner-stream-flink-lib</artifactId>")
                .doesNotContain("<artifactId>${onnxruntime.artifact}</artifactId>")
                .doesNotContain("<artifactId>tokenizers</artifactId>");
        String lib = Files.readString(DeployFiles.root().resolve("flink-lib/pom.xml"));
        assertThat(lib)
                .contains("<artifactId>${onnxruntime.artifact}</artifactId>")
                .contains("<artifactId>tokenizers</artifactId>")
                .as("Avro and its Jackson for the JobManager's parent-first patterns")
                .contains("<artifactId>avro</artifactId>")
                .contains("<artifactId>jackson-databind</artifactId>");
    }

    @Test
    void composeAndKubernetesLoadTheNativePackagesParentFirst() throws Exception {
        Path root = DeployFiles.root();
        Map<String, Object> services =
                at(DeployFiles.load(root.resolve("docker-compose.yml")).get(0), "services");
        for (String service : List.of("jobmanager", "taskmanager", "taskmanager-gpu")) {
            String properties = at(services.get(service), "environment", "FLINK_PROPERTIES");
            String patterns = properties
                    .lines()
                    .filter(l -> l.startsWith("classloader.parent-first-patterns.additional:"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(service + ": no parent-first patterns"));
            assertThat(patterns(patterns.substring(patterns.indexOf(':') + 1)))
                    .as(service)
                    .containsAll(NATIVE_PACKAGES);
        }
        Map<String, Object> deployment = DeployFiles.kubernetesManifests().stream()
                .flatMap(f -> DeployFiles.load(f).stream())
                .filter(d ->
                        "FlinkDeployment".equals(at(d, "kind")) && "bioner-stream".equals(at(d, "metadata", "name")))
                .map(d -> (Map<String, Object>) d)
                .findFirst()
                .orElseThrow();
        String k8s = at(deployment, "spec", "flinkConfiguration", "classloader.parent-first-patterns.additional");
        assertThat(patterns(k8s)).as("k8s/flink-deployment.yaml").containsAll(NATIVE_PACKAGES);
    }

    private static List<String> patterns(String value) {
        return Arrays.stream(value.split(";")).map(String::strip).toList();
    }
}
