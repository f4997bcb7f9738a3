# Converts the R-serialized sources to the TSV files of this folder (see README.md).
# Usage: Rscript convert.R MESH_DIR SPECDATA_RDA LINNAEUS_DIR OUT_DIR
args <- commandArgs(trailingOnly = TRUE)
mesh_dir <- args[1]; spec_rda <- args[2]; linnaeus_dir <- args[3]; out <- args[4]
write_tsv <- function(x, file) {
  con <- file(file, open = "w", encoding = "UTF-8")
  write.table(x, con, sep = "\t", quote = FALSE, row.names = FALSE, na = "")
  close(con)
}
# MeSH 2024: tree numbers in C, D and F03 only; terms of those descriptors only.
trees <- as.data.frame(readRDS(file.path(mesh_dir, "data_mesh_trees.rds")))
trees <- trees[grepl("^(C|D|F03)", trees$tree_location), c("DescriptorUI", "tree_location")]
trees <- unique(trees[order(trees$DescriptorUI, trees$tree_location), ])
write_tsv(trees, file.path(out, "mesh-2024", "mesh2024-trees-C-D-F03.tsv"))
terms <- as.data.frame(readRDS(file.path(mesh_dir, "data_mesh_thesaurus.rds")))
terms <- terms[terms$DescriptorUI %in% trees$DescriptorUI, c("DescriptorUI", "DescriptorName", "TermName")]
terms$TermName <- gsub("[\t\r\n]", " ", terms$TermName)
terms <- unique(terms[order(terms$DescriptorUI, terms$TermName, method = "radix"), ])
write_tsv(terms, file.path(out, "mesh-2024", "mesh2024-terms-C-D-F03.tsv"))
# NCBI Taxonomy (GenomeInfoDbData specData): only the taxa named in the LINNAEUS files.
ids <- c()
for (f in c("species-light.tsv.gz", "species-proxies-light.tsv.gz", "species-frequency.tsv.gz")) {
  con <- gzfile(file.path(linnaeus_dir, f)); l <- readLines(con, encoding = "UTF-8", warn = FALSE); close(con)
  l <- l[grepl("^species:ncbi:[0-9]+\t", l)]
  ids <- c(ids, as.integer(sub("^species:ncbi:([0-9]+)\t.*$", "\\1", l)))
}
ids <- unique(ids)
load(spec_rda)
s <- specData[specData$tax_id %in% ids, ]
name <- ifelse(is.na(s$species), as.character(s$genus), paste(as.character(s$genus), s$species))
s <- unique(data.frame(tax_id = s$tax_id, name = gsub("[\t\r\n]", " ", name)))
s <- s[order(s$tax_id, s$name, method = "radix"), ]
write_tsv(s, file.path(out, "ncbi-taxonomy", "specData-linnaeus-taxa.tsv"))
# NCBI Taxonomy (GenomeInfoDbData specData): every taxon, but for the names no text writes as a species:
# placeholders of unnamed species and samples ("Bacillus sp. ABC12", "uncultured bacterium", "marine
# metagenome"), isolates ("Influenza A virus (A/chicken/Jiangsu/J3585/2014(H9))"), vectors and constructs;
# strains stay ("Vibrio cholerae V52": a text that writes the code means the strain).
a <- specData
aname <- ifelse(is.na(a$species), as.character(a$genus), paste(as.character(a$genus), a$species))
a <- unique(data.frame(tax_id = a$tax_id, name = gsub("[\t\r\n]", " ", aname)))
placeholder <- grepl(paste0("uncultured|environmental sample|metagenome|unidentified| clone | sp\\. | aff\\. | cf\\. ",
                            "| nr\\. |/|\\(|vector|construct|synthetic|isolate| str\\. |endosymbiont of| group | complex "),
                     a$name, ignore.case = TRUE, perl = TRUE) |
  grepl("bacterium [A-Z0-9]", a$name, perl = TRUE)  # "Alphaproteobacterium EK1" (case matters: Mycobacterium tuberculosis)
a <- a[!placeholder, ]
a <- a[order(a$tax_id, a$name, method = "radix"), ]
write_tsv(a, file.path(out, "ncbi-taxonomy", "specData-named-taxa.tsv"))
cat("named taxa:", length(unique(a$tax_id)), " rows:", nrow(a), "\n")
cat("taxa in LINNAEUS files:", length(ids), " with specData names:", length(unique(s$tax_id)), " rows:", nrow(s), "\n")
cat("MeSH descriptors:", length(unique(terms$DescriptorUI)), " term rows:", nrow(terms), " tree rows:", nrow(trees), "\n")
