package dev.bionerstream.records;

import static dev.bionerstream.records.Records.avro;
import static dev.bionerstream.records.Records.avroOfSchema;
import static dev.bionerstream.records.Records.bytes;
import static dev.bionerstream.records.Records.concat;
import static dev.bionerstream.records.Records.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.avro.Abstract;
import dev.bionerstream.avro.DeadLetter;
import dev.bionerstream.job.ParseAbstracts;
import dev.bionerstream.kafka.AvroBytes;
import dev.bionerstream.kafka.DeadLetters;
import dev.bionerstream.kafka.RawRecord;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.io.BinaryEncoder;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of bad or odd input record, each either parsed into the expected clean abstract or
 * refused with a reason: never another exception, so never a job failure.
 */
class BadInputTest {
    static final InputFormat JSON = InputFormat.JSON;
    static final InputFormat AVRO = InputFormat.AVRO;
    static final String MAX_CHARS = String.valueOf(InputRecordDecoder.MAX_CHARS);
    static final String OTHER_FIELDS = "{\"name\": \"abstractText\", \"type\": [\"null\", \"string\"]}"
            + ", {\"name\": \"journal\", \"type\": [\"null\", \"string\"]}, {\"name\": \"publicationDate\", \"type\": [\"null\", \"string\"]}"
            + ", {\"name\": \"source\", \"type\": [\"null\", \"string\"]}, {\"name\": \"language\", \"type\": [\"null\", \"string\"]}"
            + ", {\"name\": \"revised\", \"type\": [\"null\", \"string\"]}";

    /** One kind of input: {@code rejectedWith} a phrase of the reason, or else {@code expected}. */
    record Case(String name, InputFormat format, byte[] value, String rejectedWith, Abstract expected) {}

    static Case parsed(String name, InputFormat format, byte[] value, Abstract expected) {
        return new Case(name, format, value, null, expected);
    }

    static Case rejected(String name, InputFormat format, byte[] value, String reason) {
        return new Case(name, format, value, reason, null);
    }

    /** JSON with ` for " so the cases stay readable. */
    static byte[] j(String json) {
        return utf8(json.replace('`', '"'));
    }

    static Abstract doc(String id, String title, String abstractText) {
        return Abstract.newBuilder()
                .setId(id)
                .setTitle(title)
                .setAbstractText(abstractText)
                .build();
    }

    static byte[] avroAbstract(String id, String title) {
        return AvroBytes.of(doc(id, title, null));
    }

    static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        byte[] good = j("{`id`: `1`, `title`: `Aspirin`}");

        c.add(rejected("empty bytes", JSON, new byte[0], "record is empty"));
        c.add(rejected("whitespace only", JSON, j(" \n\t\r "), "record is empty"));
        c.add(rejected("JSON null", JSON, j("null"), "expected a JSON object, got NULL"));
        c.add(rejected(
                "JSON array", JSON, j("[{`id`: `1`, `title`: `Aspirin`}]"), "expected a JSON object, got ARRAY"));
        c.add(rejected("JSON string", JSON, j("`Aspirin`"), "expected a JSON object, got STRING"));
        c.add(rejected("JSON number", JSON, j("42"), "expected a JSON object, got NUMBER"));
        c.add(rejected("JSON boolean", JSON, j("true"), "expected a JSON object, got BOOLEAN"));
        c.add(rejected("truncated JSON", JSON, j("{`id`: `1`, `title`: `Asp"), "not valid JSON"));
        c.add(rejected("unclosed string", JSON, j("{`id`: `1`, `title`: `Aspirin}"), "not valid JSON"));
        c.add(rejected("unclosed object", JSON, j("{`id`: `1`, `title`: `Aspirin`"), "not valid JSON"));
        c.add(rejected(
                "deep nesting (1,001 levels)",
                JSON,
                j("{`id`: `1`, `title`: `t`, `x`: " + "[".repeat(1001) + "]".repeat(1001) + "}"),
                "nesting depth"));
        c.add(rejected(
                "huge number (1,001 digits)",
                JSON,
                j("{`id`: `1`, `title`: `t`, `n`: " + "7".repeat(1001) + "}"),
                "Number value length"));
        c.add(rejected(
                "huge field name (60,000 chars)",
                JSON,
                j("{`id`: `1`, `title`: `t`, `" + "k".repeat(60_000) + "`: 1}"),
                "Name length"));
        c.add(rejected("NaN literal", JSON, j("{`id`: `1`, `title`: `t`, `score`: NaN}"), "Non-standard token 'NaN'"));
        c.add(rejected("Infinity literal", JSON, j("{`id`: `1`, `title`: `t`, `score`: -Infinity}"), "not valid JSON"));
        c.add(rejected("duplicate keys", JSON, j("{`id`: `1`, `title`: `t`, `id`: `2`}"), "Duplicate field 'id'"));
        c.add(rejected("two objects in one record", JSON, concat(good, good), "content after the JSON object"));
        c.add(rejected("garbage after the object", JSON, concat(good, j(" garbage")), "content after the JSON object"));
        c.add(rejected("comment", JSON, j("{`id`: `1`, /* why */ `title`: `t`}"), "not valid JSON"));
        c.add(rejected("single quotes", JSON, j("{'id': '1', 'title': 't'}"), "not valid JSON"));
        c.add(rejected("raw control character in a string", JSON, j("{`id`: `1`, `title`: `a\tb`}"), "not valid JSON"));

