package dev.bionerstream.cli;

import dev.bionerstream.pubmed.UpdateFileFetcher;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.flink.util.TimeUtils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Brings a directory of PubMed update files up to date; run it daily (cron, a Kubernetes CronJob). */
@Command(
        name = "fetch",
        mixinStandardHelpOptions = true,
        header = "Download new PubMed update files, checked against their .md5",
        description = {
            "Lists --url (default NCBI's PubMed update files), downloads the files --dir lacks, verifies each against its .md5, and exits 1 if one failed; the ingest job watching --dir picks them up."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./bioner fetch --dir /data/pubmed --contact you@your.org",
            "  ./bioner fetch --dir /data/pubmed --contact you@your.org --max-files 2"
        })
final class FetchCommand implements Callable<Integer> {
    @Option(names = "--dir", required = true, description = "the directory the ingest job watches")
    Path dir;

    @Option(
            names = "--contact",
            required = true,
            description = "your e-mail address, sent in the User-Agent as NCBI asks of every tool")
    String contact;

    @Option(
            names = "--url",
            defaultValue = "https://ftp.ncbi.nlm.nih.gov/pubmed/updatefiles/",
            description = "the listing of update files. Default: ${DEFAULT-VALUE}")
    URI url;

    @Option(
            names = "--delay",
            defaultValue = "1 s",
            description = "pause before every request. Default: ${DEFAULT-VALUE}")
    String delay;

    @Option(names = "--max-files", defaultValue = "-1", description = "stop after this many new files (default: all)")
    int maxFiles;

    @Override
    public Integer call() throws Exception {
        String version = FetchCommand.class.getPackage().getImplementationVersion();
        var fetcher = new UpdateFileFetcher(
                url, dir, TimeUtils.parseDuration(delay), contact, version == null ? "dev" : version);
        UpdateFileFetcher.Summary s = fetcher.run(maxFiles);
        s.downloaded().forEach(f -> System.out.println("fetched " + f));
        s.failed().forEach(f -> System.err.println("FAILED " + f));
        System.out.printf(
                "%d fetched, %d already present, %d failed%n",
                s.downloaded().size(), s.alreadyPresent(), s.failed().size());
        return s.failed().isEmpty() ? 0 : 1;
    }
}
