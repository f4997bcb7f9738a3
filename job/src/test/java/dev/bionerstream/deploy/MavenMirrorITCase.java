package dev.bionerstream.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.cluster.SecurityPluginZip;
import dev.bionerstream.demo.RunsBesideOthers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.flink.util.FileUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the build downloads beyond its dependencies goes through Maven, as on a company machine whose
 * {@code settings.xml} sends everything through a mirror, or on a fresh one with an empty local
 * repository: the secured-index tests' OpenSearch plugin zip (job/pom.xml's {@code
 * opensearch-security-plugin} executions, run on a copy of the POMs) is resolved from an empty local
 * repository through a mirror of everything ({@code <mirrorOf>*</mirrorOf>}: a {@link
 * StandInRepository} serving this build's local repository) and unpacked; then again offline with
 * the mirror gone, from the local repository, where a zip of other bytes is refused before a node
 * would install it. A URL of Central written into the POM, or a download into a folder that does not exist
 * yet, fails here.
 */
@RunsBesideOthers
class MavenMirrorITCase {
    static final String ZIP = "org/opensearch/plugin/opensearch-security/2.19.1.0/opensearch-security-2.19.1.0.zip";
    static final List<String> GOALS = List.of(
            "org.apache.maven.plugins:maven-dependency-plugin:copy@opensearch-security-plugin",
            "org.apache.maven.plugins:maven-dependency-plugin:unpack@opensearch-security-plugin-unpacked");

    @TempDir
    Path dir;

    @Test
    void theSecurityPluginResolvesThroughAMirrorIntoAnEmptyLocalRepositoryThenOffline() throws Exception {
        Path project = copyOfThePoms();
        Path local = Files.createDirectories(dir.resolve("empty-local-repository"));
        Path target = project.resolve("job/target");
        try (StandInRepository mirror = StandInRepository.serving(buildsLocalRepository())) {
            RepositoryScript online = maven(project, settings(mirror.url()), local, false);
            assertThat(online.exitCode()).as(online.output()).isZero();
            assertThat(mirror.requested()).as("paths asked of the mirror").contains(ZIP);
        }
        assertThat(local.resolve(ZIP)).as("the zip in the local repository").isRegularFile();
        assertThat(SecurityPluginZip.checked(target).resolve("opensearch-security/plugin-descriptor.properties"))
                .isRegularFile();

        // offline, the mirror gone: from the local repository, where a zip of other bytes now lies
        FileUtils.deleteDirectory(target.toFile());
        otherZip(local.resolve(ZIP));
        RepositoryScript offline = maven(project, settings("http://127.0.0.1:9/"), local, true);
        assertThat(offline.exitCode())
                .as("offline, the mirror gone: %s", offline.output())
                .isZero();
        assertThat(target.resolve("opensearch-plugins/opensearch-security/plugin-descriptor.properties"))
                .as("unpacked offline")
                .isRegularFile();
        assertThatThrownBy(() -> SecurityPluginZip.checked(target))
                .hasMessageContaining("is not the opensearch-security the build pins");
    }

    /** A zip that unpacks as the plugin's would, of other bytes. */
    private static void otherZip(Path at) throws Exception {
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(at))) {
            zip.putNextEntry(new ZipEntry("plugin-descriptor.properties"));
            zip.write("name=opensearch-security\n".getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
    }

    /** The parent and job POMs, laid out as in the repository: the executions write into this copy's target/. */
    private Path copyOfThePoms() throws Exception {
        Path project = dir.resolve("project");
        Files.createDirectories(project.resolve("job"));
        Files.copy(DeployFiles.root().resolve("pom.xml"), project.resolve("pom.xml"));
        Files.copy(DeployFiles.root().resolve("job/pom.xml"), project.resolve("job/pom.xml"));
        return project;
    }

    private Path settings(String mirror) throws Exception {
        return Files.writeString(
                dir.resolve("settings.xml"),
                "<settings><mirrors><mirror><id>company-mirror</id><mirrorOf>*</mirrorOf><url>" + mirror
                        + "</url></mirror></mirrors></settings>\n");
    }

    private static RepositoryScript maven(Path project, Path settings, Path local, boolean offline) throws Exception {
        List<String> command = new ArrayList<>(
                List.of("mvn", "-B", "-Dstyle.color=never", "-s", settings.toString(), "-Dmaven.repo.local=" + local));
        if (offline) {
            command.add("-o");
        }
        command.addAll(List.of("-f", project.resolve("job/pom.xml").toString()));
        command.addAll(GOALS);
        // the build's own Maven options (a -Dmaven.repo.local of the caller's) must not reach this one
        return RepositoryScript.run(Map.of("MAVEN_OPTS", "", "MAVEN_ARGS", ""), project, command);
    }

    /** The local repository of the build running this test (failsafe passes it on). */
    private static Path buildsLocalRepository() {
        String repository = System.getProperty("bioner.maven.local-repository");
        assertThat(repository)
                .as("system property bioner.maven.local-repository (job/pom.xml's failsafe configuration)")
                .isNotBlank();
        return Path.of(repository);
    }
}
