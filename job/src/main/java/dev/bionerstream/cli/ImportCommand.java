package dev.bionerstream.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.avro.Abstract;
import dev.bionerstream.demo.TopicWriter;
import dev.bionerstream.formats.Annotated;
import dev.bionerstream.formats.BioCJson;
import dev.bionerstream.formats.BioCXml;
import dev.bionerstream.formats.PubTator;
import dev.bionerstream.kafka.KafkaOptions;
import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.options.CommandLineFlags.Flag;
import dev.bionerstream.records.JsonAbstracts;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Turns a corpus in PubTator or BioC (JSON or XML) into Abstract records on the input topic; existing annotations are not sent. */
@Command(
        name = "import",
        mixinStandardHelpOptions = true,
        modelTransformer = CommandLineFlags.class,
        header = "PubTator, BioC JSON or BioC XML documents to the input topic",
        description = {
            "Each document becomes a JSON Abstract record: the first passage is the title, the others are joined into the abstract with single spaces; its own annotations are not sent, and PubTator relation lines (such as BC5CDR's CID) are read past."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner import --pubtator corpus.pubtator --kafka.bootstrap-servers HOST:9092",
            "  ./bioner import --bioc-xml corpus.xml --kafka.bootstrap-servers HOST:9092 --topic abstracts"
        })
final class ImportCommand implements CommandLineFlags.Settings, Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    static final class Input {
        @Option(names = "--pubtator", description = "PubTator file (ID|t|title, ID|a|abstract, annotation lines)")
        Path pubtator;

        @Option(names = "--bioc", description = "BioC JSON collection")
        Path bioc;

        @Option(names = "--bioc-xml", description = "BioC XML collection")
        Path biocXml;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Input input;

    /** The job's brokers and input topic ({@code --topic} for short). */
    @Override
    public List<Flag> settings() {
        return List.of(
                Flag.of(KafkaOptions.BOOTSTRAP_SERVERS).required(), Flag.of(KafkaOptions.INPUT_TOPIC, "--topic"));
    }

    @Spec
    CommandSpec spec;

    @Option(
            names = "--source",
            defaultValue = "import",
            description = "value of the records' source field. Default: ${DEFAULT-VALUE}")
    String source;

    @Override
    public Integer call() throws IOException {
        Configuration job = CommandLineFlags.given(spec);
        String topic = job.get(KafkaOptions.INPUT_TOPIC);
        List<Annotated> docs = read();
        TopicWriter.produce(job.get(KafkaOptions.BOOTSTRAP_SERVERS), topic, records(docs, source));
        System.out.printf("%d documents written to %s%n", docs.size(), topic);
        return 0;
    }

    private List<Annotated> read() throws IOException {
        if (input.pubtator != null) {
            try (BufferedReader in = Files.newBufferedReader(input.pubtator, StandardCharsets.UTF_8)) {
                return PubTator.read(in, PubTator.MentionText.MAY_DIFFER);
            }
        }
        if (input.biocXml != null) {
            try (BufferedReader in = Files.newBufferedReader(input.biocXml, StandardCharsets.UTF_8)) {
                return BioCXml.read(in);
            }
        }
        return BioCJson.read(JSON.readTree(input.bioc.toFile()));
    }

    static List<String> records(List<Annotated> docs, String source) {
        return docs.stream()
                .map(d -> new String(
                        JsonAbstracts.write(Abstract.newBuilder()
                                .setId(d.id())
                                .setTitle(d.title())
                                .setAbstractText(d.abstractText())
                                .setSource(source)
                                .build()),
                        StandardCharsets.UTF_8))
                .toList();
    }
}
