package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.demo.Delivery;
import dev.bionerstream.demo.EmbeddedKafka;
import dev.bionerstream.demo.LocalPipeline;
import dev.bionerstream.demo.SharedService;
import dev.bionerstream.demo.TestPipelines;
import dev.bionerstream.formats.Annotated;
import dev.bionerstream.formats.PubTator;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** From a PubTator corpus to entities in PubTator: {@code import} -> the job (default model) -> {@code export}. */
class PubTatorRoundTripITCase {
    @RegisterExtension
    static final SharedService<EmbeddedKafka> KAFKA = SharedService.kafka();

    static final String CORPUS =
            """
            227508|t|Naloxone reverses the antihypertensive effect of clonidine.
            227508|a|In unanesthetized, spontaneously hypertensive rats the decrease in blood pressure and heart rate produced by intravenous clonidine was reversed by naloxone.
            227508\t0\t8\tNaloxone\tChemical\tD009270

            354896|t|Lidocaine-induced cardiac asystole.
            354896|a|Intravenous administration of a single 50 mg bolus of lidocaine in a 67-year-old man resulted in profound depression of the activity of the sinoatrial and atrioventricular nodal pacemakers.

            """;

    @TempDir
    Path dir;

    @Test
    void aPubTatorCorpusGoesInAndItsEntitiesComeOutAsPubTator() throws Exception {
        Path corpus = Files.writeString(dir.resolve("corpus.pubtator"), CORPUS);
        Path exported = dir.resolve("entities.pubtator");
        Configuration options = Configuration.fromMap(Map.of("job.checkpoint-interval", "1 s", "model.threads", "2"));
        try (LocalPipeline p = TestPipelines.start(KAFKA, "pubtator", options)) {
            String servers = p.kafka.bootstrapServers();
            assertThat(Main.run(
                            "import",
                            "--pubtator",
                            corpus.toString(),
                            "--kafka.bootstrap-servers",
                            servers,
                            "--topic",
                            p.config.kafka().inputTopic()))
                    .isZero();
            p.documents.pollWhileProgressing("2 documents", l -> Delivery.distinct(l) >= 2, Duration.ofMinutes(5));
            assertThat(Main.run(
                            "export",
                            "--kafka.bootstrap-servers",
                            servers,
                            "--topic",
                            p.config.documentsTopic(),
                            "--out",
                            exported.toString(),
                            "--idle",
                            "3 s"))
                    .isZero();
        }
        List<Annotated> out;
        try (BufferedReader in = Files.newBufferedReader(exported, StandardCharsets.UTF_8)) {
            out = PubTator.read(in, PubTator.MentionText.MUST_MATCH);
        }
        List<Annotated> in;
        try (BufferedReader r = Files.newBufferedReader(corpus, StandardCharsets.UTF_8)) {
            in = PubTator.read(r, PubTator.MentionText.MUST_MATCH);
        }
        assertThat(out).extracting(Annotated::id).containsExactlyInAnyOrder("227508", "354896");
        for (Annotated d : out) {
            Annotated original =
                    in.stream().filter(x -> x.id().equals(d.id())).findFirst().orElseThrow();
            assertThat(d.title()).isEqualTo(original.title());
            assertThat(d.abstractText()).isEqualTo(original.abstractText());
            String text = d.title() + " " + d.abstractText();
            assertThat(d.annotations()).isNotEmpty().allSatisfy(a -> assertThat(text.substring(a.start(), a.end()))
                    .isEqualTo(a.text()));
        }
        // the concept id column is the job's link (export --help, docs/command-line.md), "-" only for NIL
        assertThat(out.stream().flatMap(d -> d.annotations().stream()))
                .extracting(Annotated.Annotation::text, Annotated.Annotation::type, Annotated.Annotation::conceptId)
                .contains(
                        org.assertj.core.groups.Tuple.tuple("Naloxone", "Chemical", "mesh:D009270"),
                        org.assertj.core.groups.Tuple.tuple("lidocaine", "Chemical", "mesh:D008012"));
    }
}