        c.add(rejected("missing id", JSON, j("{`title`: `Aspirin`}"), "field 'id' is missing or blank"));
        c.add(rejected("null id", JSON, j("{`id`: null, `title`: `Aspirin`}"), "field 'id' is missing or blank"));
        c.add(rejected("blank id", JSON, j("{`id`: `  `, `title`: `Aspirin`}"), "field 'id' is missing or blank"));
        c.add(rejected(
                "no-break-space id",
                JSON,
                j("{`id`: `\u00a0`, `title`: `Aspirin`}"),
                "field 'id' is missing or blank"));
        c.add(rejected(
                "id as object",
                JSON,
                j("{`id`: {`pmid`: 1}, `title`: `Aspirin`}"),
                "field 'id' must be a string or an integer"));
        c.add(rejected(
                "id as array",
                JSON,
                j("{`id`: [1], `title`: `Aspirin`}"),
                "field 'id' must be a string or an integer"));
        c.add(rejected(
                "id as boolean",
                JSON,
                j("{`id`: true, `title`: `Aspirin`}"),
                "field 'id' must be a string or an integer"));
        c.add(rejected(
                "id as decimal number",
                JSON,
                j("{`id`: 1.5, `title`: `Aspirin`}"),
                "field 'id' must be a string or an integer"));
        c.add(parsed("id as integer", JSON, j("{`id`: 2234245, `title`: `Aspirin`}"), doc("2234245", "Aspirin", null)));
        c.add(rejected(
                "id of 1,000 chars",
                JSON,
                j("{`id`: `" + "1".repeat(1000) + "`, `title`: `Aspirin`}"),
                "more than 512"));
        c.add(rejected(
                "id with a control character",
                JSON,
                j("{`id`: `1\\n2`, `title`: `Aspirin`}"),
                "field 'id' contains a control character"));
        c.add(rejected(
                "id with a lone surrogate",
                JSON,
                j("{`id`: `1\\udc00`, `title`: `Aspirin`}"),
                "field 'id' contains an unpaired surrogate"));

        c.add(parsed("title as number", JSON, j("{`id`: `1`, `title`: 42}"), doc("1", "42", null)));
        c.add(rejected(
                "title as array",
                JSON,
                j("{`id`: `1`, `title`: [`Aspirin`]}"),
                "field 'title' must be a string, got ARRAY"));
        c.add(rejected(
                "title as object",
                JSON,
                j("{`id`: `1`, `title`: {`en`: `Aspirin`}}"),
                "field 'title' must be a string, got OBJECT"));
        c.add(parsed(
                "abstract under abstractText",
                JSON,
                j("{`id`: `1`, `abstractText`: `Aspirin.`}"),
                doc("1", null, "Aspirin.")));
        c.add(rejected(
                "both abstract and abstractText",
                JSON,
                j("{`id`: `1`, `abstract`: `A.`, `abstractText`: `B.`}"),
                "both 'abstract' and 'abstractText'"));
        c.add(rejected(
                "neither title nor abstract",
                JSON,
                j("{`id`: `1`, `journal`: `Lancet`}"),
                "neither title nor abstract"));
        c.add(rejected(
                "no-break spaces only",
                JSON,
                j("{`id`: `1`, `title`: `\u00a0\u2007\u202f`, `abstract`: `\u00a0`}"),
                "neither title nor abstract"));
        c.add(rejected(
                "zero-width characters only",
                JSON,
                j("{`id`: `1`, `title`: `\u200b\ufeff\u2060`}"),
                "neither title nor abstract"));

