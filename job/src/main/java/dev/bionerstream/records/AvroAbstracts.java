package dev.bionerstream.records;

import dev.bionerstream.avro.Abstract;
import java.io.EOFException;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.util.Utf8;

/**
 * Binary Avro record -> {@link Abstract}; every way it can fail is an {@link InvalidRecordException}.
 *
 * <p>Bare binary Avro carries no writer schema, so it cannot be resolved against ours: producers
 * must write with the job's {@code Abstract} schema. A record of another version of it fails here
 * when its length differs (it ends early, or bytes are left over) and becomes a dead letter; one
 * whose fields happen to line up would be read as ours. Strings must be valid UTF-8, as in JSON.
 */
final class AvroAbstracts {
    private static final Schema SCHEMA = Abstract.getClassSchema();
    private final StrictUtf8Reader reader = new StrictUtf8Reader();
    private BinaryDecoder decoder;

    Abstract read(byte[] value) throws InvalidRecordException {
        try {
            // Avro allocates the length a string declares before reading it, and its own bound
            // (org.apache.avro.limits.string.maxLength) is about 2 GB. Skipping first proves every
            // declared length fits in the record, so reading allocates no more than the record's size.
            GenericDatumReader.skip(SCHEMA, decoder(value));
            BinaryDecoder in = decoder(value);
            Abstract a = reader.read(null, in);
            if (!in.isEnd()) {
                throw new InvalidRecordException(
                        "not a binary Avro Abstract: bytes after the record (written with another schema?)");
            }
            return a;
        } catch (EOFException e) {
            throw new InvalidRecordException(
                    "not a binary Avro Abstract: the record ends too early (truncated, a length beyond its end, or written with another schema)",
                    e);
        } catch (IOException | RuntimeException e) {
            throw new InvalidRecordException(
                    "not a binary Avro Abstract: " + (e.getMessage() == null ? e.toString() : e.getMessage()), e);
        }
    }

    private BinaryDecoder decoder(byte[] value) {
        decoder = DecoderFactory.get().binaryDecoder(value, decoder);
        return decoder;
    }

    /** Avro would decode invalid UTF-8 into U+FFFD silently. */
    private static final class StrictUtf8Reader extends SpecificDatumReader<Abstract> {
        StrictUtf8Reader() {
            super(SCHEMA, SCHEMA, slowReading());
        }

        /** Avro's fast reader builds its own string readers and would bypass {@link #readString}. */
        private static SpecificData slowReading() {
            SpecificData data = new SpecificData(Abstract.class.getClassLoader());
            data.setFastReaderEnabled(false);
            return data;
        }

        @Override
        protected Object readString(Object old, Schema expected, Decoder in) throws IOException {
            Utf8 raw = in.readString(null);
            return StrictUtf8.decode(raw.getBytes(), raw.getByteLength());
        }
    }
}
