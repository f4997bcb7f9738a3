package dev.bionerstream.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.demo.TopicReader;
import dev.bionerstream.formats.Annotated;
import dev.bionerstream.formats.BioCJson;
import dev.bionerstream.formats.Offsets;
import dev.bionerstream.formats.PubTator;
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
import org.apache.flink.util.TimeUtils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Reads the job's per-document records (read_committed) and writes them as PubTator or BioC JSON. */
@Command(
        name = "export",
        mixinStandardHelpOptions = true,
        description =
                "Writes the records of the documents topic as PubTator or BioC JSON, until no new record arrives for --idle.")
final class ExportCommand implements Callable<Integer> {
    enum Format {
        pubtator,
        bioc
    }

    @Option(names = "--kafka.bootstrap-servers", required = true, description = "Kafka bootstrap servers")
    String bootstrapServers;

    @Option(
            names = "--topic",
            defaultValue = "entity-documents",
            description = "documents topic. Default: ${DEFAULT-VALUE}")
    String topic;

    @Option(
            names = "--format",
            defaultValue = "pubtator",
            description = "pubtator or bioc (BioC JSON). Default: ${DEFAULT-VALUE}")
    Format format;

    @Option(names = "--out", description = "output file (default: standard output)")
    Path out;

    @Option(
            names = "--idle",
            defaultValue = "10s",
            description = "stop when no record arrived for this long. Default: ${DEFAULT-VALUE}")
    String idle;

    @Override
    public Integer call() throws IOException {
        List<Annotated> docs;
        try (TopicReader<DocumentEntities> reader =
                new TopicReader<>(bootstrapServers, topic, DocumentEntities.class)) {
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

    static void write(List<Annotated> docs, Format format, Writer w) throws IOException {
        if (format == Format.pubtator) {
            for (Annotated d : docs) {
                PubTator.write(d, w);
            }
        } else {
            String today = LocalDate.now().format(DateTimeFormatter.BASIC_ISO_DATE);
            new ObjectMapper()
                    .writerWithDefaultPrettyPrinter()
                    .writeValue(w, BioCJson.collection("bioner-stream", today, docs));
        }
    }
}
