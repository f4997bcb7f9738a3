package dev.bionerstream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.avro.DeadLetter;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class DeadLettersTest {
    static DeadLetter letter(Throwable error) {
        return DeadLetters.of(new byte[] {1}, "abstracts", 0, 7, DeadLetters.PARSE, error);
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
