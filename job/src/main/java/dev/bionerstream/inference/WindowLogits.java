package dev.bionerstream.inference;

/**
 * Start and end logits of one window's context positions: {@code start[2k]} and
 * {@code start[2k + 1]} are the "not a start" / "start" logits of context piece {@code k}. A
 * presence gate window also has {@code presence}: per entity type, the highest presence logit of
 * its context pieces (null for the other windows).
 */
public record WindowLogits(float[] start, float[] end, float[] presence) {
    public WindowLogits(float[] start, float[] end) {
        this(start, end, null);
    }

    public int contextLength() {
        return start.length / 2;
    }

    public boolean isStart(int k) {
        return start[2 * k + 1] > start[2 * k]; // ties go to class 0, as torch.argmax
    }

    public boolean isEnd(int k) {
        return end[2 * k + 1] > end[2 * k];
    }

    public double startProbability(int k) {
        return sigmoid(start[2 * k + 1] - start[2 * k]);
    }

    public double endProbability(int k) {
        return sigmoid(end[2 * k + 1] - end[2 * k]);
    }

    private static double sigmoid(double x) {
        return 1.0 / (1.0 + Math.exp(-x));
    }
}
