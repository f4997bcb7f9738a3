package dev.bionerstream.engine;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the engine writes a gene's span. BC2GM, the corpus the model learnt genes from, often takes a
 * word around the gene into its span ("ACE gene", "APOE promoter", "D allele") and tags variants and
 * residues ("R114H", "Lys198Asn"); PubTator and the NCBI corpora (GNormPlus, NLM-Gene, BioRED,
 * tmVar3) write the gene alone and keep variants apart. A span convention is applied after decoding,
 * to the {@code gene} type only, the same way wherever the engine runs (the job, {@code extract},
 * {@code eval}); it is a function of the span's text, so it cannot make two runs differ.
 */
public enum GeneSpans {
    /**
     * The gene alone: a trailing "gene", "promoter", "allele", "mRNA", "transcript", "locus", "cDNA"
     * or "polymorphism" (and their plurals) is cut off the span, and a span that is a variant or a
     * residue ("R114H", "Lys198Asn", "p.Arg114His", "c.341A>G", "rs1801133", "Arg"), a term of
     * genetics that names no gene ("LOH", "SNP") or one character ("D allele") is no gene.
     */
    PUBTATOR,
    /** The spans the model decodes, as its training corpus (BC2GM) writes them. */
    AS_DECODED;

    static final String GENE = "gene";

    private static final Set<String> TRAILING = Set.of(
            "gene",
            "genes",
            "promoter",
            "promoters",
            "allele",
            "alleles",
            "mrna",
            "mrnas",
            "transcript",
            "transcripts",
            "locus",
            "loci",
            "cdna",
            "cdnas",
            "polymorphism",
            "polymorphisms");
    private static final String AMINO_ACID =
            "(?:Ala|Arg|Asn|Asp|Cys|Gln|Glu|Gly|His|Ile|Leu|Lys|Met|Phe|Pro|Ser|Thr|Trp|Tyr|Val|Ter|Sec|Pyl)";
    private static final Pattern NOT_A_GENE = Pattern.compile(String.join(
            "|",
            // a residue named alone; not Met, which is also the MET receptor's name
            "(?:Ala|Arg|Asn|Asp|Cys|Gln|Glu|Gly|His|Ile|Leu|Lys|Phe|Pro|Ser|Thr|Trp|Tyr|Val)",
            AMINO_ACID + "-?\\d+(?:" + AMINO_ACID + "|[*X]|fs|del|ins)?", // Lys198Asn, Arg114
            // R114H, V600E; two digits at least: E2F, C3G and H2A are genes
            "[ACDEFGHIKLMNPQRSTVWY]\\d{2,}[ACDEFGHIKLMNPQRSTVWY*X]",
            "[cgmnpr]\\.\\S+", // HGVS: c.341A>G, p.Arg114His
            "rs\\d+", // dbSNP
            "(?:LOH|SNPs?|CNVs?|indels?|STRs?|VNTRs?)"));
    private static final Pattern LAST_WORD = Pattern.compile("[\\s-]+(\\S+)$");

    /** A gene span {@code [start, end)} of {@code text} as this convention writes it; null when it is no gene. */
    public int[] apply(String type, String text, int start, int end) {
        if (this == AS_DECODED || !type.equals(GENE)) {
            return new int[] {start, end};
        }
        Matcher last = LAST_WORD.matcher(text.substring(start, end));
        while (last.find() && TRAILING.contains(last.group(1).toLowerCase(Locale.ROOT))) {
            end = start + last.start();
            last = LAST_WORD.matcher(text.substring(start, end));
        }
        String span = text.substring(start, end);
        // what is left of "D allele" is one letter: a name of the allele, not of the gene
        return span.strip().length() < 2 || NOT_A_GENE.matcher(span).matches() ? null : new int[] {start, end};
    }

    /** As the user writes it. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
