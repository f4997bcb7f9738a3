package dev.bionerstream.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.engine.Entity;
import dev.bionerstream.engine.Segmentation;
import dev.bionerstream.linking.EntityLinker;
import dev.bionerstream.linking.Link;
import dev.bionerstream.linking.Mention;
import dev.bionerstream.options.CommandLineFlags;
import dev.bionerstream.options.CommandLineFlags.Flag;
import dev.bionerstream.serving.LocalModel;
import dev.bionerstream.text.DocumentText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Reads texts on stdin, one per line, and prints one JSON line per entity. */
@Command(
        name = "extract",
        mixinStandardHelpOptions = true,
        modelTransformer = CommandLineFlags.class,
        header = "Entities in texts from stdin, one JSON line per entity",
        description = {
            "Fields: line, type, start, end (characters in the line), text, sentence, score, then the concept the entity "
                    + "is linked to: id (a CURIE such as mesh:D009270, ncbigene:672, ncbitaxon:9606; null for none), "
                    + "concept (its preferred name) and link_score. Each line is one document for the linker (its "
                    + "abbreviations, its species)."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  echo \"Naloxone reverses the antihypertensive effect of clonidine in mice.\" | ./bioner extract",
            "  ./bioner extract < texts.txt > entities.jsonl",
            "  ./bioner extract --bundle bundles/pharmaconer-es < textos.txt"
        })
final class ExtractCommand implements CommandLineFlags.Settings, Callable<Integer> {
    private static final int CHUNK = 64;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Override
    public List<Flag> settings() {
        return LinkArgs.WITH_MODEL_FLAGS;
    }

    @Override
    public Integer call() throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        EntityLinker linker = new LinkArgs(spec).open();
        try (LocalModel m = new EngineArgs(spec).open()) {
            List<String> chunk = new ArrayList<>();
            int first = 1;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                chunk.add(line);
                if (chunk.size() == CHUNK) {
                    print(out, first, chunk, m.extract(chunk, Segmentation.SENTENCES), linker);
                    first += chunk.size();
                    chunk.clear();
                }
            }
            print(out, first, chunk, m.extract(chunk, Segmentation.SENTENCES), linker);
        }
        out.flush();
        return 0;
    }

    private static void print(
            PrintStream out, int firstLine, List<String> texts, List<List<Entity>> entities, EntityLinker linker)
            throws IOException {
        for (int i = 0; i < entities.size(); i++) {
            List<Link> links = linker.link(
                    DocumentText.of(texts.get(i)),
                    entities.get(i).stream()
                            .map(e -> new Mention(e.type(), e.text(), e.start()))
                            .toList());
            for (int e = 0; e < links.size(); e++) {
                Entity x = entities.get(i).get(e);
                Link link = links.get(e);
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("line", firstLine + i);
                row.put("type", x.type());
                row.put("start", x.start());
                row.put("end", x.end());
                row.put("text", x.text());
                row.put("sentence", x.sentenceIndex());
                row.put("score", Math.round(x.score() * 10000) / 10000.0);
                row.put("id", link.id());
                row.put("concept", link.name());
                row.put("link_score", Math.round(link.score() * 10000) / 10000.0);
                out.println(JSON.writeValueAsString(row));
            }
        }
    }
}
