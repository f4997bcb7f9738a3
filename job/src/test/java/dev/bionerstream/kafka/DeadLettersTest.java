package dev.bionerstream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DeadLetter;
import java.util.concurrent.CompletionException;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.formats.avro.typeutils.AvroSerializer;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class DeadLettersTest {
    static DeadLetter letter(Throwable error) {
        return DeadLetters.of(new byte[] {1}, "abstracts", 0, 7, DeadLetters.PARSE, error);
    }

    /**
     * The INFO line every submission logs, "Field DeadLetter#originalBytes will be processed as
     * GenericType", is Flink's field listing of the Avro record (AvroTypeInfo lists its fields as a
     * POJO's, and the bytes field's ByteBuffer is no POJO); the record itself is serialized whole by
     * Avro, also where generic types are refused: no Kryo (docs/guarantees.md).
     */
    @Test
    void aDeadLetterTravelsAsAvroThoughItsBytesFieldIsListedAsGeneric() {
        TypeInformation<DeadLetter> type = TypeInformation.of(DeadLetter.class);
        assertThat(type).isInstanceOf(AvroTypeInfo.class);
        assertThat(((PojoTypeInfo<DeadLetter>) type).getTypeAt("originalBytes")).isInstanceOf(GenericTypeInfo.class);
        SerializerConfigImpl noGenericTypes = new SerializerConfigImpl();
        noGenericTypes.setGenericTypes(false);
        assertThat(type.createSerializer(noGenericTypes)).isInstanceOf(AvroSerializer.class);
    }

    @Test
    void theReasonIsTheFirstCauseThatSaysSomething() {
        DeadLetter d = letter(new CompletionException(new IllegalStateException("model broken")));
        assertThat(d.getErrorClass()).isEqualTo(IllegalStateException.class.getName());
        assertThat(d.getErrorMessage()).isEqualTo("model broken");
    }

    @Test
    void aThrowableWithoutMessageStillGivesAReason() {
        assertThat(letter(new NullPointerException()).getErrorMessage()).isNotBlank();
        assertThat(letter(null).getErrorMessage()).isNotBlank();
    }

    @Test
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aCauseChainThatLoopsEnds() {
        RuntimeException a = new RuntimeException((String) null);
        RuntimeException b = new RuntimeException((String) null);
        a.initCause(b);
        b.initCause(a);
        assertThat(letter(a).getErrorMessage()).isNotBlank();
        assertThat(letter(new SelfCaused()).getErrorMessage()).isNotBlank();
    }

    @Test
    void aThrowableWhoseMessageFailsStillGivesAReason() {
        RuntimeException odd = new RuntimeException() {
            @Override
            public String getMessage() {
                throw new IllegalStateException("no message today");
            }
        };
        assertThat(letter(odd).getErrorMessage()).isNotBlank();
    }

    @Test
    void longMessagesAreCut() {
        String message = letter(new RuntimeException("x".repeat(1_000_000))).getErrorMessage();
        assertThat(message.length()).isLessThanOrEqualTo(DeadLetters.MAX_MESSAGE_CHARS);
    }

    /** A cause that is the throwable itself, which Throwable.initCause refuses but an override can give. */
    static final class SelfCaused extends RuntimeException {
        SelfCaused() {
            super((String) null);
        }

        @Override
        public synchronized Throwable getCause() {
            return this;
        }
    }
}
