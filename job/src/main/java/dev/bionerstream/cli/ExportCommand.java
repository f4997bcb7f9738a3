package dev.bionerstream.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.formats.Annotated;
import dev.bionerstream.formats.BioCJson;
import dev.bionerstream.formats.BioCXml;
import dev.bionerstream.formats.Offsets;
import dev.bionerstream.formats.PubTator;
import dev.bionerstream.job.JobOptions;
import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.options.CommandLineFlags.Flag;
import dev.bionerstream.options.OptionChecks;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import javax.xml.stream.XMLStreamException;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.util.TimeUtils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Reads the job's per-document records (read_committed) and writes them as PubTator or BioC JSON. */
@Command(
        name = "export",
        mixinStandardHelpOptions = true,
        modelTransformer = CommandLineFlags.class,
        header = "The job's documents as PubTator, BioC JSON or BioC XML",
        description = {
            "Reads the per-document topic (read_committed) and writes the documents as they stand: the newest record per document, deleted ones left out. Offsets in code points over title + \" \" + abstract, types Chemical, Disease, Gene, Species, concept id the linked CURIE (mesh:D009270; - for a NIL mention, or one the job did not link). Stops when no record arrived for --idle."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner export --kafka.bootstrap-servers HOST:9092 --format pubtator --out entities.pubtator",
            "  ./bioner export --kafka.bootstrap-servers HOST:9092 --format bioc --out entities.json"
        })
final class ExportCommand implements CommandLineFlags.Settings, Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** The job's brokers, documents topic ({@code --topic} for short) and the format it writes the topic in. */
    @Override
    public List<Flag> settings() {
        return List.of(
                Flag.of(KafkaOptions.BOOTSTRAP_SERVERS).required(),
                Flag.of(JobOptions.DOCUMENTS_TOPIC, "--topic"),
                Flag.of(KafkaOptions.OUTPUT_FORMAT));
    }

    @Option(
            names = "--format",
            defaultValue = "pubtator",
            description = "pubtator, bioc (BioC JSON) or bioc-xml. Default: ${DEFAULT-VALUE}")
    String format;

    @Option(names = "--out", description = "output file (default: standard output)")
    Path out;

    @Option(
            names = "--idle",
            defaultValue = "10s",
            description = "stop when no record arrived for this long. Default: ${DEFAULT-VALUE}")
    String idle;

    @Override
    public Integer call() throws IOException, XMLStreamException {
        if (!List.of("pubtator", "bioc", "bioc-xml").contains(format)) {
            throw new ParameterException(
                    spec.commandLine(), "--format must be pubtator, bioc or bioc-xml, got " + format);
        }
        Configuration job = CommandLineFlags.given(spec);
        String topic = job.get(JobOptions.DOCUMENTS_TOPIC);
        List<Annotated> docs;
        try (TopicReader<DocumentEntities> reader = new TopicReader<>(
                job.get(KafkaOptions.BOOTSTRAP_SERVERS),
                topic,
                DocumentEntities.class,
                OptionChecks.oneOf(job, KafkaOptions.OUTPUT_FORMAT))) {
            reader.pollWhileProgressing(l -> false, TimeUtils.parseDuration(idle));
            // The documents as they stand: a revision replaces its document, a tombstone removes it.
            docs = reader.current().values().stream().map(Offsets::annotated).toList();
        }
        try (Writer w = out == null
                ? new OutputStreamWriter(System.out, StandardCharsets.UTF_8)
                : Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            write(docs, format, w);
        }
        System.err.printf("%d documents exported from %s%n", docs.size(), topic);
        return 0;
    }

    static void write(List<Annotated> docs, String format, Writer w) throws IOException, XMLStreamException {
        String today = LocalDate.now().format(DateTimeFormatter.BASIC_ISO_DATE);
        switch (format) {
            case "pubtator" -> {
                for (Annotated d : docs) {
                    PubTator.write(d, w);
                }
            }
            case "bioc" -> new ObjectMapper()
                    .writerWithDefaultPrettyPrinter()
                    .writeValue(w, BioCJson.collection("bioner-stream", today, docs));
            default -> BioCXml.write("bioner-stream", today, docs, w);
        }
    }
}
