package dev.bionerstream.engine;

/**
 * A setting the engine was given and cannot apply to its bundle, or cannot read: the presence gate or
 * the corpora the types follow. The engine does not know what its caller calls the setting (an option,
 * a flag, a field): {@link #detail()} says what was given and why it fails, and the caller words it
 * with its own name for the setting.
 */
public final class RefusedSettingException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** Which setting was refused. */
    public enum Setting {
        /** The presence gate ({@link GateSetting}). */
        GATE("presence gate"),
        /** The corpus whose annotation conventions a type follows (type -> corpus). */
        CORPUS("corpus");

        private final String words;

        Setting(String words) {
            this.words = words;
        }
    }

    private final Setting setting;
    private final String detail;

    RefusedSettingException(Setting setting, String detail) {
        super(setting.words + " " + detail);
        this.setting = setting;
        this.detail = detail;
    }

    public Setting setting() {
        return setting;
    }

    /** What was given and why it fails, to follow the caller's name for the setting. */
    public String detail() {
        return detail;
    }
}
