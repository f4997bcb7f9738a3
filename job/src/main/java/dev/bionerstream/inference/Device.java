package dev.bionerstream.inference;

/** Where the model runs: {@code cpu} or {@code cuda:N}. */
public record Device(boolean cuda, int id) implements java.io.Serializable {
    public static final Device CPU = new Device(false, 0);

    public static Device parse(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        if (t.equals("cpu")) {
            return CPU;
        }
        if (t.equals("cuda") || t.equals("gpu")) {
            return new Device(true, 0);
        }
        if (t.startsWith("cuda:")) {
            try {
                int id = Integer.parseInt(t.substring(5));
                if (id >= 0) {
                    return new Device(true, id);
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
        }
        throw new IllegalArgumentException("device '" + text + "' is not cpu, cuda or cuda:N");
    }

    @Override
    public String toString() {
        return cuda ? "cuda:" + id : "cpu";
    }
}
