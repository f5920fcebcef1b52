/// What `crates import` says of a restore of crates' JSON export.
extension CollectionRestore.Outcome {
    /// The summary on standard output: what was restored (or would be, `dryRun`) and the
    /// lookups that wait.
    public func lines(file: String, dryRun: Bool) -> [String] {
        var lines = [
            "\(file): \(dryRun ? "would restore" : "restored") \(counted(records, "record")) and "
                + "\(counted(places, "place"))" + (discogsRows > 0 ? " with their Discogs links" : "")
                + ", ids and label codes as they were" + (dryRun ? "; nothing was written (--dry-run)." : ".")
        ]
        if waiting > 0, !dryRun {
            lines.append("\(counted(waiting, "lookup")) \(waiting == 1 ? "waits" : "wait") in the queue: `crates` looks them up.")
        }
        return lines
    }

    /// The warning on standard error when the file's Discogs links name records it does not
    /// hold; nil when none does.
    public func linksWarning(file: String) -> String? {
        let links = linksWithoutRecord
        guard links > 0 else { return nil }
        return "\(file): \(counted(links, "Discogs link")) \(links == 1 ? "names a record" : "name records") "
            + "this export does not hold (an export of an older crates cannot tell a copy deleted in crates from one the file "
            + "lost): kept as \(links == 1 ? "it is" : "they are"), and `crates sync` reports "
            + "\(links == 1 ? "it" : "them") but never removes \(links == 1 ? "its copy" : "their copies") from Discogs"
    }
}