        c.add(parsed(
                "markup is text",
                JSON,
                j("{`id`: `1`, `title`: `<b>Aspirin</b> &amp; <i>asthma</i><script>x()</script>`}"),
                doc("1", "<b>Aspirin</b> &amp; <i>asthma</i><script>x()</script>", null)));
        c.add(parsed("CJK", JSON, j("{`id`: `1`, `title`: `阿司匹林与哮喘`}"), doc("1", "阿司匹林与哮喘", null)));
        c.add(parsed(
                "right-to-left text",
                JSON,
                j("{`id`: `1`, `title`: `\u200fالأسبرين والربو`, `abstract`: `אספירין`}"),
                doc("1", "\u200fالأسبرين والربو", "אספירין")));
        c.add(parsed(
                "emoji (supplementary characters)",
                JSON,
                j("{`id`: `1`, `title`: `Aspirin 💊 and 🫁`}"),
                doc("1", "Aspirin 💊 and 🫁", null)));
        c.add(parsed(
                "combining characters kept unnormalised",
                JSON,
                j("{`id`: `1`, `title`: `cafe\u0301 Ro\u0308ntgen`}"),
                doc("1", "cafe\u0301 Ro\u0308ntgen", null)));
        c.add(parsed(
                "control characters in text are kept",
                JSON,
                j("{`id`: `1`, `title`: `a\\u0001b\\u0000c\\u007fd\\u0085e\\u001bf`}"),
                doc("1", "a\u0001b\u0000c\u007fd\u0085e\u001bf", null)));
        c.add(parsed(
                "escaped lone high surrogate",
                JSON,
                j("{`id`: `1`, `title`: `a\\ud800b`}"),
                doc("1", "a\uFFFDb", null)));
        c.add(parsed(
                "escaped lone low surrogate",
                JSON,
                j("{`id`: `1`, `title`: `\\udc00ab`}"),
                doc("1", "\uFFFDab", null)));
        c.add(parsed(
                "lone surrogate at the end",
                JSON,
                j("{`id`: `1`, `abstract`: `Aspirin.\\ud83d`}"),
                doc("1", null, "Aspirin.\uFFFD")));
        c.add(parsed(
                "reversed surrogate pair",
                JSON,
                j("{`id`: `1`, `title`: `\\ude00\\ud83d`}"),
                doc("1", "\uFFFD\uFFFD", null)));
        c.add(rejected(
                "surrogate encoded in UTF-8 bytes (CESU-8)",
                JSON,
                concat(j("{`id`: `1`, `title`: `a"), bytes(0xED, 0xA0, 0x80), j("`}")),
                "not valid UTF-8"));

        c.add(parsed("UTF-8 byte order mark", JSON, concat(bytes(0xEF, 0xBB, 0xBF), good), doc("1", "Aspirin", null)));
        c.add(rejected("byte order mark only", JSON, bytes(0xEF, 0xBB, 0xBF), "record is empty"));
        c.add(rejected(
                "invalid UTF-8 byte",
                JSON,
                concat(j("{`id`: `1`, `title`: `a"), bytes(0xFF), j("`}")),
                "not valid UTF-8"));
        c.add(rejected(
                "truncated UTF-8 sequence",
                JSON,
                concat(j("{`id`: `1`, `title`: `a"), bytes(0xE2, 0x82), j("`}")),
                "not valid UTF-8"));
        c.add(rejected(
                "overlong UTF-8 '/'",
                JSON,
                concat(j("{`id`: `1`, `title`: `a"), bytes(0xC0, 0xAF), j("`}")),
                "not valid UTF-8"));
        c.add(rejected(
                "overlong UTF-8 NUL",
                JSON,
                concat(j("{`id`: `1`, `title`: `a"), bytes(0xC0, 0x80), j("`}")),
                "not valid UTF-8"));
        String record = "{\"id\": \"1\", \"title\": \"Aspirin\"}";
        c.add(rejected("UTF-16 with byte order mark", JSON, record.getBytes(StandardCharsets.UTF_16), "not UTF-8"));
        c.add(rejected(
                "UTF-16LE without byte order mark", JSON, record.getBytes(StandardCharsets.UTF_16LE), "not UTF-8"));
        c.add(rejected("UTF-32", JSON, record.getBytes(Charset.forName("UTF-32")), "not UTF-8"));

