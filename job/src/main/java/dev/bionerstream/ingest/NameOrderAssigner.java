package dev.bionerstream.ingest;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.assigners.FileSplitAssigner;

/**
 * Hands out files in name order. PubMed names its files in publication order (pubmed25n0001 ...
 * pubmed25n1275), and a revised citation must reach the topic after the version it replaces.
 */
final class NameOrderAssigner implements FileSplitAssigner {
    private final PriorityQueue<FileSourceSplit> splits = new PriorityQueue<>(
            Comparator.comparing((FileSourceSplit s) -> s.path().getName())
                    .thenComparing(s -> s.path().toString()));

    NameOrderAssigner(Collection<FileSourceSplit> initial) {
        splits.addAll(initial);
    }

    @Override
    public Optional<FileSourceSplit> getNext(String hostname) {
        return Optional.ofNullable(splits.poll());
    }

    @Override
    public void addSplits(Collection<FileSourceSplit> newSplits) {
        splits.addAll(newSplits);
    }

    @Override
    public Collection<FileSourceSplit> remainingSplits() {
        return List.copyOf(splits);
    }
}
