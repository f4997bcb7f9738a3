package dev.bionerstream.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.avro.Abstract;
import dev.bionerstream.kafka.AvroBytes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class InputRecordDecoderTest {
    final InputRecordDecoder json = new InputRecordDecoder(InputFormat.JSON);

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void readsAFeedRecordInJson() throws Exception {
        Abstract a = json.parse(bytes("{\"id\": 2234245, \"title\": \"Naloxone reverses clonidine.\", "
                + "\"abstract\": \"In rats, naloxone (0.5 mg/kg) reversed it.\", \"journal\": \"Hypertension\", "
                + "\"publicationDate\": \"1990-11\", \"source\": \"pubmed\", \"language\": \"eng\", \"extra\": [1]}"));
        assertThat(a.getId()).isEqualTo("2234245");
        assertThat(a.getAbstractText()).startsWith("In rats");
        assertThat(a.getJournal()).isEqualTo("Hypertension");
    }

    @Test
    void readsBinaryAvro() throws Exception {
        Abstract in = Abstract.newBuilder()
                .setId("doi:10.1/x")
                .setTitle("Aspirin and asthma")
                .build();
        Abstract out = new InputRecordDecoder(InputFormat.AVRO).parse(AvroBytes.of(in));
        assertThat(out).isEqualTo(in);
    }

    @Test
    void titleAloneIsEnough() throws Exception {
        assertThat(json.parse(bytes("{\"id\": \"x\", \"title\": \"Lithium toxicity\"}"))
                        .getAbstractText())
                .isNull();
    }

    @Test
    void badRecordsSayWhatIsWrong() {
        assertThatThrownBy(() -> json.parse(bytes("{not json"))).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> json.parse(bytes("[1, 2]"))).hasMessageContaining("expected a JSON object");
        assertThatThrownBy(() -> json.parse(bytes("{\"title\": \"x\"}"))).hasMessageContaining("'id'");
        assertThatThrownBy(() -> json.parse(bytes("{\"id\": \"x\", \"abstract\": \"  \"}")))
                .hasMessageContaining("neither title nor abstract");
        assertThatThrownBy(() -> json.parse(bytes("{\"id\": \"x\", \"title\": {\"a\": 1}}")))
                .hasMessageContaining("'title' must be a string");
        assertThatThrownBy(() -> json.parse(null)).hasMessageContaining("tombstone");
        assertThatThrownBy(() -> new InputRecordDecoder(InputFormat.AVRO).parse(bytes("{\"id\": 1}")))
                .hasMessageContaining("not a binary Avro");
        String huge = "a".repeat(InputRecordDecoder.MAX_CHARS + 1);
        assertThatThrownBy(() -> json.parse(bytes("{\"id\": \"x\", \"abstract\": \"" + huge + "\"}")))
                .hasMessageContaining("more than");
    }

    @Test
    void recordsBeyondJacksonsLimitsAreInvalidNotAFailure() {
        String deep = "{\"id\": \"x\", \"title\": \"t\", \"extra\": " + "[".repeat(1001) + "]".repeat(1001) + "}";
        assertThatThrownBy(() -> json.parse(bytes(deep)))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("not valid JSON")
                .hasMessageContaining("nesting depth");
        String number = "{\"id\": \"x\", \"title\": \"t\", \"n\": " + "9".repeat(1001) + "}";
        assertThatThrownBy(() -> json.parse(bytes(number)))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("not valid JSON")
                .hasMessageContaining("Number value length");
        String name = "{\"id\": \"x\", \"title\": \"t\", \"" + "k".repeat(60_000) + "\": 1}";
        assertThatThrownBy(() -> json.parse(bytes(name)))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("not valid JSON")
                .hasMessageContaining("Name length");
    }

    @Test
    void syntaxErrorsSayWhere() {
        assertThatThrownBy(() -> json.parse(bytes("{\"id\": \"x\",\n \"title\": tru}")))
                .hasMessageContaining("not valid JSON")
                .hasMessageContaining("line 2, column");
    }

    @Test
    void aRecordIsOneJsonObjectAndNothingAfterIt() throws Exception {
        assertThatThrownBy(
                        () -> json.parse(bytes("{\"id\": \"1\", \"title\": \"a\"}{\"id\": \"2\", \"title\": \"b\"}")))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("after the JSON object");
        assertThatThrownBy(() -> json.parse(bytes("{\"id\": \"1\", \"title\": \"a\"} trailing")))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("after the JSON object");
        assertThatThrownBy(() -> json.parse(bytes("{\"id\": \"1\", \"title\": \"a\"}}")))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("after the JSON object");
        assertThat(json.parse(bytes("{\"id\": \"1\", \"title\": \"a\"}\r\n ")).getId())
                .isEqualTo("1");
    }

    @Test
    void unpairedSurrogatesBecomeReplacementCharactersSoOffsetsStay() throws Exception {
        Abstract a = json.parse(bytes(
                "{\"id\": \"x\", \"title\": \"a\\ud800b\", \"abstract\": \"\\udc00 \\ud83d\\ude00 \\ude00\\ud83d\", "
                        + "\"journal\": \"J\\ud800\"}"));
        assertThat(a.getTitle()).isEqualTo("a\uFFFDb");
        assertThat(a.getAbstractText()).isEqualTo("\uFFFD \ud83d\ude00 \uFFFD\uFFFD");
        assertThat(a.getJournal()).isEqualTo("J\uFFFD");
    }

    @Test
    void unicodeSpacesAndInvisibleCharactersAreNoText() {
        for (String blank : List.of("\u00a0", "\u2007\u202f", "\u200b\ufeff", " \u00a0\\t\\n\u3000\u2028")) {
            String record = "{\"id\": \"x\", \"title\": \"" + blank + "\", \"abstract\": \"" + blank + "\"}";
            assertThatThrownBy(() -> json.parse(bytes(record)))
                    .as(record)
                    .hasMessageContaining("neither title nor abstract");
        }
        assertThatThrownBy(() -> json.parse(bytes("{\"id\": \"\u00a0\", \"title\": \"t\"}")))
                .hasMessageContaining("'id' is missing or blank");
    }
}
