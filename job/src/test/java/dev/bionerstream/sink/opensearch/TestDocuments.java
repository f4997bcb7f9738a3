package dev.bionerstream.sink.opensearch;

import dev.bionerstream.avro.DocumentEntities;
import dev.bionerstream.avro.Mention;
import dev.bionerstream.avro.TextField;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/** Realistic DocumentEntities records (PubMed-like titles and abstracts with offsets that match the text). */
public final class TestDocuments {
    public static final String MODEL = "bioner-mrc-minilm";
    public static final String VERSION = "2026.11.1";

    private static final String[] CHEMICALS = {
        "Cisplatin",
        "doxorubicin",
        "metformin",
        "tamoxifen",
        "lithium carbonate",
        "haloperidol",
        "valproic acid",
        "cyclophosphamide",
        "nicotine",
        "acetaminophen"
    };
    private static final String[] DISEASES = {
        "breast cancer",
        "hepatotoxicity",
        "type 2 diabetes",
        "cardiomyopathy",
        "acute kidney injury",
        "tardive dyskinesia",
        "epilepsy",
        "Parkinson's disease"
    };
    private static final String[] GENES = {"BRCA1", "TP53", "EGFR", "HER2", "CYP3A4", "MDR1", "SCN1A"};
    private static final String[] SPECIES = {"patients", "mice", "rats", "Homo sapiens", "zebrafish"};
    private static final String[] JOURNALS = {"J Clin Oncol", "Toxicol Sci", "Diabetes Care", "Epilepsia"};
    private static final String[] DATES = {"2024-03-05", "2023-11", "2022", "2024 Spring"};

    private TestDocuments() {}

    public static List<DocumentEntities> generate(int count, long seed) {
        return generate(count, seed, 0);
    }

    /**
     * As {@link #generate(int, long)}, the documents numbered from {@code first}: ids (document and
     * event) no call from 0 with fewer than {@code first} documents gives.
     */
    public static List<DocumentEntities> generate(int count, long seed, int first) {
        Random random = new Random(seed);
        List<DocumentEntities> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String chemical = pick(CHEMICALS, random);
            String disease = pick(DISEASES, random);
            String gene = pick(GENES, random);
            String species = pick(SPECIES, random);
            String otherChemical = pick(CHEMICALS, random);
            String title = chemical + "-induced " + disease + " and " + gene + " expression in " + species;
            String abstractText = "We studied " + (20 + random.nextInt(200)) + " " + species + " treated with "
                    + chemical + " for " + disease + ". " + gene + " variants predicted " + disease + " severity. "
                    + "Co-treatment with " + otherChemical + " did not change " + gene + " levels.";
            String documentId = "PMID:" + (38_000_000 + first + i);
            List<Mention> mentions = new ArrayList<>();
            mention(mentions, documentId, TextField.TITLE, 0, title, "chemical", chemical);
            mention(mentions, documentId, TextField.TITLE, 0, title, "disease", disease);
            mention(mentions, documentId, TextField.TITLE, 0, title, "gene", gene);
            mention(mentions, documentId, TextField.TITLE, 0, title, "species", species);
            mention(mentions, documentId, TextField.ABSTRACT, 0, abstractText, "species", species);
            mention(mentions, documentId, TextField.ABSTRACT, 0, abstractText, "chemical", chemical);
            mention(mentions, documentId, TextField.ABSTRACT, 0, abstractText, "disease", disease);
            mention(mentions, documentId, TextField.ABSTRACT, 0, abstractText, "gene", gene);
            mention(
                    mentions,
                    documentId,
                    TextField.ABSTRACT,
                    abstractText.indexOf("Co-treatment"),
                    abstractText,
                    "chemical",
                    otherChemical);
            out.add(DocumentEntities.newBuilder()
                    .setEventId(sha256(documentId + "|" + MODEL + ":" + VERSION))
                    .setDocumentId(documentId)
                    .setTitle(title)
                    .setAbstractText(abstractText)
                    .setJournal(pick(JOURNALS, random))
                    .setPublicationDate(pick(DATES, random))
                    .setSource("pubmed-updatefiles")
                    .setModelName(MODEL)
                    .setModelVersion(VERSION)
                    .setSentences(4)
                    .setProcessingTime(Instant.parse("2026-11-21T10:15:30.123Z").plusSeconds(i))
                    .setEntities(mentions)
                    .build());
        }
        return out;
    }

    private static void mention(
            List<Mention> out, String documentId, TextField field, int from, String text, String type, String surface) {
        int start = text.indexOf(surface, from);
        int sentence =
                (int) text.substring(0, start).chars().filter(c -> c == '.').count();
        out.add(Mention.newBuilder()
                .setEventId(sha256(documentId + "|" + field + "|" + start + "|" + type))
                .setEntityType(type)
                .setText(surface)
                .setStart(start)
                .setEnd(start + surface.length())
                .setField(field)
                .setSentenceIndex(sentence)
                .setScore(0.9 + out.size() * 0.001)
                .setQueryId(type + "-1a2b3c4d")
                .build());
    }

    private static String pick(String[] values, Random random) {
        return values[random.nextInt(values.length)];
    }

    public static String sha256(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