        c.add(rejected(
                "abstract over MAX_CHARS",
                JSON,
                j("{`id`: `1`, `abstract`: `" + "a".repeat(InputRecordDecoder.MAX_CHARS + 1) + "`}"),
                "more than " + MAX_CHARS));
        c.add(rejected(
                "title and abstract together over MAX_CHARS",
                JSON,
                j("{`id`: `1`, `title`: `" + "t".repeat(50_000) + "`, `abstract`: `" + "a".repeat(50_001) + "`}"),
                "more than " + MAX_CHARS));
        c.add(rejected(
                "journal over 1,000 chars",
                JSON,
                j("{`id`: `1`, `title`: `t`, `journal`: `" + "J".repeat(1001) + "`}"),
                "field 'journal' has 1001 chars"));
        c.add(parsed(
                "10,000 unknown keys",
                JSON,
                j("{`id`: `1`, `title`: `Aspirin`" + unknownKeys(10_000) + "}"),
                doc("1", "Aspirin", null)));
        c.add(parsed(
                "1 MB record, mostly an unknown field",
                JSON,
                j("{`id`: `1`, `title`: `Aspirin`, `raw`: `" + "x".repeat(1 << 20) + "`}"),
                doc("1", "Aspirin", null)));
        c.add(rejected(
                "1 MB abstract",
                JSON,
                j("{`id`: `1`, `abstract`: `" + "a".repeat(1 << 20) + "`}"),
                "more than " + MAX_CHARS));
        c.add(rejected("Avro in JSON mode", JSON, avroAbstract("1", "Aspirin"), "not valid JSON"));
        c.add(rejected("tombstone", JSON, null, "tombstone"));

        c.add(parsed("Avro: a valid record", AVRO, avroAbstract("1", "Aspirin 💊"), doc("1", "Aspirin 💊", null)));
        c.add(rejected("Avro: JSON in Avro mode", AVRO, good, "not a binary Avro Abstract"));
        c.add(rejected("Avro: empty bytes", AVRO, new byte[0], "ends too early"));
        c.add(rejected(
                "Avro: huge length prefix",
                AVRO,
                avro(e -> {
                    e.writeString("1");
                    e.writeIndex(1);
                    e.writeLong(Integer.MAX_VALUE - 16);
                    e.writeFixed(utf8("Aspirin"));
                }),
                "ends too early"));
        c.add(rejected(
                "Avro: negative length",
                AVRO,
                avro(e -> {
                    e.writeLong(-1);
                    nulls(e, 7);
                }),
                "Length is negative"));
        c.add(rejected(
                "Avro: union index out of range",
                AVRO,
                avro(e -> {
                    e.writeString("1");
                    e.writeIndex(7);
                }),
                "not a binary Avro Abstract"));
        c.add(rejected(
                "Avro: bytes after the record",
                AVRO,
                concat(avroAbstract("1", "Aspirin"), bytes(2, 'x')),
                "bytes after the record"));
        c.add(rejected(
                "Avro: older writer schema (fewer fields)",
                AVRO,
                avroOfSchema(
                        "[{\"name\": \"id\", \"type\": \"string\"}, {\"name\": \"title\", \"type\": [\"null\", \"string\"]}]",
                        Map.of("id", "1", "title", "Aspirin")),
                "ends too early"));
        c.add(rejected(
                "Avro: newer writer schema (a field added)",
                AVRO,
                avroOfSchema(
                        "[{\"name\": \"id\", \"type\": \"string\"}, {\"name\": \"title\", \"type\": [\"null\", \"string\"]}, "
                                + OTHER_FIELDS + ", {\"name\": \"doi\", \"type\": [\"null\", \"string\"]}]",
                        Map.of("id", "1", "title", "Aspirin", "doi", "10.1/x")),
                "bytes after the record"));
        // The documented limit of bare binary Avro: a writer schema of the same shape is read as ours.
        c.add(parsed(
                "Avro: writer schema with title and abstract swapped",
                AVRO,
                avroOfSchema(
                        "[{\"name\": \"id\", \"type\": \"string\"}, {\"name\": \"abstractText\", \"type\": [\"null\", \"string\"]}, "
                                + OTHER_FIELDS.replace("abstractText", "title")
                                + "]",
                        Map.of("id", "1", "abstractText", "Aspirin.")),
                doc("1", "Aspirin.", null)));
        c.add(rejected(
                "Avro: schema-registry framing",
                AVRO,
                concat(bytes(0, 0, 0, 0, 1), avroAbstract("1", "Aspirin")),
                "not a binary Avro Abstract"));
        c.add(rejected(
                "Avro: invalid UTF-8 in a string",
                AVRO,
                avro(e -> {
                    e.writeString("1");
                    e.writeIndex(1);
                    e.writeBytes(bytes('a', 0xFF));
                    nulls(e, 6);
                }),
                "not valid UTF-8"));
        c.add(rejected(
                "Avro: no-break spaces only", AVRO, avroAbstract("1", "\u00a0\u202f"), "neither title nor abstract"));
        c.add(rejected("Avro: id over 512 bytes", AVRO, avroAbstract("ü".repeat(300), "Aspirin"), "more than 512"));
        c.add(rejected("Avro: tombstone", AVRO, null, "tombstone"));
        return c;
    }

    static String unknownKeys(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(", `k").append(i).append("`: {`v`: [").append(i).append(", null, true]}");
        }
        return b.toString();
    }

    static void nulls(BinaryEncoder e, int unions) throws IOException {
        for (int i = 0; i < unions; i++) {
            e.writeIndex(0);
        }
    }

    static Stream<Named<Case>> kinds() {
        return cases().stream().map(c -> Named.of(c.name(), c));
    }

    @Test
    void atLeastFortyDistinctKinds() {
        List<Case> cases = cases();
        assertThat(cases.stream().map(Case::name).collect(Collectors.toSet())).hasSize(cases.size());
        assertThat(cases).hasSizeGreaterThanOrEqualTo(40);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void eachKindIsParsedCleanOrRefusedWithItsReason(Case c) throws Exception {
        InputRecordDecoder parser = new InputRecordDecoder(c.format());
        if (c.rejectedWith() != null) {
            assertThatThrownBy(() -> parser.parse(c.value()))
                    .isExactlyInstanceOf(InvalidRecordException.class)
                    .hasMessageContaining(c.rejectedWith());
        } else {
            assertThat(parser.parse(c.value())).isEqualTo(c.expected());
        }
    }

    @Test
    void aStreamOfEveryKindBetweenGoodRecordsLosesNoGoodRecordAndLetsEveryBadOneOut() throws Exception {
        for (InputFormat format : List.of(JSON, AVRO)) {
            byte[] good =
                    format.equals(JSON) ? j("{`id`: `good`, `title`: `Aspirin`}") : avroAbstract("good", "Aspirin");
            List<Case> kinds =
                    cases().stream().filter(c -> c.format().equals(format)).toList();
            var h = ProcessFunctionTestHarnesses.forProcessFunction(new ParseAbstracts(new InputRecordDecoder(format)));
            long offset = 0;
            List<Long> expectedGood = new ArrayList<>();
            List<Long> expectedBad = new ArrayList<>();
            for (Case c : kinds) {
                expectedGood.add(offset);
                h.processElement(new StreamRecord<>(new RawRecord(null, good, "abstracts", 3, offset++)));
                (c.rejectedWith() == null ? expectedGood : expectedBad).add(offset);
                h.processElement(new StreamRecord<>(new RawRecord(null, c.value(), "abstracts", 3, offset++)));
            }
            assertThat(h.extractOutputValues())
                    .as(format.name())
                    .extracting(a -> a.offset)
                    .containsExactlyElementsOf(expectedGood);
            List<DeadLetter> letters = h.getSideOutput(DeadLetters.TAG).stream()
                    .map(StreamRecord::getValue)
                    .toList();
            assertThat(letters)
                    .as(format.name())
                    .extracting(DeadLetter::getOffset)
                    .containsExactlyElementsOf(expectedBad);
            for (DeadLetter d : letters) {
                Case c = kinds.get((int) (d.getOffset() / 2));
                assertThat(d.getTopic()).isEqualTo("abstracts");
                assertThat(d.getPartition()).isEqualTo(3);
                assertThat(d.getStage()).isEqualTo(DeadLetters.PARSE);
                assertThat(d.getErrorMessage()).as(c.name()).contains(c.rejectedWith());
                assertThat(
                                d.getOriginalBytes() == null
                                        ? null
                                        : d.getOriginalBytes().array())
                        .as(c.name())
                        .isEqualTo(c.value());
            }
            h.close();
        }
    }
}
